"""An in-memory disk for the harness's tools to work on.

Tools never call `open`: they are handed a workspace and go through its five methods. That keeps
every lesson's files in the notebook, lets a cell count what an agent read, and lets a cell
"restart the process" without touching the real disk.
"""

import posixpath


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


class Workspace:
    """A disk held in memory: a mapping from file paths ("src/a.py") to their text.

    Workspace(files=None) starts from a copy of `files` ({path: text}), so the dict you pass in is
    never changed by what the agent writes. Directories are implied by the paths in it.

    .reads is the list of paths read through read_text, in order, one entry per successful read,
    each in its canonical spelling.
    It belongs to this process: reboot() gives a workspace over the same disk with no reads yet.
    """

    def __init__(self, files=None):
        self._disk = {}
        for path, text in dict(files or {}).items():
            if not isinstance(text, str):
                raise TypeError(f"The contents of {path!r} must be a string, not {type(text).__name__}.")
            self._disk[_clean_new(path)] = text
        self.reads = []

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
        path = _clean(path)
        return path in self._disk or self._is_dir(path)

    def read_text(self, path):
        """The whole text of the file `path`, recorded in .reads.

        Raises FileNotFoundError if there is no such file, IsADirectoryError if it is a directory.
        """
        clean = _clean(path)
        if clean not in self._disk:
            if self._is_dir(clean):
                raise IsADirectoryError(f"Cannot read {path}: it is a directory, not a file.")
            raise FileNotFoundError(f"Cannot read {path}: there is no such file in the workspace.")
        self.reads.append(clean)  # canonical, so "./a.py" and "a.py" count as one file
        return self._disk[clean]

    def write_text(self, path, text):
        """Create the file `path`, or replace all of it, with `text`."""
        clean = _clean_new(path)
        if not isinstance(text, str):
            raise TypeError(f"Cannot write {path}: the text must be a string, not {type(text).__name__}.")
        if self._is_dir(clean):
            raise IsADirectoryError(f"Cannot write {path}: it is a directory, not a file.")
        self._check_parents(clean)
        self._disk[clean] = text

    def append_text(self, path, text):
        """Add `text` to the end of the file `path`, creating the file if it is not there."""
        clean = _clean_new(path)
        if not isinstance(text, str):
            raise TypeError(f"Cannot append to {path}: the text must be a string, not {type(text).__name__}.")
        if self._is_dir(clean):
            raise IsADirectoryError(f"Cannot append to {path}: it is a directory, not a file.")
        self._check_parents(clean)
        self._disk[clean] = self._disk.get(clean, "") + text

    def listdir(self, path="."):
        """The names directly inside the directory `path` (files and directories), sorted.

        Raises FileNotFoundError if there is no such directory, NotADirectoryError for a file.
        """
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
        fresh._disk = self._disk
        return fresh
