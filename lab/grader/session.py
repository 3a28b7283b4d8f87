"""One submission's sandboxed worker, as the grader holds it while its check cells run: started
on demand from the lesson's starter harness (every gap a stub) with the learner's cells run in it,
started again when the learner's code ends it or runs out of time, and each cell's time counted
in CPU seconds (Budget). lab/grader/verdict.py runs the check cells against it.
"""

import contextlib
import functools
import math
import os
import time

from lab import checks
from lab.checks import engine
from lab.course import manifest, starters
from lab.grader import sandbox, wire, worker_world
from lab.runtime import guards

DEFAULT_TIMEOUT = 30
WALL_FACTOR = 3         # code that waits without computing is stopped at this many times the limit
# A lab test's time is wall-clock time in the notebook (lab.checks.engine.TEST_SECONDS): graded, a
# test that waits without computing (a sleep, a retry's back-off) gets no more than that either.
TEST_WALL_FACTOR = 1


class Budget:
    """The time one cell may take, counted in CPU seconds: the grader's own (a check cell's tests
    run here) and the sandboxed worker's. A machine busy with other work slows a cell down without
    spending its time, so a right answer is not failed for the load of the grading server; code
    that waits without computing (a sleep, a blocked read) is stopped by the wall clock instead,
    at `wall_factor` times the limit (WALL_FACTOR for a cell, TEST_WALL_FACTOR for a lab test, as
    the notebook's wall clock stops it). That wall time leaves out the time the grader and the worker
    spent ready to run but waiting for a CPU, for the same reason: a cell that talks to the worker
    many times waits for a CPU at each turn on a loaded machine. Where the worker's CPU cannot be
    read, the wall clock alone.

    `worker_cpu()` gives (a key for the worker process, its CPU seconds, its seconds waiting for a
    CPU) or None, either figure None where it cannot be read. A worker started during the cell
    counts from the moment it is ready (count_from_now), or else from the moment the budget
    first sees it."""

    def __init__(self, seconds, worker_cpu, wall_factor=WALL_FACTOR):
        self.seconds, self.worker_cpu, self.wall_factor = seconds, worker_cpu, wall_factor
        self.started, self.own = time.monotonic(), time.process_time()
        self.own_queued = _own_queued()
        self.first, self.last = {}, {}   # worker key -> (CPU, queued) seconds when first seen, when last read
        self._read_worker()
        self.deadline = self.started + seconds

    def count_from_now(self, starting=0.0):
        """Count the worker's CPU from this moment: called when a worker started during the cell
        is ready, `starting` wall seconds after it was asked for. The learner's cells it ran on
        starting ran before the check cell in the notebook, so their time is not the cell's, on
        the CPU count or on the wall clock; everything the worker does after is."""
        self._read_worker()
        self.started += starting
        self.deadline += starting

    def _read_worker(self):
        reading = self.worker_cpu()
        if reading is None or reading[1] is None:
            return False
        key, seconds, queued = reading
        self.first.setdefault(key, (seconds, queued))
        self.last[key] = (seconds, queued)
        return True

    def used(self):
        """CPU seconds spent on the cell so far, or None if the worker's cannot be read."""
        if not self._read_worker():
            return None
        worker = sum(self.last[key][0] - self.first[key][0] for key in self.last)
        return time.process_time() - self.own + worker

    def waited(self, now):
        """Wall seconds the cell has taken so far, less those the grader and the worker spent
        waiting for a CPU (as far as they can be read)."""
        elapsed = now - self.started
        own = _own_queued()
        queued = own - self.own_queued if own is not None and self.own_queued is not None else 0
        queued += sum(self.last[key][1] - self.first[key][1] for key in self.last
                      if self.last[key][1] is not None and self.first[key][1] is not None)
        return max(elapsed - queued, 0.0)

    def left(self):
        """The seconds the cell has left (by its CPU seconds, or by the wall clock where the
        worker's cannot be read), never below 0."""
        used = self.used()
        if used is None:
            used = time.monotonic() - self.started
        return max(self.seconds - used, 0.0)

    def more(self):
        """A later deadline if the cell still has time left, else None (its time is up)."""
        used = self.used()
        now = time.monotonic()
        wall = self.wall_factor * self.seconds - self.waited(now)
        if wall <= 0 or used is None or used >= self.seconds:
            return None
        self.deadline = now + min(max(self.seconds - used, 0.1), wall)
        return self.deadline


def _own_queued():
    return worker_world.queued_seconds_of([os.getpid()])


# -- what the worker starts from ----------------------------------------------------------------

_starters = {}


def learner_names(lesson):
    """Every full name the learner writes in `lesson`, over all its labs."""
    return manifest.names(lesson)


def worker_starter(lesson):
    """The harness.py the worker loads as `harness`: lesson `lesson`'s last lab's starter with
    every gap of every lab of the lesson a stub again. The reference's answers are in no part of
    it, so a submission that hands a gap back to `harness` gets the stub."""
    if lesson not in _starters:
        stage = starters.Stage(lesson, manifest.last_lab(lesson))
        _starters[lesson] = starters.text_at(stage, every_gap=True)
    return _starters[lesson]


# -- the learner's cells, as Python

@functools.lru_cache(maxsize=1024)
def as_python(source):
    """A cell's source as plain Python: IPython's magics and shell escapes become calls of
    get_ipython(), which does nothing in the worker. The text is only transformed, never run.
    Kept by source: every submission of a lesson has the same check cells."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
        return TransformerManager().transform_cell(source)
    except Exception:
        return source


class LazyName:
    """A learner-written name in a check cell, looked up in the worker only when it is used."""

    def __init__(self, session, path):
        self._session, self._path = session, path

    def __getattr__(self, attribute):
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        return LazyName(self._session, f"{self._path}.{attribute}")

    def __call__(self, *args, **kwargs):
        return self._session.resolve(self)(*args, **kwargs)

    def __repr__(self):
        return f"<the learner's {self._path}>"


class Session:
    """The sandboxed worker for one submission: started on demand, and started again (with the
    cells that ran before) if the learner's code ends it or runs out of time."""

    def __init__(self, lesson, code_cells, *, timeout=DEFAULT_TIMEOUT, limits=None, protect=(),
                 test_seconds=None):
        self.lesson, self.timeout, self.protect = lesson, timeout, list(protect)
        # each lab test's own time: the notebook's (engine.TEST_SECONDS) unless told otherwise
        self.test_seconds = engine.TEST_SECONDS if test_seconds is None else test_seconds
        self.code_cells = [(cell_id, as_python(source)) for cell_id, source in code_cells]
        self.limits = _with_room(limits or worker_world.Limits(cpu_seconds=4 * timeout + 30), lesson,
                                 len(self.code_cells), timeout, self.test_seconds)
        self.worker = None
        self.cache = {}
        self.cell_errors = {}     # cell id -> (ename, evalue) of a learner cell that stopped
        self.skip = set()         # cells that timed out or ended the worker: not run again
        self.passed = set()       # (lesson, lab) whose visible tests passed in this grading
        self.deadline = None
        self.budget = None        # the running check cell's Budget

    def _start(self):
        self.worker = sandbox.Worker(worker_starter(self.lesson), limits=self.limits,
                                     learner_names=learner_names(self.lesson), protect=self.protect,
                                     refusals=guards.refusals(self.lesson), doors=guards.door_refusals())
        self.cache = {}
        for cell_id, source in self.code_cells:
            if cell_id in self.skip:
                continue
            try:
                budget = Budget(self.timeout, self._worker_cpu)
                self.worker.peer.more_time = budget.more
                error = self.worker.run_cell(source, f"<cell {cell_id}>", budget.deadline)
            except wire.TimedOut:
                self.skip.add(cell_id)
                self.cell_errors[cell_id] = ("CellTimeoutError",
                                             f"the cell did not finish within {self.timeout} seconds")
                self._stop()
                return self._start()
            except wire.Gone as gone:
                self.skip.add(cell_id)
                if "protocol" in str(gone):   # the grader stopped it for forging messages
                    self.cell_errors[cell_id] = ("ProtocolBroken", "the cell wrote to the grader's connection "
                                                 "to its process, so the grader stopped that process")
                else:
                    status = self.worker.exit_status()
                    self.cell_errors[cell_id] = ("ProcessEnded", f"the cell ended the Python process ({status})")
                self._stop()
                return self._start()
            if error is not None:
                self.cell_errors.setdefault(cell_id, _describe(error))

    def _stop(self):
        if self.worker is not None:
            self.worker.kill()
            self.worker = None

    def ensure(self):
        if self.worker is None or self.worker.peer.dead is not None:
            self._stop()
            asked = time.monotonic()
            self._start()
            if self.budget is not None:
                self.budget.count_from_now(time.monotonic() - asked)
                self.deadline = self.budget.deadline
        self.worker.peer.deadline = self.deadline
        self.worker.peer.more_time = self._more_time
        return self.worker

    def _worker_cpu(self):
        worker = self.worker
        return None if worker is None else (worker.process.pid, worker.cpu_seconds(), worker.queued_seconds())

    def start_cell(self):
        """Begin a check cell: its Budget starts now."""
        self._use(Budget(self.timeout, self._worker_cpu))

    @contextlib.contextmanager
    def time_of_a_test(self, seconds):
        """For the length of one lab test: a Budget of `seconds` of its own, as each test has in
        the notebook (lab.checks.engine.TEST_SECONDS), so that the tests before it neither
        shorten its time nor lend it theirs; the cell's own time stands still meanwhile. Its wall
        clock stops it at `seconds` too (less the time spent waiting for a CPU), as the notebook's
        does, so code that sleeps through it fails graded as it fails there."""
        outer = self.budget
        left = outer.left() if outer is not None else self.timeout
        self._use(Budget(seconds, self._worker_cpu, TEST_WALL_FACTOR))
        try:
            yield
        finally:
            self._use(Budget(left, self._worker_cpu))

    def _use(self, budget):
        self.budget, self.deadline = budget, budget.deadline
        if self.worker is not None:
            self.worker.peer.deadline = self.deadline

    def _more_time(self):
        later = self.budget.more() if self.budget is not None else None
        if later is not None:
            self.deadline = later
        return later

    def out_of_time(self):
        """True once the running check cell has spent its time (see Budget)."""
        if self.deadline is None or time.monotonic() < self.deadline:
            return False
        return self._more_time() is None

    def resolve(self, value):
        """A check cell's argument as the tests will see it: a LazyName becomes the learner's
        object (plain data, or a Remote into the worker)."""
        if not isinstance(value, LazyName):
            return value
        worker = self.ensure()
        key = value._path
        if key not in self.cache:
            self.cache[key] = worker.lookup(value._path)
        return self.cache[key]

    def close(self):
        if self.worker is not None:
            self.worker.close()
            self.worker = None


def _with_room(limits, lesson, cells, timeout, test_seconds):
    """`limits` with a CPU limit no lower than what the budgets let one worker spend: each of the
    learner's `cells` its `timeout`, each test of the lesson its `test_seconds`, and room to spare.
    The limit is a backstop should the grader stop counting; below the budgets it would end a
    worker whose slow but honest code every test of the notebook passes (lesson 7's 21 tests of
    10 s each are more than 4 cells of 30 s)."""
    try:
        tests = len(checks.tests_for(lesson))
    except ValueError:
        tests = 0   # no such lesson here: its cells alone
    needed = math.ceil(timeout * (cells + 4) + test_seconds * tests + 30)
    if limits.cpu_seconds >= needed:
        return limits
    return worker_world.Limits(memory_mb=limits.memory_mb, cpu_seconds=needed, file_mb=limits.file_mb,
                               open_files=limits.open_files)


def _describe(error):
    name = getattr(error, "remote_type", "") or type(error).__name__
    line = getattr(error, "remote_line", None)
    if line is not None:
        return (name, f"line {line}: {getattr(error, 'remote_msg', '') or error}")
    return (name, str(error))
