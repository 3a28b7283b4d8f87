"""The lab tests of lesson 10, "Loose ends": repair_tool_history, context_for_model and the one line
of run_agent that sends the view, one lab.

The two functions are tested first on lists made by hand, each under its own name, and then end to
end: a run broken off by its consumer, a failed reply, an interruption at every event of a run.
There, the learner's run_agent drives the given Harness (stage.harness_on) over a Record, a list
that lives in this process: under the grader the learner's code runs in another process, and a
plain list would be changed there as a copy. When a request is refused the sentence says whose code
made it: run_agent if it sent the record itself, else the function whose view a strict provider
refuses. The visible tests are the plan's list and one for every wrong idea a question of the
lesson argues against; the hidden ones hold the contracts to their edges.
"""

import copy

import harness
import lab
from harness import INTERRUPTED
from lab.checks import blame, expect, test
from lab.checks.handover import ListModel as Model, Record

from .stage import JOB, W1, W2, break_at, harness_on

C1 = lab.call("read", {"path": "a.py"}, id="q4")
C2 = lab.call("read", {"path": "b.py"}, id="q9")
C3 = lab.call("read", {"path": "c.py"}, id="q2")


def result(call, content="ok"):
    return lab.tool_result(call, content)


def stand_in(call):
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": INTERRUPTED, "is_error": True}


def failed(partial=None):
    return lab.fail("503 service unavailable", partial)


def repaired(ns, messages):
    """The learner's repair of a copy of `messages`, checked to be a list."""
    given = copy.deepcopy(messages)
    out = blame("repair_tool_history", ns.repair_tool_history, given)
    expect(isinstance(out, list), f"repair_tool_history should return a list; it returned {type(out).__name__}")
    keeps_the_ids(out, messages)
    return out


def call_ids(messages):
    """The ids of every call in `messages`, in order."""
    return [b.get("id") for m in messages if isinstance(m, dict) and m.get("role") == "assistant"
            for b in m.get("content", []) if isinstance(b, dict) and b.get("type") == "toolCall"]


def keeps_the_ids(out, messages):
    """A repair may drop nothing but results, so every call id it hands back is one the input had."""
    had, got = call_ids(messages), call_ids(out)
    answered = {m.get("tool_call_id") for m in messages if m.get("role") == "toolResult"}
    # A call made up for an orphan result reuses that result's id: its own test says so.
    made_up = [new for new in got if new not in had and new not in answered]
    if made_up:
        old = next((a for a, b in zip(had, got) if b == made_up[0]), None)
        expect(False, f"repair_tool_history handed back a call with the id {made_up[0]}"
                      + (f" where the record has {old}" if old else "") + ", which the record "
                      "never had: keep the ids the model gave, since its next reply and a resumed "
                      "record name calls by them")


def viewed(ns, messages):
    given = copy.deepcopy(messages)
    out = blame("context_for_model", ns.context_for_model, given)
    expect(isinstance(out, list), f"context_for_model should return a list; it returned {type(out).__name__}")
    return out


def short(messages):
    try:
        return lab.shape(messages)
    except Exception:
        return repr(messages)[:120]


def results_for(messages, call_id):
    return [m for m in messages if isinstance(m, dict) and m.get("role") == "toolResult"
            and m.get("tool_call_id") == call_id]


# -- repair_tool_history, on lists made by hand ---------------------------------------------------

@test(10, 1, "repair_tool_history puts a stand-in right after a call that has no result: "
             "INTERRUPTED as content, is_error True, the call's id and tool name.")
def dangling_call_gets_interrupted(ns):
    record = [lab.user(JOB), lab.reply(W1), result(W1, "Successfully wrote to a.py."), lab.reply(W2)]
    out = repaired(ns, record)
    expect(any(m.get("role") == "assistant" and W2 in m.get("content", []) for m in out),
           f"repair_tool_history dropped the call w2: it returned {short(out)}, and the call is what "
           "tells the model that b.py was asked for; keep it and answer it")
    expect(short(out) == "U A[w1] R(w1) A[w2] R(w2)",
           f"repair_tool_history should return U A[w1] R(w1) A[w2] R(w2) for U A[w1] R(w1) A[w2]; it returned {short(out)}")
    made = out[-1]
    expect(made.get("is_error") is True,
           "repair_tool_history's stand-in for w2 says is_error "
           f"{made.get('is_error')!r}: nobody knows that the write worked, so it must be marked is_error True")
    expect(made.get("content") == INTERRUPTED,
           f"repair_tool_history's stand-in for w2 says {made.get('content')!r}; it should say INTERRUPTED, which "
           "claims neither success nor that the tool never ran")
    expect(made == stand_in(W2),
           f"repair_tool_history's stand-in for w2 should be {stand_in(W2)}; it is {made}")


@test(10, 1, "repair_tool_history moves a result recorded out of place to just after its call, and "
             "results follow their calls in call order.")
def results_moved_to_their_calls(ns):
    # The ids are the script's own, in no counted order: a result is its call's by id, never by place.
    record = [lab.user("Read both."), lab.reply(C1, C2), lab.user("Are you there?"), result(C2, "B = 2"),
              result(C1, "A = 1")]
    out = blame("repair_tool_history", ns.repair_tool_history, list(record))
    expect(isinstance(out, list), f"repair_tool_history should return a list; it returned {type(out).__name__}")
    contents = {m.get("tool_call_id"): m.get("content") for m in out if isinstance(m, dict)
                and m.get("role") == "toolResult"}
    expect(contents.get("q4") in (None, "A = 1") and contents.get("q9") in (None, "B = 2"),
           f"repair_tool_history answered q4 with {contents.get('q4')!r} and q9 with {contents.get('q9')!r}, "
           "though q4's recorded result says 'A = 1': pair each result with the call whose id it "
           "names (tool_call_id), never by its place in the list")
    expect(short(out) == "U A[q4,q9] R(q4) R(q9) U",
           f"repair_tool_history should turn U A[q4,q9] U R(q9) R(q4) into U A[q4,q9] R(q4) R(q9) U; "
           f"it returned {short(out)}")
    expect(out[2] is record[4] and out[3] is record[3],
           "repair_tool_history should move the recorded results themselves, not make new ones: "
           "what the tools said is in them")


@test(10, 1, "repair_tool_history drops a result whose call is nowhere, and makes up no call for it.")
def orphans_are_dropped(ns):
    record = [lab.user("Go on."), result(C2, "B = 2"), lab.say("Done."), lab.user("Thanks.")]
    out = repaired(ns, record)
    invented = [m for m in out if m.get("role") == "assistant" and any(
        b.get("id") == "q9" for b in m.get("content", []))]
    expect(not invented,
           f"repair_tool_history made up a call for the result q9 ({short(out)}): nobody knows what that "
           "call's arguments were, so drop the result instead")
    expect(short(out) == "U A U",
           f"repair_tool_history should drop the result q9, whose call is nowhere; it returned {short(out)}, "
           f"and a strict provider says: {(lab.validate(out) or ['nothing'])[0]}")


@test(10, 1, "repair_tool_history keeps the first of two results for one call.")
def first_of_two_results_wins(ns):
    first, second = result(C1, "first answer"), result(C1, "second answer")
    record = [lab.user("Read a.py."), lab.reply(C1), first, second, lab.say("Done.")]
    out = repaired(ns, record)
    kept = results_for(out, "q4")
    expect(len(kept) == 1,
           f"repair_tool_history kept {len(kept)} results for q4 ({short(out)}); a call gets exactly one")
    expect(kept[0] == first,
           f"repair_tool_history kept q4's later result, {kept[0].get('content')!r}: keep the first, the one "
           "earlier requests showed the model, so its past does not change under it")


@test(10, 1, "repair_tool_history returns a new list and leaves its input as it was; a valid list "
             "comes back equal, made of the same message objects, and repairing twice changes nothing.")
def repair_is_pure(ns):
    record = [lab.user(JOB), lab.reply(W1), result(W1), lab.reply(W2)]
    before = copy.deepcopy(record)
    out = blame("repair_tool_history", ns.repair_tool_history, record)
    expect(record == before,
           f"repair_tool_history changed the list it was given, from {short(before)} to {short(record)}: "
           "that list is the record, and the record keeps what happened")
    expect(out is not record, "repair_tool_history returned the very list it was given; return a new one")
    expect(blame("repair_tool_history", ns.repair_tool_history, list(out)) == out,
           "repair_tool_history is not idempotent: repairing its own answer again changed it")
    valid = [lab.user(JOB), lab.reply(W1), result(W1), lab.say("Done.")]
    again = blame("repair_tool_history", ns.repair_tool_history, valid)
    expect(again == valid and again is not valid,
           f"repair_tool_history should return a new list equal to a valid input; for {short(valid)} it "
           f"returned {short(again)}" + (" (the same list object)" if again is valid else ""))
    expect(all(a is b for a, b in zip(again, valid)),
           "repair_tool_history copied the messages of a valid list; return the same message objects in "
           "a new list")


# -- context_for_model ---------------------------------------------------------------------------

@test(10, 1, "context_for_model leaves out a failed assistant message with empty content, and keeps "
             "a failed one that got some text out.")
def failed_replies_in_the_view(ns):
    record = [lab.user("Hello."), failed(), lab.user("Hello?")]
    out = viewed(ns, record)
    expect(short(out) == "U U",
           f"context_for_model should leave out the failed empty reply of U A! U; it returned {short(out)}, "
           f"and a strict provider says: {(lab.validate(out) or ['nothing'])[0]}")
    spoke = failed([lab.text("I will start with a.py, then")])
    record = [lab.user("Hello."), spoke, lab.user("Go on.")]
    out = viewed(ns, record)
    expect(len(out) == 3 and out[1] == spoke,
           f"context_for_model left out a failed reply that had said something ({short(out)}); keep it: "
           "the model's words are part of the conversation, and only an empty one is refused")


@test(10, 1, "context_for_model pairs every call with a result, returns a new list, and leaves the "
             "record unchanged.")
def context_pairs_and_keeps_the_record(ns):
    record = [lab.user(JOB), lab.reply(W1), result(W1), lab.reply(W2), lab.user("Carry on."), failed(),
              lab.user("Hello?")]
    before = copy.deepcopy(record)
    out = blame("context_for_model", ns.context_for_model, record)
    expect(record == before,
           f"context_for_model changed the record, from {short(before)} to {short(record)}: it computes a "
           "view and leaves the record as it was")
    expect(isinstance(out, list) and out is not record, "context_for_model should return a new list")
    expect(short(out) == "U A[w1] R(w1) A[w2] R(w2) U U",
           f"context_for_model should send U A[w1] R(w1) A[w2] R(w2) U U for this record; it returned "
           f"{short(out)}. Did it give what it kept to repair_tool_history?")


# -- end to end, through the learner's run_agent -------------------------------------------------


def harness_with(ns, model, tools):
    """A Harness whose runs go through the learner's run_agent, over a Record, talking to `model`."""
    h = harness_on(ns.run_agent)(Model(model), harness.SYSTEM, tools)
    h._messages = Record()
    return h


def refused(model):
    return [request for request in model.calls if request.reply.get("stop_reason") == "error"
            and str(request.reply.get("error_message", "")).startswith("400")]


def whose_400(ns, request, record):
    """A sentence naming whose code made a refused request: run_agent if it sent the record as it
    is, else context_for_model (or repair_tool_history, if that is what let the hole through)."""
    problem = request.reply["error_message"]
    if request.messages == record:
        return (f"run_agent sent the record itself, and the strict provider said \"{problem}\": send "
                "context_for_model(messages) instead")
    view = viewed(ns, record)
    if lab.validate(view):
        return f"context_for_model made a view the strict provider refuses: \"{problem}\""
    return (f"run_agent sent something other than context_for_model(messages) ({short(request.messages)}), "
            f"and the strict provider said \"{problem}\"")


@test(10, 1, "A run broken off at tool_execution_start of w2, then prompt(\"Carry on.\"): the request "
             "is accepted and shows INTERRUPTED for w2, the record still ends A[w2] U as it was, and "
             "b.py is not written behind the model's back.")
def carry_on_after_a_break(ns):
    ws = lab.Workspace()
    model = lab.ScriptedModel([lab.reply(W1), lab.reply(W2), lab.say("b.py may not exist; I will check.")])
    h = harness_with(ns, model, [harness.make_write_tool(ws)])
    blame("run_agent", lambda: break_at(h, JOB, "tool_execution_start", "w2"))
    kept = copy.deepcopy(list(h.messages))
    expect(lab.shape(kept) == "U A[w1] R(w1) A[w2]",
           f"run_agent left the record {short(kept)} at the break; lesson 9's loop leaves U A[w1] R(w1) A[w2]")
    blame("run_agent", lambda: [None for _ in h.prompt("Carry on.")])
    bad = refused(model)
    expect(not bad, bad and whose_400(ns, bad[0], kept + [lab.user("Carry on.")]))
    expect(ws.listdir() == ["a.py"],
           f"after \"Carry on.\" the disk holds {ws.listdir()}: run_agent ran the interrupted write w2 again "
           "on its own; it may have run already, so only the model, told so, may decide to repeat it")
    expect(list(h.messages[:5]) == kept + [lab.user("Carry on.")],
           f"after \"Carry on.\" the record begins {short(list(h.messages[:6]))}; run_agent must leave "
           "U A[w1] R(w1) A[w2] as it was and add U: a stand-in belongs in the view, never in the record")
    sent = model.calls[-1].messages
    stand = results_for(sent, "w2")
    expect(stand and stand[0].get("content") == INTERRUPTED and stand[0].get("is_error") is True,
           f"run_agent's request after \"Carry on.\" was {short(sent)} and did not show w2 as INTERRUPTED; "
           "send context_for_model(messages)")


@test(10, 1, "After a 503, the next prompt is accepted: the failed empty reply stays in the record "
             "and is not sent.")
def prompt_after_a_503(ns):
    model = lab.ScriptedModel([failed(), lab.say("Hello again.")])
    h = harness_with(ns, model, [])
    blame("run_agent", lambda: [None for _ in h.prompt("Hello.")])
    kept = copy.deepcopy(list(h.messages))
    blame("run_agent", lambda: [None for _ in h.prompt("Hello?")])
    bad = refused(model)
    expect(not bad, bad and whose_400(ns, bad[0], kept + [lab.user("Hello?")]))
    expect(lab.shape(list(h.messages)) == "U A! U A",
           f"run_agent left the record {short(list(h.messages))} after a 503 and one more prompt; it should "
           "be U A! U A: the failed reply happened, and the record keeps it")
    expect(lab.shape(model.calls[1].messages) == "U U",
           f"run_agent's request after the 503 was {short(model.calls[1].messages)}; it should be U U, the "
           "failed empty reply left out of what is sent")


@test(10, 1, "On a record with nothing to repair, run_agent sends exactly the record, and its events "
             "are lesson 9's.")
def nothing_to_repair(ns):
    def run(run_agent):
        ws = lab.Workspace()
        model = lab.ScriptedModel([lab.reply(W1), lab.reply(W2), lab.say("Both are written.")])
        h = harness_with(type("Ns", (), {"run_agent": staticmethod(run_agent)}), model,
                         [harness.make_write_tool(ws)])
        events = blame("run_agent", lambda: [e["type"] for e in h.prompt(JOB)])
        return events, h, model
    theirs, reference, _ = run(harness.run_agent)
    ours, h, model = run(ns.run_agent)
    expect(ours == theirs, f"run_agent's events differ from lesson 9's: {ours} instead of {theirs}")
    expect(lab.shape(list(h.messages)) == lab.shape(list(reference.messages)),
           f"run_agent left the record {short(list(h.messages))}; lesson 9's loop leaves "
           f"{short(list(reference.messages))}")
    for n, request in enumerate(model.calls):
        expect(request.messages == list(h.messages[:len(request.messages)]),
               f"run_agent's request {n + 1} was {short(request.messages)}, which is not the record as it "
               "stood: with nothing to repair, the view is the record")


# -- hidden: the edges of the contracts ----------------------------------------------------------

def every_event_job():
    """A run of two turns: two calls in one reply, then a third call, then an answer."""
    return [lab.reply(lab.text("Reading both."), C1, C2), lab.reply(C3), lab.say("All read.")]


@test(10, 1, "Broken off at any event of a run, the record is one the next prompt can send: the strict "
             "provider accepts it, and what was recorded before the break is kept as it was.", hidden=True)
def interrupted_at_every_event(ns):
    files = {"a.py": "A\n", "b.py": "B\n", "c.py": "C\n"}
    count = len(list(harness.Harness(lab.ScriptedModel(every_event_job()), harness.SYSTEM,
                                     [harness.make_read_tool(lab.Workspace(files))]).prompt("Read them.")))
    for stop in range(count):
        model = lab.ScriptedModel(every_event_job() + [lab.forever(lambda r: lab.say("Carrying on."))])
        h = harness_with(ns, model, [harness.make_read_tool(lab.Workspace(files))])
        run = h.prompt("Read them.")
        seen = blame("run_agent", lambda: [event for _, event in zip(range(stop + 1), run)])
        run.close()
        kept = copy.deepcopy(list(h.messages))
        blame("run_agent", lambda: [None for _ in h.prompt("Carry on.")])
        bad = refused(model)
        expect(not bad, bad and f"broken off at event {stop + 1} ({seen[-1]['type']}), "
                                + whose_400(ns, bad[0], kept + [lab.user("Carry on.")]))
        expect(list(h.messages[:len(kept)]) == kept,
               f"broken off at event {stop + 1} ({seen[-1]['type']}), the record {short(kept)} was changed "
               f"by the next prompt into {short(list(h.messages))}: run_agent must only append")


@test(10, 1, "context_for_model of a record that is already valid returns an equal list, not the same "
             "list, holding the same message objects.", hidden=True)
def valid_record_view_is_a_new_equal_list(ns):
    for record in ([lab.user(JOB), lab.reply(W1), result(W1), lab.say("Done.")],
                   [lab.user("Hi."), failed([lab.text("Hel")])], []):
        out = blame("context_for_model", ns.context_for_model, record)
        expect(out == record, f"context_for_model changed a valid record {short(record)} into {short(out)}")
        expect(out is not record,
               "context_for_model returned the record itself for a valid record: the caller may append to "
               "it, so the view must be a new list every time")
        expect(all(a is b for a, b in zip(out, record)),
               "context_for_model copied the messages of a valid record; the view holds the same objects")


@test(10, 1, "repair_tool_history: two calls in one reply, the second answered before the first and the "
             "first never; each call gets one result, in call order, and every result is a message "
             "the input held or a stand-in.", hidden=True)
def two_calls_one_answered_out_of_order(ns):
    record = [lab.user("Read both."), result(C2, "B"), lab.reply(C1, C2), lab.user("Well?")]
    out = repaired(ns, record)
    expect(short(out) == "U A[q4,q9] R(q4) R(q9) U",
           f"repair_tool_history should turn U R(q9) A[q4,q9] U into U A[q4,q9] R(q4) R(q9) U; it returned {short(out)}")
    expect(out[2] == stand_in(C1) and out[3] == result(C2, "B"),
           "repair_tool_history should answer q4 with INTERRUPTED and move q9's recorded result after it")


@test(10, 1, "repair_tool_history is idempotent on a messy list, and returns a new empty list for [].",
      hidden=True)
def repair_idempotent_on_a_mess(ns):
    mess = [result(C3), lab.user("Go."), lab.reply(C1, C2), result(C2, "two"), result(C2, "again"),
            lab.say("Hm."), result(C1, "late"), lab.reply(W2)]
    once = repaired(ns, mess)
    expect(lab.validate(once) == [],
           f"repair_tool_history left {short(once)}, which a strict provider refuses: {(lab.validate(once) or [''])[0]}")
    twice = blame("repair_tool_history", ns.repair_tool_history, list(once))
    expect(twice == once, f"repair_tool_history is not idempotent: {short(once)} became {short(twice)}")
    empty = []
    out = blame("repair_tool_history", ns.repair_tool_history, empty)
    expect(out == [] and out is not empty, "repair_tool_history of [] should be a new empty list")


@test(10, 1, "context_for_model keeps a failed reply that got a call out, and answers that call with "
             "INTERRUPTED; of several empty failed replies, none is sent.", hidden=True)
def failed_reply_with_a_call(ns):
    record = [lab.user("Go."), failed([lab.text("Writing"), W2]), lab.user("Again."), failed(),
              lab.user("And again."), harness.error_message("Agent stopped after max_turns=0"), lab.user("Well?")]
    out = viewed(ns, record)
    expect(short(out) == "U A![w2] R(w2) U U U",
           f"context_for_model should send U A![w2] R(w2) U U U for this record; it returned {short(out)}")
    expect(out[2] == stand_in(W2), "context_for_model should answer the failed reply's call w2 with INTERRUPTED")
