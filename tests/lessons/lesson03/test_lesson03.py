"""Facts of lesson 03 that the suite every lesson runs does not cover: the wall runs on lesson 2's
generated harness and its saved output shows the failure the text describes, the questions'
right answers are what their demonstration cells print, Figure 3.1 is drawn from the runs it
shows, and the cells after the lab switch to the learner's run_agent and back."""

import base64
import io
import re

import nbformat
import pytest

import lab
from lab.runtime import takeover
from lab.lessons import build, load
from lab.lessons.lesson03 import figures as lesson_figures
from lab.lessons.lesson03.stage import Recorder, at_lesson, harness_now, whose

from tests.lessons.conftest import by_id, stdout_of

TASK = "Read a.py and copy its constant into b.py, then tell me."


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(3), as_version=4)


def copy_task():
    return [lab.reply(lab.call("read", {"path": "a.py"})),
            lab.reply(lab.call("write", {"path": "b.py", "content": "A = 1\n"})),
            lab.say("Done: b.py has A = 1.")]


def run(h, script=None):
    ws = lab.Workspace({"a.py": "A = 1\n"})
    rec = Recorder(lab.ScriptedModel(script or copy_task()), [h.make_read_tool(ws), at_lesson(3).make_write_tool(ws)])
    messages = []
    h.run_agent(rec.model, h.SYSTEM, messages, rec.tools, TASK)
    return rec, messages


def test_the_wall_runs_on_the_harness_lesson_2_leaves_and_its_output_shows_the_failure(master):
    h2 = at_lesson(2)
    assert not hasattr(h2, "make_write_tool"), "lesson 2's harness has no write tool yet"
    rec, messages = run(h2)
    assert rec.kinds() == "model, read, model" and lab.shape(messages) == "U A[c1] R(c1) A[c2]"
    wall = stdout_of(by_id(master, "demo-wall"))
    assert "model calls : 2" in wall and "answer      : ''" in wall and "b.py exists : False" in wall
    assert "the record  : U A[c1] R(c1) A[c2]" in wall
    after = stdout_of(by_id(master, "demo-wall-next"))
    assert "400 invalid_request" in after and "toolCall c2 has no toolResult" in after


def test_the_number_and_tick_all_answers_are_what_their_cells_print(master):
    data = load(3)
    rungs = {spec.id: spec for spec in data.RUNGS}
    counted = stdout_of(by_id(master, "demo-three-calls"))
    assert f"model calls: {rungs['three-calls'].answer} " in counted
    verdicts = [line.rsplit("-> ", 1)[1] for line in stdout_of(by_id(master, "demo-loop-more")).splitlines()]
    assert [option[1] for option in rungs["loop-more"].options] == [v == "asked again" for v in verdicts]


def test_the_rule_the_who_ends_rung_calls_right_is_the_only_one_that_finishes_both_tasks(master):
    out = stdout_of(by_id(master, "demo-who-ends")).split("\n(")
    finished = ["never" not in block for block in out]
    rung = next(s for s in load(3).RUNGS if s.id == "who-ends")
    assert finished == [option.right for option in rung.options], out
    labels = [block.split(")", 1)[0].lstrip("(") for block in out]
    assert labels == ["a", "b", "c"][:len(rung.options)], labels


def test_figure_3_1_is_drawn_from_the_runs_it_shows():
    runs = [("lesson 2", *run(at_lesson(2))), ("lesson 3", *run(at_lesson(3)))]
    fig, alt = lesson_figures.timeline(runs)
    boxes = [lesson_figures._boxes(rec, messages) for _, rec, messages in runs]
    assert [kind for _, _, kind in boxes[0]] == ["model", "tool", "model", "unrun"]
    assert [kind for _, _, kind in boxes[1]] == ["model", "tool", "model", "tool", "model"]
    assert "asked for but never run: write b.py" in alt and alt.count("model call 3") == 1
    # A different run draws a different picture: one more read, one more pair of boxes.
    longer = copy_task()
    longer.insert(1, lab.reply(lab.call("read", {"path": "a.py"})))
    rec, messages = run(at_lesson(3), longer)
    assert len(lesson_figures._boxes(rec, messages)) == 7
    # An opaque white background, so that the figure reads the same on a dark page.
    from PIL import Image
    picture = Image.open(io.BytesIO(lab.runtime.figures.png(fig))).convert("RGBA")
    assert picture.getpixel((2, 2)) == (255, 255, 255, 255)


def test_the_saved_figure_has_an_alt_text_that_names_both_runs(master):
    cell = by_id(master, "figure-3-1")
    shown = [o for o in cell.outputs if "image/png" in o.get("data", {})]
    assert len(shown) == 1 and base64.b64decode(shown[0].data["image/png"])[:4] == b"\x89PNG"
    alt = shown[0].data["text/plain"]
    assert "lesson 2's run_agent" in alt and "lesson 3's run_agent" in alt


def test_after_the_lab_the_demonstrations_run_on_the_learners_run_agent_and_back():
    reference = harness_now().run_agent
    calls = []

    def mine(model, system, messages, tools, prompt):
        calls.append(prompt)
        return at_lesson(3).run_agent(model, system, messages, tools, prompt)

    try:
        takeover.install(run_agent=mine)
        assert harness_now().run_agent is mine and whose() == "your run_agent"
        run(harness_now())
        assert calls == [TASK]
    finally:
        takeover.use_reference(3)
    assert whose().startswith("the reference") and harness_now().run_agent is not mine
    assert harness_now().run_agent.__code__.co_code == reference.__code__.co_code


def test_each_demonstration_that_runs_on_the_learners_code_says_whose_it_ran_on(master):
    for cell_id, label, _ in load(3).DEMOS:
        cell = by_id(master, cell_id)
        notes = [o.data["text/plain"] for o in cell.outputs if o.get("data", {}).get("text/markdown")]
        assert notes and re.match(rf"{re.escape(label)} ran on: (your|the reference) run_agent", notes[-1]), cell_id


def test_the_order_rung_runs_its_options_in_its_order(master):
    """demo-order runs the order rung's three options under its labels, and only the one the rung
    calls right has the read see what the write wrote."""
    out = stdout_of(by_id(master, "demo-order")).split("\n(")
    rung = next(s for s in load(3).RUNGS if s.id == "order")
    assert [block.split(")", 1)[0].lstrip("(") for block in out] == ["a", "b", "c"]
    assert ["'B = 2\\n'" in block for block in out] == [option.right for option in rung.options], out
