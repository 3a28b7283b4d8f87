"""The question data a lesson declares (lab/lessons/lessonNN/__init__.py: RUNGS and HINTS), and
what counts as an answer to each kind. Nothing here knows about widgets or files."""

from dataclasses import dataclass, field
from typing import NamedTuple

from lab import lessons


@dataclass(frozen=True)
class Option:
    """One option of a choice: its text, the feedback it earns, and whether it is the answer."""
    text: str
    feedback: str
    right: bool = False


@dataclass(frozen=True)
class Choice:
    """Pick one option. Every option has feedback of its own, shown when it is picked."""
    id: str
    title: str
    options: tuple
    optional: bool = False
    kind = "choice"


@dataclass(frozen=True)
class Number:
    """Type a whole number. `near` gives feedback of its own to particular wrong numbers."""
    id: str
    title: str
    answer: int
    right: str
    wrong: str
    near: dict = field(default_factory=dict)
    optional: bool = False
    kind = "number"


class Tick(NamedTuple):
    """One option of a tick-all question, as the widgets read it."""
    text: str
    fits: bool
    feedback: str


@dataclass(frozen=True)
class Multi:
    """Tap every option that fits, then check. `options` is ((text, fits, feedback), ...), where
    `feedback` says why that option tempts or where it misleads; it is shown, after Check, for
    each option the learner got wrong (ticked but does not fit, or fits but left unticked).
    (text, fits) without feedback is still read, so a lesson being written keeps working; such
    an option is then named without a reason. `right` is shown when every tick is right; `wrong`,
    if given, closes the feedback on any other set of ticks."""
    id: str
    title: str
    options: tuple
    right: str
    wrong: str = ""
    optional: bool = False
    kind = "multi"

    def __post_init__(self):
        for n, option in enumerate(self.options):
            if not (isinstance(option, tuple) and len(option) in (2, 3)
                    and isinstance(option[0], str) and isinstance(option[1], bool)
                    and all(isinstance(feedback, str) for feedback in option[2:])):
                raise ValueError(f"question {self.id!r}: option {n} is {option!r}; write each "
                                 "option as (text, fits, feedback), fits True or False and "
                                 "text and feedback strings.")

    @property
    def ticks(self):
        """The options as Tick(text, fits, feedback), feedback "" where none is given."""
        return tuple(Tick(*option) if len(option) == 3 else Tick(*option, "")
                     for option in self.options)


@dataclass(frozen=True)
class Open:
    """Write an answer in a text box; a button reveals a model answer and the common answers,
    each with what it misses: ((answer, what it misses), ...), once the answer has MIN_WORDS
    words. It counts as answered once the learner has such an answer and has ticked that they
    compared it with what was revealed."""
    id: str
    title: str
    nudge: str
    model_answer: str
    common: tuple
    optional: bool = False
    kind = "open"


@dataclass(frozen=True)
class Hints:
    """A lab's hint ladder: a question, an approach, an outline."""
    lab: int
    question: str
    approach: str
    outline: str

    @property
    def levels(self):
        return (("a question", self.question), ("an approach", self.approach),
                ("an outline", self.outline))


def lesson_data(lesson):
    """The lesson's package (TITLE, RUNGS, HINTS). Read at each call, not cached, so a
    lesson's data patched in a running kernel is what the next rung shows.
    Raises LookupError, naming the lessons there are, for a lesson the course does not have."""
    return lessons.load(lesson)


def find(lesson, rung_id):
    """The question `rung_id` of lesson `lesson`; LookupError naming the lesson's questions."""
    data = lesson_data(lesson)
    for spec in data.RUNGS:
        if spec.id == rung_id:
            return spec
    known = ", ".join(spec.id for spec in data.RUNGS)
    raise LookupError(f"lesson {lesson} has no question {rung_id!r}; its questions are: {known}")


def find_hints(lesson, lab):
    """The hint ladder of lab `lab` of lesson `lesson`; LookupError naming the lesson's labs."""
    data = lesson_data(lesson)
    if lab not in data.HINTS:
        raise LookupError(f"lesson {lesson} has no lab {lab}; its labs are "
                          + ", ".join(str(n) for n in sorted(data.HINTS)))
    return data.HINTS[lab]


def answered(spec, state):
    """Whether `state` (what the store holds for the question) counts as an answer to `spec`."""
    if spec.kind == "choice":
        return isinstance(state.get("choice"), int)
    if spec.kind == "number":
        return isinstance(state.get("value"), int)
    if spec.kind == "multi":
        return bool(state.get("checked"))
    # Any text at all is not an answer: the learner has to write a few words of their own and
    # say they held them against the model answer and the common ones, which is where an open
    # question does its teaching.
    return words(state.get("text", "")) >= MIN_WORDS and state.get("compared") is True


# An open question's model answer waits for an answer of at least this many words.
MIN_WORDS = 5


def words(text):
    """How many words `text` has (0 for anything that is not a string)."""
    return len(text.split()) if isinstance(text, str) else 0


def multi_marks(spec, picked):
    """For each option of the Multi `spec`, given the set `picked` of ticked indexes: whether the
    learner's tick (or its absence) is right, as a list of booleans in option order."""
    return [(i in picked) == tick.fits for i, tick in enumerate(spec.ticks)]
