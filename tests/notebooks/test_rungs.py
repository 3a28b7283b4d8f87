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
    """What a kernel restart leaves: only the file. The store's memory of this kernel's unsaved
    answers goes with it."""
    import importlib
    import sys
    for name in list(sys.modules):
        if name.startswith("lab.rungs."):
            importlib.reload(sys.modules[name])
    importlib.reload(rungs)
    importlib.reload(sys.modules["lab.learner.startpage"])   # it hooks itself onto the new store


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
    source = "".join(p.read_text() for p in Path(rungs.__file__).parent.glob("*.py"))
    doc = rungs.__doc__
    used = set(re.findall(r'"(lab-[a-z-]+)', source)) | set(re.findall(r"f\"(lab-[a-z-]+)-\{", source))
    assert {"lab-rung-option", "lab-hint-level", "lab-rung-notice"} <= used
    for name in used:
        assert name in doc, f"{name} is used but not documented in lab/rungs/__init__.py's docstring"


def test_right_and_wrong_are_marked_by_more_than_colour():
    rung = rungs.rung(12, "throw-away")
    rung.choose(0)
    assert rung.buttons[0].description.startswith("✗ (a) ")
    assert "Not this one." in rung.feedback.value
    right = next(i for i, o in enumerate(rung.spec.options) if o.right)
    rung.choose(right)
    assert rung.buttons[right].description.startswith("✓ (")
    assert not rung.buttons[0].description.startswith("✗"), "only the chosen option is marked"
    multi = rungs.rung(12, "no-entry")
    multi.tap(1)
    assert [b.description[0] for b in multi.buttons][:3] == ["☐", "☑", "☐"]


def test_feedback_to_an_action_is_announced_and_restored_feedback_is_not():
    live = 'role="status" aria-live="polite"'
    rung = rungs.rung(12, "what-is-sent")
    rung.choose(1)
    assert live in rung.feedback.value
    restart()
    again = rungs.rung(12, "what-is-sent")
    assert again.feedback.value and live not in again.feedback.value


def test_every_control_has_a_name_a_screen_reader_can_read():
    number = rungs.rung(12, "tail-start")
    open_ = rungs.rung(12, "colleague")
    assert number.box.description and open_.text.description
    controls = rungs.rung(12, "what-is-sent").buttons + [number.check, open_.reveal]
    controls += rungs.hints(12, 1).buttons
    assert all(c.description and c.tooltip for c in controls)


def hard_coded_colours(css):
    """Colours in `css` that are not the fallback of a JupyterLab theme variable."""
    themed = re.sub(r"var\(--jp-[a-z0-9-]+(, *([^()]|\([^()]*\))*)?\)", "", css)
    return re.findall(r"#[0-9a-fA-F]{3,8}\b|rgba?\([^)]*\)|(?<![-\w])(?:white|black)(?![-\w])", themed)


def test_every_colour_comes_from_the_theme():
    from lab.runtime import cells
    from lab.rungs import widgets
    assert hard_coded_colours(widgets._STYLE) == []
    assert hard_coded_colours(cells._DIFF_STYLE) == []
    assert hard_coded_colours(".a { background: #f8e1df; color: var(--jp-x, #000); }") == ["#f8e1df"]


# --- tick-all questions: every option its own feedback ----------------------------------------

def test_a_first_wrong_check_counts_the_wrong_ticks_and_explains_only_the_learners_own(answers):
    spec = next(s for s in data.RUNGS if s.id == "no-entry")
    fits = [tick.fits for tick in spec.ticks]
    assert fits == [True, False, True], "this test is written for no-entry's three options"
    rung = rungs.rung(12, "no-entry")
    before = plain(rung)
    assert rung.key_button.layout.display == "none", "no key before a wrong Check"
    rung.tap(0)
    rung.tap(1)                      # one right tick, one wrong tick, one fitting option left out
    rung.submit()
    said = rung.feedback.value
    assert "Not quite: 2 of 3 ticks are wrong." in said
    assert "ticked, but it does not fit" in said and spec.ticks[1].feedback in said
    assert "One option that fits is not ticked" in said
    # Not the key: the option left out is neither named nor explained, and carries no mark.
    assert spec.ticks[2].text not in said and spec.ticks[2].feedback not in said
    assert spec.ticks[0].feedback not in said
    assert [b.description[0] for b in rung.buttons] == ["✓", "✗", "☐"]
    assert "lab-rung-wrong" not in rung.buttons[2]._dom_classes
    assert "lab-rung-wrong" in rung.feedback._dom_classes
    assert rung.key_button.layout.display is None, "a wrong Check brings out the key's button"
    restart()
    again = rungs.rung(12, "no-entry")
    assert spec.ticks[2].feedback not in again.feedback.value, "a restart must not give the key away"
    assert plain(again) == before, "the text form must not depend on the ticks"
    # A second wrong Check shows the key: every option marked, every wrong one explained.
    again.tap(1)
    assert not any(b.description.startswith(("✓", "✗")) for b in again.buttons)
    again.submit()
    said = again.feedback.value
    assert "Not quite: 2 of 3 right." in said and "it fits, but is not ticked." in said
    assert spec.ticks[2].feedback in said
    assert [b.description[0] for b in again.buttons] == ["✓", "✓", "✗"]
    assert again.key_button.layout.display == "none"
    assert json.loads(answers.read_text())["rungs"]["no-entry"] == {
        "picked": [0], "checked": True, "wrong_checks": 2}


def test_the_key_shows_on_request_after_one_wrong_check(answers):
    spec = next(s for s in data.RUNGS if s.id == "no-entry")
    rung = rungs.rung(12, "no-entry")
    rung.tap(0)
    rung.submit()
    assert spec.ticks[2].feedback not in rung.feedback.value
    rung.key_button.click()
    assert spec.ticks[2].feedback in rung.feedback.value and "it fits, but is not ticked." in rung.feedback.value
    assert [b.description[0] for b in rung.buttons] == ["✓", "✓", "✗"]
    rung.tap(2)
    rung.submit()
    assert "Yes." in rung.feedback.value and "lab-rung-right" in rung.feedback._dom_classes
    assert rung.key_button.layout.display == "none"


def test_every_multi_option_of_a_finished_lesson_has_feedback_of_its_own():
    from lab import lessons
    for lesson in (1, 2, 5, 11, 12):
        for spec in lessons.load(lesson).RUNGS:
            if spec.kind == "multi":
                said = [tick.feedback.strip() for tick in spec.ticks]
                assert all(said), f"lesson {lesson}, {spec.id}: an option has no feedback"
                assert len(set(said)) == len(said), f"lesson {lesson}, {spec.id}: feedback repeats"


def test_options_without_feedback_are_still_read():
    from lab.rungs import widgets
    spec = rungs.Multi(id="old-style", title="t", options=(("a", True), ("b", False)),
                       right="Both right.", wrong="Look again.")
    rung = widgets.MultiRung(12, spec)
    assert "[ ] a" in plain(rung) and "[ ] b" in plain(rung)
    rung.tap(1)
    rung.submit()
    said = rung.feedback.value
    assert "Not quite: 2 of 2 ticks are wrong." in said and "“b”: ticked, but it does not fit." in said
    assert "“a”" not in said and "Look again." not in said
    rung.show_key()
    said = rung.feedback.value
    assert "Not quite: 0 of 2 right." in said and "“a”: it fits, but is not ticked." in said
    assert "Look again." in said
    rung.tap(0), rung.tap(1), rung.submit()
    assert "Both right." in rung.feedback.value


def test_a_malformed_option_is_refused_in_one_sentence():
    with pytest.raises(ValueError, match=r"option 1 is \('b', 'yes'\); write each option as "
                                         r"\(text, fits, feedback\)"):
        rungs.Multi(id="bad", title="t", options=(("a", True, "x"), ("b", "yes")), right="r")


# --- open questions: a self-check before they count ---------------------------------------------

def test_an_open_question_counts_only_once_the_learner_has_compared(answers, capsys):
    from lab.rungs import text
    rung = rungs.rung(12, "colleague")
    assert rung.compared.layout.display == "none", "the tick must wait for the model answer"
    rung.write("Nothing was deleted; one line was added.")
    rung.reveal.click()
    assert rung.compared.layout.display is None
    assert "lab-rung-answered" not in rung._dom_classes, "text and a reveal are not enough"
    assert not rung.answered
    row = lambda: next(r for r in text.course_progress() if r[0] == 12)
    assert row()[2] == 0
    rung.compared.value = True       # what a click on the checkbox does
    assert "lab-rung-answered" in rung._dom_classes and rung.answered
    assert json.loads(answers.read_text())["rungs"]["colleague"]["compared"] is True
    assert row()[2] == 1
    rungs.progress(12)
    assert "[x] colleague" in capsys.readouterr().out
    restart()
    again = rungs.rung(12, "colleague")
    assert again.compared.value is True and "lab-rung-answered" in again._dom_classes
    again.compare(False)
    assert "lab-rung-answered" not in again._dom_classes


def test_the_model_answer_waits_for_five_words_of_the_learners_own():
    spec = next(s for s in data.RUNGS if s.id == "colleague")
    rung = rungs.rung(12, "colleague")
    assert rung.reveal.disabled and rung.text.continuous_update
    rung.toggle()                                     # pressed anyway (an old front end)
    assert rung.body.layout.display == "none"
    assert "5 words at least (the box has 0)" in rung.feedback.value
    rung.write("One line was added.")
    assert rung.reveal.disabled
    rung.toggle()
    assert rung.body.layout.display == "none" and "(the box has 4)" in rung.feedback.value
    rung.write("One line was added, none deleted.")
    assert not rung.reveal.disabled and rung.feedback.layout.display == "none"
    rung.toggle()
    assert rung.body.layout.display is None and spec.model_answer.split()[0] in rung.body.value
    assert rung.compared.layout.display is None and not rung.answered
    rung.compare()
    assert rung.answered


def test_a_tick_on_too_short_an_answer_does_not_count_and_the_notice_goes_as_words_come(answers):
    # An answers file from before the rule: revealed and ticked, with too short an answer.
    answers.parent.mkdir(parents=True, exist_ok=True)
    answers.write_text(json.dumps({"format": 1, "lesson": 12, "hints": {}, "labs": {},
                                   "rungs": {"colleague": {"text": "", "revealed": True, "compared": True}}}))
    restart()
    rung = rungs.rung(12, "colleague")
    assert "lab-rung-answered" not in rung._dom_classes
    assert rung.body.layout.display == "none", "no model answer without an answer to hold against it"
    assert "Write your answer in the box above, 5 words at least" in rung.feedback.value
    rung.write("One line was added.")
    assert "Write your answer" in rung.feedback.value and not rung.answered
    rung.write("One line was added, none deleted.")
    assert "lab-rung-answered" in rung._dom_classes
    assert rung.feedback.layout.display == "none", "the notice must go once the answer is there"


def test_feedback_that_opens_on_right_is_not_said_twice():
    from lab.rungs import text
    assert text.verdict("Yes.", "Right. The role has its own field.") == "**Right.** The role has its own field."
    assert text.verdict("Yes.", "The role has its own field.") == "**Yes.** The role has its own field."
    assert text.verdict("Not this one.", "It tempts.") == "**Not this one.** It tempts."
    spec = rungs.Choice(id="c", title="t", options=(rungs.Option("a", "Right. Because.", True),
                                                    rungs.Option("b", "No: because.")))
    from lab.rungs import widgets
    rung = widgets.ChoiceRung(12, spec)
    rung.choose(0)
    assert "Yes." not in rung.feedback.value and "<b>Right.</b> Because." in rung.feedback.value


def test_the_compared_tick_is_a_labelled_checkbox():
    import ipywidgets
    from lab.rungs import widgets
    rung = rungs.rung(12, "colleague")
    assert isinstance(rung.compared, ipywidgets.Checkbox)
    assert rung.compared.description == widgets.COMPARED
    assert "I compared my answer with the model answer and the common answers" in widgets.COMPARED
    assert rung.compared.tooltip and "lab-rung-compared" in rung.compared._dom_classes
