"""How a run on lesson 15's virtual loop ended, said in the learner's terms: the errors the loop
stops with, each task named as the learner wrote it, times printed as the course prints them, and
the one exception that says best how the run ended. lab/stage/virtual_loop.py runs the loop.
"""

import asyncio

# The clock's grain: Clock.advance rounds to this many decimals, and timers are put on the same
# grid, so that moving the clock to a timer's due time lands on it exactly.
PLACES = 6
WIND_DOWN_ROUNDS = 10   # how often a task that will not stop is cancelled before we give up on it


class Deadlock(RuntimeError):
    """Every task on the virtual loop waits for something that nothing will ever bring: no timer
    is set, no callback is ready. The message names the waiting tasks."""


class OutOfTime(TimeoutError):
    """The coroutine given to meanwhile() was still running at its limit of virtual seconds, and
    has been cancelled."""


class Unheard(RuntimeError):
    """A task on the virtual loop failed and nobody awaited it, so its exception would otherwise
    pass in silence. The task's exception is the __cause__."""


def _short(qualname):
    """A function's name as it reads in its own code: without the "outer.<locals>." before it."""
    return qualname.rsplit("<locals>.", 1)[-1]


def _name(task):
    """A task's name as the learner wrote it: the name given to create_task, or its coroutine's."""
    name = task.get_name()
    # asyncio's own names count tasks (and differ run to run); Python 3.13.0 names an unnamed
    # task made through a task factory "None".
    if (name.startswith("Task-") and name[5:].isdigit()) or name == "None":
        name = _short(getattr(task.get_coro(), "__qualname__", "a task"))
    return name


def _where(task):
    """`name (waiting in f)`, f being the innermost coroutine the task is suspended in, found by
    following what each coroutine awaits."""
    inner, step = None, task.get_coro()
    while step is not None:
        code = getattr(step, "cr_code", None) or getattr(step, "gi_code", None)
        if code is None:
            break
        inner = _short(code.co_qualname)
        step = getattr(step, "cr_await", None) or getattr(step, "gi_yieldfrom", None)
    return f"{_name(task)} (waiting in {inner})" if inner else _name(task)


def at(seconds):
    """A time on the clock as the course prints it: 20.0, 0.25, 12345.678 (never 1.2e+04)."""
    if round(seconds, 1) == seconds:
        return f"{seconds:.1f}"
    return f"{seconds:.{PLACES}f}".rstrip("0")


def _outcome(main, coro, limit, ran_out, stuck, waiting, stubborn, unheard):
    """The value of `main`, or the one exception that says best how it ended."""
    name = _short(getattr(coro, "__qualname__", "the coroutine"))
    if stuck is not None:
        raise Deadlock(f"every task is waiting and nothing will wake one (t={at(stuck)}): "
                       f"{', '.join(waiting)}.")
    if ran_out:
        failure = None if main.cancelled() else main.exception()
        raise OutOfTime(f"{name} was still running after {limit:g} virtual seconds (t="
                        f"{at(ran_out[0])}), so it was cancelled; pass a larger limit= to "
                        "meanwhile() if it is meant to take longer.") from failure
    if main.cancelled() or main.exception() is not None:
        return main.result()   # raises the coroutine's own exception, unchanged
    if stubborn:
        raise RuntimeError(f"{', '.join(stubborn)} would not stop: cancelled "
                           f"{WIND_DOWN_ROUNDS} times, it carried on each time; let "
                           "asyncio.CancelledError go up instead of catching it.")
    unheard = [c for c in unheard if c.get("exception") is not None]
    if unheard:
        failed = unheard[0]
        task = failed.get("future") or failed.get("task")
        who = _name(task) if isinstance(task, asyncio.Task) else "a callback"
        exc = failed["exception"]
        raise Unheard(f"{who} raised {type(exc).__name__}: {exc}, and nobody awaited it; "
                      "await the task, or catch the error inside it.") from exc
    return main.result()
