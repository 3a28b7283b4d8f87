"""The lab tests of lesson 2, "A likely story": run_tool (version 1) and run_agent (version 2).

The visible tests are the lesson's list: the contract's main clauses, and one test for every
wrong idea a question of the lesson argues against (pairing by position or by name, running only
the first call, a second copy of the calls, a result that is not a toolResult tied to its call,
a failure dressed as a success, tools offered once or not at all, prose read as a call). The
hidden ones hold each function to the edges of its contract.
"""

import copy

import harness
import lab
from lab.checks import expect, Failed, test
from lab.stage.prose import plural

SETTINGS = "HOST = 'localhost'\nPORT = 9090\n"
APP = "import config\n\nprint(config.PORT)\n"
KEYS = ("role", "tool_call_id", "tool_name", "content", "is_error")


def files():
    return lab.Workspace({"config.py": SETTINGS, "app.py": APP})


def recording(name, answer, ran):
    """A tool called `name` that notes each run in `ran` as (name, arguments) and returns `answer`
    (or answer(arguments), if it is a function)."""
    def execute(arguments):
        ran.append((name, arguments))
        return answer(arguments) if callable(answer) else answer
    return {"name": name, "description": f"The {name} tool of the lab's tests.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
            "execute": execute}


def reader(ws, ran):
    """A read tool over `ws` that notes every run."""
    return recording("read", lambda arguments: ws.read_text(arguments["path"]), ran)


class Spy:
    """A model that passes every request on to a ScriptedModel and keeps, for each reply, a copy
    taken before the caller could touch it, so that a test can tell whether the reply was
    changed after it came back."""

    def __init__(self, script):
        self.model = lab.ScriptedModel(script, max_calls=6)
        self.as_sent = []

    def complete(self, system, messages, tools):
        reply = self.model.complete(system, messages, tools)
        self.as_sent.append(copy.deepcopy(reply))
        return reply

    @property
    def calls(self):
        return self.model.calls


def run(ns, script, tools, prompt="Which port does config.py use?", messages=None, refusals=False):
    """Run the learner's run_agent on a fresh list (or `messages`): (what it returned, the list,
    the model). A request the model refused as invalid fails the test at once, unless
    `refusals` is True, where the test has something more exact to say."""
    model = Spy(script)
    messages = [] if messages is None else messages
    returned = ns.run_agent(model, harness.SYSTEM, messages, tools, prompt)
    for request in [] if refusals else model.calls:
        refusal = request.reply.get("error_message") or ""
        if refusal.startswith("400 invalid_request"):
            raise Failed(f"the model refused run_agent's request {request.number} "
                         f"({lab.shape(request.messages)}): {refusal}")
    return returned, messages, model


def result_problem(result, call, content):
    """Why `result` is not the toolResult that answers `call` with `content`, or ""."""
    if not isinstance(result, dict):
        return (f"returned a {type(result).__name__} ({result!r:.60}); return the toolResult "
                "message, a dict, not the bare text")
    if result.get("role") != "toolResult":
        return f"returned a message with role {result.get('role')!r}; a tool's answer has role \"toolResult\""
    if result.get("tool_call_id") != call["id"]:
        if "tool_call_id" not in result:
            return ("returned a result without tool_call_id, so nothing ties it to its call; "
                    f"set tool_call_id to the call's id, {call['id']!r}")
        got = result["tool_call_id"]
        why = " (the tool's name: two calls of one tool would share it)" if got == call["name"] else ""
        return f"tied the result to {got!r}{why}; tool_call_id must be the call's own id, {call['id']!r}"
    if result.get("tool_name") != call["name"]:
        return f"set tool_name to {result.get('tool_name')!r}; it is the call's name, {call['name']!r}"
    if result.get("content") != content:
        return f"set content to {result.get('content')!r:.80}; it is what execute returned, {content!r:.80}"
    if result.get("is_error") is not False:
        return f"set is_error to {result.get('is_error')!r}; a tool that returned normally gives is_error False"
    extra = sorted(set(result) - set(KEYS))
    if extra:
        return f"added {', '.join(extra)} to the result; a toolResult has exactly {', '.join(KEYS)}"
    return ""


def culprit(ns, call, result):
    """Which function made `result` wrong inside run_agent: "run_tool" when the learner's run_tool,
    asked alone, gives that same result, else "run_agent", which changed or made it itself."""
    try:
        alone = ns.run_tool([reader(files(), [])], call)
    except Exception:  # run_tool cannot answer this call alone, so run_agent made the result
        return "run_agent"
    return "run_tool" if alone == result else "run_agent"


def shown(messages):
    """The record in shorthand, or "an empty list"."""
    return lab.shape(messages) or "an empty list"


# -- run_tool ------------------------------------------------------------------------------------

@test(2, 1, "run_tool answers read(config.py) with the toolResult message for that call: role "
            "\"toolResult\", tool_call_id the call's id, tool_name \"read\", the file's text as "
            "content, is_error False.")
def run_tool_returns_the_result_message(ns):
    ran = []
    call = lab.call("read", {"path": "config.py"}, id="toolu_07")
    result = ns.run_tool([reader(files(), ran)], call)
    problem = result_problem(result, call, SETTINGS)
    expect(not problem, f"run_tool {problem}")


@test(2, 1, "run_tool runs the tool the call names, with the call's arguments dict, once, and no "
            "other tool.")
def run_tool_runs_the_named_tool(ns):
    ran = []
    tools = [recording("list", "config.py\napp.py\n", ran), reader(files(), ran),
             recording("write", "Successfully wrote.", ran)]
    call = lab.call("read", {"path": "app.py"}, id="r2")
    result = ns.run_tool(tools, call)
    names = [name for name, _ in ran]
    expect(names == ["read"],
           f"run_tool ran {names or 'no tool'} for a call of read; it should run the tool whose name "
           "the call gives, once, and nothing else")
    expect(ran[0][1] == {"path": "app.py"},
           f"run_tool gave the tool {ran[0][1]!r}; pass it the call's arguments, {{'path': 'app.py'}}")
    problem = result_problem(result, call, APP)
    expect(not problem, f"run_tool {problem}")


@test(2, 1, "A tool that raises is never reported as a success: run_tool lets the tool's own "
            "exception go up as it was raised.")
def run_tool_never_passes_off_a_failure(ns):
    broken = FileNotFoundError("Cannot read confg.py: there is no such file in the workspace.")

    def fails(arguments):
        raise broken
    call = lab.call("read", {"path": "confg.py"}, id="r3")
    try:
        result = ns.run_tool([recording("read", fails, [])], call)
    except NotImplementedError:
        raise  # a stub is "not done yet", never a verdict
    except Exception as error:  # the test is about what escapes
        expect(error is broken,
               f"run_tool raised {type(error).__name__} ({error}) instead of letting the tool's own "
               "FileNotFoundError go up as it was raised: the caller loses what actually went wrong")
    else:
        # Lesson 4's answer, a result marked is_error that says what failed, is better still: allowed.
        expect(isinstance(result, dict) and result.get("is_error") is True and str(broken) in str(result.get("content")),
               f"run_tool returned {result!r:.120} for a tool that raised FileNotFoundError: that "
               "tells the model a failed read worked; let the exception go up")
    unknown = lab.call("grep", {"pattern": "PORT"}, id="g4")
    try:
        result = ns.run_tool([reader(files(), [])], unknown)
    except NotImplementedError:
        raise
    except Exception:  # no tool has that name: the lookup's own exception goes up, as it should
        return
    expect(isinstance(result, dict) and result.get("is_error") is True,
           f"run_tool returned {result!r:.100} for a call of grep, a tool it does not have; that "
           "passes a failure off as a success (None is no answer at all): let the lookup fail")


# -- run_agent -----------------------------------------------------------------------------------

@test(2, 1, "A reply asking for read(config.py) is followed at once by its toolResult; then the "
            "model is asked exactly once more, with U A[r1] R(r1), and that reply is appended and "
            "returned.")
def run_agent_runs_the_call_then_asks_again(ns):
    ran, ws = [], files()
    read = lab.call("read", {"path": "config.py"}, id="r1")
    returned, messages, model = run(ns, [lab.reply(read), lab.say("config.py says PORT = 9090.")],
                                    [reader(ws, ran)])
    expect(len(model.calls) == 2,
           f"run_agent asked the model {plural(len(model.calls), 'time')}; after running the call it "
           "should ask exactly once more")
    second = model.calls[1]
    expect(lab.shape(second.messages) == "U A[r1] R(r1)",
           f"run_agent's second request was {lab.shape(second.messages)}; it should be U A[r1] R(r1): "
           "the prompt, the reply, and the call's result right after it")
    problem = result_problem(second.messages[2], read, SETTINGS)
    expect(not problem, f"{culprit(ns, read, second.messages[2])} {problem}")
    expect(lab.shape(messages) == "U A[r1] R(r1) A",
           f"after run_agent the record is {shown(messages)}; it should be U A[r1] R(r1) A")
    expect(returned is messages[-1] and harness.text_of(returned) == "config.py says PORT = 9090.",
           "run_agent should return the second reply, the same object it appended last")


@test(2, 1, "Every request offers tool_specs(tools), the first and the second alike: name, "
            "description and parameters, never execute.")
def run_agent_offers_the_specs_every_time(ns):
    tools = [reader(files(), [])]
    read = lab.call("read", {"path": "config.py"}, id="r1")
    _, _, model = run(ns, [lab.reply(read), lab.say("9090.")], tools)
    wanted = harness.tool_specs(tools)
    expect(len(model.calls) == 2,
           f"run_agent made {plural(len(model.calls), 'model call')} on a reply that asks for a read; "
           "it should ask once, run the read, and ask again with its result")
    for n, request in enumerate(model.calls, start=1):
        if any("execute" in t for t in request.tools if isinstance(t, dict)):
            raise Failed(f"run_agent offered the tools themselves in request {n}, execute and all; "
                         "a provider cannot take a function: offer tool_specs(tools)")
        expect(request.tools == wanted,
               f"run_agent offered {[t.get('name') for t in request.tools] or 'no tools'} in request "
               f"{n}; every request must offer tool_specs(tools), since the model keeps nothing "
               "between calls")


@test(2, 1, "Two calls in one reply give two results, straight after the reply and in call "
            "order, each carrying its own call's id.")
def run_agent_answers_every_call_by_id(ns):
    ran, ws = [], files()
    first = lab.call("read", {"path": "config.py"}, id="toolu_a")
    second = lab.call("read", {"path": "app.py"}, id="toolu_b")
    _, messages, model = run(ns, [lab.reply(lab.text("Both, then."), first, second),
                                  lab.say("Port 9090, printed by app.py.")],
                             [reader(ws, ran)], prompt="What do config.py and app.py do?")
    paths = [arguments.get("path") for _, arguments in ran]
    expect(len(ran) == 2,
           f"run_agent ran {len(ran)} of the 2 calls the reply asked for ({paths}); run every call "
           "of tool_calls(reply), in order")
    expect(paths == ["config.py", "app.py"],
           f"run_agent ran the calls in the order {paths}; run them in the order the reply asked")
    results = [m for m in messages if isinstance(m, dict) and m.get("role") == "toolResult"]
    ids = [m.get("tool_call_id") for m in results]
    expect(ids == ["toolu_a", "toolu_b"],
           f"run_agent's results carry the ids {ids}; each must carry its own call's id, "
           "['toolu_a', 'toolu_b'], since a result is paired with its call by id, not by position")
    expect(lab.shape(messages[:4]) == "U A[toolu_a,toolu_b] R(toolu_a) R(toolu_b)",
           f"run_agent's record begins {shown(messages)}; both results belong straight after "
           "the reply, before the model is asked again")
    for result, content, call in zip(results, (SETTINGS, APP), (first, second)):
        got = result.get("content")
        if got == content:
            continue
        trimmed = isinstance(got, str) and got != content and got.strip() == content.strip()
        how = "the file's text with its white space trimmed" if trimmed else f"{got!r:.60}"
        expect(False, f"{culprit(ns, call, result)} gave the result for {call['id']} {how}, where read returned "
                      f"{content!r:.60}: a result's content is what the tool returned, exactly")


@test(2, 1, "A reply with no tool-call block runs no tool, even if its words say READ config.py "
            "or hold a JSON request, and the run makes one model call, as in lesson 1.")
def run_agent_reads_calls_not_prose(ns):
    for words in ("Sure, I'll READ config.py.",
                  'If you want, I can send {"name": "read", "arguments": {"path": "config.py"}}.'):
        ran, ws = [], files()
        returned, messages, model = run(ns, [lab.say(words), lab.say("Unused.")], [reader(ws, ran)],
                                        refusals=True)
        expect(ran == [],
               f"run_agent ran {[name for name, _ in ran]} for the reply {words!r}, which asks for no "
               "tool; only toolCall blocks are calls, the reply's words are not")
        expect(len(model.calls) == 1,
               f"run_agent asked the model {plural(len(model.calls), 'time')} after the reply {words!r}; "
               "with no call to answer, one request is the whole run")
        expect(lab.shape(messages) == "U A" and returned is messages[-1],
               f"run_agent left the record as {shown(messages)}; it should be U A, returning that reply")


@test(2, 1, "A reply that also carries a stale extra `calls` field, holding only its first call, "
            "still has every call in its content answered.")
def run_agent_ignores_a_stale_copy(ns):
    ran, ws = [], files()
    first = lab.call("read", {"path": "config.py"}, id="c1")
    second = lab.call("read", {"path": "app.py"}, id="c2")
    stale = dict(lab.reply(first, second), calls=[first])  # filled before the reply was finished
    _, messages, model = run(ns, [stale, lab.say("Both read.")], [reader(ws, ran)])
    answered = [m.get("tool_call_id") for m in messages if isinstance(m, dict) and m.get("role") == "toolResult"]
    expect(answered == ["c1", "c2"],
           f"run_agent answered {answered} for a reply whose content asks for c1 and c2 while its "
           "stale `calls` field holds only c1; the calls to run are tool_calls(reply), worked out "
           "from content")


@test(2, 1, "The reply goes into the record exactly as the model sent it: run_agent stores no "
            "second copy of its calls, on the message or beside it.")
def run_agent_keeps_the_reply_as_it_came(ns):
    first = lab.call("read", {"path": "config.py"}, id="c1")
    returned, messages, model = run(ns, [lab.reply(lab.text("Looking."), first), lab.say("9090.")],
                                    [reader(files(), [])])
    replies = [m for m in messages if isinstance(m, dict) and m.get("role") == "assistant"]
    for got, sent in zip(replies, model.as_sent):
        added = sorted(set(got) - set(sent))
        expect(not added,
               f"run_agent added {', '.join(added)} to a reply; that is a second copy of what its "
               "content already says, and the day the two disagree the provider believes content")
        expect(got == sent, "run_agent changed a reply before putting it in the record; append it as it came")
    expect(len(replies) == 2,
           f"run_agent's record holds {plural(len(replies), 'reply', 'replies')}; it should hold both")


# -- hidden: run_tool ----------------------------------------------------------------------------

@test(2, 1, "run_tool's content is exactly what execute returned: white space kept, an empty "
            "string kept, nothing added.", hidden=True)
def run_tool_keeps_content_exactly(ns):
    for answer in ("  indented\n\n\ttail  \n", ""):
        call = lab.call("read", {"path": "odd.txt"}, id="r9")
        result = ns.run_tool([recording("read", answer, [])], call)
        problem = result_problem(result, call, answer)
        expect(not problem, f"for a tool that returned {answer!r}, run_tool {problem}")


@test(2, 1, "A name no tool has runs no other tool: not grep's neighbour, not \"read\" for a call "
            "of \"Read\" (names match exactly).", hidden=True)
def run_tool_unknown_name(ns):
    for name in ("grep", "Read"):
        ran = []
        call = lab.call(name, {"path": "config.py"}, id="g1")
        try:
            result, raised = ns.run_tool([reader(files(), ran)], call), False
        except NotImplementedError:
            raise
        except Exception:  # this version may raise here (lesson 4 answers instead)
            result, raised = None, True
        expect(ran == [], f"run_tool ran {[n for n, _ in ran]} for a call of {name}, which no tool is "
                          "called: a tool runs only when its name is the call's, exactly")
        expect(raised or (isinstance(result, dict) and result.get("is_error") is True),
               f"run_tool returned {result!r:.100} for a call of {name}, a tool it does not have; "
               "that passes a failure off as a success: let the lookup fail")


@test(2, 1, "run_tool changes neither the call nor the tools it is given.", hidden=True)
def run_tool_leaves_its_inputs(ns):
    tools = [recording("write", "Successfully wrote.", []), reader(files(), [])]
    call = lab.call("read", {"path": "config.py"}, id="r4")
    before_call, before_tools = copy.deepcopy(call), [dict(t) for t in tools]
    result = ns.run_tool(tools, call)
    expect(isinstance(result, dict) and result.get("role") == "toolResult" and result.get("tool_call_id") == "r4",
           f"run_tool returned {result!r:.100} for a read of config.py; it returns the call's toolResult")
    expect(call == before_call, f"run_tool changed the call it was given: {call!r}")
    expect([dict(t) for t in tools] == before_tools,
           f"run_tool changed the tools it was given: they are now {[t.get('name') for t in tools]}, "
           f"in that order, where they were {[t['name'] for t in before_tools]}")


# -- hidden: run_agent ---------------------------------------------------------------------------

@test(2, 1, "One round only: a second reply that asks for a tool is appended and returned, and its "
            "call is not run.", hidden=True)
def run_agent_one_round_only(ns):
    ran = []
    first = lab.call("read", {"path": "config.py"}, id="r1")
    again = lab.call("read", {"path": "app.py"}, id="r2")
    returned, messages, model = run(ns, [lab.reply(first), lab.reply(again), lab.say("Unused.")],
                                    [reader(files(), ran)])
    expect(len(model.calls) == 2 and len(ran) == 1,
           f"run_agent made {plural(len(model.calls), 'model call')} and ran {plural(len(ran), 'tool')}; this version does "
           "one round: two model calls, the first reply's calls only")
    expect(lab.shape(messages) == "U A[r1] R(r1) A[r2]" and returned is messages[-1],
           f"run_agent left {shown(messages)}; it should end on the second reply, returned as it is")


@test(2, 1, "The caller's list is the record: earlier messages stay, all of them are sent, and "
            "the new ones are appended to that same list.", hidden=True)
def run_agent_appends_to_the_callers_list(ns):
    history = [lab.user("Hello."), lab.say("Hello. What shall we look at?")]
    earlier = list(history)
    read = lab.call("read", {"path": "config.py"}, id="r1")
    _, messages, model = run(ns, [lab.reply(read), lab.say("9090.")], [reader(files(), [])],
                             messages=history)
    expect(messages is history and messages[:2] == earlier and messages[0] is earlier[0],
           "run_agent should append to the caller's list and keep what was in it")
    expect(lab.shape(model.calls[0].messages) == "U A U",
           f"run_agent's first request was {lab.shape(model.calls[0].messages)}; it should carry the "
           "whole list, U A U")
    expect(lab.shape(messages) == "U A U A[r1] R(r1) A",
           f"run_agent left {shown(messages)}; expected U A U A[r1] R(r1) A")


@test(2, 1, "With no tools, the request offers [] and a plain answer ends the run after one call.",
      hidden=True)
def run_agent_with_no_tools(ns):
    returned, messages, model = run(ns, [lab.say("config.py says PORT = 8080."), lab.say("Unused.")], [])
    expect(model.calls[0].tools == [],
           f"run_agent offered {model.calls[0].tools!r} with no tools; tool_specs([]) is []")
    expect(len(model.calls) == 1 and lab.shape(messages) == "U A" and returned is messages[-1],
           f"run_agent made {plural(len(model.calls), 'model call')} and left {shown(messages)}; expected one call and U A")


@test(2, 1, "Three calls of one tool get three results, in order, each run once with its own "
            "arguments and tied to its own id.", hidden=True)
def run_agent_three_calls_of_one_tool(ns):
    ran = []
    calls = [lab.call("read", {"path": p}, id=i) for p, i in
             (("app.py", "x"), ("config.py", "y"), ("app.py", "z"))]
    _, messages, _ = run(ns, [lab.reply(*calls), lab.say("Read.")], [reader(files(), ran)])
    expect([a.get("path") for _, a in ran] == ["app.py", "config.py", "app.py"],
           f"run_agent ran {[a.get('path') for _, a in ran]}; expected app.py, config.py, app.py, once each")
    expect(lab.shape(messages) == "U A[x,y,z] R(x) R(y) R(z) A",
           f"run_agent left {shown(messages)}; expected U A[x,y,z] R(x) R(y) R(z) A")


@test(2, 1, "A failed first reply (503) is appended and returned: no tool runs and the model is "
            "not asked again.", hidden=True)
def run_agent_failed_reply(ns):
    ran = []
    returned, messages, model = run(ns, [lab.fail("503 overloaded"), lab.say("Unused.")],
                                    [reader(files(), ran)])
    expect(len(model.calls) == 1 and ran == [] and lab.shape(messages) == "U A!"
           and returned is messages[-1] and returned.get("error_message") == "503 overloaded",
           f"run_agent made {plural(len(model.calls), 'model call')} and left {shown(messages)} after a failed "
           "reply; it has no calls, so it is the answer: one call, U A!")
