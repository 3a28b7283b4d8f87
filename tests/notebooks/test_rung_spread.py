"""Rungs are answered by reading them, not by a habit of the course: across every written lesson
the right option of a single-choice question sits at no favourite place, and every option of a
tick-all question has a reason of its own (docs/lesson-standard.md, "Rungs")."""

from collections import Counter

from lab import lessons
from lab.rungs.questions import Choice, Multi, Option

MOST = 0.40   # no position may hold more than this share of the right answers


def right_positions(rungs):
    """The position (0 = first) of the right option of each single-choice question."""
    return [next(i for i, option in enumerate(spec.options) if option.right)
            for spec in rungs if spec.kind == "choice"]


def crowded(positions):
    """The positions that hold more than MOST of `positions`, as {position: share}."""
    counts = Counter(positions)
    return {p: n / len(positions) for p, n in counts.items() if n / len(positions) > MOST}


def unexplained(rungs):
    """"lesson-rung: option text" for every tick-all option that has no reason of its own."""
    return [f"{spec.id}: {tick.text}" for spec in rungs if spec.kind == "multi"
            for tick in spec.ticks if not tick.feedback.strip()]


def course_rungs():
    return [spec for n in lessons.written() for spec in lessons.load(n).RUNGS]


def test_no_position_holds_more_than_two_fifths_of_the_right_answers():
    positions = right_positions(course_rungs())
    assert positions, "the course has no single-choice question"
    assert not crowded(positions), (
        f"the right option sits too often at one place: {crowded(positions)} (0 is the first); "
        "move some right options so that no place holds more than 40%")


def test_every_tick_all_option_has_its_own_reason():
    assert not unexplained(course_rungs()), (
        "tick-all options without a reason: " + "; ".join(unexplained(course_rungs())))


def _choice(right_at, n=3):
    return Choice("q", "?", tuple(Option(f"o{i}", "because", right=(i == right_at)) for i in range(n)))


def test_the_spread_check_fails_a_course_whose_answer_is_always_last():
    always_last = [_choice(2) for _ in range(9)] + [_choice(0)]
    assert crowded(right_positions(always_last)) == {2: 0.9}
    even = [_choice(i % 3) for i in range(9)]
    assert crowded(right_positions(even)) == {}


def test_the_reason_check_names_an_option_without_one():
    bare = Multi("m", "?", (("fits", True, "why it fits"), ("tempts", False)), right="yes")
    assert unexplained([bare]) == ["m: tempts"]
