"""The lab tests of lesson 15, "Meanwhile": run_tool and run_agent (lab 1), Harness._notify and
Harness._run (lab 2).

Each test is a plain function that runs its own coroutine on the virtual loop with
lab.meanwhile(...) and looks at plain data afterwards, so it runs the same in a notebook's check
cell, on the command line and in the grader's worker. Times are read from the clock at the start
of each test, never from 0. The visible tests are the lesson's list, one for each wrong idea a
rung argues against; the hidden ones hold each contract to the clauses the visible ones leave."""

import asyncio
import inspect
import warnings

import harness
import lab
from lab.checks import Failed, expect, test
from lab.checks.handover import Live, Record
from lab.lessons.lesson15 import stage

LIMIT = 900   # virtual seconds a test's coroutine may run before it counts as hung


def drive(name, coro, limit=LIMIT):
    """Run `coro` on the virtual loop and return its value. What the learner's code raises is put
    in one sentence that names `name`; a stub's NotImplementedError goes up untouched."""
    try:
        with warnings.catch_warnings():
            # A wrong answer that forgets an await leaves a coroutine nobody ran; the test's own
            # sentence says so, and Python's warning about it would only reach stderr.
            warnings.filterwarnings("ignore", message="coroutine .* was never awaited")
            return lab.meanwhile(coro, limit=limit)
    except (NotImplementedError, Failed, RecursionError):
        raise
    except lab.OutOfTime:
        raise Failed(f"{name} was still running after {limit} virtual seconds; something it "
                     "awaits never came back") from None
    except lab.Deadlock as error:
        raise Failed(f"{name} left every task waiting for ever ({_line(error)})") from None
    except asyncio.CancelledError:
        raise Failed(f"{name} let a cancellation out where none was asked for") from None
    except Exception as error:
        raise Failed(f"{name} raised {type(error).__name__}: {_line(error)}") from None


def since(t0, t=None):
    """Seconds on lab.clock from t0 to t (to now if None), rounded to the clock's grain, so that a
    test that starts at t0=1234.567891 still reads 20.0 and not 20.000000000000227."""
    return round((lab.clock.now if t is None else t) - t0, 6)


def _line(error):
    return " ".join(str(error).split())


def _async_run(name, run):
    """`run`, checked to be an async iterator of events."""
    if hasattr(run, "__anext__"):
        return run
    if inspect.isgenerator(run) or hasattr(run, "__next__"):
        raise Failed(f"{name} gave a plain generator; it should be an async generator (async def "
                     "with yield), consumed with async for")
    raise Failed(f"{name} gave {type(run).__name__}, not an async generator of events")


async def consume(name, run):
    """The events of `name`'s async run `run`, consumed to its end."""
    events = []
    async for event in _async_run(name, run):
        events.append(event)
    return events


async def settled(task):
    """What awaiting `task` gives: its value, or "cancelled" when a cancellation ended it."""
    try:
        return await task
    except asyncio.CancelledError:
        return "cancelled"


async def consume_until(name, run, event_type):
    """Consume `name`'s async run `run` in a task of its own that lab.cancel_at cancels at the
    first `event_type` event: "cancelled" if the cancellation reached that task, "finished" if
    the run ended first."""
    async def consumer():
        async for _ in lab.cancel_at(_async_run(name, run), event_type):
            pass
        return "finished"
    return await settled(asyncio.get_running_loop().create_task(consumer(), name="consumer"))


def kinds(events):
    return [e.get("type") if isinstance(e, dict) else repr(e) for e in events]


def first_difference(events, expected):
    """(index, what came, what lesson 10 gives) for the first event that differs, or None."""
    for i, (got, want) in enumerate(zip(events, expected)):
        if got != want:
            return i, got, want
    if len(events) != len(expected):
        i = min(len(events), len(expected))
        return i, events[i] if i < len(events) else None, expected[i] if i < len(expected) else None
    return None


def describe(event):
    if not isinstance(event, dict):
        return "nothing" if event is None else repr(event)[:60]
    what = event.get("type")
    message = event.get("message")
    if isinstance(message, dict):
        what += f" ({message.get('role')}: {str(message.get('content'))[:40]!r})"
    return what


def sync_events(script, tools, prompt, **kwargs):
    """The events of lesson 14's synchronous run_agent (lesson 10's loop) on `script`."""
    old = lab.harness_at(14)
    messages = []
    events = list(old.run_agent(lab.ScriptedModel(script), harness.SYSTEM, messages, tools,
                                prompt, **kwargs))
    return events, messages


def read_tools():
    return [harness.make_read_tool(lab.Workspace({"a.py": "print('hi')\n"}))]


TWO_READS = [lab.reply(lab.call("read", {"path": "a.py"}), lab.call("read", {"path": "b.py"})),
             lab.say("a.py prints hi; b.py is not there.")]


def toolresults(messages):
    return [m for m in messages if m.get("role") == "toolResult"]


# == lab 1: run_tool and run_agent =================================================================

@test(15, 1, "run_agent is an async generator, and on a reply with two reads its events are lesson "
             "10's, in lesson 10's order: the synchronous loop and yours give the same list.")
def events_are_lesson_10s(ns):
    expected, _ = sync_events(TWO_READS, read_tools(), "Read a.py and b.py.")

    async def main():
        model = lab.AsyncScriptedModel(TWO_READS, latency=2)
        return await consume("run_agent", ns.run_agent(model, harness.SYSTEM, [], read_tools(),
                                                       "Read a.py and b.py."))

    events = drive("run_agent", main())
    diff = first_difference(events, expected)
    expect(diff is None, "run_agent's events differ from lesson 10's: event {} was {} where the "
                         "synchronous loop gives {}".format(diff[0] if diff else 0,
                                                           describe(diff[1]) if diff else "",
                                                           describe(diff[2]) if diff else ""))


@test(15, 1, "While the model thinks for 20 s, a spinner task on the same loop ticks 20 times, at "
             "t=1, 2, ... 20: run_agent awaits the model instead of blocking the program.")
def spinner_ticks_while_the_model_thinks(ns):
    async def main():
        t0 = lab.clock.now
        model = lab.AsyncScriptedModel([lab.say("Hello.")], latency=20)
        spinner = stage.Spinner().start()
        try:
            await consume("run_agent", ns.run_agent(model, harness.SYSTEM, [], [], "Hi."))
            took = since(t0)
            await asyncio.sleep(0.5)   # the tick due at the very moment the reply came
        finally:
            await spinner.stop()
        return t0, [since(t0, t) for t in spinner.ticks], took

    t0, ticks, took = drive("run_agent", main())
    during = [t for t in ticks if t <= 20.0]
    expect(during == [float(n) for n in range(1, 21)],
           f"run_agent let the spinner tick {len(during)} times while the model thought for 20 s "
           f"(at t={', '.join(str(t) for t in during[:5]) or 'never'}); await model.complete(...), "
           "so the loop can run other tasks meanwhile")
    expect(took == 20.0, f"run_agent took {took} s over one 20 s reply")


@test(15, 1, "A reply calls a slow tool (5 s) and then a fast one (1 s): they run one after the "
             "other in the model's order, the first result is in the record before the second "
             "call starts, and the results stand in call order.")
def results_in_call_order(ns):
    async def main():
        log, messages = [], Record()
        seen_at_second = []
        slow = stage.timed_tool("slow", 5, "first", log=log)
        fast = stage.timed_tool("fast", 1, "second", log=log)
        inner = fast["execute"]

        async def watched(arguments):
            seen_at_second.append([m["content"] for m in toolresults(messages)])
            return await inner(arguments)
        fast = dict(fast, execute=watched)
        script = [lab.reply(lab.call("slow", {}), lab.call("fast", {})), lab.say("Both done.")]
        model = lab.AsyncScriptedModel(script, latency=1)
        await consume("run_agent", ns.run_agent(model, harness.SYSTEM, messages, [slow, fast], "Go."))
        return log, messages, seen_at_second

    log, messages, seen = drive("run_agent", main())
    order = [m["content"] for m in toolresults(messages)]
    expect(order == ["first", "second"],
           f"run_agent recorded the results as {order}: results must stand in the order of the "
           "calls, not the order the tools finished in")
    times = {(kind, name): t for kind, name, t in log}
    expect(times[("start", "fast")] >= times[("end", "slow")],
           f"run_agent started the second call at t+{since(times[('start', 'slow')], times[('start', 'fast')]):g} s, "
           "while the first was still running; the calls of one reply run one after another")
    expect(seen == [["first"]],
           f"run_agent had recorded {seen[0] if seen else '?'} when the second call started; each "
           "result goes into the record the moment its tool returns")


@test(15, 1, "run_tool awaits a coroutine tool's result and uses a plain tool's as it is; a tool "
             "that raises, before its wait or after it, gives an is_error result; an unknown tool "
             "gives 'Tool <name> not found'.")
def run_tool_awaits_and_reports(ns):
    def call(name):
        return {"id": "t1", "name": name, "arguments": {}}

    async def failing_later(arguments):
        await asyncio.sleep(2)
        raise FileNotFoundError("no such file: b.py")

    def failing_now(arguments):
        raise ValueError("bad arguments")

    tools = [stage.plain_tool("plain", "as it is"), stage.timed_tool("slow", 3, "awaited"),
             {"name": "late", "description": "", "parameters": {}, "execute": failing_later},
             {"name": "early", "description": "", "parameters": {}, "execute": failing_now}]

    async def main():
        t0 = lab.clock.now
        out = []
        for name in ("plain", "slow", "late", "early", "nope"):
            pending = ns.run_tool(tools, call(name))
            if not inspect.isawaitable(pending):
                raise Failed(f"run_tool returned {type(pending).__name__}, not a coroutine: make it "
                             "async def, so that the loop can await it")
            out.append(await pending)
        return out, since(t0)

    results, took = drive("run_tool", main())
    wanted = [("as it is", False), ("awaited", False), ("no such file: b.py", True),
              ("bad arguments", True), ("Tool nope not found", True)]
    for (name, want), got in zip([("plain", wanted[0]), ("slow", wanted[1]), ("late", wanted[2]),
                                  ("early", wanted[3]), ("nope", wanted[4])], results):
        shape = {"role": "toolResult", "tool_call_id": "t1", "tool_name": name,
                 "content": want[0], "is_error": want[1]}
        content = got.get("content") if isinstance(got, dict) else got
        shown = repr(content[:60]) if isinstance(content, str) else f"a {type(content).__name__}"
        expect(got == shape, f"run_tool gave content {shown} "
                             f"(is_error {got.get('is_error') if isinstance(got, dict) else '?'}) for "
                             f"the '{name}' tool; expected {want[0]!r} with is_error {want[1]}")
    expect(took == 5.0, f"run_tool took {took} s over a 3 s tool and a 2 s one")


@test(15, 1, "A cancellation is not a tool's failure: cancelled while a tool runs, run_tool and "
             "run_agent let CancelledError reach the caller, and nothing is recorded for the "
             "interrupted call.")
def cancellation_goes_up(ns):
    hung = stage.timed_tool("bash", None)
    call = {"id": "t1", "name": "bash", "arguments": {"command": "sleep 600"}}

    async def cancel_run_tool():
        task = asyncio.get_running_loop().create_task(ns.run_tool([hung], call), name="run_tool")
        await asyncio.sleep(2)
        task.cancel()
        return await settled(task)

    outcome = drive("run_tool", cancel_run_tool())
    expect(outcome == "cancelled",
           "run_tool turned the cancellation into a result "
           f"({outcome.get('content') if isinstance(outcome, dict) else outcome!r}); catch "
           "Exception only, so that asyncio.CancelledError goes on up")

    async def cancel_run_agent():
        messages = Record()   # a handle under the grader: the learner's appends are seen here
        script = [lab.reply(lab.call("bash", {"command": "sleep 600"}, id="c1")), lab.say("Done.")]
        model = lab.AsyncScriptedModel(script, latency=1)
        run = ns.run_agent(model, harness.SYSTEM, messages, [hung], "Wait.")
        return await consume_until("run_agent", run, "tool_execution_start"), messages

    outcome, messages = drive("run_agent", cancel_run_agent())
    expect(outcome == "cancelled", "run_agent finished the run when its consumer was cancelled; the "
                                   "CancelledError must go on up to the caller, not end the run")
    made_up = toolresults(messages)
    expect(made_up == [], f"run_agent recorded a result for the interrupted call "
                          f"({str(made_up[0].get('content'))[:40]!r}...); leave the call without "
                          "one: the record keeps what happened, and the view pairs it with "
                          "INTERRUPTED" if made_up else "")
    expect([m["role"] for m in messages] == ["user", "assistant"],
           f"run_agent left the record as {[m['role'] for m in messages]} after the cancellation; "
           "it should end on the call that was interrupted")


@test(15, 1, "After that cancellation, the next run over the same record is accepted by the strict "
             "model: the request's view pairs the interrupted call with INTERRUPTED (lesson 10's "
             "repair, unchanged), and the record keeps no made-up result.")
def next_request_after_a_cancel_is_accepted(ns):
    hung = stage.timed_tool("bash", None)

    async def main():
        messages = Record()   # a handle under the grader: the learner's appends are seen here
        script = [lab.reply(lab.call("bash", {"command": "sleep 600"}, id="c1"))]
        first = lab.AsyncScriptedModel(script, latency=1)
        await consume_until("run_agent", ns.run_agent(first, harness.SYSTEM, messages, [hung], "Wait."),
                            "tool_execution_start")
        second = lab.AsyncScriptedModel([lab.say("Picked up.")], latency=1)
        await consume("run_agent", ns.run_agent(second, harness.SYSTEM, messages, [hung], "Go on."))
        return messages, second

    messages, second = drive("run_agent", main())
    expect(second.calls, "run_agent did not ask the model after the cancelled run")
    sent = second.calls[0].messages
    results = toolresults(sent)
    expect(len(results) == 1 and results[0]["content"] == harness.INTERRUPTED,
           f"run_agent sent the model {len(results)} result(s) for the interrupted call "
           f"{[r['content'][:40] for r in results]}; the view (context_for_model) pairs it with "
           "INTERRUPTED")
    expect(second.calls[0].reply["stop_reason"] != "error",
           f"run_agent's request after the cancel was refused: {second.calls[0].reply.get('error_message')}")
    expect(all(m["content"] != harness.INTERRUPTED for m in toolresults(messages)),
           "run_agent wrote INTERRUPTED into the record; the record keeps what happened, the view repairs it")


@test(15, 1, "Cancelled while the model thinks: CancelledError reaches the caller and the record "
             "ends on the user's prompt.", hidden=True)
def cancel_while_the_model_thinks(ns):
    async def main():
        messages = Record()   # a handle under the grader: the learner's appends are seen here
        model = lab.AsyncScriptedModel([lab.say("Too late.")], latency=20)
        run = ns.run_agent(model, harness.SYSTEM, messages, [], "Think.")
        return await consume_until("run_agent", run, "message_end"), messages

    outcome, messages = drive("run_agent", main())
    expect(outcome == "cancelled", "run_agent swallowed a cancellation that came while the model thought")
    expect([m["role"] for m in messages] == ["user"],
           f"run_agent's record after a cancel during the model's wait is {[m['role'] for m in messages]}; "
           "it should end on the user's prompt")


@test(15, 1, "max_turns, a failed reply (with a follow-up waiting too), steering queued before the "
             "run and a follow-up (after a turn of tool calls too) end the run with lesson 10's "
             "events, exactly as the synchronous loop does.", hidden=True)
def brakes_and_queues_as_in_lesson_10(ns):
    cases = [
        ("max_turns", [lab.reply(lab.call("read", {"path": "a.py"}))] * 3, {"max_turns": 1}),
        ("a failed reply", [lab.fail("503 overloaded")], {}),
        ("a failed reply and a follow-up waiting", [lab.fail("503 overloaded"), lab.say("Two.")],
         {"follow": ["Now the tests."]}),
        ("steering and follow-ups", [lab.say("One."), lab.say("Two."), lab.say("Three.")],
         {"steer": ["Use spaces."], "follow": ["Now the tests."]}),
        ("a follow-up waiting while the model calls tools",
         [lab.reply(lab.call("read", {"path": "a.py"})), lab.say("Done."), lab.say("Tests too.")],
         {"follow": ["Now the tests."]}),
    ]
    for what, script, options in cases:
        def kwargs():
            steer = [harness.user_message(t) for t in options.get("steer", [])]
            follow = [harness.user_message(t) for t in options.get("follow", [])]
            return {"max_turns": options.get("max_turns"),
                    "get_steering": lambda: [steer.pop(0)] if steer else [],
                    "get_follow_ups": lambda: [follow.pop(0)] if follow else []}
        expected, _ = sync_events(script, read_tools(), "Go.", **kwargs())

        async def main(script=script, kw=kwargs()):
            model = lab.AsyncScriptedModel(script, latency=1)
            return await consume("run_agent", ns.run_agent(model, harness.SYSTEM, [], read_tools(),
                                                           "Go.", **kw))
        events = drive("run_agent", main())
        diff = first_difference(events, expected)
        expect(diff is None, f"with {what}, run_agent's event {diff[0] if diff else 0} was "
                             f"{describe(diff[1]) if diff else ''} where lesson 10's loop gives "
                             f"{describe(diff[2]) if diff else ''}")


@test(15, 1, "run_tool awaits any awaitable a tool returns (a future set later, not only a "
             "coroutine), and a plain tool beside an async one in one reply: both recorded in "
             "call order.", hidden=True)
def run_tool_takes_any_awaitable(ns):
    def later(arguments):
        future = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_later(4, future.set_result, "from a future")
        return future
    tools = [{"name": "later", "description": "", "parameters": {}, "execute": later},
             stage.plain_tool("plain", "at once")]

    async def main():
        t0 = lab.clock.now
        got = await ns.run_tool(tools, {"id": "t9", "name": "later", "arguments": {}})
        if not isinstance(got, dict) or got.get("content") != "from a future":
            return got, None, None   # said below; a future left in a result would only break the model's copy
        messages = Record()   # a handle under the grader: the learner's appends are seen here
        script = [lab.reply(lab.call("later", {}), lab.call("plain", {})), lab.say("Ok.")]
        await consume("run_agent", ns.run_agent(lab.AsyncScriptedModel(script), harness.SYSTEM,
                                                messages, tools, "Go."))
        return got, since(t0), [m["content"] for m in toolresults(messages)]

    got, took, order = drive("run_tool", main())
    content = got.get("content") if isinstance(got, dict) else got
    expect(content == "from a future" and isinstance(got, dict) and got.get("is_error") is False,
           f"run_tool gave {content!r} for a tool that returned a future; await whatever "
           "is awaitable")
    expect(order == ["from a future", "at once"] and took == 8.0,
           f"run_tool and run_agent recorded {order} in {took} s; expected both results in call "
           "order after 8 s")


# == lab 2: Harness._notify and Harness._run =======================================================

def fresh(ns, script, tools=(), latency=1):
    model = lab.AsyncScriptedModel(script, latency=latency)
    h = ns.Harness(model, harness.SYSTEM, list(tools))
    # Under the grader, the learner's _run and _notify see these where the test does: the
    # record as it grows, and the listeners as they come and go.
    h._messages, h._listeners = Record(), Live()
    return h, model


@test(15, 2, "prompt hands out an async run of lesson 10's events (the synchronous Harness's own "
             "list); a second prompt while it runs is refused at once; when the run is used up "
             "the harness is free again.")
def prompt_gives_an_async_run(ns):
    old = lab.harness_at(14)
    sync = old.Harness(lab.ScriptedModel(TWO_READS), harness.SYSTEM, read_tools())
    expected = list(sync.prompt("Read a.py and b.py."))

    async def main():
        h, _ = fresh(ns, TWO_READS, read_tools())
        run = _async_run("_run", h.prompt("Read a.py and b.py."))
        events = [await run.__anext__()]
        try:
            h.prompt("And again.")
            refused = None
        except RuntimeError as error:
            refused = str(error)
        async for event in run:
            events.append(event)
        return events, refused, h.is_running

    events, refused, running = drive("_run", main())
    expect(refused == "already running; use steer() or follow_up()",
           f"_run let a second prompt start while the first ran ({refused!r})")
    diff = first_difference(events, expected)
    expect(diff is None, "_run's events differ from the synchronous Harness's: event {} was {} where "
                         "lesson 14 gives {}".format(diff[0] if diff else 0,
                                                    describe(diff[1]) if diff else "",
                                                    describe(diff[2]) if diff else ""))
    expect(not running, "_run left is_running True after the run was used up")


@test(15, 2, "A keyboard task steers at t=5 while the model thinks for 20 s: the words are taken "
             "at the next safe point of the same run, after the tool's result and before the "
             "model's next request.")
def steering_taken_while_the_model_thinks(ns):
    async def main():
        t0 = lab.clock.now
        script = [lab.reply(lab.call("slow", {})), lab.say("Done, with spaces.")]
        h, model = fresh(ns, script, [stage.timed_tool("slow", 3, "ok")], latency=20)
        keys = lab.keyboard(h, [(t0 + 5, "steer", "Use spaces.")])
        await consume("_run", h.prompt("Tidy the file."))
        typed = await keys
        return t0, typed, model, h.messages

    t0, typed, model, messages = drive("_run", main())
    expect(since(t0, typed[0].at) == 5.0, f"_run kept the keyboard from typing until t+{since(t0, typed[0].at):g} s; "
                                    "while the model thinks the loop must be free")
    roles = [(m["role"], m["content"] if m["role"] == "user" else "") for m in messages]
    expect(("user", "Use spaces.") in roles,
           f"_run did not take the steer during the run: the record is {[r for r, _ in roles]}")
    expect(len(model.calls) == 2 and "Use spaces." in model.calls[1].user_text,
           "_run took the steer, but not at the next safe point: the model's second request "
           "should carry it")


@test(15, 2, "Two listeners, each an async function that takes 0.5 s: each hears every event in "
             "order, the first has finished before the second starts, and both have finished "
             "before the consumer gets the event (a saved message is on disk before message_end "
             "reaches the screen).")
def listeners_are_awaited_before_the_consumer(ns):
    async def main():
        h, _ = fresh(ns, [lab.say("Saved.")])
        disk, log = [], []

        def writer(name):
            async def write(event):
                log.append(("start", name, event["type"]))
                await asyncio.sleep(0.5)
                disk.append((name, event["type"]))
                log.append(("end", name, event["type"]))

            def listener(event):          # a plain call that hands back the write to await
                log.append(("called", name, event["type"]))
                return write(event)
            return listener
        h.subscribe(writer("save"))
        h.subscribe(writer("index"))
        problems = []
        async for event in _async_run("_run", h.prompt("Save this.")):
            called = [n for kind, n, k in log if kind == "called" and k == event["type"]]
            done = [n for n, k in disk if k == event["type"]]
            if len(done) < 2 and not problems:
                problems.append((event["type"], called, done))
        return log, problems

    try:
        log, problems = drive("_run", main())
    except Failed as failure:
        if "can't be used in 'await' expression" in str(failure):
            raise Failed("_notify gave back something _run cannot await: make it async def, so "
                         "that calling it gives a coroutine") from None
        raise
    if problems:
        kind, called, done = problems[0]
        if not called:
            raise Failed(f"_run handed the consumer {kind} before the listeners had been told of "
                         "it; await self._notify(event) first, then yield")
        raise Failed(f"_notify returned before its listeners had finished with {kind} "
                     f"({len(done)} of 2 done); await what each listener returns before going on")
    order = [(kind, name) for kind, name, _ in log[:6] if kind != "called"]
    expect(order == [("start", "save"), ("end", "save"), ("start", "index"), ("end", "index")],
           f"_notify ran the listeners as {order}; each one finishes before the next is called")


@test(15, 2, "Cancelling the task that consumes a run, at tool_execution_start, clears is_running; "
             "the next prompt is accepted and its request pairs the cut-off call with INTERRUPTED.")
def a_cancelled_run_frees_the_harness(ns):
    async def main():
        script = [lab.reply(lab.call("bash", {"command": "sleep 600"}, id="c1")), lab.say("Back.")]
        h, model = fresh(ns, script, [stage.timed_tool("bash", None)])
        outcome = await consume_until("_run", h.prompt("Wait."), "tool_execution_start")
        running = h.is_running
        if running:
            return outcome, running, None, model
        async for _ in h.prompt("Carry on."):
            pass
        return outcome, running, h.messages, model

    outcome, running, messages, model = drive("_run", main())
    expect(outcome == "cancelled", "_run caught the cancellation; it must reach the consumer's task")
    expect(not running, "_run left is_running True after its consumer was cancelled; the finally "
                        "clears it however the run ends")
    sent = toolresults(model.calls[-1].messages)
    expect(len(model.calls) == 2 and sent and sent[0]["content"] == harness.INTERRUPTED,
           "_run's next run did not send the interrupted call paired with INTERRUPTED")


@test(15, 2, "Two sessions, each 20 s of thinking (two replies of 10 s) and an 8 s pytest, "
             "awaited together with asyncio.gather, are both done at t=28, not t=56: one "
             "harness's run does not hold up another's.")
def two_sessions_side_by_side(ns):
    async def one():
        shell = stage.fix_shell()
        tools = [lab.harness_at(15).make_bash_tool(shell)]
        h = ns.Harness(lab.AsyncScriptedModel(stage.fix_script(), latency=10), harness.SYSTEM, tools)
        h._messages = Record()
        await consume("_run", h.prompt(stage.TASK))
        return lab.clock.now

    async def main():
        t0 = lab.clock.now
        ends = await asyncio.gather(one(), one())
        return [since(t0, end) for end in ends]

    ends = drive("_run", main())
    expect(ends == [28.0, 28.0], f"_run let two sessions end at t={ends[0]:g} and t={ends[1]:g}; "
                                 "side by side, each a 20 s think and an 8 s pytest, both end at t=28")


@test(15, 2, "A plain function listener is called as it is; a listener that unsubscribes itself "
             "does not make the next one miss the event.", hidden=True)
def plain_listeners_still_work(ns):
    async def main():
        h, _ = fresh(ns, [lab.say("Ok.")])
        heard = []
        stop = []

        def once(event):
            heard.append(("once", event["type"]))
            stop[0]()
        stop.append(h.subscribe(once))
        h.subscribe(lambda event: heard.append(("always", event["type"])))
        await consume("_run", h.prompt("Hi."))
        return heard

    heard = drive("_notify", main())
    expect(heard[:2] == [("once", "agent_start"), ("always", "agent_start")]
           and sum(1 for who, _ in heard if who == "once") == 1
           and sum(1 for who, _ in heard if who == "always") == 6,
           f"_notify called the listeners as {heard[:4]}...; a plain listener is called once per "
           "event, and one that unsubscribes itself does not make the next miss the event")


@test(15, 2, "Closing the run early (aclose after the first event) clears is_running at once, and "
             "the model is never asked.", hidden=True)
def closing_early_frees_the_harness(ns):
    async def main():
        h, model = fresh(ns, [lab.say("Never.")])
        run = _async_run("_run", h.prompt("Hi."))
        await run.__anext__()
        await run.aclose()
        return h.is_running, len(model.calls)

    running, calls = drive("_run", main())
    expect(not running and calls == 0, f"_run after aclose(): is_running {running}, model calls {calls}")


@test(15, 2, "A listener that raises ends the run: the consumer gets the error, the listeners after "
             "it do not hear that event, and the harness is free again.", hidden=True)
def a_failing_listener_ends_the_run(ns):
    async def main():
        h, _ = fresh(ns, [lab.say("Ok.")])
        heard = []

        async def broken(event):
            await asyncio.sleep(0.5)
            if event["type"] == "turn_start":
                raise OSError("disk full")
        h.subscribe(broken)
        h.subscribe(lambda event: heard.append(event["type"]))
        try:
            await consume("_run", h.prompt("Hi."))
            error = None
        except OSError as failure:
            error = str(failure)
        return error, heard, h.is_running

    error, heard, running = drive("_notify", main())
    expect(error == "disk full", f"_notify did not let the listener's OSError end the run ({error!r})")
    expect(heard == ["agent_start"], f"_notify told the next listener {heard}; after a listener raises "
                                     "no one else hears that event")
    expect(not running, "_run left is_running True after a listener raised")
