"""The lab tests of lesson 1, "Who said what": user_message and run_agent (version 1), one lab.

`ns.user_message` and `ns.run_agent` are the learner's. run_agent is driven through a Spy: a
ScriptedModel that also keeps the three arguments of every complete() as they arrived, so that a
test can tell `[]` from None. No test asks whether two objects are the same one: under the
autograder the learner's code runs in another process, and lists cross over by copy-restore
(lab/grader/wire.py), so only what the objects hold can be compared. The visible tests are the
plan's list and one for every wrong idea a rung of the lesson warns about; the hidden ones hold
both functions to the edges of their contracts.
"""

import copy

import harness
import lab
from lab.checks import blame, expect, test
from lab.lessons.lesson01.props import recall

SYSTEM = "Answer in one short sentence."  # not harness.SYSTEM: a test must see which text travels


class Spy(lab.ScriptedModel):
    """A ScriptedModel that also records each call's arguments as they came: .args holds
    (system, messages, tools) per call, the list objects themselves, with a deep copy of the
    messages as they stood at the moment of the call."""

    def __init__(self, script):
        super().__init__(script)
        self.args = []

    def complete(self, system, messages, tools):
        self.args.append((system, messages, tools, copy.deepcopy(messages) if isinstance(messages, list) else messages))
        return super().complete(system, messages, tools)


def recall_model():
    return Spy([recall()])


def run(ns, model, messages, prompt, system=SYSTEM):
    """The learner's run_agent on one prompt. A list or tuple handed back is refused here, in the
    one sentence that fits it, before any test reads it as a reply."""
    returned = blame("run_agent", ns.run_agent, model, system, messages, prompt)
    expect(not isinstance(returned, (list, tuple)),
           f"run_agent returned a {type(returned).__name__} of {len(returned)} messages instead of "
           "the reply: the caller's list is the record, so append to it and return only the reply")
    expect(isinstance(returned, dict),
           f"run_agent returned {type(returned).__name__} {returned!r:.60}, not the reply: return the "
           "assistant message model.complete gave you")
    return returned


def said(reply):
    """text_of(reply), or None when the reply is not a message text_of can read: a test then
    blames run_agent for what it returned, never text_of for what it was given."""
    try:
        return harness.text_of(reply)
    except Exception:  # a malformed return is run_agent's fault, reported by the caller
        return None


def roles(messages):
    """"user assistant user" for a short list; a long one is counted instead."""
    names = [m.get("role", "?") if isinstance(m, dict) else type(m).__name__ for m in messages]
    return " ".join(names) if len(names) <= 6 else f"{len(names)} messages"


def words(reply):
    """What a reply says, or for a failed one its error."""
    if not isinstance(reply, dict):
        return f"{type(reply).__name__} {reply!r:.60}"
    if reply.get("stop_reason") == "error":
        return f"a failed reply ({reply.get('error_message')})"
    text = said(reply)
    return f"{reply!r:.60}, which is not an assistant message" if text is None else repr(text)


def one_prompt(ns, model, messages, prompt, system=SYSTEM):
    """run_agent once, and the checks every prompt must pass: one call of the model, the caller's
    list grown by the user message and then the reply, and that reply returned."""
    before = list(messages)
    returned = run(ns, model, messages, prompt, system)
    expect(len(model.args) >= 1, "run_agent returned without calling model.complete: the reply "
                                 "has to come from the model")
    expect(returned.get("role") == "assistant",
           f"run_agent returned {str(returned)[:60]!r}, a message of role {returned.get('role')!r}, "
           "not the reply: return the assistant message model.complete gave you")
    added = messages[len(before):]
    expect(messages[:len(before)] == before,
           "run_agent changed the messages that were already in the caller's list: it may only "
           "add to the end")
    expect(added != [], "run_agent added nothing to the caller's list: append the user message and "
                        "the reply to `messages` itself, not to a copy of it")
    expect(not (len(added) == 1 and added[0].get("role") == "user"),
           "run_agent appended the user message but not the reply: append the reply to "
           "`messages` too, or the next request will not show what the model said")
    expect(len(added) == 2, f"run_agent added {len(added)} messages to the caller's list "
                            f"({roles(added) or 'none'}); one prompt adds exactly two, the user "
                            "message and then the reply")
    expect(added[0] == {"role": "user", "content": prompt},
           f"run_agent appended {added[0]!r} for the prompt {prompt!r}: append "
           "user_message(prompt) and nothing else")
    expect(added[1] == returned, "run_agent returned a different message from the reply it "
                                 "appended: append the reply and return that same message")
    return returned


# -- user_message --------------------------------------------------------------------------------

@test(1, 1, "user_message(\"hi\") is {\"role\": \"user\", \"content\": \"hi\"}: the content is a plain string.")
def test_user_message_shape(ns):
    message = blame("user_message", ns.user_message, "hi")
    expect(isinstance(message, dict), f"user_message returned a {type(message).__name__}; a "
                                      "message is a dict with a role and a content")
    expect(message.get("role") == "user", f"user_message gave the role {message.get('role')!r}; "
                                          "the person typing is \"user\"")
    expect(not isinstance(message.get("content"), list),
           "user_message made the content a list of blocks; a user's content is one plain "
           "string (only a reply's content is a list)")
    expect(message == {"role": "user", "content": "hi"},
           f"user_message(\"hi\") returned {message!r}; it should be exactly "
           "{\"role\": \"user\", \"content\": \"hi\"}, with no other keys")


# -- run_agent -----------------------------------------------------------------------------------

@test(1, 1, "One prompt appends exactly two messages to the caller's list, the user message and "
            "then the reply, and returns that same reply.")
def test_one_prompt_appends_two_and_returns_the_reply(ns):
    model = recall_model()
    messages = []
    returned = one_prompt(ns, model, messages, "My name is Ada.")
    expect(said(returned) == "Hello, Ada. My name is Tau.",
           f"run_agent returned a reply that says {words(returned)}; it should return "
           "what the model answered, \"Hello, Ada. My name is Tau.\"")


@test(1, 1, "run_agent works on the caller's list and returns the reply, never a new list.")
def test_the_caller_keeps_the_record(ns):
    model = recall_model()
    messages = [lab.user("My name is Ada."), lab.say("Hello, Ada. My name is Tau.")]
    one_prompt(ns, model, messages, "What is my name?")


@test(1, 1, "SYSTEM travels as the system argument of every request: no message in the list has "
            "role \"system\", and the prompt goes in unchanged.")
def test_system_is_an_argument_not_a_message(ns):
    model = recall_model()
    messages = []
    run(ns, model, messages, "My name is Ada.")
    run(ns, model, messages, "What is my name?")
    for n, (system, sent, _, _) in enumerate(model.args, 1):
        kinds = [m.get("role") for m in sent if isinstance(m, dict)]
        expect("system" not in kinds,
               f"run_agent put SYSTEM into request {n}'s list as a message of role \"system\"; "
               "it goes in model.complete's first argument, `system`, and never into the list")
        expect(system == SYSTEM,
               f"run_agent sent {system!r} as the system argument of request {n}, not the "
               f"`system` it was given ({SYSTEM!r}): pass it through unchanged on every call")
        firsts = [m.get("content") for m in sent if isinstance(m, dict) and m.get("role") == "user"]
        expect(not any(isinstance(c, str) and SYSTEM in c for c in firsts),
               f"run_agent sent SYSTEM inside a user message in request {n}; in the list it is "
               "something the user said, so send it only as the `system` argument")
    one_prompt(ns, recall_model(), [], "Hello.")


@test(1, 1, "The model is offered no tools: the third argument of model.complete is [].")
def test_no_tools_in_lesson_one(ns):
    model = recall_model()
    run(ns, model, [], "Hello.")
    expect(len(model.args) == 1, f"run_agent called model.complete {len(model.args)} times for one "
                                 "prompt; one prompt is one call")
    for n, (_, _, tools, _) in enumerate(model.args, 1):
        expect(isinstance(tools, list) and tools == [],
               f"run_agent offered {tools!r} as the tools of request {n}; lesson 1's harness has "
               "no tools, so pass the empty list []")


@test(1, 1, "Three prompts on one list: the third request carries all five messages, U A U A U, "
            "in order, the earlier ones as they were.")
def test_every_request_carries_the_whole_list(ns):
    model = recall_model()
    messages = []
    for prompt in ["My name is Ada.", "I like tea.", "What is my name?"]:
        one_prompt(ns, model, messages, prompt)
    sent = model.args[-1][3]
    expect(len(model.args) == 3, f"run_agent called model.complete {len(model.args)} times for "
                                 "three prompts; one prompt is one call")
    expect(not (len(sent) == 1 and sent[0].get("role") == "user"
                and "My name is Ada." in str(sent[0].get("content"))
                and "What is my name?" in str(sent[0].get("content"))),
           "run_agent pasted the history into one user message, so the model cannot tell who "
           "said what: send the list of messages itself, each with its role")
    expect(len(sent) == 5, f"run_agent sent {len(sent)} message{'s' if len(sent) != 1 else ''} "
                           f"({roles(sent)}) with the third prompt; the model keeps nothing "
                           "between calls, so all five go, U A U A U")
    expect(sent == messages[:5], "run_agent's third request differs from the caller's list as it "
                                 "stood: send the whole list, in order, as it is")


@test(1, 1, "With recall(), \"My name is Ada.\" then \"What is my name?\" on one list gets "
            "\"Your name is Ada.\", not Tau.")
def test_the_model_knows_who_said_what(ns):
    model = recall_model()
    messages = []
    run(ns, model, messages, "My name is Ada.")
    answer = run(ns, model, messages, "What is my name?")
    said = words(answer)
    sent = model.args[-1][3]
    users = [m for m in sent if isinstance(m, dict) and m.get("role") == "user"]
    expect(not (len(users) == 1 and "assistant" in str(users[0].get("content"))),
           "run_agent wrote the history into one user string (\"user: ... assistant: ...\"), and "
           f"the model answered {said}: a role written inside text is not a role, so send "
           "the messages as they are")
    expect(said == repr("Your name is Ada."),
           f"run_agent's second request got {said} from recall(); with both messages of the "
           "first exchange in the list, each with its role, it answers \"Your name is Ada.\"")


@test(1, 1, "Two lists are two conversations: a prompt run on one leaves the other untouched.")
def test_two_lists_two_conversations(ns):
    model = recall_model()
    ada, bo = [], []
    one_prompt(ns, model, ada, "My name is Ada.")
    run(ns, model, bo, "My name is Bo.")
    expect(len(ada) == 2 and len(bo) == 2,
           f"run_agent left {len(ada)} and {len(bo)} messages in two separate lists after one "
           "prompt each; each list should hold its own two, so keep no list of your own")
    answer = run(ns, model, bo, "What is my name?")
    sent = model.args[-1][3]
    expect(len(sent) == 3 and words(answer) == repr("Your name is Bo."),
           f"run_agent sent {len(sent)} message{'s' if len(sent) != 1 else ''} ({roles(sent)}) for "
           "Bo's second prompt; only Bo's list goes, U A U")
    expect(len(ada) == 2, "run_agent added to Ada's list while running a prompt on Bo's: work "
                          "only on the list you were given")


# -- hidden: the edges of the contracts ------------------------------------------------------------

@test(1, 1, "user_message keeps the text exactly: empty, multi-line, spaces at the ends.", hidden=True)
def test_user_message_keeps_text_exactly(ns):
    for text in ["", "  two\nlines  ", "user: not a role"]:
        message = blame("user_message", ns.user_message, text)
        expect(message == {"role": "user", "content": text},
               f"user_message({text!r}) returned {message!r}; the content is the text exactly "
               "as given, nothing trimmed or added")


@test(1, 1, "user_message returns a new dict on every call.", hidden=True)
def test_user_message_new_each_time(ns):
    first = blame("user_message", ns.user_message, "one")
    expect(first == {"role": "user", "content": "one"},
           f"user_message(\"one\") returned {first!r:.80}; it should be exactly "
           "{\"role\": \"user\", \"content\": \"one\"}")
    second = blame("user_message", ns.user_message, "two")
    expect(first == {"role": "user", "content": "one"} and second == {"role": "user", "content": "two"},
           "user_message handed back the same dict twice, so the first message changed when the "
           "second was made: build a new dict on each call")


@test(1, 1, "On an empty list, the first request holds exactly the one user message.", hidden=True)
def test_empty_history(ns):
    model = recall_model()
    messages = []
    one_prompt(ns, model, messages, "What is my name?")
    sent = model.args[0][3]
    expect(sent == [{"role": "user", "content": "What is my name?"}],
           f"run_agent's first request on an empty list held {sent!r:.100}; it should hold "
           "exactly the new user message, {'role': 'user', 'content': 'What is my name?'}")


@test(1, 1, "A failed reply is appended and returned as it came, not raised and not dropped.", hidden=True)
def test_failed_reply_is_recorded(ns):
    model = Spy([lab.fail("503 overloaded: try again later")])
    messages = []
    returned = run(ns, model, messages, "Hello.")
    expect(len(messages) != 1, "run_agent appended the prompt but not the failed reply; a failure is "
                               "part of what happened, so append it and return it like any reply")
    expect(len(messages) == 2 and messages[-1] == returned,
           f"run_agent left {len(messages)} messages after a failed reply; a failure is part of "
           "what happened, so append it and return it like any reply")
    expect(returned.get("stop_reason") == "error" and returned.get("error_message") == "503 overloaded: try again later",
           "run_agent changed the failed reply before recording it; append it exactly as the "
           "model returned it")


@test(1, 1, "The reply recorded and returned is the model's message as it came, usage and all.", hidden=True)
def test_reply_is_the_models_own_message(ns):
    model = recall_model()
    messages = []
    returned = run(ns, model, messages, "Hello.")
    expect(bool(messages) and returned == model.calls[-1].reply and messages[-1] == returned,
           "run_agent recorded or returned something other than the message model.complete "
           "gave back; keep that message as it is, with its usage and stop_reason")


@test(1, 1, "A long history goes out whole and stays as it was: the caller's list, seen under "
            "any name, ends with the new two, the newest prompt last in the request.", hidden=True)
def test_history_is_kept_as_it_was(ns):
    model = recall_model()
    history = []
    for n in range(4):
        history += [lab.user(f"Note {n}."), lab.say("Noted.")]
    kept = [dict(m) for m in history]
    alias = history
    run(ns, model, history, "My name is Ada.")
    expect(alias[:8] == kept and len(alias) == 10,
           f"run_agent left the caller's list with {len(alias)} messages, the first eight "
           f"{'unchanged' if alias[:8] == kept else 'changed'}; it should keep those eight as they "
           "were and add two")
    sent = model.args[0][3]
    expect(len(sent) == 9,
           f"run_agent sent {len(sent)} messages with an eight-message history; it should send "
           "all eight and then the new prompt")
    expect(sent[-1] == {"role": "user", "content": "My name is Ada."},
           f"run_agent ended its request with {sent[-1]!r:.80} for the prompt 'My name is Ada.'; "
           "the last message sent is user_message(prompt), exactly")


@test(1, 1, "One prompt is exactly one model call, even after a failed reply.", hidden=True)
def test_one_call_per_prompt(ns):
    model = Spy([lab.fail("503 overloaded"), lab.say("Here now.")])
    messages = []
    run(ns, model, messages, "Hello.")
    expect(len(model.args) == 1,
           f"run_agent called model.complete {len(model.args)} times for one prompt; lesson 1's "
           "run_agent asks once and records whatever comes back")


@test(1, 1, "The prompt is sent as given, even an empty one.", hidden=True)
def test_empty_prompt(ns):
    model = recall_model()
    messages = []
    run(ns, model, messages, "")
    expect(messages[:1] == [{"role": "user", "content": ""}],
           f"run_agent recorded {messages[:1]!r} for an empty prompt; the user message holds the "
           "prompt exactly, even when it is empty")
