"""Which labs each lesson has and which names each lab asks the learner for, read from
harness/syllabus.py alone, with the reference's modules in the order the single harness.py lists
them. lab.course.manifest and lab.course.starters both stand on it; it stands on the syllabus only.
"""

from harness import syllabus

MODULES = ["messages", "tools", "loop", "harness", "frontends", "sessionlog", "compaction",
           "adapters"]


def _learner_steps(lesson):
    """{(lab, name)} of every step at `lesson` that the learner writes (a gap or a spec)."""
    return [(step.lab, name) for name, steps in syllabus.UNITS.items()
            for step in steps if step.lesson == lesson and step.kind != "given"]


def labs(lesson):
    """The lab numbers of `lesson`, in order: the labs that have something for the learner."""
    found = sorted({lab for lab, _ in _learner_steps(lesson)})
    if not found:
        raise ValueError(f"lesson {lesson} has no gap in harness/syllabus.py")
    return found


def last_lab(lesson):
    return labs(lesson)[-1]


def names(lesson, lab=None):
    """The full names the learner writes in `lesson` (in lab `lab`, if given), in the order the
    harness file has them."""
    wanted = {name for number, name in _learner_steps(lesson) if lab is None or number == lab}
    return [name for name in syllabus.UNITS if name in wanted]


def names_every_lesson():
    """Every full name the learner writes somewhere in the course, in the harness file's order."""
    return [name for name, steps in syllabus.UNITS.items() if any(s.kind != "given" for s in steps)]


def bare(name):
    """The last part of a full name: "rows" for "SessionLog.rows"."""
    return name.rpartition(".")[2]


def owner_of(name):
    """The class a method belongs to ("SessionLog" for "SessionLog.rows"), or "" for a function."""
    return name.rpartition(".")[0]
