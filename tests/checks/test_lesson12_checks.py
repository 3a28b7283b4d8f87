"""Lesson 12's lab tests, beyond what tests/lessons/test_checks.py asks of every lesson: the bugs
the lesson itself warns about fail a visible test under the right function's name, with a
sentence that teaches, and a stub is never mistaken for a failed call."""

import pytest

from lab import checks, lessons
from lab.course import manifest

WRONG = lessons.load(12, "wrong")


def reference():
    return {name: manifest.reference(name) for name in manifest.names(12)}


def visible_failures(lab, **replaced):
    found = reference()
    found.update(replaced)
    return [r for r in checks.run(12, lab, manifest.Namespace(found), hidden=False) if not r.passed]


def first_message(lab, **replaced):
    failed = visible_failures(lab, **replaced)
    assert failed, f"no visible test failed for {replaced}"
    return failed[0].message


def test_the_lists_in_the_notebook_count_the_visible_tests():
    assert [len(checks.tests_for(12, lab, hidden=False)) for lab in (1, 2)] == [3, 7]


def test_tools_none_is_named_and_explained():
    message = first_message(1, summarize=WRONG.summarize_tools_none)
    assert message.startswith("summarize built the summary request wrong: the call passed tools=None")
    assert "[]" in message


def test_appending_to_the_transcript_is_named_as_that():
    assert first_message(1, summarize=WRONG.summarize_appended_to_messages).startswith(
        "summarize changed the list it was given, which now holds 7 messages")


def test_the_agents_voice_is_named():
    message = first_message(1, summarize=WRONG.summarize_offering_tools)
    assert message.startswith("summarize got the conversation's question answered instead of a summary")
    assert "offered tools (read)" in message


def test_an_unstripped_summary_is_caught_by_a_visible_test():
    assert "return it stripped" in first_message(1, summarize=WRONG.summarize_unstripped)


def test_the_position_as_id_bug_is_named_under_compact():
    failed = visible_failures(2, compact=WRONG.compact_id_by_position)
    assert [r.test.name for r in failed] == ["compact_five_turns"]
    assert "the cut's position (7) plus one" in failed[0].message and "rows[cut][0]" in failed[0].message


def test_the_position_as_id_bug_is_named_under_rows():
    failed = visible_failures(2, **{"SessionLog.rows": WRONG.rows_by_position})
    assert failed[0].test.name == "rows_read_a_compaction"
    assert "e7 is an id, not the seventh row" in failed[0].message


def test_a_missing_prefix_is_named_under_rows():
    failed = visible_failures(2, **{"SessionLog.rows": WRONG.rows_without_prefix})
    assert failed[0].test.name == "rows_read_a_compaction"
    assert "without SUMMARY_PREFIX" in failed[0].message


def test_a_find_cut_with_no_fallback_fails_the_test_whose_title_promises_that_case():
    failed = visible_failures(2, find_cut=WRONG.find_cut_without_fallback)
    assert failed[0].test.name == "cut_snaps_forward"
    assert "step past the results" in failed[0].message


def test_a_backward_cut_is_named_as_one():
    assert "may only move forward" in first_message(2, find_cut=WRONG.find_cut_moves_backwards)


def test_sending_everything_is_blamed_on_compact():
    assert first_message(2, compact=WRONG.compact_sends_everything).startswith("compact sent all")


@pytest.mark.parametrize("lab", [1, 2])
def test_a_stub_is_not_done_in_every_test_even_where_a_runtime_error_is_caught(lab):
    def stub(*args, **kwargs):
        raise NotImplementedError
    found = reference()
    found.update({name: stub for name in manifest.names(12, lab)})
    results = checks.run(12, lab, manifest.Namespace(found))
    assert all(r.not_done for r in results), [(r.test.name, r.message) for r in results if not r.not_done]


def test_a_stubbed_compact_is_not_a_failed_summary_call():
    def stub(log, model, *, keep_recent_tokens):
        raise NotImplementedError
    found = reference()
    found["compact"] = stub
    test = next(t for t in checks.tests_for(12, 2) if t.name == "failing_summariser_costs_nothing")
    result = checks.run_one(test, manifest.Namespace(found))
    assert result.not_done and "RuntimeError" not in result.message


def test_other_errors_are_sentences():
    def broken(model, messages):
        return messages[99]
    found = reference()
    found["summarize"] = broken
    messages = {r.message for r in checks.run(12, 1, manifest.Namespace(found))}
    assert any("raised IndexError" in m for m in messages), messages


def test_every_wrong_answer_names_its_rung():
    ids = {spec.id for spec in lessons.load(12).RUNGS}
    for by_name in WRONG.WRONG.values():
        for variants in by_name.values():
            for variant in variants:
                doc = variant.__doc__ or ""
                assert any(rung in doc for rung in ids) or "hint ladder" in doc, variant.__name__
