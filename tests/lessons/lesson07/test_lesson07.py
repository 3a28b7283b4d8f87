"""Facts of lesson 07 that the suite every lesson runs does not cover: its stage props do what their
docstrings say, the wall's saved output shows the silence and the spoiled answer.txt, Figure 7.1 is
drawn from the run it is given, and the grader can grade a renderer that keeps state and prints."""

import json
import time

import nbformat
import pytest

import harness
import lab
from lab.lessons import build
from lab.lessons.lesson07 import checks, wrong
from lab.lessons.lesson07 import figures as lesson_figures
from lab.lessons.lesson07.stage import (ANSWER, PATHS, TASK, at_lesson, printing_run_agent, screen,
                                        slow_model, timed, tools)

from tests.lessons.conftest import by_id, stdout_of


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(7), as_version=4)


@pytest.fixture(autouse=True)
def clean_clock():
    yield
    lab.clock.reset()


def test_the_slow_task_takes_forty_virtual_seconds_on_lesson_6s_loop():
    h6 = at_lesson(6)
    model = slow_model()
    end = h6.run_agent(model, h6.SYSTEM, [], tools(h6), TASK)
    assert h6.text_of(end) == ANSWER
    assert lab.clock.now == 40.0 and len(model.calls) == len(PATHS) + 1
    assert [r.ended - r.started for r in model.calls] == [4.0] * 6 + [16.0]


def test_the_print_fix_prints_six_progress_lines_and_then_the_answer():
    h6 = at_lesson(6)
    run_agent = printing_run_agent(h6)
    with lab.capture_stdout() as out:
        end = run_agent(slow_model(), h6.SYSTEM, [], tools(h6), TASK)
        print(h6.text_of(end))
    assert out.lines == [f"calling read({p})..." for p in PATHS] + [ANSWER]
    assert [t for t, _ in out.timed] == [4.0, 8.0, 12.0, 16.0, 20.0, 24.0, 40.0]
    assert h6.run_tool.__name__ == "run_tool"   # the module's own run_tool is untouched


def test_screen_shows_each_line_at_its_time_and_long_silences(capsys):
    with lab.capture_stdout() as out:
        lab.clock.advance(12)
        print("one")
        lab.clock.advance(3)
        print("two")
    screen(out, until=30)
    assert capsys.readouterr().out.splitlines() == [
        "  0.0s to 12.0s   (nothing on the screen)",
        " 12.0s             one",
        " 15.0s             two",
        " 15.0s to 30.0s   (nothing on the screen)"]


def test_the_wall_shows_the_silence_the_spoiled_file_and_nothing_for_json(master):
    silence = stdout_of(by_id(master, "demo-wall-silence")).splitlines()
    assert silence == ["  0.0s to 40.0s   (nothing on the screen)", f" 40.0s             {ANSWER}"]
    spoiled = stdout_of(by_id(master, "demo-wall-print"))
    assert "answer.txt holds 7 lines:" in spoiled
    assert spoiled.count("    | calling read(") == 6 and f"    | {ANSWER}" in spoiled
    assert "the JSON-lines reader: 0 of 7 lines are JSON it can read" in spoiled


def test_after_the_lab_the_file_holds_only_the_answer_and_every_json_line_parses(master):
    out = stdout_of(by_id(master, "demo-wall-again"))
    assert f"answer.txt: ['{ANSWER}'], exit status 0" in out
    assert "the JSON lines: 42 of 42 lines parse, from agent_start to agent_end" in out


def test_the_figure_is_drawn_from_the_events_it_is_given():
    h7 = at_lesson(7)
    model = slow_model()
    events = timed(h7.run_agent(model, h7.SYSTEM, [], tools(h7), TASK))
    fig, alt = lesson_figures.events_figure(events, model, silent_until=lab.clock.now)
    assert fig.get_facecolor()[:3] == (1.0, 1.0, 1.0)
    assert alt.startswith("Figure 7.1: 42 events over 40 virtual seconds, arriving at 8 moments")
    assert "6 tool_execution_start" in alt and "7 model requests" in alt
    short = events[:3]
    _, alt = lesson_figures.events_figure(short, model, silent_until=5.0)
    assert "3 events" in alt and "until 5 s" in alt
    with pytest.raises(ValueError, match="needs the events"):
        lesson_figures.events_figure([], model, silent_until=1.0)


def test_the_demonstrations_wrong_loops_differ_from_the_reference_only_where_their_rung_says():
    h7 = at_lesson(7)
    script = [lab.reply(lab.call("read", {"path": "net.py"})), lab.say("Done.")]
    tools7 = [h7.make_read_tool(lab.Workspace({"net.py": "TIMEOUT = 30\n"}))]
    want = lab.event_types(h7.run_agent(lab.ScriptedModel(list(script)), "s", [], tools7, "q"))
    same = lab.event_types(wrong.run_agent_announces_first(lab.ScriptedModel(list(script)), "s", [], tools7, "q"))
    assert same == want   # the order of events is the same; only the record lags behind


# -- the grader and a renderer: state on self, and what it prints --------------------------------

def test_the_grader_lets_a_learners_methods_keep_state_and_shows_their_prints_to_a_capture():
    from lab.grader import sandbox
    source = ("def __init__(self):\n    self.last = None\n    self._count = 0\n"
              "def render(self, event):\n    self._count += 1\n    self.last = event\n"
              "def finish(self):\n    print('last:', self.last, self._count)\n    return True\n")
    with sandbox.Worker("x = 1\n") as worker:
        worker.peer.deadline = None
        worker.run_cell(source, "<test>", time.monotonic() + 5)
        methods = {name: worker.lookup(name) for name in ("__init__", "render", "finish")}
        Renderer = type("FinalTextRenderer", (), dict(
            {name: (lambda f: lambda self, *a: f(self, *a))(f) for name, f in methods.items()},
            learner_state=True))
        renderer = Renderer()
        renderer.render("a")
        renderer.render("b")
        with lab.capture_stdout() as out:
            assert renderer.finish() is True
        assert out.text == "last: b 2\n" and renderer.last == "b"
        renderer.finish()   # printed with no capture: dropped, never on the grader's own stdout

        class Plain:   # a grader object that does not opt in stays read-only
            pass
        with pytest.raises(AttributeError, match="cannot set last"):
            methods["__init__"](Plain())


def test_checks_hand_run_agent_a_record_that_is_not_a_list():
    record = checks.Record([lab.user("hi")])
    assert not isinstance(record, list) and len(record) == 1 and record[-1] == lab.user("hi")
    record.append(lab.say("hello"))
    assert lab.shape(list(record)) == "U A"
    model = checks.Model(lab.ScriptedModel([lab.say("ok")]))
    assert harness.text_of(model.complete("s", record, [])) == "ok"
    assert json.loads(json.dumps(record.items)) == record.items
