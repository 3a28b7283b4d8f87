"""A new lesson from the template: `python -m lab new 15 "Meanwhile" --gap pending_calls`.

It writes what a lesson has of its own, each place still to write marked TODO, in the shape
docs/lesson-standard.md asks for:

    lab/lessons/lessonNN/__init__.py   TITLE, NOTEBOOK, five rungs of the four kinds, a hint ladder
    lab/lessons/lessonNN/lesson.md     header, recall, the wall, rungs, Tau, build, figure, close
    lab/lessons/lessonNN/checks.py     one visible and one hidden test for each gap
    lab/lessons/lessonNN/wrong.py      a wrong answer for each gap
    lab/lessons/lessonNN/samples.py    the sample submissions' passing cells (points worked out)
    harness/gaps/lessonNN.py           the text the learner's starter holds for each gap
    harness/syllabus.py                a row for each gap: a gap of lesson NN, lab 1

It writes nothing that exists already. What it cannot write is printed as the next steps: the
reference definitions themselves (harness/*.py and harness/__init__.py), the README row, and then
`python -m lab build NN`.
"""

import re
from pathlib import Path

from harness import syllabus
from lab.lessons import HERE as LESSONS

ROOT = LESSONS.parents[1]
SYLLABUS = ROOT / "harness" / "syllabus.py"
GAPS = ROOT / "harness" / "gaps"


class NewLessonError(ValueError):
    """The lesson cannot be made as asked; the message says why and what to do."""


def slug(title):
    """"Meanwhile, elsewhere" -> "meanwhile-elsewhere": the notebook's name after its number."""
    words = re.findall(r"[a-z0-9]+", title.lower().replace("'", ""))
    if not words:
        raise NewLessonError(f"the title {title!r} has no letters or digits: give the lesson a title")
    return "-".join(words)


# -- the templates ------------------------------------------------------------------------------

INIT = '''"""Lesson {nn}, "{title}": its questions and hint ladder.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung({n}, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = {title!r}
NOTEBOOK = "{nn}-{slug}.ipynb"

# The demonstrations that run on the learner's code once a lab passes: (cell id, label, names).
DEMOS = ()

RUNGS = (
    Choice(
        id="recall",
        title="TODO: a question that reopens what lesson {prev} built",
        options=(
            Option("TODO: a tempting wrong option.", "TODO: why the first option tempts, and where it breaks."),
            Option("TODO: the right option.", "TODO: why the second option holds.", right=True),
            Option("TODO: another wrong option.", "TODO: why the third option tempts, and where it breaks."),
        ),
    ),
    Number(
        id="count",
        title="TODO: a question answered by a number the cell after it shows",
        answer=0,
        right="TODO: why that number.",
        wrong="TODO: a nudge towards the cell that counts it.",
    ),
    Multi(
        id="which",
        title="TODO: a tick-all question",
        options=(("TODO: an option that fits", True, "TODO: why it fits."),
                 ("TODO: an option that does not", False, "TODO: why it tempts, and where it breaks.")),
        right="TODO: what the right ticks share.",
        wrong="TODO: what the wrong ticks miss.",
    ),
    Open(
        id="why",
        title="TODO: an open question",
        nudge="TODO: a question that points the way.",
        model_answer="TODO: the model answer.",
        common=(("TODO: a common answer", "TODO: what it misses"),
                ("TODO: another common answer", "TODO: what it misses")),
    ),
    Choice(
        id="design",
        title="TODO: the design choice the lab settles",
        options=(
            Option("TODO: the right option.", "TODO: why the first option holds.", right=True),
            Option("TODO: a tempting wrong option.", "TODO: why the second option tempts, and where it breaks."),
        ),
    ),
)

HINTS = {{
    1: Hints(
        lab=1,
        question="TODO: a question that sets the learner thinking.",
        approach="TODO: the approach, in a sentence or two.",
        outline="TODO: an outline in prose that still leaves the writing to the learner.",
    ),
}}
'''

LESSON_MD = '''%% md id=title
# {nn} · {title}

> TODO: one line that names the wall, never the fix.

**About 45 minutes · 1 lab · builds on lesson {prev}**

TODO: where to begin if you are new to the course.

%% code id=setup
import harness
import lab

print("harness and lab are ready")

%% md id=recall
## Where lesson {prev} left you

TODO: what the last lesson built, and the question that reopens it.

%% rung recall

%% md id=wall
## The wall

TODO: a cell below runs the harness as the learner has it and fails against the stage.

%% code id=demo-wall
print("TODO: the wall")

%% rung count

%% rung which

%% rung why

%% rung design

%% md id=tau
## Where this comes from

TODO: set the idea beside Tau, with links that name commit 62eab4e, for example
[Tau's loop](https://github.com/huggingface/tau/blob/62eab4e/src/tau_agent/loop.py).

%% md id=build
## Build

### Lab 1: {names_md}

TODO: the spec; the gap's docstring is its contract.

%% hints 1

%% md id=lab1-diff-intro
#### What changed since lesson {prev}

%% diff {prev} {n}.1

%% testlist 1
{testlist}
{solutions}
%% tests id=lab1-tests
import lab

lab.check({n}, lab=1)

%% tests id=lab1-hidden
# Edge cases for lab 1, run when your notebook is graded.
import lab

lab.require_pass({n}, lab=1)  # when graded: these points need the tests above to pass
### BEGIN HIDDEN TESTS
lab.check({n}, lab=1, hidden=True)
### END HIDDEN TESTS

%% md id=close
## Close

**You hit** TODO.

**You built** TODO.

**The principle:** TODO.

**Your harness now** (with the lesson each part first appeared in):

%% harnessnow {harnessnow}

%% md id=still-open
**Still open:** TODO: the next lesson's problem.

%% code id=progress tags=nbval-ignore-output
import lab

lab.progress({n})
'''

CHECKS = '''"""The lab tests of lesson {nn}, "{title}". TODO: what the visible tests hold, and the
edge cases the hidden ones keep.
"""

from lab.checks import test
from lab.checks import blame, expect
{tests}'''

CHECK = '''

@test({n}, 1, "TODO: what {name} must do, in one sentence.")
def test_{ident}_does_its_job(ns):
    got = blame("{name}", ns.{name})   # TODO: call it as its contract says
    expect(got is not None, "{name} returned None: TODO, say what it should have returned")


@test({n}, 1, "TODO: an edge case of {name}'s contract.", hidden=True)
def test_{ident}_edge_case(ns):
    got = blame("{name}", ns.{name})   # TODO: the edge case
    expect(got is not None, "{name} returned None on TODO: say what it should have returned")
'''

WRONG = '''"""Wrong answers to lesson {nn}'s gaps: each is a design one of the lesson's rungs argues
against, and its docstring names that rung. A visible test must catch every one, in a sentence that
names its function (tests/lessons/test_checks.py).
"""
{answers}

WRONG = {{1: {{{wrong_table}}}}}
'''

WRONG_ONE = '''

def {ident}_returns_none(*args, **kwargs):
    """TODO: the wrong idea, and the rung that argues against it."""
    return None
'''

SAMPLES = '''"""What lesson {nn}'s sample submissions must pass in the grader (lab.grader.fixtures.samples):
the cells each one passes; its score is worked out from those cells' points in the notebook."""

SCORES = {{
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    "hidden-only": ("lab1-tests",),
    "loops-forever": (),
    "does-not-parse": (),
}}

# TODO: a solution that passes every visible test and fails a hidden one.
HIDDEN_ONLY = {{{hidden_only}}}
'''

GAP_FILE = '''"""The gaps of lesson {nn}: {names}.

Each text stands where the reference's definition is; it ends in the same stub as every gap, so a
lab not yet begun reads "not started", never as a wrong answer."""

GAPS = {{}}
{gaps}'''

GAP_ONE = """
GAPS["{name}"] = '''\\
# --- your code ---
# TODO: what to write, step by step.
raise NotImplementedError("{name} is lesson {n}'s lab: write it here")
# --- end ---
'''
"""


# -- writing it -------------------------------------------------------------------------------

def plan(lesson, title, gaps):
    """{path: text} of every file `new` writes, and the syllabus text with the lesson's rows."""
    if not 1 <= lesson <= 99:
        raise NewLessonError(f"lesson {lesson} is not a two-digit lesson number: give 1 to 99")
    if not gaps:
        raise NewLessonError("a lesson has at least one lab: name the definition its gap is with --gap NAME")
    folder = LESSONS / f"lesson{lesson:02d}"
    if folder.exists():
        raise NewLessonError(f"lab/lessons/lesson{lesson:02d} exists already: choose another number")
    taken = [name for name in gaps if any(step.lesson == lesson for step in syllabus.UNITS.get(name, ()))]
    if taken:
        raise NewLessonError(f"harness/syllabus.py already has lesson {lesson} rows for {', '.join(taken)}")
    fields = {"n": lesson, "nn": f"{lesson:02d}", "prev": f"{lesson - 1:02d}", "title": title,
              "slug": slug(title)}
    idents = {name: re.sub(r"\W", "_", name).lower() for name in gaps}
    bare = [name.rpartition(".")[2] for name in gaps]
    fields.update(
        names_md=", ".join(f"`{name}`" for name in gaps),
        testlist="\n".join(f"{i}. TODO: what {name} must do." for i, name in enumerate(gaps, 1)),
        solutions="".join(f"\n%% solution id=lab1-{idents[name].replace('_', '-')} def={name}\n" for name in gaps),
        visible=len(gaps), hidden=len(gaps),
        harnessnow=" ".join(gaps),
        tests="".join(CHECK.format(n=lesson, name=b, ident=idents[name]) for name, b in zip(gaps, bare)),
        answers="".join(WRONG_ONE.format(ident=idents[name]) for name in gaps),
        wrong_table=", ".join(f"{name!r}: [{idents[name]}_returns_none]" for name in gaps),
        hidden_only=f"{gaps[0]!r}: '''TODO'''",
        names=", ".join(gaps),
        gaps="".join(GAP_ONE.format(name=name, n=lesson) for name in gaps))
    files = {
        folder / "__init__.py": INIT.format(**fields),
        folder / "lesson.md": LESSON_MD.format(**fields),
        folder / "checks.py": CHECKS.format(**fields),
        folder / "wrong.py": WRONG.format(**fields),
        folder / "samples.py": SAMPLES.format(**fields),
    }
    gap_file = GAPS / f"lesson{lesson:02d}.py"
    if gap_file.exists():
        raise NewLessonError(f"harness/gaps/lesson{lesson:02d}.py exists already: move it away first")
    files[gap_file] = GAP_FILE.format(**fields)
    files[SYLLABUS] = with_rows(SYLLABUS.read_text(encoding="utf-8"), lesson, gaps)
    return files


def with_rows(text, lesson, gaps):
    """harness/syllabus.py's text with a gap step of lab 1 of `lesson` for each of `gaps` (the
    reference's BEGIN/END SOLUTION part is the learner's; the rest of it is given): a new
    row at the end of UNITS, or a step added to an existing row."""
    end = text.index("\n}\n", text.index("UNITS = {"))
    new = [name for name in gaps if name not in syllabus.UNITS]
    for name in gaps:
        if name in syllabus.UNITS:
            row = re.search(rf'^    "{re.escape(name)}": \[(.*)\],$', text, re.M)
            text = text[:row.end(1)] + f", _gap({lesson}, 1)" + text[row.end(1):]
            end = text.index("\n}\n", text.index("UNITS = {"))
    if new:
        rows = f"\n    # lesson {lesson:02d}" + "".join(f'\n    "{name}": [_gap({lesson}, 1)],' for name in new)
        text = text[:end] + rows + text[end:]
    return text


def new(lesson, title, gaps):
    """Write the lesson; [relative path] of what was written, and the next steps as lines."""
    files = plan(lesson, title, gaps)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    written = [str(path.relative_to(ROOT)) for path in files]
    steps = [f"write the reference {name} in harness/ (its BEGIN/END SOLUTION part is the gap) and "
             "export it in harness/__init__.py" for name in gaps]
    steps += [f"add the README's row for lesson {lesson:02d}",
              "fill every TODO (docs/lesson-standard.md says what each part must hold)",
              f"python -m lab build {lesson}   (the notebook, run, and docs/grade-ids.md)",
              f"make test LESSON={lesson:02d}"]
    return written, steps
