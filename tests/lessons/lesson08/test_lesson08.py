"""Facts of lesson 08 that the suite every lesson runs does not cover: its stage props do what
their docstrings say, the wall's saved output shows the broken record and the provider's refusal,
Figure 8.1 is drawn from the two runs the notebook makes, and the cells after the lab run on the
learner's Harness methods."""

import nbformat
import pytest

import harness
import lab
from lab.lessons import build
from lab.lessons.lesson08 import figures as lesson_figures
from lab.lessons.lesson08.stage import Dying, Timeline, Write, assemble, at_lesson, notes, tool

from tests.lessons.conftest import by_id, stdout_of

REFUSAL = "400 invalid_request: messages[1]: toolCall c1 has no toolResult after it"


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(8), as_version=4)


def test_notes_reads_what_it_is_asked_then_says_what_it_read():
    h7 = at_lesson(7)
    messages = []
    model = lab.ScriptedModel([notes()])
    for _ in h7.run_agent(model, h7.SYSTEM, messages, [h7.make_read_tool(lab.Workspace({"n.txt": "Hi.\n"}))],
                          "Read n.txt."):
        pass
    assert lab.shape(messages) == "U A[c1] R(c1) A"
    assert messages[1]["content"][0]["arguments"] == {"path": "n.txt"}
    assert h7.text_of(messages[-1]) == "It says: Hi."
    assert lab.ScriptedModel([notes()]).complete("s", [lab.user("Say hello.")], [])["content"][0]["text"] == "Hello!"
    assert lab.ScriptedModel([notes()]).complete("s", [lab.user("Hm.")], [])["content"][0]["text"] == "Noted."


def test_a_tool_calls_back_into_the_program():
    seen = []
    meddle = tool("meddle", lambda arguments: seen.append(arguments) or "done")
    assert harness.tool_specs([meddle]) == [{"name": "meddle", "description": "",
                                             "parameters": {"type": "object", "properties": {}}}]
    result = harness.run_tool([meddle], lab.call("meddle", {"x": 1}, id="m1"))
    assert result["content"] == "done" and seen == [{"x": 1}]
    with pytest.raises(TypeError, match="execute"):
        tool("meddle", "not a function")


def test_dying_answers_until_its_request_then_raises():
    model = Dying(lab.ScriptedModel([lab.say("one"), lab.say("three")]), at=2)
    assert model.complete("s", [lab.user("a")], [])["content"][0]["text"] == "one"
    with pytest.raises(ConnectionResetError):
        model.complete("s", [lab.user("b")], [])
    assert model.complete("s", [lab.user("c")], [])["content"][0]["text"] == "three"
    assert len(model.calls) == 2   # the request that raised was never answered
    with pytest.raises(KeyboardInterrupt):
        Dying(lab.ScriptedModel([lab.say("x")]), at=1, error=KeyboardInterrupt()).complete("s", [lab.user("a")], [])
    with pytest.raises(ValueError, match="Dying"):
        Dying(lab.ScriptedModel([lab.say("x")]), at=0)


def test_timeline_notes_who_wrote_where_on_one_clock():
    h7 = at_lesson(7)
    messages = []
    clock = Timeline(messages)
    events = list(clock.watch("A", h7.run_agent(lab.ScriptedModel([lab.say("Hi.")]), h7.SYSTEM, messages, [], "Hello.")))
    assert clock.tick == len(events) == 6
    assert [(w.writer, w.position, w.label) for w in clock.writes] == [("A", 0, "U"), ("A", 1, "A")]
    clock.refused("B", "RuntimeError: already running")
    assert clock.refusals == [(7, "B", "RuntimeError: already running")]


def test_assemble_puts_three_methods_into_lessons_8_harness():
    reference = at_lesson(8).Harness
    Yours = assemble(reference.messages.fget, reference.prompt, reference._run)
    h = Yours(lab.ScriptedModel([lab.say("Hi.")]), "s", [])
    for _ in h.prompt("Hello."):
        pass
    assert lab.shape(list(h.messages)) == "U A" and not h.is_running


def test_lesson_8s_prompt_refuses_in_lesson_8s_words():
    h = at_lesson(8).Harness(lab.ScriptedModel([notes()]), "s", [])
    run = h.prompt("Hello.")
    with pytest.raises(RuntimeError) as refused:
        h.prompt("Again.")
    assert str(refused.value) == "already running"
    run.close()


def test_the_wall_shows_the_broken_record_and_the_refusal(master):
    out = stdout_of(by_id(master, "demo-wall")).splitlines()
    # The wall shows the record as B left it, so that its output does not count the refusals
    # for the question that follows; the cell after the question shows all three requests.
    assert out == ["the record when B ended: U A[c1] U A!",
                   "validate               : messages[1]: toolCall c1 has no toolResult after it (and 1 more)",
                   f"run B got              : {REFUSAL}"]
    requests = stdout_of(by_id(master, "demo-requests")).splitlines()
    assert sum(REFUSAL in line for line in requests[:3]) == 2 and len(requests) == 4
    assert requests[3] == "the record at the end: U A[c1] U A! R(c1) A!"


def test_the_undo_cell_pops_the_call_being_executed(master):
    out = stdout_of(by_id(master, "demo-undo"))
    assert "undo took  : A[c1]" in out
    assert "the record : U R(c1) A!" in out
    assert "400 invalid_request: messages[1]: toolResult c1 has no toolCall before it" in out


def test_the_wall_again_is_refused_on_its_own_lines_and_ran_on_the_learners_code(master):
    cell = by_id(master, "demo-wall-again")
    out = stdout_of(cell)
    assert "keyboard handler: RuntimeError: already running" in out
    assert "undo button     : AttributeError: 'tuple' object has no attribute 'pop'" in out
    assert "the record      : U A[c1] R(c1) A" in out and "validate        : []" in out
    notes_ = [o for o in cell.outputs if o.output_type == "display_data"]
    assert "ran on: your Harness.messages, Harness.prompt and Harness._run" in notes_[-1]["data"]["text/plain"]


def test_figure_8_1_is_drawn_from_the_notebooks_two_runs(master):
    cell = by_id(master, "figure-8-1")
    images = [o for o in cell.outputs if o.output_type == "display_data" and "image/png" in o.get("data", {})]
    assert len(images) == 1 and images[0]["data"]["text/plain"].startswith("Figure 8.1:")
    out = stdout_of(cell)
    assert "left :  A:U A:A[c1] B:U B:A! A:R(c1) A:A! | 2 requests refused" in out
    assert "right:  A:U A:A[c1] A:R(c1) A:A | 1 prompt refused" in out


def test_the_figure_follows_the_timelines_it_is_given():
    wall, owned = Timeline([]), Timeline([])
    wall.writes.append(Write(1, "A", 0, "U", ""))
    wall.writes.append(Write(2, "B", 1, "A!", "400 invalid_request: ..."))
    owned.refused("B", "RuntimeError: already running")
    drawn = lesson_figures.writers_figure(wall, owned).lab_drawn
    assert drawn.left_writes == (("A", 0, "U"), ("B", 1, "A!")) and drawn.left_refused == 1
    assert drawn.right_writes == () and drawn.right_refusals == 1
