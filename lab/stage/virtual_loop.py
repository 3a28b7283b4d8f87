"""An event loop on virtual time, for lesson 15: awaiting costs virtual seconds, never real ones.

    await lab.meanwhile(main())      in a notebook cell, where the kernel already runs a loop
    lab.meanwhile(main())            on the command line or in the grader's worker: the value

meanwhile(coro) runs `coro` on a fresh loop whose time() is lab.clock. When no callback is ready
and the next timer is due at t, the loop moves the clock to t at once instead of sleeping, so a
20-second wait on the model costs no real time at all. Timers due at the same instant run in the
order they were scheduled, so every run prints the same times in the same order.

Our simplification: a real loop sleeps until its next timer, and two timers due together may run
in either order; real I/O would arrive at real times. Here the only time is lab.clock, and real
I/O, if a coroutine has any, is polled without waiting.
"""

import asyncio
import contextvars
import gc
import inspect
import selectors
import threading
import weakref
from concurrent.futures import Future

from .loop_outcome import PLACES, WIND_DOWN_ROUNDS, _name, _outcome, _where
from .virtual_time import clock

DEFAULT_LIMIT = 3600.0   # virtual seconds: an hour of virtual time is minutes of busy real time
_WIND_DOWN_GRACE = 60.0  # virtual seconds a cancelled task may take to finish, each round

_one_at_a_time = threading.Lock()   # the clock is one, so only one virtual loop may run


# == the loop ==


class _Due(float):
    """A timer's due time that remembers the order timers were scheduled in, so that two timers
    due at the same instant run first-scheduled first (asyncio's heap alone does not promise it)."""

    def __new__(cls, when, order):
        due = super().__new__(cls, when)
        due.order = order
        return due

    def _key(self, other):
        return (float(self), self.order), (float(other), getattr(other, "order", -1))

    def __lt__(self, other):
        mine, theirs = self._key(other)
        return mine < theirs

    def __gt__(self, other):
        mine, theirs = self._key(other)
        return mine > theirs


class _VirtualSelector(selectors.BaseSelector):
    """A selector that never waits for real. Real I/O is polled; when nothing is ready, it moves
    lab.clock on to the next timer, or, when no timer is left that a task set, tells its loop
    that nothing will ever happen again."""

    def __init__(self):
        self._real = selectors.DefaultSelector()
        self.loop = None   # set by VirtualLoop, which is made around this selector

    def register(self, fileobj, events, data=None):
        return self._real.register(fileobj, events, data)

    def unregister(self, fileobj):
        return self._real.unregister(fileobj)

    def modify(self, fileobj, events, data=None):
        return self._real.modify(fileobj, events, data)

    def get_map(self):
        return self._real.get_map()

    def close(self):
        self._real.close()

    def select(self, timeout=None):
        """What is ready now. `timeout` is how long the loop would sleep (None: for ever); instead
        of sleeping, the clock jumps by it, or the loop is told that it is stuck."""
        ready = self._real.select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None or not self.loop._waiting_timers():
            self.loop._stuck()
        else:
            clock.advance(timeout)
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose time() is lab.clock and whose selector never sleeps (see the
    module's docstring). Made and run by meanwhile(); a cell should not need it directly."""

    def __init__(self):
        selector = _VirtualSelector()
        super().__init__(selector)
        selector.loop = self
        self._order = 0
        self._timers = []          # the timers tasks set, to tell a wait from a deadlock
        self._limit_timer = None
        self.stuck_at = None       # the clock when every task waited and nothing could wake one
        self.unheard = []          # what asyncio would have logged to stderr, kept instead
        self.tasks = weakref.WeakSet()
        self.set_debug(False)      # debug mode would time callbacks on this clock and warn
        self.set_exception_handler(lambda loop, context: self.unheard.append(context))
        self.set_task_factory(self._make_task)

    def time(self):
        """The loop's clock is the course's one virtual clock."""
        return clock.now

    def call_at(self, when, callback, *args, context=None):
        """asyncio's call_at, with the due time put on the clock's grid and tagged with the order
        of scheduling, so that timers due together keep that order."""
        self._order += 1
        handle = super().call_at(_Due(round(when, PLACES), self._order), callback, *args,
                                 context=context)
        self._timers.append(handle)
        return handle

    def run_in_executor(self, executor, func, *args):
        """Refused: work in a thread takes real time, which this loop's clock cannot see."""
        raise RuntimeError("the virtual loop runs nothing in threads (run_in_executor, "
                           "asyncio.to_thread): a thread takes real time, which lab.clock cannot "
                           "see; make the slow step a coroutine that awaits asyncio.sleep instead.")

    def _make_task(self, loop, coro, **options):
        task = asyncio.Task(coro, loop=loop, **options)
        self.tasks.add(task)
        return task

    def _waiting_timers(self):
        """True while a timer set by a task (not the limit's) is still to run. Called only when
        nothing is ready, so every timer due by now has already run."""
        now = clock.now
        self._timers = [h for h in self._timers
                        if not h.cancelled() and h.when() > now and h is not self._limit_timer]
        return bool(self._timers)

    def _stuck(self):
        self.stuck_at = clock.now
        self.stop()


# == running a coroutine on it ==


def meanwhile(coro, limit=DEFAULT_LIMIT):
    """Run the coroutine `coro` on a fresh VirtualLoop, and give back what it returns.

    Where no event loop runs in the calling thread (a script, the command line, the grader's
    worker), it runs `coro` right there and returns its value. Where one does (a notebook cell,
    which the kernel runs on its own loop), it runs the virtual loop in a worker thread and
    returns an awaitable at once: `await lab.meanwhile(main())`. The running loop is never
    patched, and the caller's context variables are seen by `coro`.

    Whatever `coro` raises comes out unchanged (the same exception object). Tasks that are still
    pending when it returns are cancelled and given their turn to finish, as asyncio.run does.
    It raises instead:
    - Deadlock, when every task waits and nothing will wake one (no timer, no ready callback);
    - OutOfTime, when `coro` is still running `limit` virtual seconds after the start (None: no
      limit); it is cancelled first;
    - Unheard, when `coro` succeeded but another task failed and nobody awaited it.
    Only one virtual loop runs at a time, since there is one clock."""
    if not inspect.iscoroutine(coro):
        named = getattr(coro, "__name__", None)
        hint = f" such as {named}() with the brackets," if named and callable(coro) else ""
        raise TypeError(f"meanwhile() takes a coroutine,{hint} not {coro!r}.")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float))
                              or limit <= 0):
        coro.close()
        raise ValueError(f"meanwhile(limit=...) takes a number of virtual seconds above 0, or "
                         f"None for no limit, not {limit!r}.")
    if not _one_at_a_time.acquire(blocking=False):
        coro.close()   # never awaited: closing it keeps Python's warning off stderr
        raise RuntimeError("lab.meanwhile is already running a virtual loop; inside a coroutine "
                           "on it, await the other coroutine directly instead of calling "
                           "meanwhile() again.")
    stale = _stale_running_loop()
    if stale is None and asyncio._get_running_loop() is not None:
        return _in_a_thread(coro, limit)
    # Outside the except clause: an exception of the coroutine's must not get ours as context.
    try:
        loop, main, ran_out = _start(coro, limit, contextvars.copy_context())
        return _finish(loop, main, coro, limit, ran_out)
    finally:
        asyncio._set_running_loop(stale)
        _one_at_a_time.release()


def _stale_running_loop():
    """A record of a running loop that this thread holds although no loop runs in it, taken away
    (and returned, for putting back afterwards); None when the record is true or there is none.
    A synchronous wrapper around another event loop (jupyter_client's, under nbclient and nbgrader,
    in a grader's process) can leave one behind. Believing it, meanwhile would hand back an
    awaitable where a value is wanted, and asyncio would refuse to start the virtual loop."""
    loop = asyncio._get_running_loop()
    if loop is None or (loop.is_running() and getattr(loop, "_thread_id", None) == threading.get_ident()):
        return None
    asyncio._set_running_loop(None)
    return loop


GRACE = 0.5      # real seconds a cancelled coroutine has to end before its thread is interrupted
_worker = [None]  # the ident of the thread running a virtual loop for a notebook cell, or None


def worker_thread():
    """The thread in which meanwhile() runs a virtual loop for a caller's running loop (a notebook
    cell's), or None: where the learner's code runs, and so where a stop must be sent."""
    return _worker[0]


def interrupt_worker(exception, only=None):
    """Raise `exception` (a class) inside the thread of worker_thread(), if one runs (and is `only`,
    when given), the next time it runs Python: the way to stop code that never awaits, which a
    task's cancel cannot reach. Returns the ident it was sent to, or None."""
    import ctypes  # here: the grader's sandbox forbids ctypes, and never runs a loop in a thread
    target = _worker[0]
    if target is None or (only is not None and target != only):
        return None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(exception))
    return target


def interrupt_if_still(mine, done):
    """interrupt_worker(KeyboardInterrupt) for the thread `mine` holds, if it is still the
    worker and its call (whose outcome `done` gets) has not ended."""
    if mine and not done.done():
        interrupt_worker(KeyboardInterrupt, only=mine[0])


def _in_a_thread(coro, limit):
    """Run the virtual loop in a worker thread; an asyncio future of the caller's loop gets its
    outcome. Cancelling that future (an interrupted cell) cancels the coroutine."""
    done = Future()
    mine = []   # the ident of this call's thread, once it runs
    # Made here, not in the thread, so that a cancel arriving at once has a task to cancel.
    try:
        loop, main, ran_out = _start(coro, limit, contextvars.copy_context())
    except BaseException:
        _one_at_a_time.release()
        raise

    def work():
        # Running from now on, so the caller's cancel reaches the coroutine (give_up) instead of
        # cancelling this future, which could then no longer take the outcome.
        wanted = done.set_running_or_notify_cancel()
        _worker[0] = threading.get_ident()
        mine.append(_worker[0])
        try:
            value, failure = _finish(loop, main, coro, limit, ran_out), None
        except BaseException as exc:  # every outcome goes to the caller, nothing to the thread
            value, failure = None, exc
        _worker[0] = None
        _one_at_a_time.release()      # before the caller hears, so it may start another at once
        if not wanted:
            return                    # the caller gave up before the thread began
        if failure is None:
            done.set_result(value)
        else:
            done.set_exception(failure)

    outcome = asyncio.wrap_future(done)

    def give_up(fut):
        if fut.cancelled():
            try:
                loop.call_soon_threadsafe(main.cancel)
            except RuntimeError:      # the loop has closed meanwhile: nothing left to cancel
                pass
            # Code that never awaits never sees that cancel: after a moment, interrupt the thread,
            # if it still runs this call (by then another cell may have a thread of its own).
            later = threading.Timer(GRACE, interrupt_if_still, args=(mine, done))
            later.daemon = True
            later.start()
    outcome.add_done_callback(give_up)
    threading.Thread(target=work, name="lab.meanwhile", daemon=True).start()
    return outcome


def _until_done(loop, futures, grace=None):
    """Run `loop` until every one of `futures` is done, the loop is stuck, or (with `grace`)
    that many virtual seconds have passed."""
    loop.stuck_at = None
    waiting = [f for f in futures if not f.done()]
    if not waiting:
        return
    together = asyncio.gather(*waiting, return_exceptions=True)
    together.add_done_callback(lambda _: loop.stop())
    alarm = loop.call_at(clock.now + grace, loop.stop) if grace is not None else None
    if alarm is not None:
        loop._timers.remove(alarm)   # the alarm wakes nobody: a wait for it alone is stuck
    try:
        loop.run_forever()
    finally:
        if alarm is not None:
            alarm.cancel()


def _wind_down(loop):
    """Cancel every task still pending, and let each finish, as asyncio.run does; then close the
    async generators left open. Returns the names of tasks that would not stop."""
    for _ in range(WIND_DOWN_ROUNDS):
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        if not pending:
            break
        for task in pending:
            task.cancel()
        _until_done(loop, pending, _WIND_DOWN_GRACE)
    stubborn = sorted(_name(t) for t in asyncio.all_tasks(loop) if not t.done())
    if not stubborn:
        closing = loop.create_task(loop.shutdown_asyncgens(), name="shutdown_asyncgens")
        _until_done(loop, [closing], _WIND_DOWN_GRACE)
        if closing.done() and not closing.cancelled():
            closing.exception()   # looked at, so asyncio keeps quiet about it
    return stubborn


def _start(coro, limit, context):
    """A fresh VirtualLoop with `coro` as its main task, and the limit set; not yet running."""
    loop = VirtualLoop()
    main = loop.create_task(coro, context=context)
    ran_out = []

    def out_of_time():
        ran_out.append(clock.now)
        main.cancel()

    if limit is not None:
        loop._limit_timer = loop.call_at(clock.now + limit, out_of_time)
    return loop, main, ran_out


def _finish(loop, main, coro, limit, ran_out):
    """Run `loop` in this thread until `main` is done, wind it down, and close it (see meanwhile)."""
    main.add_done_callback(lambda _: loop.stop())
    try:
        loop.run_forever()
        stuck = loop.stuck_at if not main.done() else None
        waiting = sorted(_where(t) for t in asyncio.all_tasks(loop)
                         if not t.done()) if stuck is not None else []
        if loop._limit_timer is not None:
            loop._limit_timer.cancel()
        stubborn = _wind_down(loop)
    finally:
        loop.close()
    others, unheard = [t for t in loop.tasks if t is not main], loop.unheard
    del loop
    if others:
        del others
        gc.collect()   # a failed task nobody awaited reports itself when it is collected
    return _outcome(main, coro, limit, ran_out, stuck, waiting, stubborn, unheard)


