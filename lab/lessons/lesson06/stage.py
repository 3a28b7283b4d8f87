"""Lesson 06's own stage: the harness as an earlier lesson left it, the files and outputs that are
too big, and a scripted model that reads on when a result says how.

    h5 = at_lesson(5)              the learner's harness.py as lesson 5 leaves it, as a module
    h = harness_now()              as lesson 6 leaves it, with the learner's truncate_head and
                                   truncate_tail once the lab passes, the reference's before
    bundle(size)                   a minified script: one line of `size` bytes, no newline
    pytest_output(tests, failed)        what pytest prints for `tests` tests, the verdict last
    NOTES                          a short file in four scripts, for counting bytes
    reads_on(path, then)           a script step: the model that follows "Use offset=N" notices
    remade(factory, **names)       a given tool factory whose tools call other functions, e.g.
                                   remade(h.make_read_tool, truncate_head=a_wrong_one)
    ran_on(cell_id)                the note under a demonstration: whose cuts it ran on

The modules are made from the generated files themselves (lab.course.starters), so a cell that says
"lesson 5's harness" runs exactly the text `python -m lab end 5` prints.
"""

import re
import types

import lab

LESSON = 6


def at_lesson(lesson):
    """The harness.py that `python -m lab end <lesson>` prints, loaded as a module of its own."""
    from lab.runtime import lesson_harness
    return lesson_harness.fresh(lesson)


def harness_now():
    """The harness as lesson 6 leaves it, the learner's cuts in once the lab has passed; the
    module's read and bash tools call whichever it holds."""
    from lab.runtime import lesson_harness
    return lesson_harness.harness_now(LESSON)


def remade(factory, **names):
    """`factory` (a tool factory such as make_read_tool) as it is, except that the names given
    stand for other functions in the tools it builds: the same code, other globals. How a cell
    runs the given tools on a wrong answer without copying them."""
    scope = dict(factory.__globals__, **names)
    return types.FunctionType(factory.__code__, scope, factory.__name__, factory.__defaults__)


def ran_on(cell_id):
    """Display, as a note of its own, whose cuts the demonstration `cell_id` ran on."""
    from lab.runtime import lesson_harness
    lesson_harness.ran_on(LESSON, cell_id)


# -- files and outputs that are too big ------------------------------------------------------

def bundle(size=300_000):
    """A minified script: one line of exactly `size` bytes (ASCII), with no newline, the same
    every time."""
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ValueError(f"bundle() takes a size in bytes, a whole number 0 or more, not {size!r}.")
    unit = "function f(a){return a+1};var x=f(41);"
    return (unit * (size // len(unit) + 1))[:size]


def pytest_output(tests=5000, failed=(17, 2024, 4711)):
    """What pytest prints for `tests` tests of which the numbers in `failed` fail: a header, one
    line per test, then the failures and the verdict, last, as pytest prints them."""
    if not isinstance(tests, int) or isinstance(tests, bool) or tests < 1:
        raise ValueError(f"pytest_output() takes a number of tests, a whole number 1 or more, not {tests!r}.")
    failed = sorted(n for n in set(failed) if 1 <= n <= tests)
    out = ["============================= test session starts =============================\n",
           f"collected {tests} items\n"]
    out += [f"tests/test_parts.py::test_part_{n:04d} {'FAILED' if n in failed else 'PASSED'}\n"
            for n in range(1, tests + 1)]
    out += [f"FAILED tests/test_parts.py::test_part_{n:04d} - assert part({n}) == {n}\n" for n in failed]
    out.append(f"======================= {len(failed)} failed, {tests - len(failed)} passed in 41.07s "
               "=======================\n")
    return "".join(out)


# One line per script: the same nine words of meaning, different sizes in bytes.
NOTES = ("English: the build is green again\n"
         "Deutsch: der Build ist wieder grün\n"
         "Ελληνικά: η κατασκευή είναι ξανά πράσινη\n"
         "日本語: ビルドはまた緑になった\n"
         "Emoji: ✅🟢🎉\n")


# -- the model that reads on -----------------------------------------------------------------

_NOTICE = re.compile(r"\[Showing lines \d+-\d+ of \d+\. Use offset=(\d+) to continue\.\]$")


def reads_on(path, then):
    """A stage prop, as a script step: a model that reads `path`, follows every "Use offset=N to
    continue." notice at the end of a result by reading from N, and, once a result ends with no
    such notice, answers then(everything it was shown of the file, notices taken out).

    It trusts what it is shown: a cut that says nothing is taken for the whole file. It keeps no
    state: each answer depends on the request alone."""
    def answer(request):
        users = [i for i, m in enumerate(request.messages) if m.get("role") == "user"]
        since = request.messages[users[-1] + 1:] if users else request.messages
        results = [m for m in since if m.get("role") == "toolResult"]
        if not results:
            return lab.reply(lab.call("read", {"path": path}))
        last = results[-1]["content"]
        more = _NOTICE.search(last)
        if more:
            return lab.reply(lab.call("read", {"path": path, "offset": int(more.group(1))}))
        seen = "".join(_NOTICE.sub("", m["content"]) for m in results)
        return lab.say(then(seen))

    return lab.forever(answer)
