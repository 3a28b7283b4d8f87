"""Helpers for the agent's tests: the agent run as a real process, `python -m lab agent`, against
a lab.ChatServer on 127.0.0.1 that the test starts and stops. A person at a terminal is played
through a pseudo-terminal (the `pty` module): the y/N answers, typing during a run, Ctrl-C. A run
with no terminal has standard input from /dev/null.

Nothing here sleeps for a fixed time: a test waits for a line of the agent's output, or for a file,
with a deadline, and a bash command that must still be running when the test acts waits for a file
the test makes (never_ending() / release())."""

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEY_ENV = "AGENT_TEST_KEY"
KEY = "sk-test-0123456789abcdefSECRET"    # the test's API key: it must show up nowhere
WAIT = 30.0                                # the longest any one wait may take


def agent_command(*args):
    return [sys.executable, "-m", "lab", "agent", *map(str, args)]


def environment(key=KEY):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONUNBUFFERED="1")
    env.pop("AGENT_API_KEY", None)
    if key is None:
        env.pop(KEY_ENV, None)
    else:
        env[KEY_ENV] = key
    return env


def options(server, directory, *more, harness="reference"):
    return [str(a) for a in ["--harness", harness, "--base-url", server.url, "--model", server.model,
                             "--dir", directory, "--api-key-env", KEY_ENV, *more]]


def run(args, key=KEY, timeout=60, lines=None):
    """The agent run to its end with no terminal: standard input is /dev/null, or a pipe that
    holds `lines` (each one more prompt)."""
    given = {"input": "".join(line + "\n" for line in lines)} if lines else {"stdin": subprocess.DEVNULL}
    return subprocess.run(agent_command(*args), cwd=ROOT, env=environment(key), text=True,
                          capture_output=True, timeout=timeout, **given)


def never_ending(directory):
    """A command line that keeps running until release(directory) (or 15 s): a run still going."""
    return ("echo $$ > running.pid; "
            "for i in $(seq 300); do [ -f release.flag ] && break; sleep 0.05; done; "
            "echo released")


def started(directory, timeout=WAIT):
    """Wait until the command never_ending() gave is running in `directory`."""
    path, deadline = Path(directory, "running.pid"), time.monotonic() + timeout
    while not (path.exists() and path.read_text().strip()):
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.02)


def still_running(directory):
    """Whether the shell that never_ending() started in `directory` is still alive."""
    pid = int(Path(directory, "running.pid").read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def release(directory):
    Path(directory, "release.flag").write_text("")


def _own_terminal():
    """In the child: a session of its own whose controlling terminal is the pseudo-terminal on
    its standard input, so that Ctrl-C typed there is SIGINT to it, as in a real terminal."""
    import fcntl
    import termios
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """The agent on a pseudo-terminal: what it prints (stdout and stderr) is read back as text."""

    def __init__(self, args, key=KEY):
        import pty
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(agent_command(*args), cwd=ROOT, env=environment(key),
                                        stdin=slave, stdout=slave, stderr=slave,
                                        preexec_fn=_own_terminal)
        os.close(slave)
        self.output = ""
        self.seen = 0              # expect() looks for text after what it found last

    def read(self, timeout):
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:           # the agent is gone and the terminal closed
            return None
        if not data:
            return None
        self.output += data.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return True

    def expect(self, text, timeout=WAIT):
        """Wait until `text` appears after the last thing expected; fail with the output if not."""
        deadline = time.monotonic() + timeout
        while True:
            at = self.output.find(text, self.seen)
            if at >= 0:
                self.seen = at + len(text)
                return
            left = deadline - time.monotonic()
            if left <= 0 or self.read(min(left, 0.5)) is None and text not in self.output[self.seen:]:
                raise AssertionError(f"{text!r} never came; the agent printed:\n{self.output}")

    def type(self, line):
        os.write(self.master, line.encode() + b"\n")

    def ctrl_c(self):
        os.write(self.master, b"\x03")

    def kill(self):
        self.process.kill()
        self.process.wait(timeout=WAIT)

    def wait(self, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self.read(0.2)
        while self.read(0.05):
            pass
        return self.process.wait(timeout=max(0.1, deadline - time.monotonic()))

    def close(self):
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(timeout=WAIT)
        os.close(self.master)


@pytest.fixture
def terminal():
    """terminal(args) starts the agent on a pseudo-terminal; it is stopped after the test."""
    started = []

    def start(args, key=KEY):
        started.append(Terminal(args, key))
        return started[-1]
    yield start
    for t in started:
        t.close()


@pytest.fixture
def workdir(tmp_path):
    folder = tmp_path / "work"
    folder.mkdir()
    yield folder
    release(folder)                # a command still waiting ends now


def session_entries(directory):
    """Every line of the session file, parsed: a line that is not JSON fails the test."""
    path = Path(directory, ".agent", "session.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def messages_sent(server, n=-1):
    """The messages of request `n` the server received."""
    return server.requests[n]["messages"]


def everything_written(directory):
    """The text of every file under `directory`, the agent's own folder included."""
    found = ""
    for path in Path(directory).rglob("*"):
        if path.is_file():
            found += path.read_text(encoding="utf-8", errors="replace")
    return found
