"""Lesson 15's stage: lab.meanwhile, an event loop whose time is lab.clock. Every test asserts on
the virtual clock, never on real time, and each says what a wrong loop would get."""

import asyncio
import contextvars
import selectors
import subprocess
import sys
import textwrap
import threading

import pytest

import lab
import lab.stage.loop_outcome as loop_outcome
import lab.stage.virtual_loop as virtual_loop


@pytest.fixture(autouse=True)
def clean_clock():
    lab.clock.reset()
    yield
    lab.clock.reset()


class _NeverWait(selectors.DefaultSelector):
    """The real selector, refusing to be asked to wait: a loop that sleeps for real fails here
    at once instead of sleeping."""

    def select(self, timeout=None):
        if timeout != 0:
            raise AssertionError(f"the real selector was asked to wait {timeout!r} s")
        return super().select(0)


def test_a_long_wait_moves_the_clock_and_never_asks_the_real_selector_to_wait(monkeypatch):
    # A loop that sleeps on its timers asks the selector to wait 600 s; one whose time() is the
    # machine's clock ends with lab.clock still at 0.
    monkeypatch.setattr(virtual_loop.selectors, "DefaultSelector", _NeverWait)

    async def main():
        seen = asyncio.get_running_loop().time()
        await asyncio.sleep(600)
        return seen, asyncio.get_running_loop().time()

    assert lab.meanwhile(main()) == (0.0, 600.0)
    assert lab.clock.now == 600.0


def test_two_waits_side_by_side_end_at_20_and_one_after_the_other_at_40():
    ended = []

    async def think(name):
        await asyncio.sleep(20)
        ended.append((name, lab.clock.now))

    async def together():
        await asyncio.gather(think("a"), think("b"))

    async def in_turn():
        await think("a")
        await think("b")

    lab.meanwhile(together())
    assert ended == [("a", 20.0), ("b", 20.0)]
    lab.clock.reset()
    ended.clear()
    lab.meanwhile(in_turn())
    assert ended == [("a", 20.0), ("b", 40.0)]


def _spin(ticks, n=20):
    async def spinner():
        for _ in range(n):
            await asyncio.sleep(1)
            ticks.append(lab.clock.now)
    return spinner()


def test_a_spinner_ticks_while_an_awaited_model_thinks_and_not_while_a_blocking_one_does():
    # A loop that let the blocking call's clock jump count as time the spinner had would show
    # ticks before t=20 in the second half.
    script = [lab.say("done")]
    ticks, replied = [], []

    async def awaited():
        model = lab.AsyncScriptedModel(script, latency=20)
        await asyncio.gather(_spin(ticks), model.complete("s", [lab.user("go")], []))
        replied.append(model.calls[0].ended)

    lab.meanwhile(awaited())
    assert ticks == [float(t) for t in range(1, 21)] and replied == [20.0]

    lab.clock.reset()
    ticks.clear()

    async def blocking():
        model = lab.ScriptedModel(script, latency=20)

        async def think():
            model.complete("s", [lab.user("go")], [])   # the clock jumps inside the call

        await asyncio.gather(_spin(ticks), think())

    lab.meanwhile(blocking())
    assert [t for t in ticks if t < 20] == []     # not one tick while the model thought
    assert ticks[0] == 20.0                       # the first tick, overdue, once it returned


def test_timers_due_at_the_same_instant_run_in_the_order_they_were_set():
    # asyncio's heap alone runs equal timers in an order of its own: with 12 of them it is not
    # the order they were set in.
    order = []

    async def wake(n):
        await asyncio.sleep(5)
        order.append(n)

    async def main():
        await asyncio.gather(*(wake(n) for n in range(12)))

    lab.meanwhile(main())
    assert order == list(range(12))


def test_a_deadlock_stops_the_loop_with_a_sentence_naming_each_waiting_task():
    async def consumer(queue):
        await queue.get()

    async def main():
        queue = asyncio.Queue()
        helper = asyncio.create_task(consumer(queue), name="consumer")
        await asyncio.sleep(3)
        await helper

    with pytest.raises(lab.Deadlock) as caught:
        lab.meanwhile(main())
    assert str(caught.value) == ("every task is waiting and nothing will wake one (t=3.0): "
                                 "consumer (waiting in Queue.get), main (waiting in main).")


def test_the_limit_cancels_the_coroutine_with_a_sentence():
    cleaned = []

    async def busy():
        try:
            while True:
                await asyncio.sleep(1)
        finally:
            cleaned.append(lab.clock.now)   # the cancellation reached it, at the limit

    lab.clock.advance(10)   # the limit counts from the start of the loop, not from t=0
    with pytest.raises(lab.OutOfTime) as caught:
        lab.meanwhile(busy(), limit=30)
    assert str(caught.value) == ("busy was still running after 30 virtual seconds (t=40.0), so it "
                                 "was cancelled; pass a larger limit= to meanwhile() if it is meant "
                                 "to take longer.")
    assert cleaned == [40.0]
    assert isinstance(caught.value, TimeoutError)


def test_a_limit_timer_does_not_hide_a_deadlock():
    # A loop that counted the limit's own timer as something to wait for would run to t=100
    # and report the limit instead.
    async def main():
        await asyncio.Event().wait()

    with pytest.raises(lab.Deadlock, match=r"\(t=0\.0\): main \(waiting in Event.wait\)"):
        lab.meanwhile(main(), limit=100)
    assert lab.clock.now == 0.0


class Odd(Exception):
    pass


async def _fails_deep():
    await asyncio.sleep(2)
    raise Odd("at two", 2)


def test_an_exception_from_the_coroutine_comes_out_unchanged():
    async def main():
        await _fails_deep()

    with pytest.raises(Odd) as caught:
        lab.meanwhile(main())
    assert caught.value.args == ("at two", 2)
    assert caught.value.__context__ is None     # not raised while handling something of ours
    names = [entry.name for entry in caught.traceback]
    assert names[-2:] == ["main", "_fails_deep"]   # its own frames still end the traceback


def test_pending_tasks_are_cancelled_and_finish_when_the_coroutine_returns():
    finished = []

    async def background():
        try:
            await asyncio.sleep(1000)
        finally:
            finished.append(lab.clock.now)

    async def main():
        asyncio.create_task(background())
        await asyncio.sleep(1)
        return "done"

    assert lab.meanwhile(main()) == "done"
    assert finished == [1.0]


def test_a_task_that_swallows_every_cancellation_is_named_in_a_sentence():
    # A wind-down that cancelled once and waited would never end; one that gave up in silence
    # would hide the swallowed CancelledError that lesson 15 warns about.
    async def deaf():
        while True:
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                pass

    async def main():
        asyncio.create_task(deaf(), name="deaf")
        await asyncio.sleep(1)

    with pytest.raises(RuntimeError, match=r"^deaf would not stop: cancelled 10 times, it carried "
                                           r"on each time; let asyncio.CancelledError go up"):
        lab.meanwhile(main())


def test_a_failed_task_nobody_awaited_is_not_passed_over_in_silence():
    async def typist():
        raise KeyError("no such key")

    async def main():
        asyncio.create_task(typist(), name="typist")
        await asyncio.sleep(1)

    with pytest.raises(lab.Unheard, match=r"^typist raised KeyError: 'no such key', and nobody "):
        lab.meanwhile(main())


def test_a_failed_task_that_was_awaited_is_the_coroutines_business():
    async def typist():
        raise KeyError("no such key")

    async def main():
        task = asyncio.create_task(typist())
        try:
            await task
        except KeyError:
            return "handled"

    assert lab.meanwhile(main()) == "handled"


def test_inside_a_running_loop_it_is_awaited_and_runs_on_its_own_loop():
    async def on_virtual_time():
        await asyncio.sleep(20)
        return asyncio.get_running_loop(), lab.clock.now

    async def cell():
        outside = asyncio.get_running_loop()
        pending = lab.meanwhile(on_virtual_time())
        assert isinstance(pending, asyncio.Future)   # handed back at once, to be awaited
        inside, now = await pending
        return inside is not outside, isinstance(inside, lab.stage.virtual_loop.VirtualLoop), now

    assert asyncio.run(cell()) == (True, True, 20.0)


def test_inside_a_running_loop_an_exception_still_comes_out_unchanged():
    async def cell():
        return await lab.meanwhile(_fails_deep())

    with pytest.raises(Odd) as caught:
        asyncio.run(cell())
    assert caught.value.args == ("at two", 2)
    assert caught.traceback[-1].name == "_fails_deep"


def test_cancelling_the_awaited_future_cancels_the_coroutine_on_the_virtual_loop():
    # Without the hand-over of the cancel, the coroutine below would run on for ever in its
    # thread (it has no limit), and joining the thread would never return.
    stopped = threading.Event()

    async def endless():
        try:
            while True:
                await asyncio.sleep(1)
        finally:
            stopped.set()

    async def cell():
        pending = lab.meanwhile(endless(), limit=None)
        await asyncio.sleep(0)
        pending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await pending

    asyncio.run(cell())
    for thread in threading.enumerate():
        if thread.name == "lab.meanwhile":
            thread.join(timeout=60)   # a bound, so that a cancel that went nowhere fails, not hangs
    assert stopped.is_set()


def test_the_coroutine_sees_the_callers_context_variables():
    # ipykernel tells cells apart by a context variable: a loop that dropped the caller's
    # context would print into no cell.
    where = contextvars.ContextVar("where", default="nowhere")
    where.set("this cell")

    async def main():
        return where.get()

    async def cell():
        return await lab.meanwhile(main())

    assert lab.meanwhile(main()) == "this cell"
    assert asyncio.run(cell()) == "this cell"


def test_outside_a_running_loop_it_returns_the_value():
    async def main():
        await asyncio.sleep(1)
        return 42

    assert lab.meanwhile(main()) == 42


def test_times_print_as_the_course_prints_them():
    # "%g" would print 12345.678 as 12345.7 and a day and a bit as 8.64e+04.
    assert [loop_outcome.at(t) for t in (20, 0.25, 12345.678, 86400.5, 1e-6)] == [
        "20.0", "0.25", "12345.678", "86400.5", "0.000001"]


def test_bad_arguments_are_refused_in_a_sentence():
    async def main():
        return 1

    with pytest.raises(TypeError, match=r"^meanwhile\(\) takes a coroutine, such as main\(\) "):
        lab.meanwhile(main)
    with pytest.raises(ValueError, match=r"limit=\.\.\.\) takes a number of virtual seconds"):
        lab.meanwhile(main(), limit=0)

    async def nested():
        return lab.meanwhile(main())

    with pytest.raises(RuntimeError, match="already running a virtual loop"):
        lab.meanwhile(nested())


def test_threads_are_refused_since_they_take_real_time():
    async def main():
        await asyncio.to_thread(print, "hi")

    with pytest.raises(RuntimeError, match="runs nothing in threads"):
        lab.meanwhile(main())


# Every way the loop can end, in a fresh interpreter in development mode (asyncio's debug mode,
# ResourceWarnings shown): asyncio's "Task was destroyed but it is pending!", "exception was
# never retrieved", "never awaited" and "Executing ... took" would all land on stderr.
_EVERY_ENDING = """
import asyncio, threading, lab

async def slow():
    lab.ScriptedModel([lab.say("x")], latency=20).complete("s", [lab.user("u")], [])

async def spins():
    async def spin():
        while True:
            await asyncio.sleep(1)
    asyncio.create_task(spin())
    await asyncio.sleep(5)

async def stuck():
    asyncio.create_task(asyncio.Event().wait())
    await asyncio.Event().wait()

async def endless():
    while True:
        await asyncio.sleep(1)

async def fails():
    raise ValueError("boom")

async def unheard():
    async def broken():
        raise KeyError("k")
    asyncio.create_task(broken())
    await asyncio.sleep(1)

async def abandoned():
    async def events():
        try:
            while True:
                yield 1
                await asyncio.sleep(1)
        finally:
            await asyncio.sleep(1)
    async for _ in events():
        break

async def deaf():
    async def swallows():
        while True:
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                pass
    asyncio.create_task(swallows())
    await asyncio.sleep(1)

async def cell():
    # -X dev's debug mode reports a step over 0.1 s; on a busy machine this outer wait is
    # one, which says the machine is loaded, not that an ending wrote to stderr.
    asyncio.get_running_loop().slow_callback_duration = 3600
    return await lab.meanwhile(spins())

for coro in (slow(), spins(), stuck(), endless(), fails(), unheard(), abandoned(), deaf()):
    try:
        lab.meanwhile(coro, limit=50)
    except Exception as exc:
        print(type(exc).__name__)
print(asyncio.run(cell()))

async def gives_up():
    asyncio.get_running_loop().slow_callback_duration = 3600   # as in cell(): load is not an ending
    pending = lab.meanwhile(endless(), limit=None)
    await asyncio.sleep(0)
    pending.cancel()
    try:
        await pending
    except asyncio.CancelledError:
        print("CancelledError")

asyncio.run(gives_up())
for thread in threading.enumerate():
    if thread.name == "lab.meanwhile":
        thread.join()
"""


def test_no_ending_writes_to_stderr():
    out = subprocess.run([sys.executable, "-X", "dev", "-c", textwrap.dedent(_EVERY_ENDING)],
                         capture_output=True, text=True, timeout=120)
    assert out.stderr == ""
    assert out.stdout.split() == ["Deadlock", "OutOfTime", "ValueError", "Unheard", "RuntimeError",
                                  "None", "CancelledError"]


def test_a_stale_record_of_a_running_loop_is_not_believed_and_is_put_back():
    # A synchronous wrapper around another loop (jupyter_client's, in the grader's process) can
    # leave this thread's record of a running loop behind. Believed, it made meanwhile hand back
    # an awaitable instead of the value, and asyncio refuse to start the virtual loop.
    stopped = asyncio.new_event_loop()
    asyncio._set_running_loop(stopped)
    try:
        async def main():
            await asyncio.sleep(5)
            return "done"
        start = lab.clock.now
        assert lab.meanwhile(main()) == "done" and lab.clock.now - start == 5
        assert asyncio._get_running_loop() is stopped   # whoever left it finds it as it was
    finally:
        asyncio._set_running_loop(None)
        stopped.close()


def test_an_interrupted_cell_stops_a_coroutine_that_never_awaits_and_frees_the_loop():
    # A cell's interrupt cancels what it awaits; a coroutine spinning without an await never sees
    # that, so its thread is interrupted a moment later, and the next meanwhile() may start.
    import time

    async def spin():
        while True:
            pass

    async def cell():
        waiting = lab.meanwhile(spin())     # a loop runs here, so meanwhile uses a thread
        await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(cell())
    deadline = time.monotonic() + 10
    while virtual_loop.worker_thread() is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert virtual_loop.worker_thread() is None

    async def fine():
        return "ran"
    assert lab.meanwhile(fine()) == "ran"


def test_the_stop_meant_for_a_cancelled_cell_never_reaches_the_next_cells_thread():
    # A cancelled coroutine that ends at once leaves its interrupt timer behind; the interrupt
    # must not land in the thread of the next meanwhile(), started within that grace.
    import time

    async def polite():   # busy in real time, but it awaits: a cancel ends it at once
        while True:
            time.sleep(0.01)
            await asyncio.sleep(0)

    async def busy():
        time.sleep(virtual_loop.GRACE + 0.3)   # real time, past the first cell's grace
        return "finished"

    async def cells():
        first = lab.meanwhile(polite())
        await asyncio.sleep(0.05)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        while virtual_loop.worker_thread() is not None:   # it ends at its next await
            await asyncio.sleep(0.01)
        try:
            return await lab.meanwhile(busy())
        except BaseException as error:   # a KeyboardInterrupt would otherwise stop pytest itself
            pytest.fail(f"the next cell's meanwhile() got {type(error).__name__}, meant for the first")

    assert asyncio.run(cells()) == "finished"
