"""The rungs: answers persist across a kernel restart, text forms never change, classes are stable."""

import json
import re
from pathlib import Path

import pytest

from lab import rungs
from lab.lessons import lesson12 as data


@pytest.fixture(autouse=True)
def answers(tmp_path, monkeypatch):
    """Each test keeps its answers in a directory of its own."""
    monkeypatch.setenv("LAB_RUNGS_DIR", str(tmp_path / ".rungs"))
    return tmp_path / ".rungs" / "lesson12.json"


def restart():
    """What a kernel restart leaves: only the file. (Widgets keep nothing at module level.)"""
    import importlib
    importlib.reload(rungs)


def plain(widget):
    return widget._repr_mimebundle_()["text/plain"]


def test_choice_is_restored_as_it_was_left(answers):
    first = rungs.rung(12, "what-is-sent")
    before = plain(first)
    first.buttons[2].click()
    first.buttons[1].click()  # the learner changes their mind; the last choice counts
    restart()
    again = rungs.rung(12, "what-is-sent")
    assert "lab-rung-chosen" in again.buttons[1]._dom_classes
    assert "lab-rung-right" in again.buttons[1]._dom_classes
    assert "lab-rung-chosen" not in again.buttons[2]._dom_classes
    assert again.feedback.layout.display is None
    assert data.RUNGS[0].options[1].feedback.split()[0] in again.feedback.value
    assert "lab-rung-answered" in again._dom_classes
    assert plain(again) == before, "the text form must not depend on the answer"
    assert json.loads(answers.read_text())["rungs"]["what-is-sent"] == {"choice": 1}


def test_a_wrong_choice_shows_its_own_feedback():
    rung = rungs.rung(12, "throw-away")
    rung.choose(0)
    assert "lab-rung-wrong" in rung.buttons[0]._dom_classes
    assert "lab-rung-wrong" in rung.feedback._dom_classes
    assert "Not this one." in rung.feedback.value


def test_number_restored_with_its_feedback():
    rung = rungs.rung(12, "tail-start")
    rung.submit("9")
    assert "lab-rung-wrong" in rung.feedback._dom_classes
    restart()
    again = rungs.rung(12, "tail-start")
    assert again.box.value == "9"
    assert "closing sentence of a reply" in again.feedback.value
    again.submit("10")
    assert "lab-rung-right" in again.feedback._dom_classes


def test_number_that_is_not_a_number_gets_a_sentence_not_an_error():
    rung = rungs.rung(12, "wall-count")
    rung.submit("eight")
    assert "whole number" in rung.feedback.value
    assert "lab-rung-answered" not in rung._dom_classes


def test_multi_select_is_checked_as_a_set_and_restored():
    rung = rungs.rung(12, "no-entry")
    rung.tap(0)
    rung.submit()
    assert "lab-rung-wrong" in rung.feedback._dom_classes
    rung.tap(2)
    rung.submit()
    assert "lab-rung-right" in rung.feedback._dom_classes
    restart()
    again = rungs.rung(12, "no-entry")
    assert ["lab-rung-chosen" in b._dom_classes for b in again.buttons] == [True, False, True]
    assert "lab-rung-right" in again.feedback._dom_classes


def test_open_question_keeps_its_text_and_its_reveal():
    rung = rungs.rung(12, "colleague")
    assert rung.body.layout.display == "none"
    rung.write("Nothing was deleted; one line was added.")
    rung.reveal.click()
    assert rung.body.layout.display is None
    assert "Common answers, and what each one misses" in rung.body.value
    restart()
    again = rungs.rung(12, "colleague")
    assert again.text.value == "Nothing was deleted; one line was added."
    assert again.body.layout.display is None


def test_hint_ladder_opens_one_level_at_a_time_and_remembers():
    ladder = rungs.hints(12, 1)
    assert [b.disabled for b in ladder.buttons] == [False, True, True]
    assert [b.layout.display for b in ladder.bodies] == ["none"] * 3
    ladder.buttons[0].click()
    ladder.buttons[1].click()
    restart()
    again = rungs.hints(12, 1)
    assert [b.layout.display for b in again.bodies] == [None, None, "none"]
    assert [b.disabled for b in again.buttons] == [False, False, False]
    assert all("lab-hint-level" in b._dom_classes for b in again.buttons)


def test_a_damaged_answers_file_does_not_stop_the_lesson(answers):
    answers.parent.mkdir(parents=True)
    answers.write_text("{not json")
    rung = rungs.rung(12, "what-is-sent")
    rung.choose(0)
    assert json.loads(answers.read_text())["rungs"]["what-is-sent"] == {"choice": 0}


def test_progress_reports_rungs_and_labs(capsys):
    rungs.rung(12, "what-is-sent").choose(1)
    rungs.rung(12, "count-tokens").choose(2)
    rungs.record_lab(12, 1, True)
    rungs.progress(12)
    out = capsys.readouterr().out
    assert "Questions answered: 1 of 15, and 1 of 2 optional ones" in out
    assert "[x] what-is-sent" in out and "[ ] result-paid" in out
    assert re.search(r"\[x\] lab 1: summarize\s+passes", out)
    assert re.search(r"\[ \] lab 2: .*not passed yet", out)


def test_every_rung_renders_and_every_text_form_is_fixed():
    for spec in data.RUNGS:
        widget = rungs.rung(12, spec.id)
        assert plain(widget) == plain(rungs.rung(12, spec.id))
        assert f"lab-rung--{spec.id}" in widget._dom_classes
        assert f"lab-rung-{spec.kind}" in widget._dom_classes


def test_unknown_rung_says_so():
    with pytest.raises(LookupError, match="no question 'nope'"):
        rungs.rung(12, "nope")


def test_every_css_class_used_is_documented():
    source = Path(rungs.__file__).read_text()
    doc = rungs.__doc__
    used = set(re.findall(r'"(lab-[a-z-]+)', source)) | set(re.findall(r"f\"(lab-[a-z-]+)-\{", source))
    for name in used:
        assert name in doc, f"{name} is used but not documented in lab/rungs.py's docstring"
