"""Lesson 7's stage: virtual time (lab.clock and ScriptedModel(latency=...)), capture_stdout and
event_types. Each test says what a wrong version would get, so that it fails on one."""

import pytest

import lab
from lab.stage.virtual_time import Clock


@pytest.fixture(autouse=True)
def clean_clock():
    lab.clock.reset()
    yield
    lab.clock.reset()


def test_the_clock_moves_only_when_told_and_resets():
    clock = Clock()
    assert clock.now == 0.0
    assert clock.advance(1.5) == 1.5 and clock.advance(0.1) == 1.6  # no float dust: 1.6, not 1.6000000000000001
    clock.reset()
    assert clock.now == 0.0
    for bad in (-1, "2", True, None):
        with pytest.raises(ValueError, match="number of seconds"):
            clock.advance(bad)


def test_without_latency_a_model_takes_no_time():
    model = lab.ScriptedModel([lab.say("a"), lab.say("b")])
    model.complete("s", [lab.user("x")], [])
    model.complete("s", [lab.user("x")], [])
    assert lab.clock.now == 0.0
    assert [(r.started, r.ended) for r in model.calls] == [(0.0, 0.0), (0.0, 0.0)]


def test_latency_advances_the_lab_clock_once_per_request_refused_or_answered():
    model = lab.ScriptedModel([lab.say("a"), lab.say("b")], latency=4)
    model.complete("s", [lab.user("x")], [])
    dangling = [lab.user("x"), lab.reply(lab.call("read", {"path": "a"}, id="c0"))]
    refused = model.complete("s", dangling, [])   # a 400 takes the provider's time too
    assert refused["stop_reason"] == "error"
    assert lab.clock.now == 8.0
    assert [(r.started, r.ended) for r in model.calls] == [(0.0, 4.0), (4.0, 8.0)]


def test_latency_can_be_a_function_of_the_request():
    model = lab.ScriptedModel([lab.forever(lambda r: lab.say("ok"))], latency=lambda request: request.number * 1.5)
    for _ in range(3):
        model.complete("s", [lab.user("x")], [])
    assert lab.clock.now == 9.0   # 1.5 + 3 + 4.5
    assert [r.ended for r in model.calls] == [1.5, 4.5, 9.0]


def test_a_script_error_takes_no_time():
    model = lab.ScriptedModel([lab.say("a")], latency=5, max_calls=1)
    model.complete("s", [lab.user("x")], [])
    with pytest.raises(lab.ScriptError):
        model.complete("s", [lab.user("x")], [])
    assert lab.clock.now == 5.0


def test_bad_latency_is_refused_in_a_sentence():
    for bad in (-1, "5s", True):
        with pytest.raises(ValueError, match="latency must be a number of seconds"):
            lab.ScriptedModel([lab.say("a")], latency=bad)


def test_capture_stdout_holds_what_a_redirect_would_and_shows_nothing(capsys):
    with lab.capture_stdout() as out:
        print("one")
        lab.clock.advance(40)
        print("two")
        lab.clock.advance(2)
        print("three", end="")
    assert capsys.readouterr().out == ""
    assert out.text == "one\ntwo\nthree" and out.lines == ["one", "two", "three"]
    assert out.timed == [(0.0, "one"), (40.0, "two"), (42.0, "three")]
    print("after")
    assert capsys.readouterr().out == "after\n"   # stdout is given back


def test_capture_stdout_gives_stdout_back_when_the_body_raises(capsys):
    with pytest.raises(ZeroDivisionError):
        with lab.capture_stdout() as out:
            print("before")
            1 / 0
    print("visible")
    assert out.text == "before\n" and capsys.readouterr().out == "visible\n"


def test_event_types_names_the_role_of_each_message_end_and_runs_a_generator():
    def events():
        yield {"type": "agent_start"}
        yield {"type": "message_end", "message": lab.user("hi")}
        yield {"type": "message_end", "message": lab.say("hello")}
        yield {"type": "agent_end", "messages": []}
    assert lab.event_types(events()) == ["agent_start", "message_end(user)", "message_end(assistant)",
                                         "agent_end"]
    with pytest.raises(TypeError, match="dicts with a"):
        lab.event_types(["agent_start"])


def test_the_lab_exports_them():
    assert lab.clock.now == 0.0 and callable(lab.capture_stdout) and callable(lab.event_types)
