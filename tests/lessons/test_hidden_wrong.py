"""Each lesson's contract, clause by clause: the wrong answers that only a hidden test catches
(lab/lessons/lessonNN/wrong.py HIDDEN_WRONG) are caught there, in one sentence naming the function."""

import pytest

from lab import checks, lessons
from lab.course import manifest


def _cases():
    for lesson in lessons.written():
        hidden = getattr(lessons.load(lesson, "wrong"), "HIDDEN_WRONG", {})
        for lab, by_name in hidden.items():
            for name, variants in by_name.items():
                for variant in variants:
                    yield pytest.param(lesson, lab, name, variant,
                                       id=f"lesson{lesson:02d}-{variant.__name__}")


@pytest.mark.parametrize("lesson,lab,name,variant", list(_cases()))
def test_a_hidden_test_catches_it(lesson, lab, name, variant):
    found = {n: manifest.reference(n, lesson) for n in manifest.names(lesson)}
    found[name] = variant
    failed = [r for r in checks.run(lesson, lab, manifest.Namespace(found)) if not r.passed]
    assert failed and not any(r.not_done for r in failed), variant.__name__
    assert any(r.test.hidden and manifest.bare(name) in r.message and "\n" not in r.message
               for r in failed), [(r.test.name, r.message) for r in failed]
