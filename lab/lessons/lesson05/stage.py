"""Lesson 05's own stage: the harness as an earlier lesson left it, and the props of the wall.

    h4 = at_lesson(4)             the learner's harness.py as lesson 4 leaves it, as a module
    h = harness_now()             as lesson 5 leaves it, with the learner's run_agent once the lab
                                  passes (lab.check installs it), the reference's before
    runaway(path)                 a script step: a model that asks to read `path` for ever
    ran_on(cell_id)               the note under a demonstration: whose run_agent it ran on
    FILES, TASK                   the little project every run of the lesson works on

The modules are made from the generated files themselves (lab.course.starters), so a cell that says
"lesson 4's harness" runs exactly the text `python -m lab end 4` prints.
"""


import lab

LESSON = 5

FILES = {"a.py": "A = 1\n", "b.py": "from a import A\nB = A + 1\n"}
TASK = "Is B in b.py equal to 2? Check a.py."


def at_lesson(lesson):
    """The harness.py that `python -m lab end <lesson>` prints, loaded as a module of its own."""
    from lab.runtime import lesson_harness
    return lesson_harness.fresh(lesson)


def harness_now():
    """The harness as lesson 5 leaves it, with the learner's code in once the lab passed."""
    from lab.runtime import lesson_harness
    return lesson_harness.harness_now(LESSON)


def ran_on(cell_id):
    """Display, as a note of its own, whose code the demonstration `cell_id` ran on."""
    from lab.runtime import lesson_harness
    lesson_harness.ran_on(LESSON, cell_id)


def runaway(path="a.py"):
    """A stage prop, as a script step: a model that never finishes. Every request, whatever it
    holds, is answered with one more call to read `path`; the results change nothing."""
    if not isinstance(path, str):
        raise TypeError(f"runaway() takes the path to read as a string, not {path!r}.")

    def again(request):
        return lab.reply(lab.call("read", {"path": path}))

    again.__name__ = f"read {path} again"
    return lab.forever(again)


def bills(model):
    """The running total of the bill after each request of `model`: [first, first+second, ...]."""
    totals, running = [], 0
    for request in model.calls:
        running += request.input
        totals.append(running)
    return totals
