"""lab.progress() with no lesson: every written lesson's answered questions and passed labs, as a
table and a chart, read from the answers stored beside the notebooks."""

import pytest

import lab
from lab import lessons
from lab.course import manifest
from lab.rungs import store, text


@pytest.fixture(autouse=True)
def answers(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_RUNGS_DIR", str(tmp_path / ".rungs"))


def test_a_new_learner_has_nothing_answered_in_any_lesson():
    rows = text.course_progress()
    assert [r[0] for r in rows] == lessons.written()
    assert all(r[2] == 0 and r[4] == 0 for r in rows)
    for number, _, _, questions, _, labs in rows:
        data = lessons.load(number)
        assert questions == len([s for s in data.RUNGS if not s.optional])
        assert labs == len(manifest.labs(number))


def test_answers_and_passes_are_counted_in_their_own_lesson(capsys, monkeypatch):
    last = lessons.written()[-1]
    first = next(s for s in lessons.load(last).RUNGS if s.kind == "choice" and not s.optional)
    store.put(last, "rungs", first.id, {"choice": 0})
    store.put(last, "labs", "1", True)
    shown = []
    monkeypatch.setattr("lab.runtime.figures.show", lambda fig, alt: shown.append(alt))
    lab.progress()
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith(f"{last:02d} "))
    assert "questions  1 of" in row and "labs 1 of" in row
    others = [line for line in out.splitlines()[1:] if not line.strip().startswith(f"{last:02d} ")]
    assert all("questions  0 of" in line and "labs 0 of" in line for line in others)
    assert shown and f"lesson {last}: 1/" in shown[0]
