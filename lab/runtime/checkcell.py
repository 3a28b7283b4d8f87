"""What a notebook's check cell calls: lab.check(12, lab=1) runs the lab's tests on the learner's
functions and says, one line a test, how each went.

For a learner it never raises: an empty gap is "not done yet", a wrong one gets the failing
test's sentence, a cell that failed is named as the cell that defines the name, a test that runs
too long is stopped and reported in a sentence, and an interrupt (the stop button) ends the check
with a sentence, not a traceback. Under nbgrader (NBGRADER_EXECUTION set, as autograde and validate
do) a lab whose tests could not run raises AssertionError, so the cell scores zero, and one
where only some tests passed gives their points as the cell's value, nbgrader's partial score.
When every test passes, the learner's functions go into `harness`, later cells run on them, and
the check names the demonstrations that now run on the learner's code.

The tests run through lab.checks.engine, as lab_check's and the grader's do; the notebook's
isolation is a thread for each test, under a time limit. A thread cannot be killed, so an overrunning one is stopped by raising an exception inside it
(PyThreadState_SetAsyncExc), which works the same on Linux, macOS and Windows and needs neither
signals nor fork.
"""

import ast
import inspect
import os
import re
import sys
import textwrap
import threading
import time

from lab import checks, lessons, rungs
from lab.checks import engine
from lab.course import manifest
from lab.runtime import takeover
from lab.stage import prose

PASSED = set()  # (lesson, lab) pairs whose visible tests passed in this kernel


class Overran(BaseException):
    """Raised inside a test's thread when its time is up. Not an Exception, so that neither a
    test's nor the harness's `except Exception` can take it for a verdict."""


def _caller_globals():
    main = sys.modules.get("__main__")
    return vars(main) if main is not None else {}


def _say(line, indent=""):
    print(engine.fill(indent, line))


def _remember(lesson, lab):
    """Note the pass beside the notebook, so lab.progress still knows it after a restart."""
    try:
        rungs.record_lab(lesson, lab, True)
    except OSError:
        pass  # a read-only folder costs the learner a progress mark, not their check


def _no_longer(lesson, lab, names):
    """A visible check that did not pass: if the lab had passed (in this kernel, or as the
    progress file remembers it), say in one sentence that it no longer does, put the reference
    back under the demonstrations, and let lab.progress show it."""
    before = (lesson, lab) in PASSED
    try:
        before = before or bool(rungs.store.load(lesson)["labs"].get(str(int(lab))))
    except Exception:
        pass  # an unreadable progress file is reported where it is read, not here
    PASSED.discard((lesson, lab))
    takeover.use_names(names)
    if not before:
        return
    try:
        rungs.record_lab(lesson, lab, False)
    except OSError:
        pass
    _say(f"Lab {lab} no longer passes: it passed before, so from here on harness runs on the reference "
         f"{prose.joined(names)} again, until this check passes.")


# -- a cell that failed ---------------------------------------------------------------------------

def _cells_run():
    """The source of every cell this kernel has run, oldest first ([] outside IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return []
    shell = get_ipython()
    if shell is None or getattr(shell, "history_manager", None) is None:
        return []
    return [cell for cell in shell.history_manager.input_hist_raw if cell]


def _defines(source, name):
    """True if a cell's source holds a definition of full name `name` (for a method, the notebook's
    top-level `def rows(self, ...)`, or a def of it inside its class)."""
    attribute = manifest.bare(name)
    if manifest.owner_of(name):
        pattern = rf"^\s*def\s+{re.escape(attribute)}\s*\(\s*self\b"
    else:
        pattern = rf"^\s*(def\s+{re.escape(attribute)}\s*\(|{re.escape(attribute)}\s*=[^=])"
    return re.search(pattern, source, re.MULTILINE) is not None


def _compile_problem(source):
    """"" if a cell's source compiles, else "line N: why" (IPython's own syntax, %magics and
    the like, is turned into Python first, as the kernel does)."""
    try:
        from IPython import get_ipython
        shell = get_ipython()
        if shell is not None:
            source = shell.transform_cell(source)
    except Exception:  # without IPython the source is taken as plain Python
        pass
    try:
        compile(source, "<cell>", "exec")
    except SyntaxError as error:
        return f"line {error.lineno}: {error.msg}"
    return ""


def cell_problem(name, cells=None):
    """Why `name` is missing although a cell that defines it was run: a sentence, or "" when no
    such cell was run (then manifest.find's own sentence says to run it)."""
    cells = _cells_run() if cells is None else cells
    for source in reversed(cells):
        if not _defines(source, name):
            continue
        why = _compile_problem(source)
        if why:
            return (f"the cell that defines {name} does not parse ({why}): fix it and run that cell "
                    "again")
        return (f"the cell that defines {name} raised an error before {manifest.bare(name)} was "
                "defined: fix what that cell reports and run it again")
    return ""


# -- running the tests --------------------------------------------------------------------------

def _where(thread, ns):
    """(full name, line) of the learner's function that `thread` is running, innermost first, or
    (None, None) if it is not inside one."""
    frame = sys._current_frames().get(thread.ident)
    codes = takeover.codes_of(ns.learner())
    while frame is not None:
        if frame.f_code in codes:
            start = frame.f_code.co_firstlineno
            return codes[frame.f_code], frame.f_lineno - start + 1
        frame = frame.f_back
    return None, None


def _stop(thread, grace=2.0, finished=lambda: False):
    """Raise Overran inside `thread` until it ends, for at most `grace` seconds, and never once
    `finished()` says its work is over (the thread is only returning then, and an Overran raised
    there would reach no handler: Python would print it on stderr). True if it ended: code
    blocked inside C (a long sleep) cannot be stopped this way."""
    import ctypes  # here, not at the top: the grader's sandbox forbids ctypes, and never stops a thread
    deadline = time.monotonic() + grace
    while thread.is_alive() and not finished() and time.monotonic() < deadline:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(Overran))
        thread.join(0.05)
    thread.join(max(0.0, deadline - time.monotonic()) if finished() else 0)
    return not thread.is_alive()


class _Interrupted(Exception):
    def __init__(self, test):
        super().__init__(test.title)
        self.test = test


def _run_timed(t, ns, seconds):
    """checks.run_one(t, ns) on a thread of its own, stopped after `seconds`: the notebook's
    isolation of one test, for engine.run_tests."""
    box = {}

    def work():
        try:
            try:
                box["result"] = checks.run_one(t, ns)
            except Overran:
                pass
            except BaseException as error:  # SystemExit and the like, from the learner's code
                box["result"] = checks.Result(t, False, f"it raised {type(error).__name__}: {error}", False)
            finally:
                box["finished"] = True      # from here on _stop raises nothing in this thread
        except Overran:                     # one raised a moment before, arriving only now
            pass

    def finished():
        return box.get("finished", False)

    thread = threading.Thread(target=work, name=f"lab check {t.name}", daemon=True)
    try:
        thread.start()
        deadline = time.monotonic() + seconds
        # Short joins, so that the stop button is felt at once on every platform.
        while thread.is_alive() and not finished() and time.monotonic() < deadline:
            thread.join(0.05)
    except KeyboardInterrupt:
        if thread.ident is not None:
            _stop(thread, finished=finished)
        raise _Interrupted(t) from None
    if finished() and "result" in box:   # the test ended in time; its thread is only returning
        thread.join(1.0)
        return box["result"]
    name, line = _where(thread, ns)
    stopped = _stop(thread, finished=finished)
    who = f"{name} (at line {line} of its definition)" if name else "your code"
    return engine.overran(t, who, f"{seconds:g} s", still_running=not stopped)


def _stubs(found):
    """The names among `found` whose body still raises NotImplementedError, as far as their source
    shows; all of them when no source can be read."""
    stubs = []
    for name, value in found.items():
        function = value.fget if isinstance(value, property) else value
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        except (OSError, TypeError, SyntaxError):
            return list(found)
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                    stubs.append(name)
                    break
    return stubs or list(found)


def _demos(lesson, names):
    """[label] of the lesson's demonstration cells that run on any of `names` (the lesson's DEMOS:
    (cell id, label, full names it runs on), in notebook order)."""
    try:
        demos = getattr(lessons.load(lesson), "DEMOS", ())
    except lessons.NoSuchLesson:
        return []
    return [label for _, label, uses in demos if set(uses) & set(names)]


class Score(float):
    """The points a check cell earned when some of its tests failed, under nbgrader: the cell's
    value, which nbgrader reads as its partial score. Shown as a bare number, as it reads it."""

    def __repr__(self):
        return f"{float(self):g}"


def check(lesson, lab, *, hidden=False, timeout=engine.TEST_SECONDS, **functions):
    """Run lab `lab` of `lesson` on the learner's functions (given by name, or else found in the
    notebook's own namespace) and print the verdicts. `hidden` runs the hidden tests instead.
    Each test has `timeout` seconds."""
    grading = bool(os.environ.get("NBGRADER_EXECUTION"))
    try:
        return _check(lesson, lab, hidden, timeout, grading, functions)
    except _Interrupted as stop:
        _say(f"Check stopped: you interrupted it during the test \"{stop.test.title}\". Nothing was "
             "installed; run this cell again when you are ready.")
        if grading:
            raise AssertionError(f"lab {lab}: the check was interrupted") from None
    except KeyboardInterrupt:
        _say("Check stopped: you interrupted it before any test ran. Nothing was installed; run this "
             "cell again when you are ready.")
        if grading:
            raise AssertionError(f"lab {lab}: the check was interrupted") from None


def _check(lesson, lab, hidden, timeout, grading, functions):
    names = manifest.names(lesson, lab)
    scope = _caller_globals()
    found, problems = {}, []
    for name in names:
        # Given by keyword (full name, or the bare name of a method), it is taken as it is.
        given = [functions[key] for key in (name, manifest.bare(name)) if key in functions]
        try:
            function = given[0] if given else manifest.find(scope, name)
        except manifest.NotFound as error:
            problems.append(cell_problem(name) or str(error))
            continue
        problem = (takeover.the_courses_own(name, function)
                   or manifest.signature_problem(name, function, lesson))
        if problem:
            problems.append(problem)
        found[name] = function
    if problems:
        for problem in problems:
            _say(f"not yet: {problem}.")
        if not hidden and not grading:
            _no_longer(lesson, lab, names)
        if grading:
            raise AssertionError(f"lab {lab}: " + "; ".join(problems))
        return
    ns = manifest.Namespace(found)

    def run(t):
        try:
            return _run_timed(t, ns, timeout)
        except KeyboardInterrupt:  # between two tests
            raise _Interrupted(t) from None

    with takeover.answers_out_of_reach(lesson, ns.learner()):
        results = engine.run_tests(checks.tests_for(lesson, lab, hidden=hidden), run)
    if engine.not_done(results):
        _say(engine.not_done_line(lab, _stubs(found)))
        if not hidden and not grading:
            _no_longer(lesson, lab, names)
        if grading:
            raise AssertionError(f"lab {lab} is not done")
        return
    for indent, line in engine.report(lesson, lab, results, hidden=hidden):
        _say(line, indent)
    if not all(r.passed for r in results):
        if not hidden and not grading:
            _no_longer(lesson, lab, names)
        if grading:
            earned = sum(r.earned for r in results)
            if not earned:
                raise AssertionError(engine.first_failure(results))
            # The cell's value is its partial score: nbgrader takes a number a test cell
            # outputs as the points it earned (nbgrader.utils.get_partial_grade).
            return Score(earned)
        return
    if not hidden:
        takeover.install(**found)
        PASSED.add((lesson, lab))
        _remember(lesson, lab)
        _say(f"From here on harness runs on your {prose.joined(names)}. lab.use_reference({lesson}) puts "
             "the reference back.")
        demos = _demos(lesson, names)
        if demos:
            _say("These cells now run on your code; re-run them to see it (each ends with a line "
                 "\"ran on: ...\" that says whose code drew it): " + "; ".join(demos) + ".")
