"""Two generated pieces of every lesson that a learner reads: "Your harness now" names, for each
definition, the lesson whose version the harness holds now (not the one that first brought it in),
and a hidden-tests cell, which has no hidden tests in the learner's copy, says what it is for."""

import re

import pytest

from harness import syllabus
from lab import lessons
from lab.runtime import cells
from lab.lessons import build


@pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
def test_your_harness_now_names_the_version_the_harness_holds(lesson):
    text = build.source_path(lesson).read_text(encoding="utf-8")
    found = re.search(r"^%% harnessnow (.+)$", text, re.M)
    if not found:
        pytest.skip(f"lesson {lesson} has no harnessnow line")
    names = found.group(1).split()
    lines = build._harness_now(lesson, names).splitlines()
    for name, line in zip(names, lines):
        last = [s for s in syllabus.UNITS[name] if s.lesson <= lesson][-1]
        assert line.startswith(f"- `{name}` (lesson {last.lesson}, "), (
            f"lesson {lesson}'s Your harness now says {line!r}; the harness holds lesson "
            f"{last.lesson}'s {name}")


def test_a_rewritten_definition_is_listed_at_its_latest_lesson():
    # run_agent is rewritten in lessons 2 and 3: lesson 3's list must not say lesson 1.
    assert build._harness_now(3, ["run_agent"]) == "- `run_agent` (lesson 3, yours: lab 1; first written in lesson 1)"
    assert build._harness_now(4, ["run_agent"]) == "- `run_agent` (lesson 3, yours; first written in lesson 1)"


def test_a_hidden_tests_cell_says_what_it_is_for(monkeypatch, capsys):
    from lab.runtime import checkcell
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.setattr(checkcell, "PASSED", set())
    cells.require_pass(3, 1)
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "hidden tests run when your notebook is graded" in said
    assert "do not pass in this kernel yet" in said
    checkcell.PASSED.add((3, 1))
    cells.require_pass(3, 1)
    assert "so they will count" in capsys.readouterr().out
    # Under nbgrader it prints nothing, and refuses the points of a lab that did not pass.
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    cells.require_pass(3, 1)
    assert capsys.readouterr().out == ""
    checkcell.PASSED.clear()
    with pytest.raises(AssertionError, match="has not passed its visible tests"):
        cells.require_pass(3, 1)
