"""The harness as an earlier lesson leaves it, for the cells of a lesson that need it, and whose
code a demonstration ran on.

    lab.harness_at(2).run_agent   run_agent exactly as lesson 2 leaves it
    lab.harness_now(3)            lesson 3's harness, the learner's definitions in once its lab passes
    lab.now(3, "run_agent")       the learner's run_agent once lesson 3's lab has passed in this
                                  kernel, and lesson 3's reference until then
    lab.ran_on(3, "demo-loop")    the line under a demonstration saying whose code it ran on

The package `harness` is the reference as lesson 14 leaves it (harness/later/ holds what lesson 15
rewrites, so harness_at(15) is async): its run_agent, say, is lesson 10's, with another
signature than lesson 3's. A lesson's cells need the versions the learner has at that point of the
course. They come from the same generator that writes the learner's harness.py, so they can never
differ from what `python -m lab end N` prints.
"""

import inspect

import harness
from lab import lessons
from lab.course import manifest
from lab.runtime import takeover
from lab.stage.prose import joined


def harness_at(lesson):
    """A module holding the whole harness.py as lesson `lesson` leaves it, run: its definitions
    call each other as they do in the learner's own file. One module per lesson, shared (with
    the manifest, whose references of the lessons after the package's come from it): a cell
    that would change what is in it takes fresh(lesson) instead."""
    return manifest.whole(lesson)


def fresh(lesson):
    """A new module of the harness as `lesson` leaves it, for a cell that changes what is in it."""
    return manifest.run_whole(lesson)


def harness_now(lesson):
    """The harness as `lesson` leaves it, with the learner's own definitions of the lesson's names
    in place of the reference's once the lab that asks for them has passed in this kernel: what
    the demonstrations after a lab run on. A new module each time."""
    module = fresh(lesson)
    running = takeover.running_on(lesson)
    for name in manifest.names(lesson):
        if running.get(name) != "yours":
            continue
        owner, attribute = manifest.owner_of(name), manifest.bare(name)
        if owner:
            setattr(getattr(module, owner), attribute, inspect.getattr_static(getattr(harness, owner), attribute))
        else:
            setattr(module, attribute, getattr(harness, attribute))
    return module


def now(lesson, name):
    """`name` (a full name) as the cells after a lab should run it: the learner's own once the lab
    that asks for it has passed in this kernel (lab.check put it into harness), else the
    reference as `lesson` leaves it."""
    owner, attribute = manifest.owner_of(name), manifest.bare(name)
    if takeover.running_on(lesson).get(name) == "yours":
        return getattr(getattr(harness, owner), attribute) if owner else getattr(harness, attribute)
    module = harness_at(lesson)
    return getattr(getattr(module, owner), attribute) if owner else getattr(module, attribute)


def whose(lesson, names):
    """"your find_cut and the reference SessionLog.rows": who wrote each of `names`, now."""
    running = takeover.running_on(lesson)
    mine = [n for n in names if running.get(n) == "yours"]
    theirs = [n for n in names if running.get(n) != "yours"]
    parts = ([f"your {joined(mine)}"] if mine else []) + ([f"the reference {joined(theirs)}"] if theirs else [])
    return " and ".join(parts)


def ran_on(lesson, cell_id):
    """Display, under a demonstration, whose code it ran on, as a note of its own (not printed
    output, so the cell's printed lines stay the same whoever's code ran). The lesson's data lists
    its demonstrations: DEMOS = ((cell id, label, [full names]), ...)."""
    from IPython.display import display
    found = [(label, names) for demo, label, names in lessons.load(lesson).DEMOS if demo == cell_id]
    if not found:
        raise KeyError(f"{cell_id} is not one of lesson {lesson}'s DEMOS: add it there, with its label")
    label, names = found[0]
    line = f"{label} ran on: {whose(lesson, names)}."
    display({"text/plain": line, "text/markdown": f"*{line}*"}, raw=True)
