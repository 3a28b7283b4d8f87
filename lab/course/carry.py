"""Carry your own harness forward: lesson N's starter, with everything you wrote in earlier lessons
taken from your own harness.py wherever it still passes the tests of the lesson that asked for it.

    python -m lab starter 13 --from my_harness.py -o harness.py

What is carried, and how it is judged:

- Each definition the learner wrote (a gap or spec of an earlier lesson, or of an earlier lab of
  this one) is judged against the lab of the lesson that last changed it, in a harness that is
  otherwise that lesson's reference, solved: a lesson 1 `user_message` is tried with lesson 1's
  `run_agent`, never with the file's lesson 3 one. Several names asked for by one lab are judged
  together, and one by one when together they fail, so one wrong name does not cost the others.
- The learner's own words where the course hands over a line for them to word (a given
  definition whose syllabus note says it is theirs: `SYSTEM`) are kept when they are still a
  string.
- Definitions the course does not have (the learner's helpers) and the learner's imports are kept
  as written, so the functions that use them still work.
- Every other name of the starter is the reference's. A gap of the lab the starter opens is left
  open, and the report says the learner's earlier version of it stays in their file; a name a
  later lesson rewrites and hands over as given is that lesson's, and the report says so.

The report says, for each name the learner wrote, "yours" or "the reference" and why. It goes to
standard error; the file goes to `-o FILE` or standard output.
"""

import ast
import contextlib
import hashlib
import io
import os
import re
import tempfile
from pathlib import Path
from typing import NamedTuple

from harness import syllabus
from lab import lab_check, lessons
from lab.course import starters
from lab.course.starters import Stage, StarterError


# Judgements already made in this process, by the lab and the exact file judged: carrying one
# file forward lesson after lesson asks the same question many times.
_JUDGED = {}


class Choice(NamedTuple):
    name: str
    source: str      # "yours" or "reference"
    why: str


# ---------------------------------------------------------------------------------------------
# Reading the learner's file.

class Theirs(NamedTuple):
    units: dict      # {full name: text} of every definition in the file
    imports: list    # the file's import lines


def read(path):
    """The definitions and imports of the learner's file at `path`, or StarterError with one
    sentence saying what is wrong with it (missing, empty, not Python)."""
    try:
        source = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StarterError(f"{path} cannot be read: {error}") from None
    return read_text(source, path)


def read_text(source, path="harness.py"):
    """What read() finds, in the text `source` of a file named `path`."""
    name = os.path.basename(path)
    if not source.strip():
        raise StarterError(f"{name} is empty, so there is nothing of yours to carry: if it was the "
                           "target of a `>` in the same command, the shell emptied it before the "
                           "command ran; give the output file with -o instead")
    try:
        pieces = starters._split(source)
    except SyntaxError as error:
        raise StarterError(f"{path} does not parse (line {error.lineno}: {error.msg}): fix it, or "
                           "start from the plain starter") from None
    except StarterError as error:
        raise StarterError(f"{path} cannot be read as a harness: {error}") from None
    units = {unit.name: unit.text for kind, unit in pieces if kind == "unit"}
    imports = [line for kind, unit in pieces if kind == "import" for line in unit.text.splitlines()]
    return Theirs(units, imports)


def _helpers(theirs):
    """{name: text} of the learner's definitions that the course's harness has no row for."""
    return {name: text for name, text in theirs.units.items()
            if name not in syllabus.UNITS and name.partition(".")[0] not in syllabus.UNITS}


def _with_extras(text, theirs):
    """`text` (a whole harness.py) with the learner's imports that it lacks at its top, and the
    learner's helpers at its end."""
    lines = text.splitlines()
    missing = [line for line in theirs.imports if line.strip() and line not in lines]
    helpers = _helpers(theirs)
    if missing:
        at = 0
        while at < len(lines) and lines[at].startswith(("import ", "from ")):
            at += 1
        lines[at:at] = missing
    out = "\n".join(lines).rstrip("\n")
    for helper in helpers.values():
        out += "\n\n\n" + helper.rstrip("\n")
    return out + "\n"


# ---------------------------------------------------------------------------------------------
# What a starter holds of the learner's earlier work, and judging it.

def carried(stage):
    """{(lesson, lab): [full names]}: the learner-written names that `stage`'s starter holds as
    earlier work, grouped by the lesson and lab whose tests judge them."""
    now = stage.key()
    groups = {}
    for name, steps in syllabus.UNITS.items():
        past = [s for s in steps if Stage(s.lesson, s.lab).key() <= now]
        if not past:
            continue
        step = past[-1]
        if step.kind == "given" or (step.lesson, step.lab) == (stage.lesson, stage.lab):
            continue
        groups.setdefault((step.lesson, step.lab), []).append(name)
    return groups


def worded(stage):
    """The given names of `stage`'s starter whose words are the learner's (the syllabus note of
    the step that hands them over says they are theirs), in the harness's order."""
    now = stage.key()
    found = []
    for name, steps in syllabus.UNITS.items():
        past = [s for s in steps if Stage(s.lesson, s.lab).key() <= now]
        if past and past[-1].kind == "given" and "yours" in past[-1].note:
            found.append(name)
    return found


def reopened(stage):
    """The names the lab `stage` opens as gaps that the learner wrote in an earlier lesson."""
    now = stage.key()
    found = []
    for name, steps in syllabus.UNITS.items():
        here = [s for s in steps if (s.lesson, s.lab) == (stage.lesson, stage.lab) and s.kind != "given"]
        before = [s for s in steps if Stage(s.lesson, s.lab).key() < now and s.kind != "given"]
        if here and before:
            found.append(name)
    return found


def superseded(stage):
    """{name: lesson}: the names the learner wrote in an earlier lesson that a later lesson, by
    `stage`, rewrites and hands over as given."""
    now = stage.key()
    found = {}
    for name, steps in syllabus.UNITS.items():
        past = [s for s in steps if Stage(s.lesson, s.lab).key() <= now]
        if past and past[-1].kind == "given" and any(s.kind != "given" for s in past):
            found[name] = past[-1].lesson
    return found


def _first_failure(output):
    """The first failing test's line of lab_check's report, without its FAIL and lab columns."""
    for line in output.splitlines():
        text = line.strip()
        if text.startswith("FAIL") or "not started" in text or "cannot" in text:
            return re.sub(r"^FAIL\s+lab \d+\s+", "", text)
    return (output.strip().splitlines() or ["no test ran"])[-1]


def _judge(text, lesson, lab, timeout):
    """"" if the harness `text` passes lab `lab` of `lesson`, else a sentence saying why not."""
    if lesson not in lessons.written():
        return f"lesson {lesson}'s tests are not written yet, so your version could not be checked"
    key = (lesson, lab, hashlib.sha256(text.encode()).hexdigest())
    if key in _JUDGED:
        return _JUDGED[key]
    # lab_check's own code, run here: the learner's file runs in the worker process it starts,
    # never in this one (a process of its own for lab_check as well cost a start of Python and
    # of lab a judgment, most of a starter's time)
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory(prefix="carry-") as folder:
        path = os.path.join(folder, "harness.py")
        with open(path, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = lab_check.main(["--harness", path, "--lesson", str(lesson), "--lab", str(lab),
                                     "--timeout", str(timeout)])
    if status == 0:
        said = ""
    elif status == 2:
        said = f"lesson {lesson}'s check could not run on it: {err.getvalue().strip()}"
    else:
        said = f"it fails lesson {lesson}'s lab {lab}: {_first_failure(out.getvalue())}"
    _JUDGED[key] = said
    return said


def _try(theirs, lesson, lab, names, timeout):
    """"" if the learner's `names` pass lab `lab` of `lesson` in that lab's reference, solved."""
    own = {name: theirs.units[name] for name in names}
    text = starters.text_at(Stage(lesson, lab), solved=True, own=own)
    return _judge(_with_extras(text, theirs), lesson, lab, timeout)


def _is_words(text, name):
    """Whether the learner's `text` of `name` still assigns a string to it."""
    try:
        node = ast.parse(text).body[-1]
    except (SyntaxError, IndexError):
        return False
    value = getattr(node, "value", None)
    targets = getattr(node, "targets", None) or [getattr(node, "target", None)]
    return (isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(value, ast.Constant)
            and isinstance(value.value, str) and bool(value.value.strip())
            and any(isinstance(t, ast.Name) and t.id == name for t in targets))


def text_from(stage, path, timeout=10.0):
    """(text, [Choice]): the starter of `stage` with the learner's own work from `path` wherever
    it passes its lesson's tests, and a Choice for every name the learner wrote."""
    theirs = read(path)
    file = os.path.basename(path)
    own, report = {}, []
    for (lesson, lab), names in sorted(carried(stage).items()):
        present = [n for n in names if n in theirs.units]
        for name in names:
            if name not in theirs.units:
                report.append(Choice(name, "reference", f"{file} has no {name}"))
        if not present:
            continue
        problem = _try(theirs, lesson, lab, present, timeout)
        verdicts = {name: problem for name in present}
        if problem and len(present) > 1:
            verdicts = {name: _try(theirs, lesson, lab, [name], timeout) for name in present}
        for name in present:
            if verdicts[name]:
                report.append(Choice(name, "reference", verdicts[name]))
            else:
                own[name] = theirs.units[name]
                report.append(Choice(name, "yours", f"it passes lesson {lesson}'s lab {lab}"))
    for name in worded(stage):
        if name not in theirs.units:
            report.append(Choice(name, "reference", f"{file} has no {name}"))
        elif theirs.units[name].strip() == starters.definition(name, lesson=stage.lesson).strip():
            report.append(Choice(name, "reference", "your file has the course's own words"))
        elif _is_words(theirs.units[name], name):
            own[name] = theirs.units[name]
            report.append(Choice(name, "yours", "its words are yours to choose"))
        else:
            report.append(Choice(name, "reference", f"yours no longer sets {name} to a string"))
    for name, lesson in superseded(stage).items():
        if name in theirs.units:
            report.append(Choice(name, "reference", f"lesson {lesson} hands over a new version of it, "
                                                    "written for you"))
    for name in reopened(stage):
        if name in theirs.units:
            report.append(Choice(name, "reference",
                                 f"lesson {stage.lesson}'s lab {stage.lab or 1} asks you to write it "
                                 f"again, so its gap is open; your earlier version stays in {file}"))
    for name in _helpers(theirs):
        report.append(Choice(name, "yours", "the course's harness has no such name, so it is kept "
                                            "as you wrote it"))
    for name in theirs.units:
        if name not in syllabus.UNITS and name.partition(".")[0] in syllabus.UNITS:
            report.append(Choice(name, "reference", f"a method of your own in the course's class "
                                                    f"{name.partition('.')[0]} is not carried; it "
                                                    f"stays in {file}"))
    return _with_extras(starters.text_at(stage, own=own), theirs), report


def describe(report):
    """The report as lines for a person."""
    return [f"{c.name}: {'yours' if c.source == 'yours' else 'the reference'} ({c.why})"
            for c in report]
