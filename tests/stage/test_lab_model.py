"""lab.ScriptedModel: a scripted reply for every request, and the checks of a strict provider."""

import copy

import pytest

import harness
import lab
from lab.stage.model import DEFAULT_MAX_CALLS
from lab.lessons.lesson01.props import recall
from lab.lessons.lesson13.props import briefed

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


def test_the_bill_prices_cached_tokens_below_uncached_ones():
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("ok"))])
    first = [lab.user("Our goal is X.")]
    a = ask(model, first, tools=[READ])
    b = ask(model, first + [a, lab.user("Next.")], tools=[READ])
    assert model.uncached == model.bill - model.cached > 0 and model.cached > 0
    assert model.cost == round(model.uncached + model.cached * lab.CACHED_RATE, 1)
    assert lab.CACHED_RATE < 1 and model.cost < model.bill
    # a request whose first bytes changed pays full price: nothing of it is cached
    other = lab.ScriptedModel([lab.forever(lambda request: lab.say("ok"))])
    ask(other, first, system="12:00 Be brief.", tools=[READ])
    ask(other, first + [a, lab.user("Next.")], system="12:01 Be brief.", tools=[READ])
    assert other.cached == 0 and other.cost == other.bill == other.uncached
    assert b["usage"]["cache_read"] > 0


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


# --- briefed(): believes its system prompt about the tools -----------------------------------

BRIEF = "Be brief.\n\nTools:\n- read: Read a file to see what it says.\n- write: Save text to a file."
NOTES = {"name": "read", "description": "Read a file.",
         "parameters": {"type": "object", "required": ["path"]}}


def briefed_model():
    return lab.ScriptedModel([briefed()])


def test_briefed_calls_a_tool_its_briefing_names_even_if_it_is_not_offered():
    job = [lab.user("Save the results to notes.md.")]
    answer = ask(briefed_model(), job, system=BRIEF, tools=[NOTES])
    assert harness.tool_calls(answer)[0]["name"] == "write"
    assert harness.tool_calls(answer)[0]["arguments"] == {"path": "notes.md"}


def test_briefed_goes_round_the_tools_that_fit_after_each_failure():
    brief = BRIEF + "\n- bash: Save output with a shell command."
    model, messages = briefed_model(), [lab.user("Save the results to notes.md.")]
    names = []
    for _ in range(4):
        answer = ask(model, messages, system=brief, tools=[NOTES])
        call_ = harness.tool_calls(answer)[0]
        names.append(call_["name"])
        messages += [answer, lab.tool_result(call_, f"Tool {call_['name']} not found", is_error=True)]
    assert names == ["write", "bash", "write", "bash"]


def test_briefed_says_it_has_no_tool_when_none_fits():
    answer = ask(briefed_model(), [lab.user("Save the results to notes.md.")],
                 system="Be brief.\n\nTools:\n- read: Read a file to see what it says.", tools=[NOTES])
    assert harness.text_of(answer) == "I have no tool for that. My briefing lists: read."
    nothing = ask(briefed_model(), [lab.user("Save it.")], system="Be brief.\n\nTools:\n(none)")
    assert harness.text_of(nothing) == "I have no tool for that. My briefing lists: nothing."


def test_briefed_fills_required_arguments_of_a_defined_tool_and_reports_its_result():
    model, job = briefed_model(), [lab.user("Read notes.md, please.")]
    answer = ask(model, job, system=BRIEF, tools=[NOTES])
    call_ = harness.tool_calls(answer)[0]
    assert call_["name"] == "read" and call_["arguments"] == {"path": "notes.md"}
    done = ask(model, job + [answer, lab.tool_result(call_, "all green\nmore")], system=BRIEF,
               tools=[NOTES])
    assert harness.text_of(done) == "Done: read said: all green"


def test_briefed_without_tool_lines_goes_by_the_tool_definitions():
    answer = ask(briefed_model(), [lab.user("Read notes.md, please.")], tools=[NOTES])
    assert harness.tool_calls(answer)[0]["name"] == "read"


# --- guesser ---------------------------------------------------------------------------------

PORT_QUESTION = "Which port does config.py use?"
SETTINGS = "HOST = 'localhost'\nPORT = 9090\n"


def test_guesser_without_tools_writes_a_likely_answer():
    model = lab.ScriptedModel([lab.guesser()])
    answer = ask(model, [lab.user(PORT_QUESTION)])
    assert harness.text_of(answer) == "config.py says: PORT = 8080"
    other = ask(model, [lab.user("What is in notes.txt?")])
    assert harness.text_of(other) == "notes.txt says: the usual settings for a project like this"


def test_guesser_with_a_read_tool_reads_the_file_the_newest_prompt_names():
    model = lab.ScriptedModel([lab.guesser()])
    first = ask(model, [lab.user("Hi, about a.py."), lab.say("Yes?"), lab.user(PORT_QUESTION)],
                tools=[READ, {"name": "write", "description": "", "parameters": {}}])
    assert [(c["name"], c["arguments"]) for c in harness.tool_calls(first)] == [("read", {"path": "config.py"})]


def test_guesser_answers_from_the_newest_result_after_the_prompt():
    model = lab.ScriptedModel([lab.guesser()])
    read = lab.call("read", {"path": "config.py"}, id="r1")
    answer = ask(model, [lab.user(PORT_QUESTION), lab.reply(read), lab.tool_result(read, SETTINGS)],
                 tools=[READ])
    assert harness.text_of(answer) == "config.py says: PORT = 9090"
    failed = ask(model, [lab.user(PORT_QUESTION), lab.reply(read),
                         lab.tool_result(read, "no such file", is_error=True)], tools=[READ])
    assert harness.text_of(failed) == "I could not read config.py: no such file"


def test_guesser_ignores_results_from_before_the_newest_prompt():
    model = lab.ScriptedModel([lab.guesser()])
    read = lab.call("read", {"path": "config.py"}, id="r1")
    old = [lab.user(PORT_QUESTION), lab.reply(read), lab.tool_result(read, SETTINGS), lab.say("9090.")]
    again = ask(model, old + [lab.user("And which host does config.py use?")])
    assert harness.text_of(again) == "config.py says: HOST = '0.0.0.0'"


def test_guesser_asks_which_file_when_none_is_named():
    model = lab.ScriptedModel([lab.guesser()])
    assert harness.text_of(ask(model, [lab.user("Which port?")], tools=[READ])) == "Which file do you mean?"
    assert repr(model.script[0]) == "forever(guesser)"


# --- recall(): answers from what the user said, by role --------------------------------------

def test_recall_greets_a_name_and_recalls_it_from_the_user_messages_sent():
    model = lab.ScriptedModel([recall()])
    hello = ask(model, [lab.user("My name is Ada.")])
    assert harness.text_of(hello) == "Hello, Ada. My name is Tau."
    later = ask(model, [lab.user("My name is Ada."), hello, lab.user("What is my name?")])
    assert harness.text_of(later) == "Your name is Ada."
    assert repr(model.script[0]) == "forever(recall)"


def test_recall_knows_nothing_the_request_does_not_show():
    model = lab.ScriptedModel([recall()])
    ask(model, [lab.user("My name is Ada.")])
    alone = ask(model, [lab.user("What is my name?")])
    assert harness.text_of(alone) == "I can't tell: nothing in this request says."


def test_recall_reads_only_user_messages_never_the_system_prompt_or_its_own_replies():
    model = lab.ScriptedModel([recall()])
    replies = [lab.user("Hi."), lab.say("My name is Tau."), lab.user("What's my name?")]
    assert harness.text_of(ask(model, replies, system="My name is Eve.")) == \
        "I can't tell: nothing in this request says."
    newest = [lab.user("My name is Ada."), lab.say("Hello."), lab.user("My name is Bo."),
              lab.say("Hello."), lab.user("who am I")]
    assert harness.text_of(ask(model, newest)) == "Your name is Bo."
    assert harness.text_of(ask(model, [lab.user("Nice weather.")])) == "Noted."


def test_recall_is_fooled_by_a_history_pasted_into_one_user_message():
    model = lab.ScriptedModel([recall()])
    pasted = ("user: My name is Ada.\nassistant: Hello, Ada. My name is Tau.\n"
              "user: What is my name?")
    assert harness.text_of(ask(model, [lab.user(pasted)])) == "Your name is Tau."


def test_recall_with_no_user_message_says_so():
    model = lab.ScriptedModel([recall()])
    assert harness.text_of(model._answer(lab.stage.model.Request(1, "", [], []))) == \
        "I can't tell: this request holds nothing you said."


def test_guesser_answers_from_the_result_paired_with_its_call_by_id():
    model = lab.ScriptedModel([lab.guesser()])
    config = lab.call("read", {"path": "config.py"}, id="k1")
    app = lab.call("read", {"path": "app.py"}, id="k2")
    asked = [lab.user(PORT_QUESTION), lab.reply(config, app)]
    right = ask(model, asked + [lab.tool_result(config, SETTINGS), lab.tool_result(app, "import config\n")])
    assert harness.text_of(right) == "config.py says: PORT = 9090"
    swapped = ask(model, asked + [lab.tool_result(config, "import config\n"), lab.tool_result(app, SETTINGS)])
    assert harness.text_of(swapped) == "config.py says: import config"
    empty = ask(model, asked[:1] + [lab.reply(config), lab.tool_result(config, "")])
    assert harness.text_of(empty) == "config.py is empty."


def test_a_request_is_a_deep_copy_with_its_sharing_kept():
    from lab.stage.model import snapshot
    shared = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    odd = (shared, frozenset({1}))
    messages = [shared, shared, {"role": "assistant", "content": [], 5: odd}]
    copied = snapshot(messages)
    assert copied == copy.deepcopy(messages)
    assert copied[0] is copied[1] and copied[0] is not shared            # shared stays shared
    assert copied[2][5][0] is copied[0]                                  # through deepcopy's part too
    shared["content"][0]["text"] = "changed"
    assert copied[0]["content"][0]["text"] == "hi", "snapshot shares a dict with what it copied"
    loop = []
    loop.append(loop)
    copied = snapshot(loop)
    assert copied[0] is copied and copied is not loop
