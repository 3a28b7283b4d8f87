"""What a traceback shows of the reference harness: its lines with the solution markers blanked.

The package's files mark each learner's part with ### BEGIN SOLUTION and ### END SOLUTION, for the
course's generators (lab/course/starters.py reads the files themselves, never through here). A learner
whose code fails inside the reference, in a notebook, gets a traceback that quotes the lines around
the failure, and nbgrader's markers in it would say "solution" where the learner's own harness.py
has none. hide_markers() puts every file of the package into linecache, which tracebacks, IPython
and inspect read lines from, with each marker line made blank: the line numbers stay true, and the
entry stays valid while the file on disk is unchanged (linecache.checkcache compares its size and
modification time)."""

import linecache
from pathlib import Path

import harness

MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


def shown(text):
    """`text`'s lines as a traceback should quote them: a marker line becomes an empty one."""
    return ["\n" if line.strip() in MARKERS else line for line in text.splitlines(keepends=True)]


def hide_markers():
    """Make linecache serve the harness package's files, earlier/ and later/ included, without
    their solution markers. Safe to call again; a file that cannot be read is left to linecache."""
    package = Path(harness.__file__).parent
    for path in sorted(package.rglob("*.py")):
        try:
            text, status = path.read_text(encoding="utf-8"), path.stat()
        except OSError:
            continue
        # The name a code object carries is the path it was imported by, resolved or not.
        for name in {str(path), str(path.resolve())}:
            linecache.cache[name] = (status.st_size, status.st_mtime, shown(text), name)
