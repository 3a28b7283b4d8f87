"""The harness as an earlier lesson left it, for the cells of lesson 2 that need it.

    harness_at(1).run_agent     run_agent exactly as lesson 1 leaves it (the wall runs on it)
    now("run_agent")            the learner's run_agent once lab 1 has passed in this kernel,
                                and until then lesson 2's reference
    ran_on(cell_id)             the line under a demonstration that says whose code it ran on

The package `harness` is the final reference, whose run_agent is a generator of events with a
different signature; lesson 2's cells need the versions the learner has at this point of the
course. Those come from the same generator that writes the learner's harness.py, so they can
never differ from the file `python -m lab end N` prints.
"""

from lab.runtime import lesson_harness

LESSON = 2


def harness_at(lesson):
    """The whole harness.py as lesson `lesson` leaves it, as a module (lab.runtime.lesson_harness.harness_at)."""
    return lesson_harness.harness_at(lesson)


def now(name):
    """`name` as the cells after lab 1 run it: the learner's own once lab 1 has passed in this
    kernel, else lesson 2's reference."""
    return lesson_harness.now(LESSON, name)


def whose(names):
    """"your run_agent and run_tool", "the reference run_agent and run_tool", or a mix."""
    return lesson_harness.whose(LESSON, names)


def ran_on(cell_id):
    """Display, under a demonstration, whose code it ran on (lab.runtime.lesson_harness.ran_on)."""
    lesson_harness.ran_on(LESSON, cell_id)
