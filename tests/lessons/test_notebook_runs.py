"""Every lesson's notebooks, run: the master rebuilds to the committed file and passes nbval; the
learner's edition runs top to bottom with its gaps open, and scores nothing under autograde.
The standard these tests enforce is written out in docs/lesson-standard.md."""

import os
import subprocess
import sys

import nbformat
import pytest

from lab.course import manifest
from lab.lessons import build

from tests.lessons.conftest import by_id, code_cells, stdout_of

PICTURE = "image/png"


def without_pictures(nb):
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if PICTURE in output.get("data", {}):
                output["data"][PICTURE] = "<a picture>"
    return nbformat.writes(nb)


def test_a_fresh_build_is_the_committed_notebook(lesson):
    """Pictures are compared by presence only: a PNG's bytes may differ with another machine's
    fonts and rendering libraries."""
    fresh = without_pictures(build.execute(build.notebook(lesson)))
    committed = without_pictures(nbformat.read(build.notebook_path(lesson), as_version=4))
    if fresh != committed:
        old, new = committed.splitlines(), fresh.splitlines()
        line = next((n for n, (a, b) in enumerate(zip(old, new), 1) if a != b), min(len(old), len(new)) + 1)
        raise AssertionError(f"notebooks/{build.notebook_path(lesson).name} differs from a fresh build near "
                             f"line {line} (pictures aside): run python -m lab build {lesson}")


@pytest.mark.parametrize("lesson", [12], ids=["lesson12"])
def test_nbval_passes_on_the_master_copy(lesson, tmp_path):
    """nbval, as CI runs it over the saved outputs, on the exemplar. Every other lesson's outputs
    are held by the fresh build above, which compares the whole notebook and so is stricter; this
    one keeps nbval's own way of running a notebook (its kernel, its tags) under test. .ci/run runs
    nbval on every notebook on the other Pythons."""
    env = dict(os.environ, LAB_RUNGS_DIR=str(tmp_path / "rungs"))
    env.pop("NBGRADER_EXECUTION", None)
    # --nbval-current-env: the kernel is this Python's, whatever kernels the machine has installed.
    result = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-q",
                             "-p", "lab.lessons.kernels",
                             "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                             str(next(build.NOTEBOOKS.glob(f"{lesson:02d}-*.ipynb")))],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]


def test_run_all_on_the_learners_copy_completes_quietly(learner_run):
    for cell in code_cells(learner_run):
        for output in cell.outputs:
            assert output.output_type != "error", f"cell {cell.id}: {output.get('ename')}"
            assert not (output.output_type == "stream" and output.name == "stderr"), cell.id


def test_empty_gaps_say_not_done_yet(lesson, learner_run):
    for lab in manifest.labs(lesson):
        out = stdout_of(by_id(learner_run, f"lab{lab}-tests"))
        assert "not done yet" in out or "not started" in out, out


def test_under_autograde_an_empty_gap_scores_zero(lesson, autograded_run):
    for lab in manifest.labs(lesson):
        for cell_id in (f"lab{lab}-tests", f"lab{lab}-hidden"):
            assert any(o.output_type == "error" for o in by_id(autograded_run, f"{cell_id}-autograded").outputs), cell_id
