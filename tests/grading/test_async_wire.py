"""The learner's coroutines and async generators under the autograder (lesson 15): the grader
drives them across the wire with a trampoline, so that they await the grader's own awaitable
props on lab's virtual loop as they do in the notebook (lab/grader/wire.py's docstring)."""

import asyncio
import inspect
import time

import pytest

import lab
from lab.checks.handover import Record
from lab.grader import sandbox, verdict, wire
from lab.grader import session as grading_session

MODES = ["process", sandbox.detect()]

# The learner's cells of these tests: run in the worker, and in this process where a test shows
# that the worker's answer is the notebook's.
LEARNER = '''\
import asyncio
import inspect
import lab


async def run_agent(model, prompt):
    yield {"type": "agent_start"}
    reply = await model.complete("sys", [{"role": "user", "content": prompt}], [])
    yield {"type": "message_end", "text": reply["content"][0]["text"]}
    yield {"type": "agent_end"}


async def run_tool(tools, call):
    tool = {t["name"]: t for t in tools}[call["name"]]
    try:
        content = tool["execute"](call["arguments"])
        if inspect.isawaitable(content):
            content = await content
        return {"content": content, "is_error": False}
    except Exception as exc:
        return {"content": f"{type(exc).__name__}: {exc}", "is_error": True}


async def use_shell(shell, command):
    return await shell.run(command)


async def watched(model, record):
    try:
        yield "started"
        reply = await model.complete("sys", [{"role": "user", "content": "go"}], [])
        yield reply
    except BaseException as exc:
        record.append([type(exc).__name__, type(exc) is asyncio.CancelledError])
        raise
    finally:
        record.append("finally")


async def patient(shell, record):
    try:
        await shell.run("serve")
    except asyncio.CancelledError:
        record.append("cancelled, carrying on")
    output, code = await shell.run("pytest")
    return output


async def careful(model):
    try:
        await model.complete("sys", [{"role": "user", "content": "go"}], [])
    except lab.ScriptError as exc:
        return ["caught", type(exc).__name__, str(exc)]


async def passes(make):
    return await make()


async def stops():
    raise StopIteration("inside a coroutine")


async def closable(shell, record):
    try:
        yield 1
        yield 2
    finally:
        await shell.run("sleep 3")
        record.append("finally, after a wait")


async def polite():
    await asyncio.sleep(0)
    return "after a turn"


async def sleepy():
    await asyncio.sleep(1)
    return asyncio.get_running_loop().time()


async def tasked(model):
    async def ask(n):
        await asyncio.sleep(n)
        reply = await model.complete("sys", [{"role": "user", "content": str(n)}], [])
        return [n, reply["content"][0]["text"], asyncio.get_running_loop().time()]
    first = asyncio.create_task(ask(2))
    second = asyncio.ensure_future(ask(1))
    return [await second, await first, asyncio.current_task() is not None]


async def timed(model):
    async with asyncio.timeout(None):
        reply = await asyncio.wait_for(model.complete("sys", [{"role": "user", "content": "go"}], []), 5)
    try:
        await asyncio.wait_for(asyncio.sleep(10), timeout=3)
    except TimeoutError:
        return [reply["content"][0]["text"], "timed out", asyncio.get_running_loop().time()]


async def gathered(model):
    async def ask(n):
        await asyncio.sleep(n)
        return n
    return await asyncio.gather(ask(2), ask(1), model.complete("sys", [{"role": "user", "content": "go"}], []))


def loop_time():
    return asyncio.get_running_loop().time()


async def threaded():
    return await asyncio.to_thread(sorted, [3, 1, 2])


async def futured():
    future = asyncio.Future()
    asyncio.get_running_loop().call_soon(future.set_result, "made here")
    return await future


async def forged(coro):
    fake = type(coro)(coro._peer, 10 ** 6, "coroutine")   # a handle the grader never gave
    return await fake


async def borrowed(model, coro):
    fake = type(coro)(coro._peer, model._handle, "coroutine")   # the grader's model, as if awaitable
    try:
        return await fake
    except TypeError as exc:
        return str(exc)


def kinds(x):
    return [inspect.iscoroutine(x), inspect.isawaitable(x), type(x).__name__]


def coroutine_function(f):
    return [inspect.iscoroutinefunction(f), asyncio.iscoroutinefunction(f)]


def numbers(n):
    for i in range(n):
        yield {"i": i}


def total(items):
    return sum(items)
'''


@pytest.fixture(scope="module", params=MODES)
def worker(request):
    with sandbox.Worker("", mode=request.param) as w:
        w.peer.deadline = None
        assert w.run_cell(LEARNER, "<learner>", time.monotonic() + 30) is None
        yield w


def notebook():
    """The same cells run here, as a notebook runs them."""
    namespace = {"__name__": "learner"}
    exec(compile(LEARNER, "<learner>", "exec"), namespace)
    return namespace


def virtual(main, **options):
    lab.clock.reset()
    return lab.meanwhile(main, **options)


def spinner_and_run(run_agent):
    async def main():
        model = lab.AsyncScriptedModel([lab.say("hi")], latency=20)
        ticks = []

        async def spin():
            while True:
                await asyncio.sleep(1)
                ticks.append(lab.clock.now)

        spinning = asyncio.create_task(spin())
        events = [event async for event in run_agent(model, "go")]
        await asyncio.sleep(0)   # the tick due at 20, with the reply
        spinning.cancel()
        return events, ticks, lab.clock.now, len(model.calls)
    return virtual(main())


def test_the_graders_loop_runs_while_the_learners_async_generator_awaits_the_model(worker):
    """(1) `async for` over the learner's run in the worker; the model thinks for 20 virtual
    seconds in the grader, and a spinner on the grader's loop ticks meanwhile."""
    events, ticks, now, calls = spinner_and_run(worker.lookup("run_agent"))
    assert events == [{"type": "agent_start"}, {"type": "message_end", "text": "hi"}, {"type": "agent_end"}]
    assert ticks == [float(t) for t in range(1, 21)] and now == 20.0 and calls == 1
    assert (events, ticks, now, calls) == spinner_and_run(notebook()["run_agent"])


def test_a_learners_coroutine_awaits_an_async_tool_of_the_graders(worker):
    """(2) The tool's execute is a coroutine function of the grader's: inspect.isawaitable says so
    of its handle in the worker, and the awaited result comes back after the command's duration."""
    shell = lab.AsyncShell({"pytest": "3 passed\n"}, durations={"pytest": 8})

    async def execute(arguments):
        output, code = await shell.run(arguments["command"])
        return output

    tools = [{"name": "bash", "execute": execute}]
    call = {"id": "c1", "name": "bash", "arguments": {"command": "pytest"}}

    async def main():
        result = await worker.lookup("run_tool")(tools, call)
        return result, lab.clock.now, await worker.lookup("use_shell")(shell, "pytest"), lab.clock.now

    assert virtual(main()) == ({"content": "3 passed\n", "is_error": False}, 8.0, ("3 passed\n", 0), 16.0)
    assert len(shell.history) == 2


def test_a_cancelled_task_cancels_the_learners_code_where_it_awaits(worker):
    """(3) The grader cancels the task that consumes the learner's run while the model thinks:
    the learner's code sees asyncio.CancelledError there, its finally runs, and the task ends
    cancelled. Code that swallows the cancellation is seen to carry on."""
    record = Record()
    model = lab.AsyncScriptedModel([lab.say("hi")], latency=20)
    got = []

    async def main():
        async def consume():
            async for event in worker.lookup("watched")(model, record):
                got.append(event)
        task = asyncio.create_task(consume())
        await asyncio.sleep(5)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        return task.cancelled(), lab.clock.now

    assert virtual(main()) == (True, 5.0)
    assert got == ["started"]
    assert record.items == [["CancelledError", True], "finally"]
    assert model.calls[-1].ended is None   # the model's side saw the cancellation too

    shell = lab.AsyncShell({"pytest": "3 passed\n"}, durations={"pytest": 8, "serve": None})
    patient_record = Record()

    async def swallowed():
        # the handle itself is the task's coroutine, as the learner's coroutine is in the notebook
        task = asyncio.create_task(worker.lookup("patient")(shell, patient_record))
        await asyncio.sleep(3)
        task.cancel()
        return await task, task.cancelled(), lab.clock.now

    assert virtual(swallowed()) == ("3 passed\n", False, 11.0)
    assert patient_record.items == ["cancelled, carrying on"]


def test_what_the_graders_awaited_object_raises_reaches_the_learners_code_as_itself(worker):
    """(4) A ScriptError of the model's is caught as lab.ScriptError in the worker; a tool's
    ValueError becomes the tool's error result; one the learner's code lets go comes back as the
    very exception raised, and StopIteration inside a coroutine is Python's RuntimeError."""
    empty = lab.AsyncScriptedModel([])
    caught = virtual(_awaited(worker.lookup("careful"), empty))
    assert caught[:2] == ["caught", "ScriptError"] and "steps are used up" in caught[2]

    error = ValueError("no such file: confg.py")

    async def broken(arguments):
        await asyncio.sleep(2)
        raise error

    tools = [{"name": "read", "execute": broken}]
    result = virtual(_awaited(worker.lookup("run_tool"), tools, {"id": "c1", "name": "read", "arguments": {}}))
    assert result == {"content": "ValueError: no such file: confg.py", "is_error": True}

    async def make():
        await asyncio.sleep(1)
        raise error

    with pytest.raises(ValueError) as raised:
        virtual(_awaited(worker.lookup("passes"), make))
    assert raised.value is error
    with pytest.raises(RuntimeError, match="coroutine raised StopIteration"):
        virtual(_awaited(worker.lookup("stops")))


async def _awaited(function, *args):
    return await function(*args)


def test_a_learners_coroutine_that_never_awaits_is_cut_and_the_session_recovers(monkeypatch):
    """(5) A coroutine that spins in pure Python between awaits is cut at the cell's CPU budget
    (wire.TimedOut), as a plain call is; the session then starts a fresh worker."""
    for mode in dict.fromkeys(MODES):
        monkeypatch.setattr(sandbox, "_mode", mode)
        cells = [("spin", "async def spin():\n    while True:\n        pass\n"), ("value", "VALUE = 42\n")]
        session = grading_session.Session(12, cells, timeout=1)
        try:
            session.start_cell()
            spin = session.resolve(grading_session.LazyName(session, "spin"))
            started = time.monotonic()
            with pytest.raises(wire.TimedOut):
                virtual(_awaited(spin))
            assert time.monotonic() - started < grading_session.WALL_FACTOR + 1
            session.start_cell()
            assert session.resolve(grading_session.LazyName(session, "VALUE")) == 42, mode
        finally:
            session.close()


def test_a_learners_coroutine_awaiting_for_ever_is_cut_by_the_virtual_limit(worker):
    """(5) An await of the grader's that never ends is cut by lab.meanwhile's limit (or found a
    deadlock): the learner's code is cancelled where it waits, and the worker answers the next
    test."""
    shell = lab.AsyncShell(durations={"serve": None})
    record = Record()
    model = lab.AsyncScriptedModel([lab.say("hi")], latency=10 ** 6)
    with pytest.raises(lab.OutOfTime):
        virtual(_consumed(worker.lookup("watched"), model, record), limit=30)
    assert record.items == [["CancelledError", True], "finally"]
    with pytest.raises(lab.Deadlock):   # no timer at all: the loop says so at once, as in the notebook
        virtual(_awaited(worker.lookup("use_shell"), shell, "serve"), limit=30)
    assert worker.lookup("total")([1, 2, 3]) == 6
    assert virtual(_awaited(worker.lookup("polite"))) == "after a turn"


async def _consumed(run, *args):
    return [event async for event in run(*args)]


def test_aclose_runs_the_learners_finally_and_an_open_run_is_closed_at_the_end(worker):
    """(6) aclose() is a call whose result is awaited: the generator's finally runs there, awaits
    included. A run left open is closed when lab.meanwhile winds its loop down, as in the notebook;
    an exhausted one raises StopAsyncIteration."""
    shell = lab.AsyncShell()
    closable = worker.lookup("closable")

    async def closed(record):
        run = closable(shell, record)
        first = await run.__anext__()
        await run.aclose()
        return first, list(record.items), lab.clock.now

    record = Record()
    assert virtual(closed(record)) == (1, ["finally, after a wait"], 3.0)

    def left_open(closable):
        record = Record()

        async def main():
            async for value in closable(shell, record):
                break
            return value, list(record.items)
        return virtual(main()), list(record.items), lab.clock.now

    assert left_open(closable) == ((1, []), ["finally, after a wait"], 3.0)
    assert left_open(closable) == left_open(notebook()["closable"])

    async def exhausted():
        run = closable(shell, Record())
        values = [value async for value in run]
        try:
            await run.__anext__()
        except StopAsyncIteration:
            return values, "StopAsyncIteration"

    assert virtual(exhausted()) == ([1, 2], "StopAsyncIteration")


def test_synchronous_generators_and_calls_cross_as_before(worker):
    """(7) Lessons 1-14: `for event in run_agent(...)`, next() and StopIteration, and a
    generator of the grader's consumed by the learner's code."""
    numbers = worker.lookup("numbers")
    assert [event for event in numbers(3)] == [{"i": 0}, {"i": 1}, {"i": 2}]
    run = numbers(1)
    assert next(run) == {"i": 0}
    with pytest.raises(StopIteration):
        next(run)
    assert worker.lookup("total")(n * n for n in range(4)) == 14
    assert type(numbers).__name__ == "Remote" and not hasattr(numbers, "__await__")


def test_the_handle_of_a_coroutine_is_a_coroutine_to_inspect_and_asyncio(worker):
    """Code that asks inspect.iscoroutine before it awaits (a learner's run_tool, a lab test)
    treats a handle as it treats the coroutine it stands for, on either side; lab.meanwhile and
    create_task take one. type() still says Remote. A coroutine function's handle (a method of
    one too) is a coroutine function to inspect and asyncio, as the function is in the notebook:
    a run_tool that asked inspect.iscoroutinefunction(tool["execute"]) called an async tool and
    kept its coroutine as the content graded, where it awaited it in the notebook."""
    model = lab.AsyncScriptedModel([lab.say("hi")])
    coro = model.complete("sys", [{"role": "user", "content": "go"}], [])
    try:
        assert worker.lookup("kinds")(coro) == [True, True, "Remote"]
    finally:
        coro.close()
    assert worker.lookup("kinds")(lab.say) == [False, False, "Remote"]
    polite, closable = worker.lookup("polite"), worker.lookup("closable")
    handle = polite()
    assert inspect.iscoroutine(handle) and type(handle).__name__ == "Remote"
    assert virtual(handle) == "after a turn"
    assert inspect.isasyncgen(closable(lab.AsyncShell(), Record()))
    assert inspect.iscoroutinefunction(polite) and not inspect.iscoroutinefunction(worker.lookup("kinds"))
    is_async = worker.lookup("coroutine_function")
    assert is_async(model.complete) == [True, True] == notebook()["coroutine_function"](model.complete)
    assert is_async(lab.AsyncShell().run) == [True, True]
    assert is_async(lab.say) == [False, False] == notebook()["coroutine_function"](lab.say)


def test_a_bare_yield_is_a_turn_of_the_graders_loop_and_its_loop_is_the_learners(worker):
    """asyncio.sleep(0) in the learner's code lets the grader's other tasks run, as in the
    notebook. The running loop of the learner's coroutine (and of a plain function of theirs
    that a test's coroutine calls) is the grader's, as the test's loop is in the notebook:
    sleeps, tasks (create_task, ensure_future), current_task, timeout, wait_for and gather do
    there what they do here, on the same virtual clock. Before, each raised "no running event
    loop" graded (a right _notify that awaited each listener through ensure_future or wait_for
    failed graded and passed in the notebook). A future of the worker's own (asyncio.Future()
    made in the worker) is refused in one sentence that says why, and asyncio.to_thread in the
    notebook's words."""
    def order(polite):
        async def main():
            seen = []

            async def other():
                seen.append("other")
            asyncio.create_task(other())
            seen.append(await polite())
            return seen
        return virtual(main())

    assert order(worker.lookup("polite")) == ["other", "after a turn"] == order(notebook()["polite"])
    here = notebook()

    def both(name, *script):
        """(graded, here) of the learner's `name`, each given a model of its own."""
        said = []
        for function in (worker.lookup(name), here[name]):
            args = [lab.AsyncScriptedModel(list(script), latency=1)] if script else []
            said.append(virtual(_awaited(function, *args)))
        return said

    graded, local = both("sleepy")
    assert graded == local, (graded, local)   # the loop's time after one second, on both
    graded, local = both("tasked", lab.say("one"), lab.say("two"))
    assert graded == local and [g[:2] for g in graded[:2]] == [[1, "one"], [2, "two"]] and graded[2], graded
    graded, local = both("timed", lab.say("in time"))
    assert graded == local and graded[:2] == ["in time", "timed out"], graded
    graded, local = both("gathered", lab.say("gathered"))
    assert graded == local and graded[:2] == [2, 1], graded
    async def plainly(function):   # a test's coroutine calling the learner's plain function
        await asyncio.sleep(3)
        return function()
    assert virtual(plainly(worker.lookup("loop_time"))) == virtual(plainly(here["loop_time"]))
    for function in (worker.lookup("loop_time"), here["loop_time"]):   # outside any loop: none
        with pytest.raises(RuntimeError, match="no running event loop"):
            function()
    refused = "the virtual loop runs nothing in threads"   # in the notebook, and now graded
    for function in (here["threaded"], worker.lookup("threaded")):
        with pytest.raises(RuntimeError, match=refused):
            virtual(_awaited(function))
    assert virtual(_awaited(here["futured"])) == "made here"
    with pytest.raises(RuntimeError, match="a future of its own process.*needs a loop here"):
        virtual(_awaited(worker.lookup("futured")))


def test_the_grader_awaits_only_its_own_objects():
    """A handle the learner's code forges makes the grader stop the worker for breaking the
    protocol; one of the grader's own objects that cannot be awaited raises TypeError there."""
    model = lab.AsyncScriptedModel([lab.say("hi")])
    with sandbox.Worker("", mode="process") as w:
        assert w.run_cell(LEARNER, "<learner>", time.monotonic() + 30) is None

        async def main(name):
            coro = model.complete("sys", [{"role": "user", "content": "go"}], [])
            try:
                if name == "borrowed":
                    return await w.lookup(name)(model, coro)
                return await w.lookup(name)(coro)
            finally:
                coro.close()

        assert "can't be used in 'await' expression" in virtual(main("borrowed"))
        with pytest.raises(wire.Gone, match="protocol"):
            virtual(main("forged"))


def test_a_cancellation_that_escapes_a_lab_test_fails_that_test_and_grading_goes_on(monkeypatch):
    """asyncio.CancelledError is a BaseException that now crosses as itself: one the learner's
    coroutine raises with nothing cancelling it fails the test it escapes, in the notebook's
    words, and the next test still runs."""
    from lab import checks
    session = grading_session.Session(12, [("quits", "import asyncio\nasync def quits():\n"
                                              "    raise asyncio.CancelledError('gave up')\n")], timeout=10)

    def test_quits(ns):
        virtual(_awaited(session.resolve(grading_session.LazyName(session, "quits"))))

    def test_after(ns):
        pass

    tests = [checks.Test(12, 1, name, name, False, 1, run) for name, run in
             (("test_quits", test_quits), ("test_after", test_after))]
    monkeypatch.setattr(verdict.manifest, "names", lambda lesson, lab=None: [])
    monkeypatch.setattr(verdict.checks, "tests_for", lambda lesson, lab, hidden=None: tests)
    try:
        session.start_cell()
        shim = verdict.GradingLab(session, lambda line: None)
        with pytest.raises(verdict.CellFailed):
            shim.check(12, 1)
        quits, after = shim.results[0]
        assert not quits.passed and quits.message.startswith("it raised CancelledError"), quits.message
        assert after.passed
    finally:
        session.close()


@pytest.mark.parametrize("awaited", ["await asyncio.ensure_future(heard)",
                                     "await asyncio.wait_for(heard, timeout=None)",
                                     "await asyncio.get_running_loop().create_task(heard)"],
                         ids=["lesson15-ensure_future", "lesson15-wait_for", "lesson15-create_task"])
def test_a_right_notify_that_awaits_through_the_loop_earns_its_points_graded(awaited):
    """A _notify that awaits each listener to its end through the loop (a task, a wait_for)
    meets lesson 15's contract and passes every test of lab 2 in the notebook; graded, the
    worker had no running loop, and the same cell failed with "no running event loop"."""
    from lab import checks
    from lab.course import manifest
    from lab.grader import fixtures
    master = fixtures.master_of(15)
    gap = fixtures.solution_cells(15, master)["Harness._notify"]
    cells = verdict.learner_cells(master)
    source = dict(cells)[gap]
    assert "            await heard\n" in source
    mine = "import asyncio\n" + source.replace("            await heard\n", f"            {awaited}\n")
    scope = {}
    exec(compile("from harness import *\nimport inspect\n" + mine, "<cell>", "exec"), scope)
    found = {n: manifest.reference(n, 15) for n in manifest.names(15)}
    found["Harness._notify"] = scope["_notify"]
    in_the_notebook = [r.message for r in checks.run(15, 2, manifest.Namespace(found), hidden=False)
                       if not r.passed]
    assert in_the_notebook == []
    graded = verdict.grade(15, [(g, mine if g == gap else s) for g, s in cells],
                           [{"grade_id": "lab2-tests", "points": 1, "source": "import lab\nlab.check(15, lab=2)\n"}],
                           timeout=20)["cells"]["lab2-tests"]
    assert graded["passed"], graded["reason"]


def test_a_run_tool_that_asks_iscoroutinefunction_is_graded_as_in_the_notebook():
    """A run_tool that awaits a tool only when inspect.iscoroutinefunction says its execute is
    one: in the notebook it passes lab 1's visible tests (every async tool there is an async def)
    and fails the hidden test of a plain function that returns a future. Graded, the handle of an
    async tool was no coroutine function, the coroutine became the content, and the visible cell
    failed too ("cannot pickle 'coroutine' object"): 0 points where the notebook's check gave them."""
    from lab import checks
    from lab.course import manifest
    from lab.grader import fixtures
    source = (
        "import inspect\n"
        "async def run_tool(tools, call):\n"
        "    tool = {t['name']: t for t in tools}.get(call['name'])\n"
        "    if tool is None:\n"
        "        return {'role': 'toolResult', 'tool_call_id': call['id'], 'tool_name': call['name'],\n"
        "                'content': f\"Tool {call['name']} not found\", 'is_error': True}\n"
        "    try:\n"
        "        if inspect.iscoroutinefunction(tool['execute']):\n"
        "            content = await tool['execute'](call['arguments'])\n"
        "        else:\n"
        "            content = tool['execute'](call['arguments'])\n"
        "        is_error = False\n"
        "    except Exception as exc:\n"
        "        content, is_error = str(exc), True\n"
        "    return {'role': 'toolResult', 'tool_call_id': call['id'], 'tool_name': call['name'],\n"
        "            'content': content, 'is_error': is_error}\n")
    scope = {}
    exec(compile(source, "<cell>", "exec"), scope)
    found = {n: manifest.reference(n, 15) for n in manifest.names(15)}
    found["run_tool"] = scope["run_tool"]
    ns = manifest.Namespace(found)
    visible = all(r.passed for r in checks.run(15, 1, ns, hidden=False))
    hidden = visible and all(r.passed for r in checks.run(15, 1, ns, hidden=True))
    assert (visible, hidden) == (True, False)
    master = fixtures.master_of(15)
    gap = fixtures.solution_cells(15, master)["run_tool"]
    cells = [(g, source if g == gap else s) for g, s in verdict.learner_cells(master)]
    graded = verdict.grade(15, cells, [
        {"grade_id": "lab1-tests", "points": 1, "source": "import lab\nlab.check(15, lab=1)\n"},
        {"grade_id": "lab1-hidden", "points": 1,
         "source": "import lab\nlab.require_pass(15, lab=1)\nlab.check(15, lab=1, hidden=True)\n"}],
        timeout=20)["cells"]
    assert (graded["lab1-tests"]["passed"], graded["lab1-hidden"]["passed"]) == (True, False), \
        {g: v["reason"] for g, v in graded.items()}
