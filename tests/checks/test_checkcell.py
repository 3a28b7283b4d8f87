"""lab.check, as a notebook's check cell calls it: sentences for the learner, a raise for nbgrader,
and the learner's code taking over harness once a lab passes."""

import pytest

import harness
import lab
from lab import takeover
from tests.fixtures.wrong_lesson12 import summarize_offering_tools

REFERENCE_FIND_CUT = harness.find_cut


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.setenv("LAB_RUNGS_DIR", str(tmp_path))
    yield
    takeover.use_reference(12)


def stub(model, messages):
    raise NotImplementedError


def test_an_empty_gap_is_not_done_yet_and_does_not_raise(capsys):
    lab.check(12, 1, summarize=stub)
    out = capsys.readouterr().out
    assert out.startswith("Lab 1 is not done yet: summarize still raises NotImplementedError.")
    assert harness.summarize is not stub


def test_a_wrong_gap_gets_the_failing_tests_sentence(capsys):
    lab.check(12, 1, summarize=summarize_offering_tools)
    out = capsys.readouterr().out
    assert "Lab 1 of lesson 12, tests: 2 of 3 pass." in out
    assert "why: the summariser answered the conversation's question, because the call offered tools" in out
    assert takeover.running_on()["summarize"] == "reference"


def test_under_nbgrader_a_failure_raises(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(AssertionError):
        lab.check(12, 1, summarize=summarize_offering_tools)
    with pytest.raises(AssertionError):
        lab.check(12, 1, summarize=stub)


def test_a_pass_hands_the_learners_code_to_harness_and_there_is_a_way_back(capsys):
    calls = []

    def mine(rows, keep_recent_tokens):
        calls.append(len(rows))
        return REFERENCE_FIND_CUT(rows, keep_recent_tokens)

    lab.check(12, 2, find_cut=mine, rows=harness.SessionLog.rows, compact=harness.compact)
    assert "7 of 7 pass" in capsys.readouterr().out
    assert harness.find_cut is mine and takeover.running_on()["find_cut"] == "yours"
    lab.progress(12)
    assert "[x] lab 2" in capsys.readouterr().out
    harness.compact(harness.SessionLog(lab.Workspace(), "s.jsonl"), None, keep_recent_tokens=5)
    assert calls, "compact should now call the learner's find_cut"
    lab.check(12, 2, find_cut=mine, rows=harness.SessionLog.rows, compact=harness.compact)  # again: harmless
    lab.use_reference(12)
    assert harness.find_cut is REFERENCE_FIND_CUT
    assert takeover.running_on()["find_cut"] == "reference"


def test_a_wrong_signature_or_missing_name_is_a_sentence(capsys):
    def summarize(messages):
        return ""
    lab.check(12, 1, summarize=summarize)
    assert capsys.readouterr().out.strip() == ("not yet: summarize should take (model, messages); yours takes "
                                               "(messages).")
    lab.check(12, 2, find_cut=REFERENCE_FIND_CUT)
    out = capsys.readouterr().out
    assert "rows is not defined" in out and "compact is not defined" in out


def test_the_check_returns_nothing_so_nbgrader_sees_no_partial_credit():
    assert lab.check(12, 1, summarize=harness.summarize) is None
