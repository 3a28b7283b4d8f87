"""What a notebook's check cell calls: lab.check(12, lab=1) runs the lab's tests on the learner's
functions and says, one line a test, how each went.

For a learner it never raises: an empty gap is "not done yet", a wrong one gets the failing
test's sentence. Under nbgrader (NBGRADER_EXECUTION set, as autograde and validate do) a failure
raises AssertionError, so the cell scores zero. When every test passes, the learner's functions
go into `harness`, and later cells run on them.
"""

import inspect
import os
import sys
import textwrap
import types

from lab import checks, takeover

# The parameters each learner-written name must take.
SIGNATURES = {
    "summarize": ["model", "messages"],
    "find_cut": ["rows", "keep_recent_tokens"],
    "rows": ["self"],
    "compact": ["log", "model", "keep_recent_tokens"],
}
PASSED = set()  # (lesson, lab) pairs whose visible tests passed in this kernel


def _caller_globals():
    main = sys.modules.get("__main__")
    return vars(main) if main is not None else {}


def signature_problem(name, function):
    if not callable(function):
        return f"{name} should be a function; it is a {type(function).__name__}"
    try:
        params = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return ""
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return ""
    got = [p.name for p in params]
    want = SIGNATURES.get(name)
    if want and got != want:
        return f"{name} should take ({', '.join(want)}); yours takes ({', '.join(got)})"
    return ""


def _say(line, indent=""):
    print(textwrap.fill(line, width=100, initial_indent=indent,
                        subsequent_indent=indent + "      ", break_on_hyphens=False))


def _remember(lesson, lab):
    """Note the pass beside the notebook, so lab.progress still knows it after a restart."""
    try:
        from lab import rungs
        rungs.record_lab(lesson, lab, True)
    except OSError:
        pass  # a read-only folder costs the learner a progress mark, not their check


def check(lesson, lab, *, hidden=False, **functions):
    """Run lab `lab` of `lesson` on the learner's functions (given by name, or else found in the
    notebook's own namespace) and print the verdicts. `hidden` runs the hidden tests instead."""
    grading = bool(os.environ.get("NBGRADER_EXECUTION"))
    names = checks.names_for(lesson, lab)
    scope = _caller_globals()
    found, problems = {}, []
    for name in names:
        function = functions.get(name, scope.get(name))
        if function is None:
            problems.append(f"{name} is not defined: run the cell that defines it first")
            continue
        problem = signature_problem(name, function)
        if problem:
            problems.append(problem)
        found[name] = function
    kind = "hidden tests" if hidden else "tests"
    if problems:
        for problem in problems:
            _say(f"not yet: {problem}.")
        if grading:
            raise AssertionError(f"lab {lab}: " + "; ".join(problems))
        return
    ns = types.SimpleNamespace(**found)
    results = checks.run(lesson, lab, ns, hidden=hidden)
    if all(r.not_done for r in results if not r.passed) and not any(r.passed for r in results):
        stubs = ", ".join(names)
        _say(f"Lab {lab} is not done yet: {stubs} still raise{'s' if len(names) == 1 else ''} "
             "NotImplementedError. Write the gap above, run its cell, then run this one again.")
        if grading:
            raise AssertionError(f"lab {lab} is not done")
        return
    passed = sum(r.passed for r in results)
    _say(f"Lab {lab} of lesson {lesson}, {kind}: {passed} of {len(results)} pass.")
    for r in results:
        _say(f"{'✓' if r.passed else '✗'} {r.test.title}", "  ")
        if not r.passed:
            _say(f"why: {r.message}.", "      ")
    if passed < len(results):
        if grading:
            failed = next(r for r in results if not r.passed)
            raise AssertionError(f"{failed.test.name}: {failed.message}")
        return
    if not hidden:
        takeover.install(**found)
        PASSED.add((lesson, lab))
        _remember(lesson, lab)
        mine = ", ".join(names)
        _say(f"From here on harness runs on your {mine}: the cells below use your code. "
             f"lab.use_reference({lesson}) puts the reference back.")
