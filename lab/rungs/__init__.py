"""Rungs: a lesson's interactive questions, and the hint ladder of each lab, as ipywidgets.

    lab.rung(12, "what-is-sent")   one question of lesson 12, as its lesson data defines it
    lab.hints(12, lab=1)           the three-level hint ladder of lesson 12's lab 1
    lab.progress(12)               which questions are answered and which labs pass

A question's wording lives in the lesson's markdown; the widget holds its options and the
feedback each one earns. The lesson data is lab/lessons/lessonNN/__init__.py (RUNGS, HINTS; a
lesson's labs come from harness/syllabus.py, through lab.course.manifest), found with
lab.lessons.load(NN). The package, by concern:

    questions.py   the data a lesson declares (Choice, Number, Multi, Open, Option, Hints) and
                   what counts as an answer; no widgets, no files
    store.py       where answers are kept: .rungs/lesson12.json beside the notebook (moved with
                   LAB_RUNGS_DIR), versioned, locked, never lost to damage or a full disk; the
                   file is read (and a damaged one salvaged) by store_reading.py, and locked and
                   written whole by store_writing.py
    text.py        the text forms: lesson markup as HTML, each widget's fixed text/plain, and
                   lab.progress's report
    widgets.py     the ipywidgets of the questions, one class a kind; hint_ladder.py the hint
                   ladder's; widget_parts.py what both are built from and their CSS, which
                   takes its colours from the JupyterLab theme

Importing lab.rungs (as a lesson's data does, for the dataclasses) loads no widget library; the
widget classes are loaded on first use.

Answers persist, keyed by rung id. Running a rung's cell again, after a kernel restart or when
the notebook is opened another day, shows it as it was left: the chosen option and its feedback,
the typed number, the ticks of a tick-all question and their feedback, the open answer, whether
the model answer was shown and whether the learner ticked that they compared theirs with it,
how many hint levels are open.

What counts as answered (the lab-rung-answered class, lab.progress): a choice picked, a whole
number checked, a tick-all question checked (right or not), and an open question only once it
has an answer of five words or more (questions.MIN_WORDS) and its "I compared my answer with the
model answer and the common answers" tick. Its model answer opens only on such an answer.

A tick-all question must be read to be answered. A first wrong Check says how many ticks are wrong
("Not quite: 2 of 3 ticks are wrong.") and gives each option the learner ticked that does not fit
its own feedback (the option's third element), but of the fitting options left unticked only how
many there are, and it marks only the ticked options. The key (every option marked, every wrong
one explained, "Not quite: 1 of 3 right.") comes with a second wrong Check, or with the key's
button, which the first wrong Check brings out. Feedback that opens on "Right." is not prefixed
with "Yes." as well.

The notebook's own metadata is never used: nbgrader rewrites it.

What nbval sees. A displayed rung's text/plain form depends only on the lesson data, never on
the answer stored, so a notebook's saved outputs are the same on every run.

CSS classes, kept stable for the browser test that clicks them:

    lab-rung                 the outer box of every question; with it lab-rung--<id>
                             (lab-rung--what-is-sent) and one of the kinds below
    lab-rung-choice          kind: pick one option
    lab-rung-number          kind: type a whole number
    lab-rung-multi           kind: tap every option that fits, then check
    lab-rung-open            kind: write an answer, then reveal a model answer
    lab-rung-optional        on a question nothing later depends on
    lab-rung-answered        on the outer box once it has an answer (restored after a restart)
    lab-rung-option          an option's button (choice, multi); with it lab-rung-option-<n>,
                             n counting from 0 in the order shown
    lab-rung-chosen          the chosen option of a choice; a tapped option of a multi
    lab-rung-right           on the chosen option and on the feedback box, when right; after a
                             multi's Check, on every ticked option whose tick is right (on every
                             option whose tick or its absence is right, once the key is out)
    lab-rung-wrong           the same, when not
    lab-rung-feedback        the feedback box; hidden (display: none) until there is feedback
    lab-rung-notice          what the learner must know about their answers file (damaged and
                             set aside, cannot be written); hidden when there is nothing to say
    lab-rung-number-input    the text box of a number question
    lab-rung-submit          the "Check" button of number and multi questions
    lab-rung-key             a multi question's "Show the key" button; hidden until a wrong
                             Check, and again once the key is shown or the ticks are right
    lab-rung-open-text       the text area of an open question
    lab-reveal               the button that shows an open question's model answer; disabled
                             until the answer has five words
    lab-reveal-body          what it shows: the model answer, then "Common answers, and what
                             each one misses"; hidden until revealed
    lab-rung-compared        an open question's checkbox "I compared my answer with the model
                             answer and the common answers"; hidden until the model answer is
                             revealed (or while ticked); the question counts only once ticked
    lab-hints                a hint ladder's outer box; with it lab-hints--lab<N>
    lab-hint-level           a level's button; with it lab-hint-level-<1|2|3>; level k+1 is
                             disabled until level k is open
    lab-hint-open            on a level's button once that level is open (restored after a restart)
    lab-hint-body            the text a level opens; with it lab-hint-body-<1|2|3>; hidden until open
    lab-rung-label           the small line of instructions at the top of a rung or hint ladder
"""

from . import store
from .questions import Choice, Hints, Multi, Number, Open, Option
from .text import progress

__all__ = ["Option", "Choice", "Number", "Multi", "Open", "Hints",
           "rung", "hints", "progress", "record_lab", "store_path"]

store_path = store.path

_WIDGETS = ("ChoiceRung", "NumberRung", "MultiRung", "OpenRung", "HintLadder")


def rung(lesson, rung_id):
    """The question `rung_id` of lesson `lesson`, as a widget, showing any answer already given."""
    from . import questions, widgets
    spec = questions.find(lesson, rung_id)
    return widgets.KINDS[spec.kind](lesson, spec)


def hints(lesson, lab):
    """The hint ladder of lab `lab` of lesson `lesson`."""
    from . import questions, widgets
    return widgets.HintLadder(lesson, questions.find_hints(lesson, lab))


def record_lab(lesson, lab, passed):
    """Remember whether lab `lab` of `lesson` passed its checks; lab.progress reports it."""
    store.put(lesson, "labs", int(lab), bool(passed))


def __getattr__(name):
    # The widget classes (lab.rungs.ChoiceRung, ...) without importing ipywidgets up front.
    if name in _WIDGETS:
        from . import widgets
        return getattr(widgets, name)
    raise AttributeError(f"module 'lab.rungs' has no attribute {name!r}")
