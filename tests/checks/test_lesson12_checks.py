"""The lesson 12 lab tests pass the reference and catch every wrong variant of each gap."""

import types

import pytest

import harness
from lab import checks
from tests.fixtures.wrong_lesson12 import WRONG


def reference():
    return types.SimpleNamespace(summarize=harness.summarize, find_cut=harness.find_cut,
                                 rows=harness.SessionLog.rows, compact=harness.compact)


def test_there_are_ten_visible_tests_three_and_seven():
    assert [len(checks.tests_for(12, lab, hidden=False)) for lab in (1, 2)] == [3, 7]
    assert all(checks.tests_for(12, lab, hidden=True) for lab in (1, 2))


@pytest.mark.parametrize("lab", [1, 2])
def test_the_reference_passes_every_test(lab):
    failures = [(r.test.name, r.message) for r in checks.run(12, lab, reference()) if not r.passed]
    assert failures == []


CASES = [(lab, name, variant) for lab, gaps in WRONG.items()
         for name, variants in gaps.items() for variant in variants]


@pytest.mark.parametrize("lab,name,variant", CASES, ids=[v.__name__ for _, _, v in CASES])
def test_each_wrong_variant_is_caught_with_a_sentence(lab, name, variant):
    ns = reference()
    setattr(ns, name, variant)
    failed = [r for r in checks.run(12, lab, ns) if not r.passed]
    assert failed, f"no lab {lab} test caught {variant.__name__}"
    assert not any(r.not_done for r in failed)
    assert all(r.message and "\n" not in r.message for r in failed)
    assert any(not r.message.startswith("it raised") for r in failed), [r.message for r in failed]


def test_the_summariser_sentence_says_why():
    ns = reference()
    ns.summarize = WRONG[1]["summarize"][1]   # offers tools
    result = checks.run_one(checks.tests_for(12, 1)[0], ns)
    assert result.message.startswith("the summariser answered the conversation's question, because the call offered tools")


def test_a_backward_cut_is_named_as_one():
    ns = reference()
    ns.find_cut = WRONG[2]["find_cut"][0]
    result = checks.run_one(checks.tests_for(12, 2)[0], ns)
    assert "may only move forward" in result.message


def test_a_stub_is_not_done_and_other_errors_are_sentences():
    ns = reference()

    def stub(model, messages):
        raise NotImplementedError
    ns.summarize = stub
    assert all(r.not_done for r in checks.run(12, 1, ns))

    def broken(model, messages):
        return messages[99]
    ns.summarize = broken
    messages = {r.message for r in checks.run(12, 1, ns)}
    assert any("raised IndexError" in m for m in messages), messages
