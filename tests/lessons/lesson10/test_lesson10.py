"""Facts of lesson 10 that the suite every lesson runs does not cover: the wall runs on lesson 9's
harness and its saved output shows the refusals the text speaks of, the options cells show what
the questions claim, Figure 10.1 is drawn from a real run, and the stage's helpers do what they say."""

import nbformat
import pytest

import harness
import lab
from lab.lessons import build
from lab.lessons.lesson10 import stage
from lab.lessons.lesson10.figures import record_and_view_figure

from tests.lessons.conftest import by_id, stdout_of

REFUSED = "400 invalid_request: messages[3]: toolCall w2 has no toolResult after it"


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(10), as_version=4)


def test_the_wall_runs_on_lesson_9s_harness_and_shows_the_session_wedged(master):
    cell = by_id(master, "demo-wall")
    assert "lab.harness_at(9)" in cell.source
    assert stdout_of(cell).splitlines() == [
        "the record          : U A[w1] R(w1) A[w2]",
        f'"Carry on." got      : {REFUSED}',
        f'"Hello?" got         : {REFUSED}',
    ]
    wedged = stdout_of(by_id(master, "demo-wedged"))
    assert "answered        : 0 of 5" in wedged and REFUSED in wedged


def test_the_second_wall_cell_shows_a_503_then_a_400(master):
    cell = by_id(master, "demo-wall-503")
    assert "lab.harness_at(9)" in cell.source
    lines = stdout_of(cell).splitlines()
    assert lines[0].endswith(": 503 service unavailable")
    assert lines[1].endswith(": 400 invalid_request: messages[1]: assistant message is empty")


def test_the_recall_cell_shows_two_runs_with_one_record_and_two_disks(master):
    lines = stdout_of(by_id(master, "demo-break")).splitlines()
    assert lines == ["walked away at the event: U A[w1] R(w1) A[w2] | on the disk: ['a.py']",
                     "Ctrl-C inside the tool  : U A[w1] R(w1) A[w2] | on the disk: ['a.py', 'b.py']",
                     "",
                     "(a) the two records are the same: True",
                     "(b) b.py written after walking away at tool_execution_start: False",
                     "(c) a.py undone by the break: False | b.py undone by Ctrl-C in the tool: False"]


def test_the_options_cells_show_what_the_questions_claim(master):
    what = stdout_of(by_id(master, "demo-what-for-w2"))
    assert "{'CHANGES.md': 2, 'a.py': 1}" in what                  # run it again: the append twice
    assert what.count("was interrupted; I will look before doing it again.") == 2
    orphan = stdout_of(by_id(master, "demo-orphan"))
    assert "400 invalid_request: messages[1]: toolResult c2 has no toolCall before it" in orphan  # the seed's words
    assert "(c) the second list             : U A[w1] R(w1) A[w2] R(w2) U A! U A | messages[6]: assistant message is empty" \
        in stdout_of(by_id(master, "demo-record-or-view"))          # two lists: the copy needs repairing again
    two = stdout_of(by_id(master, "demo-two-results"))
    assert "toolResult c1 answers a toolCall that already has a result" in two
    record = stdout_of(by_id(master, "demo-record-or-view"))
    assert "the record, kept            : U A[w1] R(w1) A[w2] U A! U A" in record
    again = stdout_of(by_id(master, "demo-wall-again"))
    assert "400" not in again and "the record          : U A[w1] R(w1) A[w2] U A U A" in again


def test_figure_10_1_is_drawn_from_the_run_and_counts_what_the_view_changed(master):
    assert "record: 7 messages | view: 7 messages | left out: 1 | stand-ins: 1" in stdout_of(by_id(master, "figure-10-1"))
    model = lab.ScriptedModel([lab.reply(stage.W1), lab.reply(stage.W2), lab.fail("503 service unavailable"),
                               lab.forever(stage.onlooker)])
    h = harness.Harness(model, harness.SYSTEM, [harness.make_write_tool(lab.Workspace())])
    stage.break_at(h, stage.JOB, "tool_execution_start", "w2")
    for text in ["Hello?", "Carry on."]:
        for _ in h.prompt(text):
            pass
    fig = record_and_view_figure(list(h.messages)[:-1], model.calls[-1].messages)
    assert tuple(fig.lab_drawn) == (7, 7, 1, 1)
    valid = [lab.user("Hi."), lab.say("Hello.")]
    assert tuple(record_and_view_figure(valid, harness.context_for_model(valid)).lab_drawn) == (2, 2, 0, 0)


def test_ctrl_c_after_interrupts_only_the_named_path():
    ws = lab.Workspace()
    tool = stage.ctrl_c_after(harness.make_write_tool(ws), path="b.py")
    assert tool["execute"]({"path": "a.py", "content": "A\n"}) == "Successfully wrote to a.py."
    with pytest.raises(KeyboardInterrupt):
        tool["execute"]({"path": "b.py", "content": "B\n"})
    assert ws.listdir() == ["a.py", "b.py"]


def test_harness_on_runs_the_given_loop():
    seen = []

    def loop(*args, **kwargs):
        seen.append(args[4])
        yield {"type": "agent_start"}
        yield {"type": "agent_end", "messages": []}
    h = stage.harness_on(loop)(lab.ScriptedModel([]), harness.SYSTEM, [])
    assert [e["type"] for e in h.prompt("Hi.")] == ["agent_start", "agent_end"]
    assert seen == ["Hi."] and not h.is_running


def test_the_onlooker_says_what_the_view_shows_of_w2():
    def said(messages):
        return harness.text_of(lab.ScriptedModel([lab.forever(stage.onlooker)]).complete(harness.SYSTEM, messages, []))
    start = [lab.user(stage.JOB), lab.reply(stage.W1), lab.tool_result(stage.W1, "ok")]
    assert said(start + [lab.user("Go.")]) == "I see no call w2."
    assert "interrupted" in said(harness.repair_tool_history(start + [lab.reply(stage.W2)]) + [lab.user("Go.")])
    assert said(start + [lab.reply(stage.W2), lab.tool_result(stage.W2, "fine"), lab.user("Go.")]) \
        == "w2 (write b.py) is done: fine"


def test_the_repair_when_cell_shows_a_repair_at_the_accident_missing_two_holes(master):
    lines = stdout_of(by_id(master, "demo-repair-when")).splitlines()
    at_accident = [lines[i] for i in (1, 6, 11)]
    view = [lines[i] for i in (3, 8, 13)]
    assert [line.split(": ", 1)[1] for line in at_accident] == [
        "answered", "400 invalid_request: messages[1]: assistant message is empty",
        "400 invalid_request: messages[3]: toolCall w2 has no toolResult after it"]
    assert all(line.endswith(": answered") for line in view)
    assert lines[2].endswith("the record: U A[w1] R(w1) A[w2] R(w2) U A")   # the stand-in written into the record
    assert lines[4].endswith("the record: U A[w1] R(w1) A[w2] U A")         # the record as it happened
