"""An in-memory disk for the harness's tools to work on.

Tools never call `open`: they are handed a workspace and go through its five methods. That keeps
every lesson's files in the notebook, lets a cell count what an agent read, and lets a cell
"restart the process" without touching the real disk. Lesson 11 adds two accidents a real disk
has: a power cut that tears a write (cut_power) and a disk that runs out of room (fill_disk).
"""

import errno
import posixpath


class PowerCut(BaseException):
    """The stage's power cut: the process that was writing is gone. It is a BaseException, as
    KeyboardInterrupt is, so that no `except Exception` in a harness can catch it and carry on
    as if the machine were still running. ws.reboot() gives the new process.

    .path, .landed, .wanted  the file the torn write was for, the bytes of it that reached the
                             disk, and the bytes the whole write would have had (None, None,
                             None when the cut was met by a process that had already lost power)"""

    def __init__(self, message, path=None, landed=None, wanted=None):
        super().__init__(message)
        self.path, self.landed, self.wanted = path, landed, wanted


def _clean(path, what="path"):
    """`path` in one canonical spelling ("./a.py" and "a.py" are one file), checked to be a string."""
    if not isinstance(path, str):
        raise TypeError(f"A workspace {what} must be a string, not {type(path).__name__}.")
    if path == "":
        raise ValueError(f"A workspace {what} must not be empty.")
    return posixpath.normpath(path)


def _clean_new(path, what="path"):
    """`path` cleaned, and checked to stay inside the workspace, for a file about to be created."""
    clean = _clean(path, what)
    if clean.startswith("/") or clean == ".." or clean.startswith("../") or clean == ".":
        raise ValueError(f"Cannot create {path}: workspace paths are relative and stay inside it, "
                         "like 'src/app.py'.")
    return clean


def _byte_count(value, method):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{method}(after_bytes=...) takes a whole number of bytes, 0 or more, "
                         f"not {value!r}.")
    return value


class Workspace:
    """A disk held in memory: a mapping from file paths ("src/a.py") to their text.

    Workspace(files=None) starts from a copy of `files` ({path: text}), so the dict you pass in is
    never changed by what the agent writes. Directories are implied by the paths in it.

    .reads is the list of paths read through read_text, in order, one entry per successful read,
    each in its canonical spelling.
    It belongs to this process: reboot() gives a workspace over the same disk with no reads yet.

    Two accidents can be arranged, both measured in UTF-8 bytes:
    .cut_power(after_bytes=N) the next write_text or append_text of this process puts only its
                  first N bytes on the disk (a character cut in two is left out whole), and then
                  the process is gone: PowerCut is raised, and every later call on this workspace
                  raises it again. ws.reboot() is the new process over the same disk.
    .fill_disk(after_bytes=N) the disk takes N more bytes and then is full: a write that needs
                  more raises OSError(errno.ENOSPC). An append_text that does not fit writes
                  nothing. A write_text that does not fit leaves the file empty, because
                  replacing a file begins by emptying it, as open(path, "w") does. Our
                  simplification: a real disk may take part of an append before it refuses.
                  The room belongs to the disk, so it is the same after reboot().
    """

    def __init__(self, files=None):
        self._disk = {}
        for path, text in dict(files or {}).items():
            if not isinstance(text, str):
                raise TypeError(f"The contents of {path!r} must be a string, not {type(text).__name__}.")
            self._disk[_clean_new(path)] = text
        self.reads = []
        self._room = {"bytes": None}  # shared with reboot()'s workspace: None means no limit
        self._cut_after = None        # bytes the next write gets before the power goes
        self._lost = None             # why this process is gone, once the power has been cut

    def __repr__(self):
        # No object address: notebook outputs must be the same on every run.
        return f"Workspace({len(self._disk)} files)"

    def _is_dir(self, path):
        if path == ".":
            return True
        prefix = path + "/"
        return any(name.startswith(prefix) for name in self._disk)

    def _check_parents(self, path):
        """Refuse a path that runs through a file, as a real disk does ("a.py/b" when a.py is a file)."""
        parent = posixpath.dirname(path)
        while parent:
            if parent in self._disk:
                raise NotADirectoryError(f"Cannot use {path}: {parent} is a file, not a directory.")
            parent = posixpath.dirname(parent)

    def exists(self, path):
        """True if `path` names a file or a directory in the workspace."""
        self._alive()
        path = _clean(path)
        return path in self._disk or self._is_dir(path)

    def read_text(self, path):
        """The whole text of the file `path`, recorded in .reads.

        Raises FileNotFoundError if there is no such file, IsADirectoryError if it is a directory.
        """
        self._alive()
        clean = _clean(path)
        if clean not in self._disk:
            if self._is_dir(clean):
                raise IsADirectoryError(f"Cannot read {path}: it is a directory, not a file.")
            raise FileNotFoundError(f"Cannot read {path}: there is no such file in the workspace.")
        self.reads.append(clean)  # canonical, so "./a.py" and "a.py" count as one file
        return self._disk[clean]

    def write_text(self, path, text):
        """Create the file `path`, or replace all of it, with `text`."""
        self._alive()
        clean = _clean_new(path)
        if not isinstance(text, str):
            raise TypeError(f"Cannot write {path}: the text must be a string, not {type(text).__name__}.")
        if self._is_dir(clean):
            raise IsADirectoryError(f"Cannot write {path}: it is a directory, not a file.")
        self._check_parents(clean)
        self._store(path, clean, text, append=False)

    def append_text(self, path, text):
        """Add `text` to the end of the file `path`, creating the file if it is not there."""
        self._alive()
        clean = _clean_new(path)
        if not isinstance(text, str):
            raise TypeError(f"Cannot append to {path}: the text must be a string, not {type(text).__name__}.")
        if self._is_dir(clean):
            raise IsADirectoryError(f"Cannot append to {path}: it is a directory, not a file.")
        self._check_parents(clean)
        self._store(path, clean, text, append=True)

    def listdir(self, path="."):
        """The names directly inside the directory `path` (files and directories), sorted.

        Raises FileNotFoundError if there is no such directory, NotADirectoryError for a file.
        """
        self._alive()
        clean = _clean(path, "directory")
        if clean in self._disk:
            raise NotADirectoryError(f"Cannot list {path}: it is a file, not a directory.")
        if not self._is_dir(clean):
            raise FileNotFoundError(f"Cannot list {path}: there is no such directory in the workspace.")
        prefix = "" if clean == "." else clean + "/"
        names = {name[len(prefix):].split("/", 1)[0] for name in self._disk if name.startswith(prefix)}
        return sorted(names)

    def reboot(self):
        """What a new process would see: a workspace over this same disk, and none of this one's memory.

        The files are shared, not copied, because it is the same disk: a write through either
        workspace is seen by both. What lived only in this process, such as .reads, starts empty.
        """
        fresh = Workspace()
        fresh._disk, fresh._room = self._disk, self._room
        return fresh

    def cut_power(self, after_bytes):
        """Arrange for the power to fail during the next write_text or append_text of this
        process: its first `after_bytes` bytes reach the disk, then PowerCut is raised."""
        self._cut_after = _byte_count(after_bytes, "cut_power")

    def fill_disk(self, after_bytes):
        """Leave the disk room for `after_bytes` more bytes (None: no limit again). A write that
        needs more raises OSError(errno.ENOSPC); see the class docstring for what it leaves."""
        self._room["bytes"] = None if after_bytes is None else _byte_count(after_bytes, "fill_disk")

    def _alive(self):
        if self._lost is not None:
            raise PowerCut(f"This process lost its power {self._lost}; use the workspace that "
                           "ws.reboot() returns.")

    def _store(self, path, clean, text, append):
        """Put `text` on the disk, at the end of the file or in place of it, unless the disk is
        full or the power fails on the way."""
        old = self._disk.get(clean, "")
        data = text.encode("utf-8")
        freed = 0 if append else len(old.encode("utf-8"))
        room = self._room["bytes"]
        if room is not None and len(data) > room + freed:
            if not append:  # replacing a file empties it before a byte of the new text is written
                self._disk[clean] = ""
                self._room["bytes"] = room + freed
            raise OSError(errno.ENOSPC, "No space left on device", path)
        wanted = len(data)
        if self._cut_after is not None:
            text = data[:self._cut_after].decode("utf-8", errors="ignore")
        self._disk[clean] = (old + text) if append else text
        landed = len(text.encode("utf-8"))
        if room is not None:
            self._room["bytes"] = room + freed - landed
        if self._cut_after is not None:
            self._cut_after = None
            self._lost = f"while writing {path}"
            raise PowerCut(f"The power went out while writing {path}: {landed} of {wanted} bytes "
                           "reached the disk. ws.reboot() starts a new process over the same disk.",
                           path, landed, wanted)
