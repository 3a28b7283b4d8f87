"""Each lesson's learner's edition, run once per test process and shared by every suite that reads
it (tests/conftest.py keeps a lesson's tests in one process)."""

import copy
import tempfile

import nbformat

from lab.course import manifest
from lab.lessons import build

_RUNS = {}   # lesson -> (the learner's edition run, its check cells run again as autograde runs them)


def learner_runs(lesson):
    """The learner's edition of `lesson`, run top to bottom once in this process and kept: every
    suite that reads it shares the run (tests/conftest.py keeps a lesson's tests in one process).
    After its last cell the same kernel sets NBGRADER_EXECUTION=autograde, as nbgrader does, and
    runs each lab's check cells again: lab.check and lab.require_pass read it when they are called,
    so those copies behave as under autograde. Returns (plain run, the autograded check cells)."""
    if lesson not in _RUNS:
        nb = build.learner_copy(nbformat.read(build.notebook_path(lesson), as_version=4))
        plain = len(nb.cells)
        nb.cells.append(nbformat.v4.new_code_cell(
            'import os\nos.environ["NBGRADER_EXECUTION"] = "autograde"', id="as-under-autograde"))
        for lab in manifest.labs(lesson):
            for cell_id in (f"lab{lab}-tests", f"lab{lab}-hidden"):
                again = copy.deepcopy(_by_id(nb, cell_id))
                again.id = f"{cell_id}-autograded"
                nb.cells.append(again)
        with tempfile.TemporaryDirectory(prefix=f"learner{lesson:02d}-") as where:
            run = build.execute(nb, cwd=where, allow_errors=True)
        learner_part, graded = copy.deepcopy(run), copy.deepcopy(run)
        learner_part.cells, graded.cells = run.cells[:plain], run.cells[plain + 1:]
        _RUNS[lesson] = (learner_part, graded)
    return _RUNS[lesson]


def _by_id(nb, cell_id):
    (cell,) = [c for c in nb.cells if c.get("id") == cell_id]
    return cell
