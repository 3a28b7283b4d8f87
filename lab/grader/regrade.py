"""Whether a recorded grade still holds: what it was computed against besides the submission
(the check cells and their points, the release, the lesson's tests, the grader's code, the
sandbox's limits, the learner's extension), kept in its done marker and compared on the next
run."""

import hashlib
import json
from pathlib import Path

from lab.grader import nbgrader_ext, verdict


# What a recorded grade was computed against, beside the submission itself: change any of them
# and the grade no longer says what the check cells now say, so the submission is graded again.
AGAINST = {
    "check cells": "its check cells, their code or their points, changed",
    "release": "the release changed",
    "lab tests": "the lab tests changed",
    "grader": "the grader changed",
    "limits": "the sandbox's time or memory limits changed",
    "extension": "the learner's extension changed",
}


def _digest(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _files_digest(folder):
    """A hash of the files in `folder` that a grade depends on: not Python's bytecode caches,
    which any process that imports a lesson writes beside it at a time of its own (a grade
    would otherwise count as stale once a kernel had drawn a lesson's figure)."""
    h = hashlib.sha256()
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file() and not _cache(p.relative_to(folder))):
        h.update(str(path.relative_to(folder)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _cache(relative):
    return "__pycache__" in relative.parts or relative.suffix in (".pyc", ".pyo")


def against(root, assignment, books, limits):
    """{part: digest} of everything a grade of `assignment` depends on besides the submission:
    the gradebook's check cells (source and points) and solution ids, the released files, the
    lesson's own code (its tests), the rest of the grader's code, and the sandbox's `limits`
    ({"timeout", "test_seconds", "memory_mb"}: a test failed at 10 s may pass at 20)."""
    mine = {key: book for key, book in books.items() if key[1] == assignment}
    lessons_dir = Path(__file__).resolve().parents[1] / "lessons"
    tests = {}
    for notebook, _ in mine:
        try:
            folder = lessons_dir / f"lesson{nbgrader_ext.lesson_of(notebook):02d}"
        except ValueError:
            continue
        if folder.is_dir():
            tests[notebook] = _files_digest(folder)
    release = Path(root, "release", assignment)
    return {
        "check cells": _digest(sorted([list(key), book["checks"], book["solutions"]] for key, book in mine.items())),
        "release": _files_digest(release) if release.is_dir() else "",
        "lab tests": _digest(tests),
        "grader": _digest([verdict.VERSION, verdict.code_digest(lessons_dir)]),
        "limits": _digest(limits),
    }


def changed(marker, s):
    """Why a recorded grade no longer holds ("" when it does), from its done marker."""
    try:
        done = json.loads(marker.read_text())
    except ValueError:
        return "its record could not be read"
    if done.get("digest") != s.digest():
        return "the submission changed"
    then = done.get("against") or {}
    reasons = [why for part, why in AGAINST.items() if then.get(part) != s.against.get(part)]
    return "; ".join(reasons)
