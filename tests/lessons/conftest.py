"""Fixtures for the suite every written lesson runs: a lesson is found by its folder
(lab.lessons.written()), and each test reads the lesson's own facts from its data, never from
literals here."""

import nbformat
import pytest

from lab import lessons
from lab.lessons import build

# Imported by this one name everywhere, so that pytest's own import of this conftest (under
# another name) does not make a second cache.
from tests.lessons.runs import learner_runs

WRITTEN = lessons.written()


def pytest_generate_tests(metafunc):
    marked = {name.strip() for mark in metafunc.definition.iter_markers("parametrize")
              for name in (mark.args[0].split(",") if isinstance(mark.args[0], str) else mark.args[0])}
    if "lesson" in metafunc.fixturenames and "lesson" not in marked:
        metafunc.parametrize("lesson", WRITTEN, ids=[f"lesson{n:02d}" for n in WRITTEN], scope="module")


@pytest.fixture(scope="module")
def data(lesson):
    return lessons.load(lesson)


@pytest.fixture(scope="module")
def master(lesson):
    return nbformat.read(build.notebook_path(lesson), as_version=4)


@pytest.fixture(scope="module")
def learner(master):
    return build.learner_copy(master)


@pytest.fixture(scope="module")
def learner_run(lesson):
    return learner_runs(lesson)[0]


@pytest.fixture(scope="module")
def autograded_run(lesson):
    return learner_runs(lesson)[1]


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def stdout_of(cell):
    return "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")


def by_id(nb, cell_id):
    matches = [c for c in nb.cells if c.get("id") == cell_id]
    assert len(matches) == 1, f"expected one cell with id {cell_id}, found {len(matches)}"
    return matches[0]

