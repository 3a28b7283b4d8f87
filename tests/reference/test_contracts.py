"""The reference harness keeps the promises its docstrings make, bad input included."""

import pytest

import harness
import lab


def test_a_torn_line_raises_naming_it():
    ws = lab.Workspace()
    log = harness.SessionLog(ws, "session.jsonl")
    log.append_message(harness.user_message("one"))
    ws.append_text("session.jsonl", '{"id": "e2", "type": "mess')
    with pytest.raises(ValueError) as caught:
        log.entries()
    assert str(caught.value) == "session.jsonl, line 2: not a complete log entry"
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_reading_a_missing_file_names_the_files_there():
    read = harness.make_read_tool(lab.Workspace({"a.py": "A = 1\n", "b.py": "B = 2\n"}))
    call = lab.call("read", {"path": "c.py"}, id="r1")
    result = harness.run_tool([read], call)
    assert result["is_error"] is True
    assert result["content"] == "File not found: c.py. Files here: a.py, b.py"


def test_the_read_tool_says_how_to_read_on():
    ws = lab.Workspace({"big.log": lab.big_log(lines=30)})
    result = harness.make_read_tool(ws, max_lines=10)["execute"]({"path": "big.log"})
    assert result.endswith("[Showing lines 1-10 of 30. Use offset=11 to continue.]")


def test_protocol_strings_are_exact():
    assert harness.INTERRUPTED == ("Tool call interrupted: no result was recorded. It may not have run, "
                                   "or may have run partly; check before repeating it.")
    assert harness.SUMMARY_SYSTEM.startswith("You summarise a conversation between a user and a coding agent. "
                                             "Do NOT continue the conversation and do NOT answer any question")


def test_compaction_is_refused_during_a_run():
    h = harness.Harness(lab.ScriptedModel([lab.say("ok")]), harness.SYSTEM, [])
    run = h.prompt("hi")
    next(run)
    with pytest.raises(RuntimeError, match="cannot compact during a run"):
        harness.maybe_compact(h, harness.SessionLog(lab.Workspace(), "s"), None, window=10, reserve=1,
                              keep_recent_tokens=1)
    with pytest.raises(RuntimeError, match="cannot replace messages during a run"):
        h.replace_messages([])
    run.close()
    assert not h.is_running
    h.replace_messages([])


def test_a_compaction_entry_reads_back_through_rows():
    ws = lab.Workspace()
    log = harness.SessionLog(ws, "s.jsonl")
    for n in range(1, 5):
        log.append_message(harness.user_message(f"m{n}"))
    assert log.append_compaction("first three", "e4") == "e5"
    assert [i for i, _ in log.rows()] == ["e5", "e4"]
    assert log.replay()[0] == harness.user_message("Previous conversation summary:\nfirst three")


def test_find_cut_at_both_ends():
    rows = [("e1", lab.user("x" * 40))]
    assert harness.find_cut(rows, 1000) == 0
    c = lab.call("read", {"path": "a"}, id="c1")
    rows = [("e1", lab.user("go")), ("e2", lab.reply(c)), ("e3", lab.tool_result(c, "y" * 4000))]
    assert harness.find_cut(rows, 300) == 3


def test_run_tool_never_raises():
    def boom(arguments):
        raise KeyError("nope")
    tool = {"name": "boom", "description": "", "parameters": {}, "execute": boom}
    result = harness.run_tool([tool], lab.call("boom", {}, id="b1"))
    assert result["is_error"] and result["content"] == "'nope'"
    missing = harness.run_tool([], lab.call("gone", {}, id="g1"))
    assert missing["content"] == "Tool gone not found"
