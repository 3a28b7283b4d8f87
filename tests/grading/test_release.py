"""Before a release: the source passes nbgrader validate, every check cell of the release fails
validate --invert, the release holds no solution and no hidden test, and the points add up to
what the headings say."""

import copy

import nbformat
import pytest

from lab import lessons
from lab.course import manifest
from lab.grader import audit, release_checks

LESSONS = pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")


@LESSONS
def test_validate_passes_on_the_source_notebook(graded, lesson):
    validated = graded.lessons[lesson].validated
    assert "error" not in validated, validated
    assert validated["source"] == {}, release_checks.validate_problems(validated["source"], False)


@LESSONS
def test_validate_invert_fails_every_check_cell_of_the_release(graded, lesson):
    part = graded.lessons[lesson]
    release = nbformat.read(part.release, as_version=4)
    assert len(release_checks.graded_cells(release)) == 2 * len(manifest.labs(lesson))
    assert part.validated["release"] == {}, release_checks.validate_problems(part.validated["release"], True)


def test_a_check_cell_that_passes_on_the_release_is_reported():
    results = {"passed": [{"source": "# Edge cases for lab 1, run when your notebook is graded.\nimport lab"}]}
    assert release_checks.validate_problems(results, invert=True) == [
        "validate --invert: a check cell passes on the release, where nothing is written yet: "
        "# Edge cases for lab 1, run when your notebook is graded."]
    failed = {"failed": [{"source": "lab.check(12, lab=1)", "raw_error": "AssertionError: lab 1 is not done"}]}
    assert release_checks.validate_problems(failed, invert=False) == [
        "validate: a check cell fails on the source: lab.check(12, lab=1): AssertionError: lab 1 is not done"]


@LESSONS
def test_the_release_holds_no_solution_and_no_hidden_test(graded, lesson):
    part = graded.lessons[lesson]
    master = nbformat.read(part.source, as_version=4)
    release = nbformat.read(part.release, as_version=4)
    assert release_checks.static_problems(master, release) == []


def test_a_solution_line_left_in_the_release_is_found(graded):
    master = nbformat.read(graded.source, as_version=4)
    release = nbformat.read(graded.release, as_version=4)
    secret = audit.secret_lines(master)["solution"][3]
    release.cells[-1].source += "\n" + secret
    problems = release_checks.static_problems(master, release)
    assert problems and "line" in problems[0] and "solution code" in problems[0], problems


@LESSONS
def test_the_points_add_up_to_what_the_headings_say(graded, lesson):
    master = nbformat.read(graded.lessons[lesson].source, as_version=4)
    assert audit.point_problems(master) == []


def test_a_heading_that_promises_other_points_is_caught(graded):
    master = copy.deepcopy(nbformat.read(graded.source, as_version=4))
    for cell in master.cells:
        if cell.cell_type == "markdown" and "(8 points: 3 for the tests you can see" in cell.source:
            cell.source = cell.source.replace("(8 points: 3 for", "(6 points: 4 for")
            break
    else:
        raise AssertionError("the notebook has no lab 1 heading with its points")
    problems = audit.point_problems(master)
    assert any("says 6 points; the check cells under it hold 8" in p for p in problems), problems
    assert any("says 4 points for visible tests" in p for p in problems), problems
