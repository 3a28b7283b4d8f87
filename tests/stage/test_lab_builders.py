"""lab's message builders: the protocol's dicts in one call each."""

import pytest

import harness
import lab


def test_user_text_and_say():
    assert lab.user("Hi.") == {"role": "user", "content": "Hi."}
    assert lab.text("Hi.") == {"type": "text", "text": "Hi."}
    assert lab.say("Hi.") == {"role": "assistant", "content": [{"type": "text", "text": "Hi."}],
                              "stop_reason": "stop"}
    assert lab.user("Hi.") == harness.user_message("Hi.")


def test_call_and_reply():
    block = lab.call("read", {"path": "a.py"}, id="r1")
    assert block == {"type": "toolCall", "id": "r1", "name": "read", "arguments": {"path": "a.py"}}
    assert lab.call("ls")["arguments"] == {}
    message = lab.reply(lab.text("Reading."), block)
    assert message["stop_reason"] == "toolUse"
    assert harness.tool_calls(message) == [block]
    assert harness.text_of(message) == "Reading."


def test_a_call_without_an_id_waits_for_a_model_to_name_it():
    assert lab.call("read", {"path": "a.py"})["id"] is None
    with pytest.raises(ValueError, match="has no id yet"):
        lab.tool_result(lab.call("read"), "text")


def test_tool_result_has_the_keys_of_run_tool():
    block = lab.call("read", {"path": "a.py"}, id="r1")
    made = lab.tool_result(block, "A = 1\n")
    tool = {"name": "read", "description": "", "parameters": {}, "execute": lambda a: "A = 1\n"}
    assert made == harness.run_tool([tool], block)
    assert lab.tool_result(block, "no", is_error=True)["is_error"] is True


def test_builders_refuse_wrong_input():
    with pytest.raises(ValueError):
        lab.reply()
    with pytest.raises(TypeError):
        lab.reply("plain string")
    with pytest.raises(TypeError):
        lab.call("read", "a.py")
    with pytest.raises(TypeError):
        lab.call("")
    with pytest.raises(TypeError):
        lab.user(["not", "text"])
    with pytest.raises(TypeError):
        lab.tool_result({"role": "user"}, "x")
    with pytest.raises(TypeError):
        lab.tool_result(lab.call("read", id="r1"), 42)
