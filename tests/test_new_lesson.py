"""`python -m lab new NN "Title" --gap NAME`: the template holds every part docs/lesson-standard.md
asks for, each file it writes is valid, and it refuses what it cannot do in a sentence."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lab import lessons
from lab.lessons import new

ROOT = Path(__file__).resolve().parents[1]


def _files(lesson=17, gaps=("stub_fn", "SessionLog.rows")):
    return {path.relative_to(ROOT).as_posix(): text for path, text in new.plan(lesson, "A stub lesson", list(gaps)).items()}


def test_the_template_writes_the_folder_the_gap_text_and_the_syllabus_rows():
    files = _files()
    assert sorted(files) == ["harness/gaps/lesson17.py", "harness/syllabus.py",
                             *(f"lab/lessons/lesson17/{n}" for n in ("__init__.py", "checks.py", "lesson.md",
                                                                     "samples.py", "wrong.py"))]
    for path, text in files.items():
        if path.endswith(".py"):
            ast.parse(text, path)
    units = {}
    exec(compile(files["harness/syllabus.py"], "syllabus", "exec"), units)
    assert units["UNITS"]["stub_fn"] == [units["Step"](17, 1, "gap")]
    assert units["UNITS"]["SessionLog.rows"][-1] == units["Step"](17, 1, "gap")   # a rewrite: a step added
    gaps = {}
    exec(files["harness/gaps/lesson17.py"], gaps)
    assert set(gaps["GAPS"]) == {"stub_fn", "SessionLog.rows"}
    assert all(text.rstrip().endswith("# --- end ---") for text in gaps["GAPS"].values())


def test_the_template_has_the_parts_the_standard_asks_for():
    files = _files()
    data = {}
    exec(files["lab/lessons/lesson17/__init__.py"], data)
    kinds = [spec.kind for spec in data["RUNGS"]]
    assert len(kinds) >= 5 and {"choice", "number", "multi", "open"} <= set(kinds)
    for spec in data["RUNGS"]:
        if spec.kind == "choice":   # as test_every_option_of_every_rung_has_its_own_feedback asks
            feedback = [o.feedback for o in spec.options]
            assert len(set(feedback)) == len(feedback) and sum(o.right for o in spec.options) == 1
    assert len(data["HINTS"][1].levels) == 3
    text = files["lab/lessons/lesson17/lesson.md"]
    assert [m for m in re.findall(r"^%% rung (\S+)", text, re.M)] == [spec.id for spec in data["RUNGS"]]
    for part in ("You hit", "You built", "The principle", "Your harness now", "Still open",
                 "https://github.com/huggingface/tau/blob/62eab4e/", "%% tests id=lab1-tests",
                 "%% tests id=lab1-hidden", "lab.require_pass(17, lab=1)", "%% hints 1", "%% testlist 1",
                 "%% diff 16 17.1", "%% solution id=lab1-stub-fn def=stub_fn", "# 17 · A stub lesson"):
        assert part in text, part
    samples = {}
    exec(files["lab/lessons/lesson17/samples.py"], samples)
    assert set(samples["SCORES"]) == {"unchanged", "correct", "hidden-only", "loops-forever", "does-not-parse"}
    assert samples["HIDDEN_ONLY"]


@pytest.mark.parametrize("number,title,gaps,why", [
    (lessons.written()[0], "Again", ["x"], "exists already"),
    (17, "No labs", [], "at least one lab"),
    (17, "!!", ["x"], "has no letters"),
    (100, "Too far", ["x"], "two-digit"),
])
def test_what_it_cannot_do_is_a_sentence(number, title, gaps, why):
    with pytest.raises(new.NewLessonError, match=why):
        new.plan(number, title, gaps)
    done = subprocess.run([sys.executable, "-m", "lab", "new", str(number), title, *sum((["--gap", g] for g in gaps), [])],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and why in done.stderr and done.stdout == ""
