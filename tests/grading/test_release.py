"""Before a release: the source passes nbgrader validate, every check cell of the release fails
validate --invert, the release holds no solution and no hidden test, and the points add up to
what the headings say.

nbgrader's own Validator runs on the exemplar alone: each validation runs a whole notebook in a
kernel (some four CPU-seconds), and for every other lesson what it would show is held by tests
that run anyway. The release is the learner's edition, cell for cell (below); every check cell of
the learner's edition fails in a kernel under nbgrader's NBGRADER_EXECUTION
(tests/lessons/test_notebook_runs.py), as --invert requires; and the source, the master without
its outputs, passes: the reference passes every test (tests/lessons/test_checks.py) and the
solution cells are the reference (tests/lessons/test_notebook.py), and the correct sample earns
every point through the grader (test_scores.py)."""

import copy

import nbformat
import pytest

from lab import lessons
from lab.course import manifest
from lab.grader import audit, release_checks
from lab.lessons import build

from tests.grading.conftest import VALIDATED

LESSONS = pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
EXEMPLAR = pytest.mark.parametrize("lesson", [VALIDATED], ids=[f"lesson{VALIDATED:02d}"])


@EXEMPLAR
def test_validate_passes_on_the_source_notebook(graded, lesson):
    validated = graded.lessons[lesson].validated
    assert "error" not in validated, validated
    assert validated["source"] == {}, release_checks.validate_problems(validated["source"], False)


@EXEMPLAR
def test_validate_invert_fails_every_check_cell_of_the_release(graded, lesson):
    part = graded.lessons[lesson]
    release = nbformat.read(part.release, as_version=4)
    assert len(release_checks.graded_cells(release)) == 2 * len(manifest.labs(lesson))
    assert part.validated["release"] == {}, release_checks.validate_problems(part.validated["release"], True)


def release_differences(release, edition):
    """Sentences for where `release` is not `edition` cell for cell (type and source)."""
    if len(release.cells) != len(edition.cells):
        return [f"the release has {len(release.cells)} cells and the learner's edition {len(edition.cells)}"]
    return [f"cell {n} ({b.get('id')}) is a {a.cell_type} of {len(a.source)} characters in the release and a "
            f"{b.cell_type} of {len(b.source)} in the learner's edition"
            for n, (a, b) in enumerate(zip(release.cells, edition.cells))
            if (a.cell_type, a.source) != (b.cell_type, b.source)]


@LESSONS
def test_the_release_is_the_learners_edition_cell_for_cell(graded, lesson):
    release = nbformat.read(graded.lessons[lesson].release, as_version=4)
    edition = build.learner_copy(nbformat.read(build.notebook_path(lesson), as_version=4))
    assert release_differences(release, edition) == []


def test_a_release_that_is_not_the_learners_edition_is_told_apart(graded):
    release = nbformat.read(graded.release, as_version=4)
    edition = build.learner_copy(nbformat.read(build.notebook_path(VALIDATED), as_version=4))
    changed = copy.deepcopy(release)
    cell = next(c for c in changed.cells if c.cell_type == "code" and "NotImplementedError" in c.source)
    cell.source = cell.source.replace("raise NotImplementedError()", "return None")
    assert len(release_differences(changed, edition)) == 1
    del changed.cells[0]
    assert release_differences(changed, edition) == [
        f"the release has {len(release.cells) - 1} cells and the learner's edition {len(release.cells)}"]


@LESSONS
def test_the_release_holds_no_solution_and_no_hidden_test(graded, lesson):
    part = graded.lessons[lesson]
    master = nbformat.read(part.source, as_version=4)
    release = nbformat.read(part.release, as_version=4)
    assert release_checks.static_problems(master, release) == []


def test_a_check_cell_that_passes_on_the_release_is_reported():
    results = {"passed": [{"source": "# Edge cases for lab 1, run when your notebook is graded.\nimport lab"}]}
    assert release_checks.validate_problems(results, invert=True) == [
        "validate --invert: a check cell passes on the release, where nothing is written yet: "
        "# Edge cases for lab 1, run when your notebook is graded."]
    failed = {"failed": [{"source": "lab.check(12, lab=1)", "raw_error": "AssertionError: lab 1 is not done"}]}
    assert release_checks.validate_problems(failed, invert=False) == [
        "validate: a check cell fails on the source: lab.check(12, lab=1): AssertionError: lab 1 is not done"]


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
