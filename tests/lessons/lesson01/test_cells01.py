"""Lesson 1's run cells run their rung's options under the rung's labels, in its order, and the
saved output backs the option the rung calls right; the SYSTEM cell's check ran on the words
above it."""

import nbformat
import pytest

from lab.lessons import build, load

from tests.lessons.conftest import by_id, stdout_of


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(1), as_version=4)


def right_label(rung_id):
    spec = next(s for s in load(1).RUNGS if s.id == rung_id)
    return "abc"[[option.right for option in spec.options].index(True)], len(spec.options)


def labelled(master, cell_id):
    return [line for line in stdout_of(by_id(master, cell_id)).splitlines() if line[:1] == "("]


def test_the_instructions_cell_runs_each_place_and_only_system_keeps_them_out_of_the_record(master):
    right, count = right_label("where-instructions-go")
    lines = labelled(master, "demo-instructions")
    assert [line[1] for line in lines] == list("abc")[:count]
    record = stdout_of(by_id(master, "demo-instructions")).split("\n(")
    clean = [block.lstrip("(")[0] for block in record if "said it 0 times" in block]
    assert clean == [right], record


def test_the_new_list_cell_shows_the_owned_record_remembering(master):
    right, _ = right_label("who-owns-it")
    lines = [line for line in labelled(master, "demo-new-list") if "model says" in line]
    assert [line[1] for line in lines if "Your name is Ada." in line] == [right], lines


def test_the_system_check_ran_on_the_words_of_the_cell_above(master):
    assert stdout_of(by_id(master, "system-check")).startswith("SYSTEM will do: ")
