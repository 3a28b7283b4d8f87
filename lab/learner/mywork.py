"""The learner's own copy of the course: one notebook per written lesson, gaps open, in a folder
that belongs to the learner (mywork/ at the repository's root, which git ignores).

    python -m lab.learner.mywork [FOLDER]     add what FOLDER lacks; print one line per notebook added

`python start.py` and `make lab` run this before they open JupyterLab on the folder.

The contract, which tests/platform/test_mywork.py holds it to:

- Each lesson that `lab.lessons.written()` lists and that has a master notebook gets the
  learner's edition of that notebook (`lab.lessons.build.learner_copy`: nbgrader's own
  preprocessors, so no solution, no hidden test and no saved output), under the master's file name.
- A notebook already in the folder is never written to, whatever is in it: the learner's edits
  survive every later run, and so does everything else in the folder (`.rungs/`, where the rungs
  keep their answers, and any file of the learner's own). `git pull` cannot touch the folder
  either, because git ignores it.
- A lesson added to the course later (a `git pull` brings its notebook) appears on the next run.
- START.md, the course's start page (lab/learner/startpage.py), is the one file written again on every
  run: it is the course's, not the learner's, and its map gains each new lesson.
- A notebook the learner deleted comes back, fresh, on the next run. That is the way to start a
  lesson over; the rung answers in `.rungs/` are kept, so delete the lesson's answers file as
  well (`.rungs/lesson03.json` for lesson 3) to clear those too.
"""

import sys
from pathlib import Path

import nbformat

from lab import lessons
from lab.learner import startpage
from lab.lessons import build

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "mywork"


def refresh(folder=FOLDER):
    """Add the learner's edition of every written lesson that `folder` has no notebook for.

    Returns (added, unbuilt): the paths written, and the numbers of written lessons that have no
    master notebook yet (nothing to copy; `python -m lab build N` makes one). Never overwrites,
    renames or deletes anything in `folder`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    added, unbuilt = [], []
    for lesson in lessons.written():
        master = build.notebook_path(lesson)
        if not master.is_file():
            unbuilt.append(lesson)
            continue
        target = folder / master.name
        if target.exists():
            continue
        nb = build.learner_copy(nbformat.read(master, as_version=4))
        text = nbformat.writes(nb) + "\n"
        # "x" creates the file or fails if it exists, so a notebook that appeared since the check
        # above (a second `make lab` at the same moment) is still never overwritten.
        try:
            with open(target, "x", encoding="utf-8", newline="\n") as out:
                out.write(text)
        except FileExistsError:
            continue
        added.append(target)
    startpage.write(folder)   # the course's own page, brought up to date every time
    return added, unbuilt


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print("usage: python -m lab.learner.mywork [FOLDER]  (default: mywork/ at the repository's root)",
              file=sys.stderr)
        return 2
    folder = Path(argv[0]) if argv else FOLDER
    if folder.exists() and not folder.is_dir():
        print(f"{folder} is a file, not a folder: move it away or name another folder.",
              file=sys.stderr)
        return 2
    added, unbuilt = refresh(folder)
    for path in added:
        print(f"added {path.name} to {folder.name}/ (your copy: gaps open, no solutions)")
    for lesson in unbuilt:
        print(f"lesson {lesson} is not ready yet (it has no notebook); a later run adds it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
