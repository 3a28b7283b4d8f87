"""Per-test credit: a check cell earns the points of the tests that pass, declared once in the
registry. The notebook's check (under stock nbgrader), the course's grader and nbgrader's own
reading of the outputs give the same number."""

import contextlib
import io

import nbformat
import pytest
from nbformat.notebooknode import NotebookNode
from nbgrader.utils import determine_grade

from lab import checks, lessons
from lab.course import manifest
from lab.runtime import checkcell
from lab.grader import nbgrader_ext, verdict
from lab.lessons import build
from lab.lessons.lesson04 import wrong as wrong04


def _points(lesson, lab, hidden):
    return sum(t.points for t in checks.tests_for(lesson, lab, hidden=hidden))


def _earned(lesson, lab, function, hidden=False):
    results = checks.run(lesson, lab, manifest.Namespace({"run_tool": function}), hidden=hidden)
    return sum(r.earned for r in results), results


# -- the points are declared once ----------------------------------------------------------------

@pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
def test_every_check_cell_is_worth_the_sum_of_its_tests_points(lesson):
    nb = nbformat.read(build.notebook_path(lesson), as_version=4)
    cells = [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade")
             and not c.metadata["nbgrader"].get("solution")]
    assert cells
    for cell in cells:
        assert cell.metadata["nbgrader"]["points"] == build.cell_points(cell.source), cell.metadata["nbgrader"]["grade_id"]


def test_a_tests_cell_that_types_its_points_is_refused(tmp_path, monkeypatch):
    source = tmp_path / "lesson.md"
    source.write_text("%% md\n# x\n\n%% tests id=lab1-tests points=3\nimport lab\n\nlab.check(4, lab=1)\n")
    monkeypatch.setattr(build, "source_path", lambda lesson: source)
    with pytest.raises(build.SourceError, match="remove points= from the line"):
        build.cells(4)


def test_a_tests_cell_that_runs_no_test_is_refused():
    with pytest.raises(build.SourceError, match="runs no test"):
        build.cell_points("import lab\nassert True\n")
    with pytest.raises(build.SourceError, match="literal numbers"):
        build.cell_points("import lab\nn = 4\nlab.check(n, lab=1)\n")


def test_hidden_cell_points_count_the_hidden_tests():
    source = "import lab\nlab.require_pass(4, lab=1)\n### BEGIN HIDDEN TESTS\nlab.check(4, lab=1, hidden=True)\n### END HIDDEN TESTS\n"
    assert build.cell_points(source) == _points(4, 1, True) > 0
    assert build.cell_points("import lab\nlab.check(4, lab=1)\n") == _points(4, 1, False) > 0


# -- nbgrader reads the partial score the grader writes -------------------------------------------

def _graded_cell(grade_id, points):
    cell = nbformat.v4.new_code_cell("lab.check(4, lab=1)")
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": grade_id, "points": points,
                                 "locked": True, "schema_version": 3, "task": False}
    return cell


@pytest.mark.parametrize("score,passed,expected", [(8.0, True, 8.0), (5.0, False, 5.0), (0.0, False, 0.0)])
def test_apply_writes_what_nbgrader_reads_as_the_cells_score(score, passed, expected):
    nb = nbformat.v4.new_notebook()
    nb.cells = [_graded_cell("lab1-tests", 8)]
    verdicts = {"cells": {"lab1-tests": {"score": score, "points": 8.0, "passed": passed,
                                         "lines": ["✓ one", "✗ two"], "reason": "" if passed else "two failed"}},
                "errors": {}}
    nbgrader_ext.apply(nb, verdicts)
    assert determine_grade(nb.cells[0]) == (expected, 8.0)


# -- the notebook's check gives the same number under stock nbgrader ------------------------------

def test_the_notebooks_check_gives_its_partial_score_as_the_cells_value(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    earned, results = _earned(4, 1, wrong04.run_tool_empty_success)
    assert 0 < earned < _points(4, 1, False), "the fixture should pass some visible tests and fail others"
    with contextlib.redirect_stdout(io.StringIO()):
        value = checkcell.check(4, lab=1, run_tool=wrong04.run_tool_empty_success)
    assert isinstance(value, checkcell.Score) and value == earned and repr(value) == f"{earned:g}"
    # nbgrader reads that value, as a cell's execute_result, as the cell's partial score
    cell = _graded_cell("lab1-tests", _points(4, 1, False))
    cell.outputs = [NotebookNode(output_type="execute_result", execution_count=1, metadata={},
                                 data={"text/plain": repr(value)})]
    assert determine_grade(cell) == (earned, _points(4, 1, False))


def test_the_notebooks_check_still_raises_when_nothing_passes_or_nothing_is_written(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")

    def nothing(tools, call):
        raise NotImplementedError

    with contextlib.redirect_stdout(io.StringIO()), pytest.raises(AssertionError, match="not done"):
        checkcell.check(4, lab=1, run_tool=nothing)

    def broken(tools, call):
        return None

    assert _earned(4, 1, broken)[0] == 0
    with contextlib.redirect_stdout(io.StringIO()), pytest.raises(AssertionError):
        checkcell.check(4, lab=1, run_tool=broken)


def test_outside_nbgrader_the_check_has_no_value(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    with contextlib.redirect_stdout(io.StringIO()):
        assert checkcell.check(4, lab=1, run_tool=wrong04.run_tool_empty_success) is None


# -- the course's grader gives the same number ----------------------------------------------------

def test_the_grader_gives_a_partly_right_cell_the_points_of_its_passing_tests():
    import inspect
    import textwrap
    source = textwrap.dedent(inspect.getsource(wrong04.run_tool_empty_success)).replace(
        "def run_tool_empty_success(", "def run_tool(")
    helpers = textwrap.dedent(inspect.getsource(wrong04._find)) + "\n" + textwrap.dedent(inspect.getsource(wrong04._result))
    earned, _ = _earned(4, 1, wrong04.run_tool_empty_success)
    cells = [{"grade_id": "lab1-tests", "source": "import lab\nlab.check(4, lab=1)\n", "points": _points(4, 1, False)}]
    result = verdict.grade(4, [("helpers", helpers), ("lab1-run-tool", source)], cells, timeout=10)
    got = result["cells"]["lab1-tests"]
    assert (got["score"], got["passed"]) == (earned, False), got["reason"]
