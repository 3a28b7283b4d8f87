"""Facts of lesson 14 that the suite every lesson runs does not cover: the options cells show what
the questions' feedback claims, the tick-all key has a reason per option, and no principle stands
right under the question it answers."""

import nbformat
import pytest

from lab.lessons import build, load

from tests.lessons.conftest import by_id, stdout_of


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(14), as_version=4)


def test_each_options_cell_runs_its_rungs_options_in_their_order(master):
    recall = stdout_of(by_id(master, "demo-recall"))
    assert "(a) the README's last line stands in the system prompt: True" in recall
    assert "(c) the system prompt after the README was edited, the same bytes: True" in recall
    wall = stdout_of(by_id(master, "demo-wall"))
    assert "(a) nothing happened: False" in wall and "(c) the README's command reached the shell: True" in wall
    assert "(b) the role the order is heard in: user" in stdout_of(by_id(master, "demo-laundered"))
    gate = stdout_of(by_id(master, "demo-where-gate")).splitlines()
    assert gate[0].startswith("(a) gate before the tool      | the shell ran: []")
    assert gate[2].startswith("(b) rule in the system prompt | the shell ran: ['curl")
    filt = stdout_of(by_id(master, "demo-filter"))
    assert "(a) attacks still there after the filter: 2 of 3" in filt and "(c) the honest note kept: False" in filt
    where_gate = next(r for r in load(14).RUNGS if r.id == "where-gate")
    assert where_gate.options[0].right and "harness" in where_gate.options[0].text


def test_every_promotions_option_has_its_own_reason():
    promotions = next(r for r in load(14).RUNGS if r.id == "promotions")
    assert all(len(option) == 3 and option[2].strip() for option in promotions.options)


def test_the_colleague_question_is_followed_by_no_answer_in_markdown(master):
    ids = [c.id for c in master.cells]
    after = master.cells[ids.index("rung-colleague") + 1]
    assert "is data" not in after.source
