"""Wrong answers that pass every visible test of lessons 01-04, written against what those tests
show (wrong.py's HIDDEN_CAUGHT): each must pass the visible tests, so that it is a real escape from
them, and fail a hidden one in one sentence that names the function at fault."""

import pytest

from lab import checks, lessons
from lab.course import manifest

LESSONS = (1, 2, 3, 4)


def cases():
    found = []
    for lesson in LESSONS:
        for lab, by_name in lessons.load(lesson, "wrong").HIDDEN_CAUGHT.items():
            for name, variants in by_name.items():
                found += [(lesson, lab, name, variant) for variant in variants]
    return found


CASES = cases()


@pytest.mark.parametrize("lesson,lab,name,variant", CASES,
                         ids=[f"lesson{n:02d}-{v.__name__}" for n, _, _, v in CASES])
def test_a_hidden_test_catches_what_the_visible_ones_let_through(lesson, lab, name, variant):
    found = {n: manifest.reference(n, lesson) for n in manifest.names(lesson, None)}
    found[name] = variant
    results = checks.run(lesson, lab, manifest.Namespace(found))
    failed = [r for r in results if not r.passed]
    assert failed and all(r.test.hidden for r in failed), (
        f"{variant.__name__} should pass every visible test and fail a hidden one; it failed "
        f"{[(r.test.name, r.test.hidden) for r in failed]}")
    assert all(r.message and "\n" not in r.message and not r.not_done for r in failed)
    assert any(manifest.bare(name) in r.message for r in failed), [r.message for r in failed]


def test_every_lesson_here_keeps_a_hidden_escape():
    assert {lesson for lesson, _, _, _ in CASES} == set(LESSONS)
