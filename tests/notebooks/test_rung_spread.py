"""Rungs are answered by reading them, not by a habit of the course: across every written lesson
the right option of a single-choice question sits at no favourite place and is no more often the
longest (or the shortest) than chance would make it, no right option stands out by its length,
and every option of a tick-all question has a reason of its own (docs/lesson-standard.md,
"Rungs")."""

from collections import Counter

import pytest

from lab import lessons
from lab.rungs.questions import Choice, Multi, Option

# No position may hold more than this share of the right answers, nor may "the longest" or "the
# shortest" (chance is a third with three options).
MOST = 0.40
STANDS_OUT = 1.5  # a right option longer than this many times every wrong one gives itself away
SAME_NUMBER = 0.25  # no number may be the answer to more than this share of the number questions


def right_positions(rungs):
    """The position (0 = first) of the right option of each single-choice question."""
    return [next(i for i, option in enumerate(spec.options) if option.right)
            for spec in rungs if spec.kind == "choice"]


def crowded(positions):
    """The positions that hold more than MOST of `positions`, as {position: share}."""
    counts = Counter(positions)
    return {p: n / len(positions) for p, n in counts.items() if n / len(positions) > MOST}


def by_length(rungs, pick):
    """The share of single-choice questions whose right option is the one `pick` (max or min)
    chooses by the length of its text (a tie counts: a learner who guesses by length may pick it)."""
    choices = [spec for spec in rungs if spec.kind == "choice"]
    hits = [spec for spec in choices if len(next(o for o in spec.options if o.right).text)
            == pick(len(o.text) for o in spec.options)]
    return len(hits) / len(choices) if choices else 0.0


def standing_out(rungs):
    """"rung: N characters against at most M" for every single-choice question whose right option
    is more than STANDS_OUT times as long as its longest wrong one."""
    found = []
    for spec in rungs:
        if spec.kind != "choice":
            continue
        right = len(next(o for o in spec.options if o.right).text)
        wrong = max(len(o.text) for o in spec.options if not o.right)
        if right > STANDS_OUT * wrong:
            found.append(f"{spec.id}: {right} characters against at most {wrong}")
    return found


def habitual_numbers(rungs):
    """{answer: share} of the numbers that answer more than SAME_NUMBER of the number questions
    (a course whose counts keep coming out at 0 teaches the learner to type 0)."""
    answers = [spec.answer for spec in rungs if spec.kind == "number"]
    counts = Counter(answers)
    return {n: c / len(answers) for n, c in counts.items() if c / len(answers) > SAME_NUMBER}


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


def test_guessing_by_length_does_no_better_than_guessing_by_place():
    rungs = course_rungs()
    for name, pick in (("longest", max), ("shortest", min)):
        share = by_length(rungs, pick)
        assert share <= MOST, (
            f"the right option is the {name} in {share:.0%} of the single-choice questions: a learner "
            f"who picks the {name} option without reading does better than chance; give some wrong "
            "options the detail the right one has")


def test_no_right_option_stands_out_by_its_length():
    assert not standing_out(course_rungs()), (
        "right options that give themselves away by their length: "
        + "; ".join(standing_out(course_rungs())))


def test_no_number_answers_a_habit_of_the_number_questions():
    assert not habitual_numbers(course_rungs()), (
        f"one number answers too many number questions: {habitual_numbers(course_rungs())}; a "
        "learner who types it without reading does well. Ask some of them the other way round "
        "(how many fail, not how many succeed)")


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


def _sized(right_at, lengths):
    return Choice("q", "?", tuple(Option("x" * n, "because", right=(i == right_at))
                                  for i, n in enumerate(lengths)))


def test_the_length_checks_fail_a_course_whose_answer_is_always_the_longest():
    always_longest = [_sized(i % 3, [40 + 15 * (j == i % 3) for j in range(3)]) for i in range(9)]
    assert by_length(always_longest, max) == 1.0 and by_length(always_longest, min) == 0.0
    assert standing_out(always_longest) == []       # 55 against 40: the longest, not a giveaway
    assert standing_out([_sized(1, [40, 90, 50])]) == ["q: 90 characters against at most 50"]
    # the right option shortest, in the middle and longest, a third of the time each
    even = [_sized(0, lengths) for lengths in ([40, 50, 60], [50, 40, 60], [60, 50, 40])]
    assert by_length(even, max) == by_length(even, min) == pytest.approx(1 / 3)


def test_the_number_check_fails_a_course_whose_counts_are_mostly_zero():
    from lab.rungs.questions import Number
    mostly_zero = [Number(f"n{i}", "?", answer=0 if i < 3 else i, right="yes", wrong="no")
                   for i in range(8)]
    assert habitual_numbers(mostly_zero) == {0: 3 / 8}
    assert habitual_numbers(mostly_zero[2:]) == {}
