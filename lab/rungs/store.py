"""The answer store: one JSON file a lesson, `.rungs/lesson12.json` relative to the kernel's
working directory (LAB_RUNGS_DIR moves the folder; lesson 3's is lesson03.json, and a file an
older version named lesson3.json is renamed to that the first time it is used), holding what the
learner has done:

    {"format": 1, "lesson": 12,
     "rungs": {"what-is-sent": {"choice": 1}, ...},    each question's state, by its id
     "hints": {"1": 2},                                 how many levels of each lab's ladder are open
     "labs":  {"1": true}}                              which labs have passed their checks

Promises, each of which a test in tests/notebooks/test_rung_store.py holds it to:

- An answer is never lost to a damaged file. A file that is not the JSON above (cut off by a crash
  or a full disk, or edited by hand) is moved aside to lesson12.json.damaged-N, N being the first
  number not taken, so no earlier damaged copy is overwritten; every whole entry that can still
  be read from it is written back; the learner is told in one sentence.
- Two kernels on one lesson do not wipe each other's answers. A save takes a lock file
  (lesson12.json.lock, made with O_CREAT | O_EXCL, so it works wherever Python does; one left by
  a writer that died is broken after store_writing.LOCK_STALE seconds), reads the file afresh,
  changes only the entry saved, writes a temporary file and moves it into place with os.replace.
  A reader therefore sees the old file or the new one, never half of one.
- A folder that cannot be written (read-only, full) costs the learner only persistence: they are
  told once, in one sentence; every answer given is kept in memory for as long as the kernel runs,
  shown as given, and written with the next save that succeeds.
- The file carries its format number. Files without one (format 0, before the number existed)
  have the same shape and are read. A file of a newer format is never written over: the learner
  is told to update the course, and the answers they give meanwhile are kept in memory.

- A file that was written once and has gone (deleted, moved) is not taken silently for a lesson
  never begun: the first look at it after that says so, in one sentence, once
  (lesson12.json.started, beside it, remembers that it was written).
- Notices about something over and done (a damaged file set aside, a file gone) are shown once;
  notices about a state that lasts (a folder that cannot be written) are shown while it lasts.
- Each save brings the course's start page beside the answers folder up to date, if there is
  one (lab/learner/startpage.py), so the learner's progress on it follows their answers.

Nothing here raises OSError to the caller: the notebook keeps working whatever the disk does.

The file itself is read, and what can be read of a damaged one salvaged, in store_reading.py;
it is locked, written whole and set aside in store_writing.py. This module decides what is read
and written when, keeps what this kernel knows that the file may not, and tells the learner.
"""

import contextlib
import os
from pathlib import Path

from .store_reading import FORMAT, SECTIONS, count, empty, read
from .store_writing import locked, set_aside, write

# Per file (by absolute path), what this kernel knows that the file may not: answers whose save
# has not succeeded yet, and the sentences the learner has been told. A kernel restart empties it.
_SESSIONS = {}


class _Session:
    def __init__(self):
        self.pending = {section: {} for section in SECTIONS}
        self.blocked = None      # why this file must not be written to (newer format, unreadable)
        self.notices = {}        # kind -> the sentence about it, shown on every widget
        self.said = set()        # sentences already printed


def name(lesson):
    """The answers file's name: lesson03.json for lesson 3, as the lessons' folders are named."""
    return f"lesson{int(lesson):02d}.json"


def path(lesson):
    """The JSON file that holds lesson `lesson`'s answers."""
    return Path(os.environ.get("LAB_RUNGS_DIR") or ".rungs") / name(lesson)


def _adopt_old_name(lesson, folder=None):
    """Rename an answers file that an earlier version of the course named without the leading
    zero (lesson3.json) to today's name, with its mark, unless today's is there already."""
    new = Path(folder) / name(lesson) if folder else path(lesson)
    old = new.with_name(f"lesson{int(lesson)}.json")
    if old == new or not old.exists() or new.exists():
        return
    with contextlib.suppress(OSError):
        os.rename(old, new)
        if old.with_name(old.name + ".started").exists():
            os.rename(old.with_name(old.name + ".started"), _started(new))


def _session(file):
    return _SESSIONS.setdefault(os.path.abspath(file), _Session())


def _tell(session, kind, sentence):
    """Keep `sentence` as the notice of its kind, and print it the first time it is said: it
    lands in the output of the cell being run (a click's output goes to the log instead, which
    is why widgets also show the notices)."""
    session.notices[kind] = sentence
    if sentence not in session.said:
        session.said.add(sentence)
        print(sentence)


# Notices about something that has happened (and is over) are shown once, by the first widget
# that asks; the others describe a state that lasts, and every widget shows them while it does.
ONCE = ("damaged", "gone")


def notice(lesson):
    """What the learner should know about the lesson's answers file now, in sentences, or ""."""
    session = _SESSIONS.get(os.path.abspath(path(lesson)))
    if not session:
        return ""
    said = " ".join(session.notices.values())
    for kind in ONCE:
        session.notices.pop(kind, None)
    return said


def peek(lesson, folder):
    """What the answers file of `lesson` in `folder` holds, read only: nothing is moved, written
    or told, and a damaged file gives what can be read of it. For the start page."""
    file = Path(folder) / name(lesson)
    status, data = read(file if file.exists() else file.with_name(f"lesson{int(lesson)}.json"))
    return {section: dict(data.get(section, {})) for section in SECTIONS}


_AFTER_WRITE = []


def after_write(hook):
    """Call hook(file) after every answers file this store writes (the start page keeps itself
    current this way: lab/learner/startpage.py, whose refresh never raises OSError)."""
    _AFTER_WRITE.append(hook)


def _after_write(file):
    for hook in list(_AFTER_WRITE):
        hook(file)


def _overlay(data, pending):
    for section in SECTIONS:
        data[section].update(pending[section])
    return data


def _sync(lesson, session):
    """Under the lock: read the file afresh, set a damaged one aside, add what this kernel has
    pending, write it back. Returns the data written. Raises OSError if the disk refuses."""
    file = path(lesson)
    file.parent.mkdir(parents=True, exist_ok=True)
    with locked(file):
        status, data = read(file)
        if status in ("newer", "unreadable"):
            _block(lesson, session, status, data)
            return _overlay(empty(), session.pending)
        if status == "damaged":
            aside = set_aside(file)
            _tell(session, "damaged",
                  f"Your answers file {file} was damaged, so it was moved to {aside.name} "
                  f"beside it, and the {count(data)} answers that could still be read from it "
                  "are kept.")
        if status == "missing" and _started(file).exists():
            _gone(lesson, session)
        if status == "damaged" or any(session.pending.values()):
            write(file, _overlay(data, session.pending), lesson)
            if not _started(file).exists():
                _started(file).touch()
            _after_write(file)
        for section in SECTIONS:
            session.pending[section].clear()
        session.notices.pop("write", None)
        return data


def _started(file):
    """The mark left beside an answers file once it has been written, so that a file that
    disappears later is noticed rather than taken for a lesson never begun."""
    return file.with_name(file.name + ".started")


def _gone(lesson, session):
    """Tell the learner, once, that the lesson's answers file has gone, and forget that it was."""
    file = path(lesson)
    _tell(session, "gone",
          f"Your answers file {file} is not there any more, so lesson {int(lesson)} starts again "
          "with no question answered and no lab passed: if you did not delete it to start over, "
          f"put it back (a copy named {file.name}.damaged-N beside it is an older one).")
    with contextlib.suppress(OSError):
        os.unlink(_started(file))


def _block(lesson, session, status, data):
    file = path(lesson)
    if status == "newer":
        reason = (f"Your answers file {file} was written by a newer version of the course "
                  f"(format {data['format']}; this one reads format {FORMAT} and older), so it "
                  "is left untouched and the answers you give now are kept only while this "
                  "kernel runs: update the course to use it.")
    else:
        reason = (f"Your answers file {file} cannot be read ({data['error']}), so it is left "
                  "untouched and the answers you give now are kept only while this kernel runs.")
    session.blocked = status
    _tell(session, status, reason)


def _cannot_write(lesson, session, error):
    why = error.strerror or str(error)
    _tell(session, "write",
          f"Your answers cannot be saved in {path(lesson)} ({why}), so they are kept only while "
          "this kernel runs: once the folder can be written to again (space freed, or write "
          "permission given), your next answer saves them all.")


# ---------------------------------------------------------------------------------------------
# The two things the rest of the course does.

def load(lesson):
    """Everything stored for `lesson`, with this kernel's unsaved answers laid over it, as
    {"rungs": {...}, "hints": {...}, "labs": {...}}. A damaged file is set aside and what could
    be read of it written back (or, if it cannot be written, kept in memory)."""
    _adopt_old_name(lesson)
    file = path(lesson)
    session = _session(file)
    status, data = read(file)
    if status in ("newer", "unreadable"):
        _block(lesson, session, status, data)
        data = empty()
    elif status == "missing" and _started(file).exists():
        _gone(lesson, session)
    elif status == "damaged" and not session.blocked:
        try:
            data = _sync(lesson, session)
        except OSError as error:
            # What could be read stays in memory, to be written with the next save that works.
            for section in SECTIONS:
                for key, value in data[section].items():
                    session.pending[section].setdefault(key, value)
            _tell(session, "write",
                  f"Your answers file {path(lesson)} is damaged and cannot be replaced "
                  f"({error.strerror or error}), so it is left as it is, and the "
                  f"{count(data)} answers that could be read from it are kept only while this "
                  "kernel runs.")
    return _overlay({section: dict(data[section]) for section in SECTIONS}, session.pending)


def put(lesson, section, key, value):
    """Store `value` as entry `key` of `section` ("rungs", "hints" or "labs") for `lesson`,
    without touching any other entry, and whatever the disk does: if the file cannot be written,
    the value is kept in memory and the learner is told."""
    if section not in SECTIONS:
        raise ValueError(f"the answer store has sections {', '.join(SECTIONS)}, not {section!r}")
    _adopt_old_name(lesson)
    session = _session(path(lesson))
    session.pending[section][str(key)] = value
    if session.blocked:
        return
    try:
        _sync(lesson, session)
    except OSError as error:
        _cannot_write(lesson, session, error)
