"""Demonstration cells that run the learner's code, under the checks' time limit.

Once a lab passes, the demonstrations after it run on the learner's definitions (lab/runtime/takeover.py),
and every lesson lists those cells in its DEMOS. A definition that passed the tests can still loop
for ever on a demonstration's input, and a cell that never ends looks to the learner like a
broken notebook. In a kernel, install() hooks IPython so that such a cell, when it runs on any of
the learner's code, is stopped after LIMIT_TESTS times the checks' own limit
(lab.checks.engine.TEST_SECONDS): a demonstration is several runs and often a figure, and a busy
machine is slow, so it gets more than one test's time, and an endless loop is still stopped in a
sentence, never a hung cell. An overrun or an interrupt is one sentence instead of a traceback.
Every other cell is left exactly as IPython runs it.

Our simplification: the limit stops code that runs in the cell's own thread. A coroutine that
lab.meanwhile runs in a thread of its own is bounded in virtual seconds by meanwhile's limit."""

from lab import lessons
from lab.checks import engine
from lab.runtime import guards, takeover
from lab.runtime.cells import _Watchdog
from lab.runtime.checkcell import Overran
from lab.stage import prose

LIMIT_TESTS = 6   # a demonstration's limit, in checks' time limits
_guarding = {}   # the cell being run, while it is guarded: {"names": [...], "watchdog": ...}


def learners_in(cell_id):
    """The learner's definitions that the demonstration cell `cell_id` runs on now ([] if it is
    no lesson's demonstration, or runs only on the reference)."""
    if not cell_id:
        return []
    mine = {name for name, whose in takeover.running_on().items() if whose == "yours"}
    found = []
    for lesson in lessons.written():
        for demo, _label, names in getattr(lessons.load(lesson), "DEMOS", ()):
            if demo == cell_id:
                found += [n for n in names if n in mine and n not in found]
    return found


def _before(info):
    if "lab.trying(" in (getattr(info, "raw_cell", None) or ""):
        return   # a try-it cell has its own limit and its own sentence
    names = learners_in(getattr(info, "cell_id", None))
    if names:
        _guarding.update(names=names, watchdog=_Watchdog(_limit()))


def _limit():
    return engine.TEST_SECONDS * LIMIT_TESTS


def _after(result):
    watchdog = _guarding.pop("watchdog", None)
    if watchdog is not None:
        watchdog.cancel()
    _guarding.pop("names", None)


def _handler(shell, etype, value, tb, tb_offset=None):
    names = _guarding.get("names")
    if not names:   # not a guarded cell: IPython's own traceback, as ever
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return None
    yours = f"your {prose.joined(names)}"
    if issubclass(etype, Overran):
        print(f"This demonstration ran {yours} for more than {_limit():g} s, so the cell "
              "stopped it: an endless loop? Fix it, run its check again, then this cell.")
    else:
        print(f"Stopped: you interrupted this demonstration while it ran {yours}. Run it again "
              "when you are ready.")
    return None


def install(shell=None):
    """Hook the running IPython shell (none: do nothing). Safe to call again."""
    if shell is None:
        shell = guards.running_shell()
    if shell is None or getattr(shell, "_lab_demo_guard", False):
        return
    shell.events.register("pre_run_cell", _before)
    shell.events.register("post_run_cell", _after)
    shell.set_custom_exc((Overran, KeyboardInterrupt), _handler)
    shell._lab_demo_guard = True
