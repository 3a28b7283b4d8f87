"""JupyterLab and Chromium for the browser tests: started the way a learner starts them, stopped
whatever happens, and never waited on forever.

Three things live here, each of which either works or raises `SetupFailed` with a reason that
names what went wrong and ends with the last lines of the log that explains it:

- `ensure_chromium()`: Debian's `chromium` at /usr/bin/chromium, installed with apt-get when it is
  missing (never a downloaded browser build, never `playwright install`).
- `JupyterLab`: the command the README's `make lab` runs (printed by `make lab
  ARGS=--print-command`, so the two cannot drift apart), from the repository's root, with its
  --notebook-dir pointed at a directory of the test's own, on a free loopback port, with a
  token-less test config and JupyterLab settings of its own (windowing off, no news). Every
  Jupyter directory (config, data, runtime, settings, workspaces, IPython) is a fresh one under
  the server's home, so nothing on the machine leaks in and nothing the test does leaks out.
- `launch_chromium()`: headless Chromium through Python Playwright with the flags a closed network
  needs and a fresh profile.
"""

import fcntl
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VENV = REPO / ".venv"
JUPYTER = VENV / "bin" / "jupyter"
CHROMIUM = "/usr/bin/chromium"

# What a closed network and a throwaway machine need (research notes, section 5). Playwright adds
# --no-sandbox itself unless chromium_sandbox=True; it is here too so the list says it all.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",   # containers often give /dev/shm 64 MB; Chromium then crashes tabs
]

# The only JupyterLab settings the test changes from what a learner gets, and why.
TEST_SETTINGS = {
    # JupyterLab 4.6 defaults to "contentVisibility" (4.2-4.5: "full"), which leaves cells out of
    # the page, or unrendered, until they are scrolled to. "none" attaches every cell, so a rung
    # at the bottom of the lesson is tested as surely as one at the top.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    # No "check for updates" / news toasts over the notebook, and no request that would fail in a
    # closed network and log an error to the console.
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "checkForUpdates": False, "fetchNews": "false"},
}

# The token-less server config: Galata's (jupyterlab.galata.configure_jupyter_server), minus its
# fixed port and its test-helper extension, so that what runs is what a learner runs. It is the
# user-level jupyter_server_config.py of the server's own JUPYTER_CONFIG_DIR, so any --config that
# `make lab` passes is still read, and wins where both set something.
SERVER_CONFIG = """\
# Written by tests/browser/labserver.py. For tests only: it switches off every protection.
c.IdentityProvider.token = ""
c.ServerApp.password = ""
c.ServerApp.disable_check_xsrf = True
c.ServerApp.open_browser = False
c.ServerApp.ip = "127.0.0.1"
c.ServerApp.port_retries = 0
c.ServerApp.allow_root = True                  # CI containers often run as root
c.LabApp.expose_app_in_browser = True          # window.jupyterapp, for waits and for reading state
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"
c.LabApp.news_url = None
"""


def make_lab_command():
    """The command `make lab` runs, as a list: `make lab ARGS=--print-command` has start.py (what
    `make lab` runs) print its JupyterLab command instead of running it, installing nothing.

    Relative paths in it are relative to the repository's root, where the server is started."""
    try:
        done = subprocess.run(["make", "--no-print-directory", "-s", "lab", "ARGS=--print-command"],
                              cwd=REPO, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SetupFailed(f"could not ask make what `make lab` runs: {exc}") from None
    lines = [l for l in done.stdout.splitlines() if " lab" in l and "jupyter" in l]
    if done.returncode != 0 or not lines:
        raise SetupFailed("`make lab ARGS=--print-command` shows no `jupyter lab` command (exit "
                          f"code {done.returncode}):\n{done.stdout}{done.stderr}")
    command = shlex.split(lines[-1])
    command[0] = str(REPO / command[0])            # .venv/bin/jupyter, from the repository
    if not any(a.startswith("--notebook-dir=") for a in command):
        raise SetupFailed(f"`make lab` runs {lines[-1]!r}, which has no --notebook-dir=; the "
                          "browser test needs one to point at its copy of the lesson.")
    return command


class SetupFailed(RuntimeError):
    """Chromium or JupyterLab could not be made ready. The message says why."""


def tail(path, lines=40):
    """The last `lines` lines of the file at `path`, indented, for a failure message."""
    try:
        text = Path(path).read_text(errors="replace")
    except OSError as exc:
        return f"    (no log: {exc})"
    kept = text.splitlines()[-lines:] or ["(the log is empty)"]
    return "\n".join("    " + line for line in kept)


def _run_logged(command, log, timeout, env=None):
    """Run `command`, appending its output to `log`; SetupFailed with the log's tail if it fails."""
    with open(log, "a") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        try:
            done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, timeout=timeout,
                                  env=env, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise SetupFailed(f"`{' '.join(command)}` took more than {timeout} s. "
                              f"Last lines of {log}:\n{tail(log)}") from None
        except OSError as exc:
            raise SetupFailed(f"`{' '.join(command)}` could not start: {exc}") from None
    if done.returncode != 0:
        raise SetupFailed(f"`{' '.join(command)}` exited with code {done.returncode}. "
                          f"Last lines of {log}:\n{tail(log)}")


def _apt_update(apt, log, timeout, env):
    """`apt-get update`, tried again while another apt holds the package lists' lock, which
    DPkg::Lock::Timeout does not wait for; any other failure is SetupFailed at once."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return _run_logged(apt + ["update"], log, timeout, env)
        except SetupFailed:
            if "Could not get lock" not in tail(log, 5) or time.monotonic() > deadline:
                raise
            time.sleep(3)


def ensure_chromium(log, timeout=900):
    """The path of Debian's Chromium, installed with apt-get first if it is not there.

    Needs root or password-less sudo. Raises SetupFailed, with apt's last lines, if it cannot."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    if shutil.which("apt-get") is None:
        raise SetupFailed(f"{CHROMIUM} is missing and this machine has no apt-get to install it "
                          "with. The browser test needs Debian's (or Ubuntu's) chromium package.")
    if os.geteuid() == 0:
        sudo = []
    elif shutil.which("sudo"):
        sudo = ["sudo", "-n"]
    else:
        raise SetupFailed(f"{CHROMIUM} is missing, and installing it needs root: run "
                          "`apt-get install -y chromium` as root, then the tests again.")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    # Both test processes of one run (and any other run on this machine) may want chromium at
    # once: they take turns, and whoever comes second finds it installed.
    with open(Path(tempfile.gettempdir()) / "harness-course-apt.lock", "w") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)
        if os.access(CHROMIUM, os.X_OK):
            return CHROMIUM
        # A fresh machine may still be running apt itself (its own set-up): wait for its locks
        # rather than fail on them, and look again afterwards, in case that apt installed chromium.
        apt = sudo + ["apt-get", "-o", f"DPkg::Lock::Timeout={timeout}"]
        _apt_update(apt, log, timeout, env)
        if os.access(CHROMIUM, os.X_OK):
            return CHROMIUM
        _run_logged(apt + ["install", "-y", "--no-install-recommends", "chromium"], log, timeout,
                    env)
    if not os.access(CHROMIUM, os.X_OK):
        raise SetupFailed(f"apt-get installed chromium but {CHROMIUM} is not there. "
                          f"Last lines of {log}:\n{tail(log)}")
    return CHROMIUM


# jupyter_server's words, logged before it stops, when its port is taken at its check or its bind
PORT_TAKEN = "is already in use"


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JupyterLab:
    """One JupyterLab serving `root`, until stop(): `make lab`'s command, run from the
    repository's root (or `program`, run from `cwd`, for a JupyterLab started some other way).

    JupyterLab(root, home).start(timeout) returns when /api/status answers and the lab page is
    served, or raises SetupFailed with the reason and the server log's last lines: the process
    exited, or the time ran out (the process is stopped first). `home` holds the config, the
    settings, every Jupyter directory and the log (`home/jupyterlab.log`). `settings` are the
    JupyterLab user settings, `extra_config` lines added to the server config, `extra_args`
    added to the command.
    """

    def __init__(self, root, home, settings=TEST_SETTINGS, extra_args=(), extra_config="",
                 port=None, cwd=REPO, program=None):
        self.root, self.home = Path(root), Path(home)
        self.settings, self.extra_args = settings, list(extra_args)
        self.extra_config = extra_config
        self.log = self.home / "jupyterlab.log"
        self.port, self.cwd, self.program = port, Path(cwd), program
        self.process = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def _prepare(self):
        for name in ("config", "data", "runtime", "settings", "workspaces", "ipython"):
            (self.home / name).mkdir(parents=True, exist_ok=True)
        for relative, values in self.settings.items():
            path = self.home / "settings" / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values, indent=2) + "\n")
        (self.home / "config" / "jupyter_server_config.py").write_text(
            SERVER_CONFIG + self.extra_config)
        env = dict(os.environ)
        env.update({
            "JUPYTER_CONFIG_DIR": str(self.home / "config"),
            "JUPYTER_DATA_DIR": str(self.home / "data"),
            "JUPYTER_RUNTIME_DIR": str(self.home / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(self.home / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(self.home / "workspaces"),
            "IPYTHONDIR": str(self.home / "ipython"),
            "JUPYTER_PLATFORM_DIRS": "1",
            "PYTHONUNBUFFERED": "1",
        })
        # The kernel must be the .venv's Python, as under `make lab`, even if pytest was started
        # from another one: put the .venv first on PATH and drop any other virtualenv.
        env["PATH"] = f"{VENV / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(VENV)
        env.pop("PYTHONPATH", None)
        env.pop("LAB_RUNGS_DIR", None)    # answers are kept beside each notebook, as for learners
        env.pop("NBGRADER_EXECUTION", None)
        return env

    def command(self):
        """`make lab`'s command (or `program`), on the test's directory and port."""
        base = self.program or make_lab_command()
        command = [f"--notebook-dir={self.root}" if a.startswith("--notebook-dir=") else a
                   for a in base]
        # port_retries=0: on a port taken since it was picked, the server stops instead of
        # serving on another port than the test's URL names; start() then picks again
        return command + ["--no-browser", f"--ServerApp.port={self.port}",
                          "--ServerApp.port_retries=0", *self.extra_args]

    def start(self, timeout=60, tries=3):
        if not JUPYTER.exists():
            raise SetupFailed(f"{JUPYTER} is missing: build the environment first (`make venv`).")
        chosen = self.port is None
        for attempt in range(1, tries + 1):
            try:
                return self._start_once(timeout)
            except SetupFailed:
                # another process (a client's ephemeral port, a sibling test's server) took the
                # free port between free_port() and the server's bind: pick another one
                if not (chosen and attempt < tries and PORT_TAKEN in self.log.read_text()):
                    raise
                self.port = None

    def _start_once(self, timeout):
        env = self._prepare()
        self.port = self.port or free_port()
        command = self.command()
        out = open(self.log, "w")
        out.write(f"$ cd {self.cwd} && {shlex.join(command)}\n")
        out.flush()
        try:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, cwd=self.cwd, env=env,
                                            start_new_session=True)
        except OSError as exc:
            raise SetupFailed(f"could not run {shlex.join(command)}: {exc}") from None
        finally:
            out.close()
        deadline = time.monotonic() + timeout
        reason = None
        while True:
            code = self.process.poll()
            if code is not None:
                reason = f"JupyterLab exited with code {code} before it answered"
                break
            if self._ready():
                return self
            if time.monotonic() > deadline:
                reason = f"JupyterLab did not answer on {self.url} within {timeout} s"
                break
            time.sleep(0.25)
        self.stop()
        raise SetupFailed(f"{reason}. Last lines of {self.log}:\n{tail(self.log)}")

    def _ready(self):
        try:
            with urllib.request.urlopen(f"{self.url}/api/status", timeout=2) as response:
                if response.status != 200:
                    return False
            with urllib.request.urlopen(f"{self.url}/lab", timeout=5) as response:
                return response.status == 200
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            return False

    def stop(self, grace=10):
        """Stop the server and its kernels: SIGTERM to its process group, then SIGKILL."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait(5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def launch_chromium(playwright, profile, log, executable=CHROMIUM, timeout=30):
    """A fresh headless Chromium browser context, or SetupFailed with the reason.

    `profile` must be a new, empty directory: it becomes --user-data-dir. If Chromium fails,
    Playwright's error (which holds the browser's own last output) is written to `log`."""
    try:
        return playwright.chromium.launch_persistent_context(
            str(profile), executable_path=executable, headless=True, args=CHROMIUM_ARGS,
            timeout=timeout * 1000, viewport={"width": 1280, "height": 900})
    except Exception as exc:    # playwright raises its own Error and TimeoutError
        text = str(exc)
        Path(log).write_text(text)
        raise SetupFailed(f"Chromium ({executable}) did not start within {timeout} s: "
                          f"{type(exc).__name__}. Last lines of its output:\n{tail(log)}") from None


if __name__ == "__main__":     # by hand: python tests/browser/labserver.py NOTEBOOK_DIR HOME_DIR
    lab = JupyterLab(sys.argv[1], sys.argv[2]).start()
    print("serving", lab.url, "log", lab.log)
    try:
        signal.pause()
    finally:
        lab.stop()
