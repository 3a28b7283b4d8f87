"""The one engine behind every check: it runs a lab's tests one by one through the isolation its
front end supplies, stops an endless harness once, and puts the verdicts into sentences.

Three front ends use it, each with its own isolation around a single test: the notebook's check
cell (lab/runtime/checkcell.py, a thread stopped from outside), the command line (lab/lab_check.py, a
worker process killed at the time limit) and the autograder (lab/grader/verdict.py, the sandboxed
worker under the cell's CPU budget). What a test's verdict is, when the remaining tests are not
run, and every sentence the learner reads are decided here, so the three never disagree.

The result of a check is a list of Result (lab.checks.Result), one per test in the order written:
test (the Test: name, lab, title, hidden, points), passed, message ("" when it passed), not_done
(the gap still raised NotImplementedError), overran (stopped at the time limit) and not_run (never
started, `message` says why); `.title`, `.points` (what the test is worth) and `.earned` (its
points if it passed, else 0) read from it.
"""

import textwrap

from lab.stage import prose
from lab.checks import Result

WIDTH = 100          # the notebook's and the grader's lines are filled to this width
TEST_SECONDS = 10.0  # the time one test may take: in the notebook, on the command line, graded (in CPU seconds)

# -- running --------------------------------------------------------------------------------------

AFTER_OVERRUN = "after an endless loop the time limit would only stop them too"


def run_tests(tests, run, *, spent=None):
    """[Result] for every test of `tests`, in order. `run(test)` runs one test in the front end's
    isolation and returns its Result; once one has overrun, every later test is reported as not
    run, because each would run the same looping definition for the whole time limit again.
    `spent()`, if given, is asked before each test: a sentence (the grader's cell budget is used
    up) reports the rest as not run for that reason; "" lets the test run."""
    results, stopped = [], ""
    for t in tests:
        if not stopped and spent is not None:
            stopped = spent()
        if stopped:
            results.append(Result(t, False, stopped, False, not_run=True))
            continue
        result = run(t)
        results.append(result)
        if result.overran:
            stopped = AFTER_OVERRUN
    return results


def overran(t, who, limit, still_running=False):
    """The Result of test `t` stopped at the time limit. `who`: the definition that was running
    ("find_cut (at line 3 of its definition)") or "your code"; `limit`: "10 s", "the cell's 30 s"."""
    message = f"{who} did not finish within {limit}, so the check stopped it: an endless loop?"
    if still_running:
        message += (" It is still running in the background; restart the kernel (Kernel ▸ Restart) "
                    "to end it")
    return Result(t, False, message, False, overran=True)


# -- saying it ------------------------------------------------------------------------------------

def sentence(text):
    """`text` ending in a full stop, unless it already ends in a mark of its own."""
    return text if text.endswith((".", "?", "!")) else text + "."


def why(result):
    """The one sentence that says why `result` did not pass, the same in every front end."""
    if result.not_done:
        return "not written yet (it still raises NotImplementedError)."
    return sentence(result.message)


def not_done(results):
    """True if no test passed and every failure met an unwritten gap: nothing to test yet."""
    ran = [r for r in results if not r.not_run]
    return not any(r.passed for r in ran) and all(r.not_done for r in ran if not r.passed)


def not_done_line(lab, stubs):
    """What a check says when lab `lab`'s gaps `stubs` are all still stubs."""
    return (f"Lab {lab} is not done yet: {prose.joined(stubs)} still "
            f"raise{'s' if len(stubs) == 1 else ''} NotImplementedError, so there is nothing to test. "
            "Write the gap above, run its cell, then run this one again.")


def not_run_line(results):
    """One sentence for the tests that were not run, or "" if every test ran."""
    skipped = [r for r in results if r.not_run]
    if not skipped:
        return ""
    reason = skipped[0].message
    advice = " Fix the loop and check again." if reason == AFTER_OVERRUN else ""
    were = "tests were" if len(skipped) > 1 else "test was"
    return f"The other {len(skipped)} {were} not run: {reason}.{advice}"


def report(lesson, lab, results, *, hidden=False):
    """[(indent, text)] of a lab's verdicts as the notebook and the grader print them: the count,
    a line a test that ran (with its why when it failed), and the not-run sentence."""
    kind = "hidden tests" if hidden else "tests"
    passed = sum(r.passed for r in results)
    lines = [("", f"Lab {lab} of lesson {lesson}, {kind}: {passed} of {len(results)} pass.")]
    for r in results:
        if r.not_run:
            continue
        lines.append(("  ", f"{'✓' if r.passed else '✗'} {r.title}"))
        if not r.passed:
            lines.append(("      ", f"why: {why(r)}"))
    if not_run_line(results):
        lines.append(("", not_run_line(results)))
    return lines


def fill(indent, text):
    """One reported line wrapped to WIDTH, its continuation indented under the text."""
    return textwrap.fill(text, width=WIDTH, initial_indent=indent, subsequent_indent=indent + "      ",
                         break_on_hyphens=False)


def first_failure(results):
    """"test name: why" of the first test that did not pass: the AssertionError under nbgrader."""
    failed = next(r for r in results if not r.passed)
    return f"{failed.test.name}: {why(failed)}"
