"""lab.ScriptedModel: a scripted reply for every request, and the checks of a strict provider."""

import pytest

import harness
import lab
from lab.model import DEFAULT_MAX_CALLS

READ = {"name": "read", "description": "Read a file.", "parameters": {}}
C1 = lab.call("read", {"path": "a.py"}, id="c1")


def ask(model, messages, system="Be brief.", tools=()):
    return model.complete(system, list(messages), list(tools))


# --- replies and records ---------------------------------------------------------------------

def test_replies_follow_the_script_and_carry_usage():
    model = lab.ScriptedModel([lab.say("One."), lab.reply(C1)])
    first = ask(model, [lab.user("Hi.")])
    assert first["content"] == [{"type": "text", "text": "One."}]
    assert first["stop_reason"] == "stop"
    expected = lab.count_tokens(lab.render_request("Be brief.", [lab.user("Hi.")], []))
    assert first["usage"]["input"] == expected
    second = ask(model, [lab.user("Hi."), first, lab.user("Read.")])
    assert second["stop_reason"] == "toolUse"
    assert harness.tool_calls(second) == [C1]
    assert len(model.calls) == 2
    assert model.bill == first["usage"]["input"] + second["usage"]["input"]


def test_the_record_keeps_a_copy_of_what_was_sent():
    model = lab.ScriptedModel([lab.say("Ok.")])
    messages = [lab.user("Hi.")]
    ask(model, messages, tools=[READ])
    messages.append(lab.user("later"))
    messages[0]["content"] = "changed"
    request = model.calls[0]
    assert request.messages == [lab.user("Hi.")]
    assert request.system == "Be brief." and request.tools == [READ]
    assert request.number == 1 and request.reply["content"][0]["text"] == "Ok."


def test_last_result_is_the_newest_result_anywhere_in_the_request():
    seen = []
    model = lab.ScriptedModel([lab.forever(lambda request: seen.append(request.last_result)
                                           or lab.say("ok"))])
    r1 = lab.tool_result(C1, "A = 1\n")
    ask(model, [lab.user("Hi.")])
    ask(model, [lab.user("Hi."), lab.reply(C1), r1])
    ask(model, [lab.user("Hi."), lab.reply(C1), r1, lab.say("Noted."), lab.user("And?")])
    assert seen == [None, r1, r1]
    assert model.calls[2].last_result == r1


def test_user_text_joins_every_user_message():
    model = lab.ScriptedModel([lab.say("ok")])
    ask(model, [lab.user("Our goal: X."), lab.reply(C1), lab.tool_result(C1, "not user text"),
                lab.say("Read."), lab.user("Next?")])
    assert model.calls[0].user_text == "Our goal: X.\nNext?"


def test_automatic_call_ids_are_counted_per_model():
    step = lab.reply(lab.call("read", {"path": "a.py"}))
    one = lab.ScriptedModel([step, lab.forever(lambda request: lab.reply(lab.call("ls"), lab.call("pwd")))])
    two = lab.ScriptedModel([step])
    assert harness.tool_calls(ask(one, [lab.user("a")]))[0]["id"] == "c1"
    assert [c["id"] for c in harness.tool_calls(ask(one, [lab.user("b")]))] == ["c2", "c3"]
    assert harness.tool_calls(ask(two, [lab.user("a")]))[0]["id"] == "c1"
    assert step["content"][0]["id"] is None            # the script itself is left as written
    explicit = lab.ScriptedModel([lab.reply(lab.call("ls", id="mine"))])
    assert harness.tool_calls(ask(explicit, [lab.user("a")]))[0]["id"] == "mine"


def test_a_function_step_answers_once():
    model = lab.ScriptedModel([lambda request: lab.say(f"call {request.number}"), lab.say("last")])
    assert harness.text_of(ask(model, [lab.user("a")])) == "call 1"
    assert harness.text_of(ask(model, [lab.user("a")])) == "last"


def test_fail_replies_a_failed_message():
    model = lab.ScriptedModel([lab.fail("503 overloaded"),
                               lab.fail("503 overloaded", partial=[lab.call("bash", {"command": "rm"})])])
    first = ask(model, [lab.user("a")])
    assert first["stop_reason"] == "error" and first["content"] == []
    assert first["error_message"] == "503 overloaded"
    assert first["usage"]["input"] > 0
    second = ask(model, [lab.user("a")])
    assert second["stop_reason"] == "error" and harness.tool_calls(second)[0]["id"] == "c1"


# --- the strict provider ---------------------------------------------------------------------

def test_an_invalid_transcript_gets_a_failed_reply_not_an_exception():
    model = lab.ScriptedModel([lab.say("Only once.")])
    messages = [lab.user("x"), lab.tool_result(C1, "A")]
    answer = ask(model, messages)
    assert answer["stop_reason"] == "error" and answer["content"] == []
    assert answer["error_message"] == "400 invalid_request: messages[1]: toolResult c1 has no toolCall before it"
    assert answer["usage"]["input"] == lab.count_tokens(lab.render_request("Be brief.", messages, []))
    assert len(model.calls) == 1 and model.bill == answer["usage"]["input"]
    # the refusal used no script step: the next valid request still gets it
    assert harness.text_of(ask(model, [lab.user("x")])) == "Only once."


def test_a_request_over_the_window_is_refused_with_its_size():
    small = [lab.user("x")]
    size = lab.count_tokens(lab.render_request("Be brief.", small, []))
    fits = lab.ScriptedModel([lab.say("ok")], context_window=size)
    assert ask(fits, small)["stop_reason"] == "stop"
    tight = lab.ScriptedModel([lab.say("ok")], context_window=size - 1)
    answer = ask(tight, small)
    assert answer["error_message"] == f"prompt is too long: {size} tokens > {size - 1}"
    assert answer["usage"]["input"] == size


def test_tools_that_are_not_specs_are_refused():
    model = lab.ScriptedModel([lab.say("ok")])
    tool = dict(READ, execute=lambda arguments: "")
    answer = ask(model, [lab.user("x")], tools=[tool])
    assert answer["error_message"] == ("400 invalid_request: tools[0]: read cannot be sent as "
                                       "JSON; send tool_specs(tools)")


def test_a_failed_empty_reply_in_the_transcript_is_refused():
    model = lab.ScriptedModel([lab.say("ok")])
    failed = {"role": "assistant", "content": [], "stop_reason": "error", "error_message": "503"}
    answer = ask(model, [lab.user("x"), failed, lab.user("again")])
    assert answer["error_message"] == "400 invalid_request: messages[1]: assistant message is empty"


# --- the brakes ------------------------------------------------------------------------------

def test_a_script_that_runs_out_raises_naming_the_call():
    model = lab.ScriptedModel([lab.say("one")])
    ask(model, [lab.user("a")])
    with pytest.raises(lab.ScriptError) as error:
        ask(model, [lab.user("b")])
    assert str(error.value).startswith("Model call 2 has no reply")
    assert len(model.calls) == 1


def test_max_calls_stops_a_runaway():
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("again"))], max_calls=3)
    for _ in range(3):
        ask(model, [lab.user("a")])
    with pytest.raises(lab.ScriptError, match="Model call 4 goes past max_calls=3"):
        ask(model, [lab.user("a")])
    assert DEFAULT_MAX_CALLS == 50
    unlimited = lab.ScriptedModel([lab.forever(lambda request: lab.say("again"))], max_calls=None)
    for _ in range(DEFAULT_MAX_CALLS + 1):
        ask(unlimited, [lab.user("a")])


def test_script_errors_are_not_runtime_errors():
    # harness code catches RuntimeError from a failed summary; a broken script must not hide there
    assert not issubclass(lab.ScriptError, RuntimeError)


def test_bad_scripts_are_refused_when_the_model_is_made():
    with pytest.raises(TypeError):
        lab.ScriptedModel(lab.say("not a list"))
    with pytest.raises(TypeError):
        lab.ScriptedModel([lab.user("not an assistant")])
    with pytest.raises(TypeError):
        lab.ScriptedModel(["text"])
    with pytest.raises(ValueError, match="make it the last"):
        lab.ScriptedModel([lab.forever(lambda r: lab.say("a")), lab.say("never")])
    with pytest.raises(ValueError):
        lab.ScriptedModel([], context_window=0)
    with pytest.raises(TypeError):
        lab.forever("not a function")
    with pytest.raises(TypeError):
        lab.fail("503", partial=["text"])


def test_a_step_function_must_return_an_assistant_message():
    model = lab.ScriptedModel([lab.forever(lambda request: "ok")])
    with pytest.raises(TypeError, match="must return an assistant message"):
        ask(model, [lab.user("a")])


# --- the prefix cache ------------------------------------------------------------------------

def test_the_cache_counts_the_prefix_an_earlier_request_began_with():
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("ok"))])
    first = [lab.user("Our goal is X.")]
    a = ask(model, first, tools=[READ])
    assert a["usage"]["cache_read"] == 0 and model.calls[0].cached == 0
    b = ask(model, first + [a, lab.user("Next.")], tools=[READ])
    shared = lab.render_request("Be brief.", first, [READ])[:-1]   # without the closing "]"
    assert b["usage"]["cache_read"] == lab.count_tokens(shared)
    assert model.calls[1].uncached == b["usage"]["input"] - b["usage"]["cache_read"]
    # the bill still counts every token sent, cached or not
    assert model.bill == a["usage"]["input"] + b["usage"]["input"]
    assert model.cached == b["usage"]["cache_read"]


def test_after_a_compaction_only_the_system_prompt_and_tools_are_cached():
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("ok"))])
    history = [lab.user("Our goal is X."), lab.say("ok"), lab.user("Next.")]
    ask(model, history, tools=[READ])
    compacted = [lab.user("Previous conversation summary:\nGoal X."), lab.user("Next.")]
    answer = ask(model, compacted, tools=[READ])
    header_only = lab.render_request("Be brief.", [], [READ])[:-1]
    assert answer["usage"]["cache_read"] == lab.count_tokens(header_only)
    other_system = ask(model, compacted, system="Summarise.", tools=[])
    assert other_system["usage"]["cache_read"] == 0


def test_a_refused_request_is_neither_a_hit_nor_remembered():
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("ok"))], context_window=60)
    big = [lab.user("x" * 400)]
    assert ask(model, big)["stop_reason"] == "error"
    assert ask(model, big)["usage"]["cache_read"] == 0


# --- the stage prop --------------------------------------------------------------------------

CONVERSATION = [lab.user("Our goal is port 8080."), lab.say("Reading config.py."),
                lab.user("Is it on 9090?"), lab.say("Yes.")]


def wrapped(messages):
    return lab.user(f"<conversation>\n{harness.render(messages)}\n</conversation>")


def test_summariser_summarises_a_request_built_for_it():
    model = lab.ScriptedModel([lab.summariser()])
    answer = ask(model, [wrapped(CONVERSATION)], system=harness.SUMMARY_SYSTEM)
    assert harness.text_of(answer) == ("Summary of 4 lines. It began: user: Our goal is port 8080. "
                                       "It ended: assistant: Yes.")
    assert harness.summarize(model, CONVERSATION) == harness.text_of(answer)


@pytest.mark.parametrize("system, tools, last", [
    ("You are a helpful assistant.", [], "wrapped"),    # the agent's system prompt
    (harness.SUMMARY_SYSTEM, [READ], "wrapped"),        # tools offered
    (harness.SUMMARY_SYSTEM, [], "appended"),           # the request appended to the conversation
])
def test_summariser_answers_the_question_when_a_cue_is_missing(system, tools, last):
    model = lab.ScriptedModel([lab.summariser()])
    if last == "wrapped":
        messages = [wrapped(CONVERSATION)]
    else:
        messages = CONVERSATION + [lab.user("Summarise the conversation so far.")]
    text = harness.text_of(ask(model, messages, system=system, tools=tools))
    assert text.startswith("You asked: ") and text.endswith("Is it on 9090? My answer: yes. (Not a summary.)")


def test_summariser_calls_the_first_tool_once_then_is_done():
    model = lab.ScriptedModel([lab.summariser()])
    messages = [lab.user("Our goal is port 8080.")]
    first = ask(model, messages, tools=[READ, dict(READ, name="write")])
    assert lab.show([first]) == "assistant -> toolCall c1 read({})"
    result = lab.tool_result(harness.tool_calls(first)[0], "path must be a string", is_error=True)
    then = ask(model, messages + [first, result], tools=[READ])
    assert harness.text_of(then) == "Done. (Not a summary.)"
    assert harness.text_of(ask(model, messages, tools=[])) == "Done. (Not a summary.)"


def test_summariser_keeps_no_state_between_requests():
    model = lab.ScriptedModel([lab.summariser()])
    again = [ask(model, [lab.user("Go.")], tools=[READ]) for _ in range(2)]
    assert [harness.tool_calls(m)[0]["id"] for m in again] == ["c1", "c2"]


def test_repr_is_free_of_addresses():
    model = lab.ScriptedModel([lab.summariser()])
    assert repr(model) == "ScriptedModel(1 steps, 0 calls)"
    assert repr(model.script[0]) == "forever(summariser)"
    ask(model, [lab.user("Go.")])
    assert repr(model.calls[0]).startswith("<request 1: 1 messages, ")
