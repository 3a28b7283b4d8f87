"""Feedback a learner can use: each test passed, or the sentence saying why not; never the code of
a hidden test, and never a solution the learner did not write."""

import nbformat
import pytest

from lab import checks
from lab.grader import audit

from .conftest import FEEDBACK


def _why_after_the_cross(text, heading):
    """Under `heading`, the one failed test (✗) is followed by the sentence saying why."""
    block = text[text.index(heading):].split("\n\n")[0].splitlines()
    crosses = [i for i, line in enumerate(block) if line.strip().startswith("✗ ")]
    return len(crosses) == 1 and block[crosses[0] + 1:] and any(
        line.strip().startswith("why: ") and len(line.strip()) > 10 for line in block[crosses[0] + 1:])


def _feedback(graded, student):
    path = graded.root / "feedback" / student / graded.assignment / f"{graded.assignment}.html"
    return audit.text_of_html(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def secrets(graded):
    return audit.secret_lines(nbformat.read(graded.source, as_version=4))


def test_feedback_is_written_for_each_student_asked_for(graded):
    folder = graded.root / "feedback"
    assert sorted(p.name for p in folder.iterdir()) == sorted(FEEDBACK)


@pytest.mark.parametrize("student", FEEDBACK)
def test_feedback_never_shows_hidden_test_code(graded, secrets, student):
    text = _feedback(graded, student)
    assert secrets["hidden"], "the master notebook has hidden tests to look for"
    assert audit.leaks(text, secrets["hidden"]) == []
    assert "# (hidden tests: their results are below; their code is not shown)" in text


def test_feedback_on_an_untouched_release_shows_no_solution(graded, secrets):
    assert audit.leaks(_feedback(graded, "unchanged"), secrets["solution"]) == []


def test_feedback_says_why_each_failing_test_failed(graded):
    text = _feedback(graded, "lab2-cut-backwards")
    hidden1 = len(checks.tests_for(12, 1, hidden=True))
    visible2 = len(checks.tests_for(12, 2, hidden=False))
    assert f"Lab 1 of lesson 12, hidden tests: {hidden1} of {hidden1} pass." in text
    line = f"Lab 2 of lesson 12, tests: {visible2 - 1} of {visible2} pass."
    assert line in text and _why_after_the_cross(text, line)
    assert "lab 2's visible tests have not passed, so its hidden tests earn nothing." in text


def test_feedback_shows_the_hidden_tests_results_by_title(graded):
    text = _feedback(graded, "hidden-only")
    hidden = [t.title for t in checks.tests_for(12, 1, hidden=True)]
    line = f"Lab 1 of lesson 12, hidden tests: {len(hidden) - 1} of {len(hidden)} pass."
    assert line in text and _why_after_the_cross(text, line)
    assert all(" ".join(title.split()[:6]) in " ".join(text.split()) for title in hidden)


def test_the_leak_finder_finds_a_planted_hidden_line(graded, secrets):
    text = _feedback(graded, "lab2-cut-backwards") + "\n" + secrets["hidden"][0] + "\n"
    assert audit.leaks(text, secrets["hidden"]) == [secrets["hidden"][0]]
