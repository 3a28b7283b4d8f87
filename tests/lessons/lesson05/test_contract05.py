"""Lesson 05's contract, clause by clause: the wrong answers that only a hidden test catches
(lab/lessons/lesson05/wrong.py HIDDEN_WRONG) are caught there, in one sentence naming the function."""

import pytest

from lab import checks, lessons, manifest

LESSON = 5
HIDDEN_WRONG = [(lab, name, v) for lab, by_name in lessons.load(LESSON, "wrong").HIDDEN_WRONG.items()
                for name, variants in by_name.items() for v in variants]


@pytest.mark.parametrize("lab,name,variant", HIDDEN_WRONG, ids=[v.__name__ for _, _, v in HIDDEN_WRONG])
def test_a_hidden_test_catches_it(lab, name, variant):
    found = {n: manifest.reference(n, LESSON) for n in manifest.names(LESSON)}
    found[name] = variant
    failed = [r for r in checks.run(LESSON, lab, manifest.Namespace(found)) if not r.passed]
    assert failed and not any(r.not_done for r in failed), variant.__name__
    assert any(r.test.hidden and manifest.bare(name) in r.message and "\n" not in r.message
               for r in failed), [(r.test.name, r.message) for r in failed]
