"""Lesson 15's stage props: the awaited model, the timed shells, the keyboard, cancel_at and the
timing recorder, all on lab.clock inside lab.meanwhile. Each test says what a wrong prop gets."""

import asyncio
import inspect

import pytest

import harness
import lab


@pytest.fixture(autouse=True)
def clean_clock():
    lab.clock.reset()
    yield
    lab.clock.reset()


def _ask(model, messages, tools=()):
    return model.complete("You help.", messages, list(tools))


# == the awaited model ==


def test_the_async_model_gives_the_replies_calls_and_bill_of_a_scripted_model():
    # A copy of ScriptedModel's logic that drifted (ids, usage, the cache) shows up here.
    script = [lab.reply(lab.call("read", {"path": "a.py"})), lab.say("It says hi.")]
    read = lab.call("read", {"path": "a.py"}, id="c1")
    requests = [[lab.user("read a.py")],
                [lab.user("read a.py"), lab.reply(read), lab.tool_result(read, "print('hi')\n")]]
    specs = harness.tool_specs([harness.make_read_tool(lab.Workspace())])
    plain, awaited = lab.ScriptedModel(script), lab.AsyncScriptedModel(script, latency=3)

    async def ask_both():
        return [(_ask(plain, r, specs), await _ask(awaited, r, specs)) for r in requests]

    for sync_reply, async_reply in lab.meanwhile(ask_both()):
        assert async_reply == sync_reply
    assert (awaited.bill, awaited.cached, awaited.cost) == (plain.bill, plain.cached, plain.cost)
    assert [(r.started, r.ended) for r in awaited.calls] == [(0.0, 3.0), (3.0, 6.0)]
    assert inspect.iscoroutinefunction(lab.AsyncScriptedModel.complete)


def test_the_async_model_refuses_what_a_strict_provider_refuses_and_keeps_its_brakes():
    model = lab.AsyncScriptedModel([lab.say("a")], latency=4, max_calls=2)
    dangling = [lab.user("x"), lab.reply(lab.call("read", {"path": "a"}, id="c0"))]

    async def main():
        refused = await _ask(model, dangling)
        answered = await _ask(model, [lab.user("x")])
        started = lab.clock.now
        with pytest.raises(lab.ScriptError, match="max_calls=2"):
            await _ask(model, [lab.user("x")])
        return refused, answered, started

    refused, answered, started = lab.meanwhile(main())
    assert refused["stop_reason"] == "error" and refused["error_message"].startswith("400 invalid_request")
    assert answered["content"][0]["text"] == "a"
    assert started == lab.clock.now == 8.0      # the brake takes no time, as ScriptedModel's
    with pytest.raises(TypeError, match="list of script steps"):
        lab.AsyncScriptedModel({"not": "a list"})
    with pytest.raises(ValueError, match="latency must be a number of seconds"):
        lab.AsyncScriptedModel([lab.say("a")], latency=-1)


def test_latency_can_be_a_function_of_the_request():
    model = lab.AsyncScriptedModel([lab.forever(lambda r: lab.say("ok"))],
                                   latency=lambda request: request.number * 1.5)

    async def main():
        for _ in range(3):
            await _ask(model, [lab.user("x")])

    lab.meanwhile(main())
    assert [r.ended for r in model.calls] == [1.5, 4.5, 9.0]


def test_a_request_cancelled_while_the_model_thinks_is_sent_but_never_answered():
    model = lab.AsyncScriptedModel([lab.say("lost"), lab.say("next")], latency=20)

    async def main():
        thinking = asyncio.create_task(_ask(model, [lab.user("x")]))
        await asyncio.sleep(5)
        thinking.cancel()
        await asyncio.wait([thinking])
        return thinking.cancelled(), await _ask(model, [lab.user("again")])

    cancelled, after = lab.meanwhile(main())
    assert cancelled
    assert [(r.started, r.ended) for r in model.calls] == [(0.0, None), (5.0, 25.0)]
    assert after["content"][0]["text"] == "next"    # the lost reply used its step


# == the shells ==


def test_durations_by_command_line_by_first_word_and_for_sleep():
    shell = lab.TimedShell({"pytest": ("1 failed\n", 1), "pytest -q": "F\n"},
                           durations={"pytest": 8, "pytest -q": 2, "make": lambda c: len(c)})
    assert [shell.duration(c) for c in ("pytest", "pytest -q", "pytest -x", "make all",
                                        "sleep 600", "sleep 1.5", "ls")] == [8, 2, 8, 8, 600.0, 1.5, 0]
    assert shell.run("pytest -q") == ("F\n", 0) and lab.clock.now == 2.0
    assert shell.run("sleep 600") == ("", 0) and lab.clock.now == 602.0
    assert shell.run("ls") == ("bash: ls: command not found\n", 127) and lab.clock.now == 602.0
    assert shell.history == ["pytest -q", "sleep 600", "ls"]
    for bad in ({"pytest": -1}, {"pytest": "8s"}, {"pytest": True}):
        with pytest.raises(ValueError, match="must be a number of seconds, 0 or more, or None"):
            lab.TimedShell(durations=bad)
    with pytest.raises(TypeError, match="durations takes a dict"):
        lab.TimedShell(durations=[("pytest", 8)])


def test_the_timed_shell_blocks_and_drives_the_lesson_14_bash_tool():
    # The wall's shell: a blocking command leaves a spinner without a single tick meanwhile.
    shell = lab.TimedShell({"pytest": ("3 passed\n", 0)}, durations={"pytest": 8})
    bash = harness.make_bash_tool(shell)
    ticks = []

    async def spin():
        while True:
            await asyncio.sleep(1)
            ticks.append(lab.clock.now)

    async def main():
        spinner = asyncio.create_task(spin())
        await asyncio.sleep(0)
        output = bash["execute"]({"command": "pytest"})
        spinner.cancel()
        return output

    assert lab.meanwhile(main()) == "3 passed\n"
    assert ticks == [] and lab.clock.now == 8.0
    hung = lab.TimedShell({"serve": "ok\n"}, durations={"serve": None})
    with pytest.raises(lab.ScriptError, match="never finishes, and a blocking call cannot be stopped"):
        hung.run("serve")


def test_the_async_shell_awaits_its_durations_side_by_side():
    shell = lab.AsyncShell({"pytest": ("3 passed\n", 0), "ruff .": "ok\n"},
                           durations={"pytest": 8, "ruff": 3})

    async def main():
        return await asyncio.gather(shell.run("pytest"), shell.run("ruff ."), shell.run("sleep 5"))

    assert lab.meanwhile(main()) == [("3 passed\n", 0), ("ok\n", 0), ("", 0)]
    assert lab.clock.now == 8.0          # not 16: the three waits overlapped
    assert inspect.iscoroutinefunction(lab.AsyncShell.run)


def test_a_hung_command_waits_until_it_is_cancelled_and_alone_is_a_deadlock():
    shell = lab.AsyncShell({"serve": "listening\n"}, durations={"serve": None})

    async def cut_at_30():
        command = asyncio.create_task(shell.run("serve"))
        await asyncio.sleep(30)
        command.cancel()
        await asyncio.wait([command])
        return command.cancelled()

    assert lab.meanwhile(cut_at_30()) is True and lab.clock.now == 30.0

    async def waits_for_it():
        await shell.run("serve")

    with pytest.raises(lab.Deadlock, match=r"waits_for_it \(waiting in AsyncShell.run\)"):
        lab.meanwhile(waits_for_it())


# == the keyboard ==


class Typed:
    """A stand-in harness that notes when each of its two queues was written to."""

    def __init__(self):
        self.words = []

    def steer(self, text):
        self.words.append(("steer", lab.clock.now, text))

    def follow_up(self, text):
        self.words.append(("follow_up", lab.clock.now, text))


def test_the_keyboard_types_at_its_times_while_an_awaited_model_thinks():
    h, model = Typed(), lab.AsyncScriptedModel([lab.say("ok")], latency=20)

    async def main():
        keys = lab.keyboard(h, [(5.0, "steer", "Use spaces."), (12, "follow_up", "Now test.")])
        assert keys.get_name() == "keyboard"
        await _ask(model, [lab.user("go")])
        return await keys

    typed = lab.meanwhile(main())
    assert h.words == [("steer", 5.0, "Use spaces."), ("follow_up", 12.0, "Now test.")]
    assert [(k.wanted, k.at, k.action) for k in typed] == [(5.0, 5.0, "steer"), (12, 12.0, "follow_up")]


def test_against_a_blocking_model_the_keyboard_reaches_steer_only_when_it_returns():
    h, model = Typed(), lab.ScriptedModel([lab.say("ok")], latency=20)

    async def main():
        keys = lab.keyboard(h, [(5.0, "steer", "Use spaces.")])
        await asyncio.sleep(0)           # the keyboard starts waiting for t=5
        _ask(model, [lab.user("go")])    # blocks the loop for 20 s
        return await keys

    typed = lab.meanwhile(main())
    assert [(k.wanted, k.at) for k in typed] == [(5.0, 20.0)]


def test_the_keyboard_refuses_bad_keys_in_a_sentence():
    h = Typed()
    cases = [([(5, "shout", "x")], ValueError, "must be 'steer' or 'follow_up'"),
             ([(5, "steer")], TypeError, r"each key is \(time, action, text\)"),
             ([(-1, "steer", "x")], ValueError, "seconds on lab.clock, 0 or more"),
             ([(5, "steer", "a"), (2, "steer", "b")], ValueError, "comes before key 0"),
             ([(5, "steer", 3)], TypeError, "must be a string")]
    for keys, error, words in cases:
        with pytest.raises(error, match=words):
            lab.keyboard(h, keys)
    with pytest.raises(TypeError, match="a harness with a steer"):
        lab.keyboard(object(), [(1, "steer", "x")])
    with pytest.raises(RuntimeError, match="inside a coroutine running on lab.meanwhile"):
        lab.keyboard(h, [(1, "steer", "x")])


# == cancel_at ==


async def tiny_run(model, shell, prompt):
    """An async loop just big enough to cut: the model, then each bash call, with events."""
    messages = [lab.user(prompt)]
    tools = harness.tool_specs([harness.make_bash_tool(lab.Shell())])
    yield {"type": "agent_start"}
    while True:
        reply = await model.complete("s", messages, tools)
        messages.append(reply)
        yield {"type": "message_end", "message": reply}
        calls = harness.tool_calls(reply)
        if not calls:
            break
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            output, _ = await shell.run(call["arguments"]["command"])
            messages.append(lab.tool_result(call, output))
            yield {"type": "tool_execution_end", "call": call}
    yield {"type": "agent_end"}


def _slow_session():
    model = lab.AsyncScriptedModel([lab.reply(lab.call("bash", {"command": "sleep 600"})),
                                    lab.say("done")], latency=20)
    return model, lab.AsyncShell()


def test_cancel_at_cuts_the_consuming_task_during_the_wait_after_the_event():
    model, shell = _slow_session()
    seen = []

    async def consume(run):
        async for event in run:
            seen.append((event["type"], lab.clock.now))

    async def main():
        cut = lab.cancel_at(tiny_run(model, shell, "go"), "tool_execution_start")
        task = asyncio.create_task(consume(cut))
        await asyncio.wait([task])
        return task.cancelled(), cut

    cancelled, cut = lab.meanwhile(main())
    assert cancelled and cut.at == 20.0 and cut.event["call"]["arguments"]["command"] == "sleep 600"
    assert seen[-1] == ("tool_execution_start", 20.0)   # it held the event, then was cut
    assert lab.clock.now == 20.0                         # not 620: the sleep was cut short
    assert shell.history == ["sleep 600"]


def test_cancel_at_counts_to_the_nth_event_and_as_a_listener_cancels_the_task_given():
    model = lab.AsyncScriptedModel([lab.reply(lab.call("bash", {"command": "sleep 5"})),
                                    lab.reply(lab.call("bash", {"command": "sleep 7"})),
                                    lab.say("done")], latency=1)
    shell = lab.AsyncShell()

    async def main():
        async def consume():
            async for event in tiny_run(model, shell, "go"):
                listener(event)
        task = asyncio.create_task(consume())
        listener = lab.cancel_at(task, "tool_execution_start", n=2)
        await asyncio.wait([task])
        return task.cancelled(), listener

    cancelled, listener = lab.meanwhile(main())
    assert cancelled and listener.at == 7.0 and lab.clock.now == 7.0   # 1 + 5 + 1, then cut
    with pytest.raises(ValueError, match="counts events from 1"):
        lab.cancel_at(tiny_run(model, shell, "x"), "message_end", n=0)
    with pytest.raises(TypeError, match="a synchronous run cannot be cancelled"):
        lab.cancel_at(iter([]), "message_end")


# == timing ==


def _session(timeline, name):
    model = lab.AsyncScriptedModel([lab.reply(lab.call("bash", {"command": "pytest"})),
                                    lab.say("green")], latency=lambda r: 20 if r.number == 1 else 0)
    shell = lab.AsyncShell({"pytest": "3 passed\n"}, durations={"pytest": 8})

    async def run():
        with timeline.session(name):
            async for _ in tiny_run(model, shell, "test it"):
                pass
    return run()


def test_timing_reports_two_sessions_one_after_the_other_and_side_by_side():
    # 20 s of thinking and 8 s of pytest each: 56 s in turn, 28 s together.
    serial, together = lab.timing(), lab.timing()

    async def in_turn():
        await _session(serial, "A")
        await _session(serial, "B")

    async def side_by_side():
        await asyncio.gather(_session(together, "A"), _session(together, "B"))

    lab.meanwhile(in_turn())
    lab.clock.reset()
    lab.meanwhile(side_by_side())
    assert serial.summary() == "two sessions, one after the other: done at t=56.0"
    assert together.summary() == "two sessions, side by side: done at t=28.0"
    assert str(together).splitlines()[1:] == [
        "  A: t=0.0 to t=28.0; model t=0.0 to t=20.0; bash: pytest t=20.0 to t=28.0; model t=28.0 to t=28.0",
        "  B: t=0.0 to t=28.0; model t=0.0 to t=20.0; bash: pytest t=20.0 to t=28.0; model t=28.0 to t=28.0"]
    assert [(w.session, w.what, w.start, w.end) for w in serial.waits if w.session == "B"] == [
        ("B", "model", 28.0, 48.0), ("B", "bash: pytest", 48.0, 56.0), ("B", "model", 56.0, 56.0)]


def test_timing_keeps_marks_and_cancelled_waits_for_the_figure():
    timeline, h = lab.timing(), Typed()
    model, shell = _slow_session()

    async def main():
        with timeline.session("A"):
            lab.keyboard(h, [(5.0, "steer", "Use spaces.")])
            cut = lab.cancel_at(tiny_run(model, shell, "go"), "tool_execution_start")
            try:
                async for _ in cut:
                    pass
            except asyncio.CancelledError:
                pass

    lab.meanwhile(main())
    assert [(m.session, m.label, m.at, m.wanted) for m in timeline.marks] == [
        ("A", "steer: Use spaces.", 5.0, 5.0), ("A", "cancelled at tool_execution_start", 20.0, None)]
    assert [(w.what, w.start, w.end, w.cancelled) for w in timeline.waits] == [
        ("model", 0.0, 20.0, False), ("bash: sleep 600", 20.0, 20.0, True)]
    assert timeline.report().splitlines()[1] == (
        "  A: t=0.0 to t=20.0; model t=0.0 to t=20.0; bash: sleep 600 t=20.0 cancelled at t=20.0")


def test_timing_refuses_two_sessions_of_one_name_and_counts_in_words():
    timeline = lab.timing()
    with timeline.session("A"):
        with timeline.wait("model"):
            lab.clock.advance(20)
    assert timeline.summary() == "one session: done at t=20.0"
    with pytest.raises(ValueError, match="already a session named 'A'"):
        with timeline.session("A"):
            pass
    assert lab.timing().summary() == "no sessions have ended"
