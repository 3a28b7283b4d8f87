"""The lessons, one folder each: lab/lessons/lessonNN/ is everything lesson NN has of its own.

    lessonNN/__init__.py   TITLE, NOTEBOOK, the questions (RUNGS), the hint ladders (HINTS), and
                           the lesson's expected facts (sample scores and the like)
    lessonNN/lesson.md     the text its notebook is generated from (see build.py)
    lessonNN/checks.py     its lab tests
    lessonNN/...           whatever else only this lesson uses: stage props, figures, wrong answers

A lesson exists because its folder does: nothing keeps a list of lesson numbers by hand.
`python -m lab.lessons build 12` makes notebooks/12-....ipynb from the folder and runs it.
"""

import importlib
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_FOLDER = re.compile(r"lesson(\d\d)$")

# The plan's titles (research syllabus), for the lessons the course has not written yet as well
# as those it has: the start page's map and `python -m lab starter N` name a planned lesson by them.
PLANNED = {1: "Who said what", 2: "A likely story", 3: "Until it stops asking", 4: "Failure is news",
           5: "Brakes", 6: "The firehose", 7: "Running commentary", 8: "One pen",
           9: "A word in edgeways", 10: "Loose ends", 11: "Pull the plug",
           12: "Memory that outlives the process", 13: "The briefing", 14: "Someone else's words",
           15: "Meanwhile", 16: "Lost in translation"}


def written():
    """The numbers of the lessons the course has, in order: those with a folder and a lesson.md."""
    found = []
    for path in HERE.iterdir():
        match = _FOLDER.match(path.name)
        if match and (path / "lesson.md").is_file() and (path / "__init__.py").is_file():
            found.append(int(match.group(1)))
    return sorted(found)


class NoSuchLesson(LookupError):
    """A lesson number the course has no folder for; the message says which lessons exist."""


def folder(lesson):
    """lab/lessons/lessonNN, the place of everything lesson `lesson` has of its own."""
    return HERE / f"lesson{int(lesson):02d}"


def load(lesson, part=None):
    """The lesson's package (its data), or one of its modules: load(12, "checks")."""
    name = f"lab.lessons.lesson{int(lesson):02d}" + (f".{part}" if part else "")
    if name in sys.modules:   # loaded already, so it exists: no need to list the folders again
        return sys.modules[name]
    if int(lesson) not in written():
        have = ", ".join(str(n) for n in written()) or "none"
        raise NoSuchLesson(f"there is no lesson {lesson}: the course has lessons {have}")
    return importlib.import_module(name)
