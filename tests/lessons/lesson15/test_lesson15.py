"""Facts of lesson 15 that the suite every lesson runs does not cover: the options cells show what
the questions' feedback claims, the tick-all key has a reason per option, no model answer stands
right under the question it answers, and Figure 15.1 is drawn from a run whose times are the
lesson's."""

import asyncio

import nbformat
import pytest

import lab
from lab.lessons import build, load
from lab.lessons.lesson15 import figures

from tests.lessons.conftest import by_id, stdout_of


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(15), as_version=4)


def rung(rung_id):
    return next(r for r in load(15).RUNGS if r.id == rung_id)


def test_the_wall_shows_each_of_its_four_failures_in_virtual_seconds(master):
    wall = stdout_of(by_id(master, "demo-wall"))
    assert "0 ticks while the model thought; the first came at t=20.0, 19 s late" in wall
    assert "for t=5.0, reached steer() at t=20.0; in the run's record: False" in wall
    assert "two sessions, one after the other: done at t=56.0" in wall
    assert "the stop meant for t=30.0 was sent at t=620.0; the run came back at t=620.0" in wall


def test_each_options_cell_runs_its_rungs_options(master):
    recall = stdout_of(by_id(master, "demo-recall"))
    assert "(a) spinner ticks between t=2 and t=32: 0" in recall and "reached steer() at t=34.0" in recall
    assert rung("recall-approval").options[1].right
    where = stdout_of(by_id(master, "demo-where"))
    assert "201 asks for one 20 s reply" in where and "the spinner ticked 20 times" in where
    assert rung("where-the-time-goes").options[0].right and "Await" in rung("where-the-time-goes").options[0].text
    who = stdout_of(by_id(master, "demo-who"))
    assert "h.prompt(...)               | refused: already running" in who
    assert "\"user 'Use spaces.'\"" in who
    gather = stdout_of(by_id(master, "demo-gather")).splitlines()
    assert "[\"fast's result\", \"slow's result\"]" in gather[0]
    assert "fast started at t=5.0, slow ended at t=5.0" in gather[1]
    assert "fast started at t=0.0, slow ended at t=5.0" in gather[2]
    assert rung("gather-calls").options[1].right
    swallowed = stdout_of(by_id(master, "demo-swallowed"))
    assert "the run went on to its end" in swallowed and "\"Slept well.\"" in swallowed
    assert "(c) except Exception     | cancelled at t=10.0 | record: ['user', 'assistant']" in swallowed
    assert rung("swallowed-cancel").options[0].right
    save = stdout_of(by_id(master, "demo-save")).splitlines()
    assert [line.endswith(want) for line, want in zip(save, ["False", "False", "True"])] == [True] * 3
    assert rung("save-as-task").options[2].right
    sync = stdout_of(by_id(master, "demo-sync-inside"))
    assert "asyncio.run() cannot be called from a running event loop" in sync
    assert "spinner ticks during the 20 s: 0" in sync
    assert "side by side: done at t=28.0" in stdout_of(by_id(master, "demo-two"))
    assert rung("two-sessions").answer == 28


def test_the_view_after_a_cancel_pairs_the_call_and_the_record_does_not(master):
    view = stdout_of(by_id(master, "demo-view"))
    record, sent = view.split("what the model was sent")
    assert "Tool call interrupted" not in record and "toolResult" not in record
    assert "toolResult c1 -> \"Tool call interrupted" in sent


def test_every_who_may_act_option_has_its_own_reason():
    options = rung("who-may-act").options
    assert all(len(option) == 3 and option[2].strip() for option in options)
    assert [right for _, right, _ in options] == [True, True, True, False, False]


def test_no_model_answer_stands_under_an_open_question(master):
    ids = [c.id for c in master.cells]
    for rung_id, words in [("cut-off-call", "nobody saw"), ("faster", "Waiting is not working")]:
        after = master.cells[ids.index(f"rung-{rung_id}") + 1]
        assert after.cell_type == "code" or words not in after.source


def test_figure_15_1_is_drawn_from_the_lessons_run():
    serial, concurrent = asyncio.run(figures.both_runs(lab.harness_at(14), lab.harness_at(15)))
    assert {s.name: s.end for s in serial.timing.sessions} == {"A": 28.0, "B": 56.0}
    assert {s.name: s.end for s in concurrent.timing.sessions} == {"A": 28.0, "B": 28.0, "C": 30.0}
    assert figures.steer_taken(serial) == (5.0, 56.0, None)
    assert figures.steer_taken(concurrent) == (5.0, 5.0, 18.0)
    fig, alt = figures.timeline_chart(serial, concurrent)
    assert "B done at t=56.0" in alt and "C cancelled at t=30.0" in alt
    assert "the steer typed at t=5.0 reached the model at t=18.0" in alt


def test_every_wrong_answer_names_the_rung_it_comes_from():
    from lab.lessons.lesson15 import wrong
    ids = {r.id for r in load(15).RUNGS}
    for by_name in wrong.WRONG.values():
        for variants in by_name.values():
            for variant in variants:
                named = [i for i in ids if f"({i}:" in " ".join(variant.__doc__.split())]
                assert named, f"{variant.__name__}'s docstring names no rung of lesson 15"
