"""One wrong answer through the three front ends of lab.checks.engine (the notebook's lab.check,
the command line's lab_check, the autograder's verdict) gets one verdict and one sentence."""

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

from lab import checks
from lab.course import starters
from lab.runtime import checkcell
from lab.checks import engine
from lab.grader import verdict
from lab.course.starters import Stage

ROOT = Path(__file__).resolve().parents[2]

# Asks the summary in the agent's own voice: lesson 12's summary-request rung argues against it.
WRONG = '''
from harness import SYSTEM, render, text_of, user_message

def summarize(model, messages):
    asked = user_message("<conversation>\\n" + render(messages) + "\\n</conversation>")
    return text_of(model.complete(SYSTEM, [asked], [])).strip()
'''


def _unwrap(text):
    return re.sub(r"\s+", " ", text).strip()


def _why_lines(filled):
    """{test title: why sentence} from the notebook's (and the grader's) filled lines."""
    joined, lines = {}, []
    for line in filled.splitlines():
        if line.startswith("        ") and lines:   # a continuation of the line before
            lines[-1] += " " + line.strip()
        else:
            lines.append(line.strip())
    for title, why in zip(lines, lines[1:]):
        if title.startswith("✗ ") and why.startswith("why: "):
            joined[_unwrap(title[2:])] = _unwrap(why[5:])
    return joined


def _wrong_summarize():
    scope = {}
    exec(compile(WRONG, "<wrong>", "exec"), scope)
    return scope["summarize"]


def test_one_wrong_answer_gets_one_sentence_in_the_notebook_the_command_line_and_the_grader(tmp_path):
    expected = [(r.title, engine.why(r))
                for r in checks.run(12, 1, _wrong_summarize_ns(), hidden=False) if not r.passed]
    assert expected, "the wrong summarize passes every visible test of lesson 12's lab 1"
    title, sentence = expected[0]

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        checkcell.check(12, lab=1, summarize=_wrong_summarize())
    checkcell.PASSED.clear()
    notebook = _why_lines(out.getvalue())

    path = tmp_path / "harness.py"
    path.write_text(starters.text_at(Stage(12), solved=True) + WRONG, encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / "lab" / "lab_check.py"), "--harness", str(path),
                           "--lesson", "12", "--lab", "1", "--visible-only"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    command_line = {_unwrap(line[len("FAIL  lab 1  "):].split(" -- ")[0]): line.split(" -- ", 1)[1]
                    for line in done.stdout.splitlines() if line.startswith("FAIL  lab 1  ")}

    graded = verdict.grade(12, [("lab1-summarize", WRONG)],
                           [{"grade_id": "lab1-tests", "points": 3, "source": "lab.check(12, lab=1)"}],
                           timeout=10)
    cell = graded["cells"]["lab1-tests"]
    grader = _why_lines("\n".join(cell["lines"]))

    for front, found in (("the notebook", notebook), ("lab_check", command_line), ("the grader", grader)):
        assert found.get(_unwrap(title)) == sentence, (
            f"{front} says {found.get(_unwrap(title))!r} for {title!r}, the engine {sentence!r}")
    assert done.returncode == 1 and not cell["passed"]
    assert cell["reason"] == f"{next(t.name for t in checks.tests_for(12, 1) if t.title == title)}: {sentence}"


def _wrong_summarize_ns():
    from lab.course import manifest
    return manifest.Namespace({"summarize": _wrong_summarize()})


def test_after_an_overrun_the_rest_are_not_run_in_a_sentence():
    """engine.run_tests stops an endless harness once, whatever isolation ran the test."""
    tests = checks.tests_for(12, 2, hidden=False)
    ran = []

    def run(t):
        ran.append(t)
        return engine.overran(t, "find_cut (at line 4 of its definition)", "2 s")

    results = engine.run_tests(tests, run)
    assert ran == tests[:1] and [r.not_run for r in results] == [False] + [True] * (len(tests) - 1)
    assert engine.not_run_line(results) == (
        f"The other {len(tests) - 1} tests were not run: after an endless loop the time limit would only "
        "stop them too. Fix the loop and check again.")
    assert sum(r.earned for r in results) == 0 and sum(r.points for r in results) == sum(t.points for t in tests)


def test_a_spent_budget_is_the_reason_the_rest_are_not_run():
    tests = checks.tests_for(12, 1, hidden=False)
    calls = iter(["", "the cell's 4 s had already run out"])
    results = engine.run_tests(tests, lambda t: checks.Result(t, True, "", False),
                               spent=lambda: next(calls, "unused"))
    assert [r.passed for r in results] == [True] + [False] * (len(tests) - 1)
    assert engine.not_run_line(results).endswith("not run: the cell's 4 s had already run out.")
    assert sum(r.earned for r in results) == tests[0].points
