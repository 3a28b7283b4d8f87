"""Carry your own harness forward: lesson N's starter, with the parts you wrote in earlier lessons
taken from your own harness.py wherever they still pass the tests of the lesson that asked for them.

    python -m lab starter 13 --from my_harness.py > harness.py

Each definition the learner wrote in an earlier lesson (or an earlier lab of this one) is taken
from their file when that lab's tests pass on it. Otherwise the reference's stands in its place,
and the report says why: the file has no such definition, the lab's tests fail on it (naming the
first failing test), or that lesson's tests are not written. The report goes to standard error, the
file to standard output, so `> harness.py` keeps only the file.
"""

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

from harness import syllabus
from lab import lessons, starters
from lab.starters import Stage, StarterError

LAB_CHECK = Path(__file__).resolve().parent / "lab_check.py"


class Choice(NamedTuple):
    name: str
    source: str      # "yours" or "reference"
    why: str


def _units(path):
    """{full name: text} of the definitions in the learner's file."""
    try:
        source = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StarterError(f"{path} cannot be read: {error}") from None
    try:
        pieces = starters._split(source)
    except SyntaxError as error:
        raise StarterError(f"{path} does not parse (line {error.lineno}: {error.msg}): fix it, or "
                           "start from the plain starter") from None
    except StarterError as error:
        raise StarterError(f"{path} cannot be read as a harness: {error}") from None
    return {unit.name: unit.text for kind, unit in pieces if kind == "unit"}


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


def _first_failure(output):
    """The first failing test's line of lab_check's report, without its FAIL and lab columns."""
    for line in output.splitlines():
        text = line.strip()
        if text.startswith("FAIL") or "not started" in text or "cannot" in text:
            return re.sub(r"^FAIL\s+lab \d+\s+", "", text)
    return (output.strip().splitlines() or ["no test ran"])[-1]


def _judge(path, lesson, lab, timeout):
    """"" if the file passes lab `lab` of `lesson`, else a sentence saying why not."""
    if lesson not in lessons.written():
        return f"lesson {lesson}'s tests are not written yet, so your version could not be checked"
    done = subprocess.run([sys.executable, str(LAB_CHECK), "--harness", str(path), "--lesson", str(lesson),
                           "--lab", str(lab), "--timeout", str(timeout)],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          cwd=os.path.dirname(os.path.abspath(path)) or ".")
    if done.returncode == 0:
        return ""
    if done.returncode == 2:
        return f"lesson {lesson}'s check could not run on it: {done.stderr.strip()}"
    return f"it fails lesson {lesson}'s lab {lab}: {_first_failure(done.stdout)}"


def text_from(stage, path, timeout=10.0):
    """(text, [Choice]): the starter of `stage` with the learner's own earlier work from `path`
    wherever it passes its lesson's tests."""
    theirs = _units(path)
    own, report = {}, []
    for (lesson, lab), names in sorted(carried(stage).items()):
        missing = [n for n in names if n not in theirs]
        if missing:
            why = f"{os.path.basename(path)} has no {', '.join(missing)}"
            report += [Choice(n, "reference", why) for n in names]
            continue
        problem = _judge(path, lesson, lab, timeout)
        if problem:
            report += [Choice(n, "reference", problem) for n in names]
            continue
        for name in names:
            own[name] = theirs[name]
            report.append(Choice(name, "yours", f"it passes lesson {lesson}'s lab {lab}"))
    return starters.text_at(stage, own=own), report


def describe(report):
    """The report as lines for a person."""
    lines = []
    for choice in report:
        lines.append(f"{choice.name}: {'yours' if choice.source == 'yours' else 'the reference'} ({choice.why})")
    return lines
