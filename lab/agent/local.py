"""The real machine, as the harness's tools expect it: a workspace over one directory of the real
disk, and an async shell that runs command lines in it.

The tools of lesson 6 take a workspace `ws` (exists, read_text, write_text, append_text, listdir)
and a shell (run(command) -> (output, exit code), awaited since lesson 15). The course's own are
in memory (lab/stage/workspace.py, lab/stage/shell.py); these are the same five methods and the one method over
the real disk and a real /bin/sh.

Confinement: every path a tool names is resolved, symlinks included, and must land inside the
directory; anything else (../x, /etc/passwd, a link that points out) raises PermissionError, which
run_tool turns into an is_error result, never an escape. The agent's own folder, .agent/ (the
session log), is out of the tools' reach too. The shell cannot be confined that way: a command
line can name any path. It starts in the directory, without the API key in its environment, and is
stopped at a time limit; the gate (lesson 14) is what stands between the model and it.
"""

import asyncio
import errno
import os
import signal

PRIVATE = ".agent"            # the agent's own folder inside the directory: its session, its cache
COMMAND_SECONDS = 120.0       # a command line that runs longer is stopped
_write = os.write             # the one call that puts bytes on the disk (a test makes the disk full)


class LocalWorkspace:
    """The directory `root` of the real disk as a workspace. Paths are relative to it (an absolute
    path inside it is accepted too). `private` names top-level entries the tools may not touch."""

    def __init__(self, root, private=(PRIVATE,)):
        self.root = os.path.realpath(root)
        self.private = tuple(private)

    def __repr__(self):
        return f"LocalWorkspace({self.root!r})"

    def resolve(self, path):
        """The real, absolute path that `path` names, or PermissionError when it lies outside the
        directory (after following every symlink) or in the agent's own folder."""
        if not isinstance(path, str):
            raise TypeError(f"A path must be a string, not {type(path).__name__}.")
        if path == "" or "\0" in path:
            raise ValueError(f"{path!r} is not a path.")
        full = os.path.realpath(os.path.join(self.root, os.path.expanduser(path) if path.startswith("~") else path))
        if os.path.commonpath([self.root, full]) != self.root:
            raise PermissionError(f"{path} is outside the working directory {self.root}: "
                                  "the agent's tools read and write only inside it.")
        inside = os.path.relpath(full, self.root).split(os.sep)[0]
        if inside in self.private:
            raise PermissionError(f"{path} is in {inside}/, the agent's own folder (its session "
                                  "log): its tools leave it alone.")
        return full

    def exists(self, path):
        return os.path.exists(self.resolve(path))

    def read_text(self, path):
        full = self.resolve(path)
        if os.path.isdir(full):
            raise IsADirectoryError(f"Cannot read {path}: it is a directory, not a file.")
        try:
            with open(full, encoding="utf-8", newline="") as file:
                return file.read()
        except FileNotFoundError:
            raise FileNotFoundError(f"Cannot read {path}: there is no such file.") from None
        except UnicodeDecodeError:
            raise ValueError(f"Cannot read {path}: it is not UTF-8 text.") from None

    def write_text(self, path, text):
        full = self.resolve(path)
        if not isinstance(text, str):
            raise TypeError(f"Cannot write {path}: the text must be a string, not {type(text).__name__}.")
        if os.path.isdir(full):
            raise IsADirectoryError(f"Cannot write {path}: it is a directory, not a file.")
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="") as file:
            file.write(text)

    def append_text(self, path, text):
        """Add `text` at the end of the file, all of it or none of it: when the disk refuses part
        way (ENOSPC), the file is cut back to the length it had, so a log never keeps half a line."""
        full = self.resolve(path)
        if not isinstance(text, str):
            raise TypeError(f"Cannot append to {path}: the text must be a string, not {type(text).__name__}.")
        os.makedirs(os.path.dirname(full), exist_ok=True)
        data = text.encode("utf-8")
        fd = os.open(full, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            start = os.fstat(fd).st_size
            try:
                written = 0
                while written < len(data):
                    written += _write(fd, data[written:])
                os.fsync(fd)
            except OSError:
                try:
                    os.ftruncate(fd, start)
                except OSError:
                    pass
                raise
        finally:
            os.close(fd)

    def listdir(self, path="."):
        full = self.resolve(path)
        if not os.path.isdir(full):
            if os.path.exists(full):
                raise NotADirectoryError(f"Cannot list {path}: it is a file, not a directory.")
            raise FileNotFoundError(f"Cannot list {path}: there is no such directory.")
        names = sorted(os.listdir(full))
        if full == self.root:
            names = [name for name in names if name not in self.private]
        return names


class LocalShell:
    """An async shell over /bin/sh: run(command) runs the line in the directory `root` and returns
    (what it printed, stdout and stderr together, exit code). The environment is this process's,
    less the names in `hidden` (the API key's variable). Stdin is empty. A command still running
    after `seconds` is killed, with all it started, and says so; a cancelled run (Ctrl-C) kills it
    too before the cancellation goes on up."""

    def __init__(self, root, seconds=COMMAND_SECONDS, hidden=()):
        self.root, self.seconds = os.path.realpath(root), seconds
        self.hidden = set(hidden)

    def environment(self):
        return {name: value for name, value in os.environ.items() if name not in self.hidden}

    async def run(self, command):
        if not isinstance(command, str):
            raise TypeError(f"A command line must be a string, not {type(command).__name__}.")
        process = await asyncio.create_subprocess_shell(
            command, cwd=self.root, env=self.environment(), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True)   # its own process group: stopped as a whole
        try:
            output, _ = await asyncio.wait_for(process.communicate(), self.seconds)
        except TimeoutError:
            await _stop(process)
            return (f"[The command was stopped after {self.seconds:g} seconds, the agent's time "
                    "limit for one command.]"), 124
        except BaseException:         # cancelled: the run was interrupted, so is the command
            await _stop(process)
            raise
        return output.decode("utf-8", errors="replace"), process.returncode


async def _stop(process):
    """Kill `process` and its process group, and reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):
        try:
            process.kill()
        except ProcessLookupError:
            pass
    try:
        await asyncio.shield(process.wait())
    except BaseException:
        pass


def full_disk(error):
    """True when `error` says the disk (or the user's quota) is full."""
    return isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)
