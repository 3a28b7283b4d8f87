"""lab's ways of looking at a transcript, and its token arithmetic."""

import json

import pytest

import lab

C1 = lab.call("read", {"path": "a.py"}, id="c1")
C2 = lab.call("read", {"path": "b.py"}, id="c2")
VALID = [lab.user("Read both."), lab.reply(C1, C2), lab.tool_result(C1, "A = 1\n"),
         lab.tool_result(C2, "B = 2\n"), lab.say("Done.")]


def test_shape():
    assert lab.shape(VALID) == "U A[c1,c2] R(c1) R(c2) A"
    assert lab.shape([]) == ""
    failed = {"role": "assistant", "content": [], "stop_reason": "error", "error_message": "503"}
    assert lab.shape([failed, {"role": "system"}]) == "A! ?"
    assert lab.shape([lab.reply(lab.call("ls"))]) == "A[?]"


def test_show_lines():
    assert lab.show(VALID).splitlines() == [
        'user -> "Read both."',
        'assistant -> toolCall c1 read({"path": "a.py"}) + toolCall c2 read({"path": "b.py"})',
        'toolResult c1 -> "A = 1\\n"',
        'toolResult c2 -> "B = 2\\n"',
        'assistant -> "Done."',
    ]
    bad = lab.tool_result(C1, "nope", is_error=True)
    assert lab.show([bad]) == 'toolResult c1 -> "nope"  [is_error]'
    failed = {"role": "assistant", "content": [], "stop_reason": "error", "error_message": "503"}
    assert lab.show([failed]) == "assistant -> (nothing)  [error: 503]"
    assert lab.show([]) == "(no messages)"


def test_show_clips_at_80_characters_by_default():
    words = "x" * 98
    assert lab.show([lab.user(words)]) == 'user -> "' + "x" * 80 + '... (98 characters)"'
    assert lab.show([lab.user("x" * 80)]) == 'user -> "' + "x" * 80 + '"'
    assert lab.show([lab.user(words)], clip=None) == 'user -> "' + words + '"'
    assert lab.show([lab.user(words)], clip=200) == 'user -> "' + words + '"'


def test_show_and_shape_want_a_list():
    with pytest.raises(TypeError, match="wrap it in"):
        lab.show(lab.user("Hi."))
    with pytest.raises(TypeError):
        lab.shape("U A")


def test_validate_accepts_a_valid_transcript():
    assert lab.validate(VALID) == []
    assert lab.validate([lab.user("a"), lab.user("b")]) == []     # two users in a row are fine
    assert lab.validate([lab.say("Hello."), lab.user("b")]) == []  # so is opening on the assistant


def test_validate_names_an_orphan_result():
    assert lab.validate([lab.user("x"), lab.tool_result(C2, "B")]) == [
        "messages[1]: toolResult c2 has no toolCall before it"]


def test_validate_names_a_call_without_a_result():
    assert lab.validate([lab.user("x"), lab.reply(C1), lab.user("y")]) == [
        "messages[1]: toolCall c1 has no toolResult after it"]
    assert lab.validate([lab.user("x"), lab.reply(C1)]) == [
        "messages[1]: toolCall c1 has no toolResult after it"]


def test_validate_names_misplaced_and_doubled_results():
    late = [lab.user("x"), lab.reply(C1), lab.say("hm"), lab.tool_result(C1, "A")]
    assert lab.validate(late) == ["messages[1]: toolCall c1 has no toolResult after it",
                                  "messages[3]: toolResult c1 is not right after its toolCall"]
    twice = [lab.user("x"), lab.reply(C1), lab.tool_result(C1, "A"), lab.tool_result(C1, "A")]
    assert lab.validate(twice) == [
        "messages[3]: toolResult c1 answers a toolCall that already has a result"]


def test_validate_names_malformed_messages():
    empty = {"role": "assistant", "content": []}
    assert lab.validate([lab.user("x"), empty]) == ["messages[1]: assistant message is empty"]
    assert lab.validate([]) == ["messages: the list is empty; a request needs at least one message"]
    assert lab.validate(["hello"]) == ["messages[0]: not a message (a dict with a role)"]
    assert lab.validate([{"role": "user", "content": 3}]) == ["messages[0]: user content must be a string"]
    assert lab.validate([{"role": "robot", "content": ""}]) == ["messages[0]: unknown role 'robot'"]
    assert lab.validate([lab.reply(lab.call("ls"))]) == ["messages[0]: toolCall ls has no id"]


def test_validate_lists_problems_in_message_order():
    messages = [lab.tool_result(C2, "B"), lab.reply(C1), lab.user("y"), lab.tool_result(C2, "B")]
    assert [p.split(":")[0] for p in lab.validate(messages)] == [
        "messages[0]", "messages[1]", "messages[3]"]


def test_count_tokens_is_characters_over_four():
    assert lab.count_tokens("") == 0
    assert lab.count_tokens("abc") == 0
    assert lab.count_tokens("abcd") == 1
    assert lab.count_tokens("x" * 4003) == 1000
    with pytest.raises(TypeError):
        lab.count_tokens(["abcd"])


def test_render_request_layout():
    tools = [{"name": "read", "description": "Read.", "parameters": {}}]
    reply = dict(lab.say("Hi."), usage={"input": 9})
    text = lab.render_request("Be brief.", [lab.user("Hi?"), reply], tools)
    header = json.dumps({"system": "Be brief.", "tools": tools})
    assert text == ("[" + header + "\n" + json.dumps(lab.user("Hi?")) + "\n"
                    + json.dumps({"role": "assistant", "content": reply["content"]}) + "\n]")
    assert "stop_reason" not in text and "usage" not in text


def test_render_request_refuses_tools_that_are_not_specs():
    tools = [{"name": "read", "execute": print}]
    with pytest.raises(TypeError, match="tool_specs"):
        lab.render_request("s", [], tools)


def test_big_log_lines_are_28_characters():
    text = lab.big_log(lines=200)
    lines = text.splitlines(keepends=True)
    assert len(lines) == 200
    assert {len(line) for line in lines} == {28}
    assert len(text) == 200 * 28
    assert text == lab.big_log(lines=200)           # the same text every time
    assert lab.big_log(lines=0) == ""
    with pytest.raises(ValueError):
        lab.big_log(lines=-1)
