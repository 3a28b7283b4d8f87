"""The verdict on one submission, decided in the grader, where no learner code ever runs.

A submission is its solution cells. They run in a sandboxed worker (lab.grader.sandbox) on top of
the lesson's starter harness, every gap a stub. The check cells are the instructor's, taken from
the gradebook, and run here, in the grader: each learner-written name in them (summarize,
find_cut, rows, compact) becomes a proxy into the worker, and `lab.check` becomes a version of
itself that keeps each test's outcome apart. The tests' own objects (the ScriptedModel, the
Workspace, the SessionLog) stay in this process; the learner's code sees handles to them and can
only ask them to do what their public methods do. So the model's record of its calls and the
files in the workspace, which the tests look at, are this process's own, and the verdict is read
from the tests' results, never from anything the learner's code printed.

A check cell earns the points of the tests that passed in it (each test's points are declared
once, in lab.checks; the cell's points are their sum), as lab.check reports them to nbgrader in
the notebook. It earns nothing when it could not run its tests at all: a gap not written, a name
that cannot be read, lab.require_pass refused, or the cell's own code raising.
"""

import asyncio
import functools
import hashlib
import json
import types
from pathlib import Path

import harness
import lab
from lab import checks
from lab.course import manifest
from lab.runtime import takeover
from lab.checks import engine
from lab.grader import sandbox, wire
from lab.grader.session import DEFAULT_TIMEOUT, LazyName, Session, as_python

# 2: a cell's time limit counts CPU seconds (Budget); 3: lab.checks.engine's sentences; 4: per-test
# credit; 5: each test its own time, as in the notebook; 6: and its wall clock, as the notebook's
VERSION = 6


class CellFailed(AssertionError):
    """A check cell's verdict: at least one test failed. `earned` is what its passing tests
    are worth when the tests ran, None when they could not run (the cell then earns nothing)."""

    def __init__(self, reason, earned=None):
        super().__init__(reason)
        self.earned = earned


# -- the learner's cells ------------------------------------------------------------------------

def own_cell(cell):
    """True for a code cell of the learner's own: one with no nbgrader metadata (a cell the
    learner added, for a helper function or class, or a given cell that is neither graded nor
    locked). It runs in the worker where it stands, as in the notebook; what it raises is kept
    to itself, as in a notebook where a later cell still runs."""
    meta = cell.get("metadata", {}).get("nbgrader")
    return cell.get("cell_type") == "code" and not (isinstance(meta, dict) and meta.get("grade_id"))


def learner_cells(nb):
    """[(grade_id, source)] of the solution cells and the learner's own cells (own_cell) of a
    (sanitized) notebook, in order."""
    out = []
    for index, cell in enumerate(nb.cells):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if own_cell(cell):
            out.append((f"cell-{index}", cell.get("source", "")))
        elif cell.get("cell_type") == "code" and meta.get("solution"):
            out.append((str(meta.get("grade_id") or f"cell-{index}"), cell.get("source", "")))
    return out


@functools.cache
def code_digest(leave_out=None):
    """A hash of the code a grade depends on: every .py file of harness/ and lab/, but those under
    the folder `leave_out`; computed once a process. Without `leave_out` it is what a kept verdict
    was computed by (a verdict computed by other code is never reused); regrade leaves the
    lessons out, since it counts each lesson's own code as that lesson's tests."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for package in ("harness", "lab"):
        for path in sorted((root / package).rglob("*.py")):
            if leave_out is not None and Path(leave_out) in path.parents:
                continue
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def verdict_key(lesson, code_cells, grade_cells, timeout, limits):
    payload = json.dumps([VERSION, code_digest(), lesson, code_cells,
                          [[g["grade_id"], g["source"], g["points"]] for g in grade_cells],
                          timeout, limits.rlimits(), sandbox.detect()], sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


# -- the check cell, run here ------------------------------------------------------------------

class GradingLab:
    """`lab` as a check cell sees it while grading: the real package, except that check() runs
    each test on its own, against the worker, and records how it went."""

    def __init__(self, session, say):
        def wrapped(line):   # as lab.runtime.checkcell prints it in the notebook
            indent = line[:len(line) - len(line.lstrip(" "))]
            say(engine.fill(indent, line.strip(" ")))

        self._session, self._say = session, wrapped
        self.results = []   # [[Result]] of every lab.check this cell made, in order

    # lab's functions that read the notebook's namespace or its kernel's state: each needs a
    # grading version here, or the check cell fails rather than running it in the grader.
    NAMESPACE_READERS = ("lab.runtime.checkcell", "lab.runtime.cells", "lab.runtime.takeover",
                         "lab.runtime.guards")

    def __getattr__(self, name):
        value = getattr(lab, name)
        if getattr(value, "__module__", "") in self.NAMESPACE_READERS:
            raise AttributeError(f"lab.{name} reads the notebook's own namespace, and the grader "
                                 "has no grading version of it")
        return value

    def require_pass(self, lesson, lab):
        """As lab.require_pass under nbgrader: these points need lab `lab`'s visible tests to
        have passed, here, in this submission's grading."""
        if (lesson, lab) not in self._session.passed:
            self._say(f"✗ lab {lab}'s visible tests have not passed, so its hidden tests earn nothing.")
            raise CellFailed(f"lab {lab} of lesson {lesson} has not passed its visible tests, "
                             "so its hidden tests earn nothing")

    def check(self, lesson, lab, *, hidden=False, **functions):
        session, say = self._session, self._say
        names = manifest.names(lesson, lab)
        refs, problems = {}, []
        for name in names:
            ref = functions.get(name, LazyName(session, name))
            refs[name] = ref
            try:
                value = session.resolve(ref)
            except wire.Abort as error:
                problems.append(f"{name} could not be read: {_abort_reason(session, error)}")
                continue
            except NameError as error:
                problems.append(str(error))
                continue
            except Exception as error:
                problems.append(f"{name} could not be read: {type(error).__name__}: {error}")
                continue
            try:
                problem = manifest.signature_problem(name, value, lesson)
            except wire.Abort as error:
                problem = f"{name} could not be read: {_abort_reason(session, error)}"
            if problem:
                problems.append(problem)
        if problems:
            for problem in problems:
                say(f"not yet: {problem}.")
            raise CellFailed(f"lab {lab}: " + "; ".join(problems))
        ns = manifest.Namespace(refs)

        def run(t):   # the sandbox's isolation of one test, for engine.run_tests
            seconds = session.test_seconds   # each test's own, as in the notebook
            try:
                with session.time_of_a_test(seconds), takeover.installed(types.SimpleNamespace()):
                    return checks.run_one(t, ns)   # whatever a test installs goes back
            except wire.TimedOut:
                session._stop()
                return engine.overran(t, "your code", f"{seconds:g} s")
            except wire.Abort as error:
                result = checks.Result(t, False, _abort_reason(session, error), False)
                session._stop()
                return result
            except asyncio.CancelledError as error:
                # A BaseException that crosses the wire as itself (a cancellation the learner's
                # coroutine let go, or raised with nothing cancelling it): the notebook's thread
                # reports it in these words (lab.runtime.checkcell), and grading goes on to the next test.
                return checks.Result(t, False, f"it raised {type(error).__name__}: {error}", False)

        def spent():
            return (f"the cell's {session.timeout:g} s had already run out" if session.out_of_time()
                    else "")

        results = engine.run_tests(checks.tests_for(lesson, lab, hidden=hidden), run, spent=spent)
        self.results.append(results)
        if engine.not_done(results):
            # The worker's source cannot be read from here, so every name of the lab is named.
            say(engine.not_done_line(lab, names))
            raise CellFailed(f"lab {lab} is not done")
        for indent, line in engine.report(lesson, lab, results, hidden=hidden):
            say(indent + line)
        if not all(r.passed for r in results):
            raise CellFailed(engine.first_failure(results), earned=sum(r.earned for r in results))
        if not hidden:
            session.passed.add((lesson, lab))


def _abort_reason(session, error):
    if isinstance(error, wire.TimedOut):
        return engine.overran(None, "your code", f"the cell's {session.timeout:g} s").message
    status = session.worker.exit_status() if session.worker is not None else "ended"
    detail = str(error)
    if "protocol" in detail:
        return "your code interfered with the grader's connection to it"
    return f"your code ended the Python process it ran in ({status})"


class _Scope(dict):
    """The names a check cell's code sees: `lab` and `harness`, Python's builtins, and for any
    other name the learner's object of that name, looked up lazily in the worker."""

    def __init__(self, session, given):
        super().__init__(given)
        self._session = session

    def __getitem__(self, name):
        if dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        import builtins
        if hasattr(builtins, name):
            raise KeyError(name)
        return LazyName(self._session, name)


def _builtins_for(shim):
    """Python's builtins for a check cell, with `import lab` (and `from lab import ...`) giving
    the grading version of lab: the real one would look for the learner's names in this process."""
    import builtins
    names = dict(vars(builtins))
    real_import = builtins.__import__

    def grading_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "lab" or name.startswith("lab.")):
            if name.startswith(GradingLab.NAMESPACE_READERS):
                raise ImportError(f"{name} reads the notebook's own namespace; the check cell "
                                  "cannot use it while grading")
            module = real_import(name, globals, locals, fromlist, level)
            if name == "lab" or not fromlist:
                return shim   # `import lab` and `import lab.x` bind the name lab
            return module
        return real_import(name, globals, locals, fromlist, level)

    names["__import__"] = grading_import
    return names


def grade(lesson, code_cells, grade_cells, *, timeout=DEFAULT_TIMEOUT, limits=None, protect=(),
          test_seconds=None):
    """The verdict on one submission.

    code_cells   [(grade_id, source)] the learner's solution cells, in notebook order
    grade_cells  [{"grade_id", "source", "points"}] the instructor's check cells, in order,
                 their source from the gradebook
    protect      directories the worker must not read where no namespace hides them (the
                 course directory; the repository and /tmp always are)
    timeout      CPU seconds of each learner cell, and of each check cell less its tests
    test_seconds CPU seconds of each test (None: the notebook's, lab.checks.engine.TEST_SECONDS)

    Returns {"cells": {grade_id: {"score", "points", "passed", "lines", "reason", "tests"}},
             (score: the points of the tests that passed, all of them when "passed"; tests:
             [[test name, points, points earned]] of every test the cell ran)
             "errors": {cell id: [ename, evalue]}} as plain data.
    """
    import os
    session = Session(lesson, code_cells, timeout=timeout, limits=limits, protect=protect,
                      test_seconds=test_seconds)
    verdicts = {}
    # As under nbgrader: should any of lab's own check functions run here after all, they raise
    # on failure instead of printing (fail closed).
    saved = os.environ.get("NBGRADER_EXECUTION")
    os.environ["NBGRADER_EXECUTION"] = "autograde"
    try:
        for cell in grade_cells:
            lines = []
            session.start_cell()
            shim = GradingLab(session, lines.append)
            scope = _Scope(session, {"lab": shim, "harness": harness})
            reason, earned = "", None
            try:
                code = compile(as_python(cell["source"]), f"<check cell {cell['grade_id']}>", "exec")
                with takeover.installed(types.SimpleNamespace()):
                    exec(code, {"__builtins__": _builtins_for(shim)}, scope)
            except CellFailed as failure:
                reason, earned = str(failure), failure.earned
            except wire.Abort as error:
                reason = _abort_reason(session, error)
                lines.append(f"✗ {reason}.")
                session._stop()
            except AssertionError as failure:
                reason = str(failure) or "an assertion in the check cell failed"
                lines.append(f"✗ {reason}")
            except Exception as error:
                reason = f"the check cell raised {getattr(error, 'remote_type', '') or type(error).__name__}: {error}"
                lines.append(f"✗ {reason}")
            points = float(cell["points"])
            score = points if not reason else min(points, float(earned or 0))
            counted = earned is not None or not reason   # the tests ran to a verdict
            tests = [[r.test.name, float(r.points), float(r.earned if counted else 0)]
                     for results in shim.results for r in results]
            verdicts[cell["grade_id"]] = {"score": score, "points": points, "passed": not reason,
                                          "lines": lines, "reason": reason, "tests": tests}
    finally:
        session.close()
        if saved is None:
            os.environ.pop("NBGRADER_EXECUTION", None)
        else:
            os.environ["NBGRADER_EXECUTION"] = saved
    return {"cells": verdicts, "errors": {k: list(v) for k, v in session.cell_errors.items()}}
