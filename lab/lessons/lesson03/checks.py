"""The lab tests of lesson 03, "Until it stops asking": run_agent, version 3, the loop.

The visible tests are the plan's list, plus one for each wrong idea a question of the lesson
argues against: stopping on a word in the text, a fixed number of rounds, running only the first
call of a reply, asking the model again before every call has its result, answering calls out of
order, and speaking for the user when a reply sounds unfinished. The hidden ones hold the
contract's edge cases: text and calls in one reply, a first reply with no call, three calls at
once, a long chain, mixed rounds, and the caller's own list.

Each run goes through stage.Recorder, so a verdict can say what the learner's loop did, in order.
"""

import copy

import harness
import lab
from lab.checks import expect, Failed, test
from lab.stage.model import ScriptError
from lab.stage.prose import plural

from .stage import Recorder

TASK = "Read a.py and copy its constant into b.py, then tell me."
ANSWER = "Done: b.py has A = 1."


def ends(messages, n=6):
    """The shape of the list's last `n` messages, with "..." in front if there were more."""
    shape = lab.shape(messages[-n:])
    return shape if len(messages) <= n else "... " + shape


class Run:
    """One run of the learner's run_agent on a scripted model over an in-memory disk.

    .result is what run_agent returned (or the exception it raised, ScriptError included: a loop
    that asks a finished script for more), .messages the caller's list afterwards, .model the
    ScriptedModel (its .calls are the requests), .rec the recorder (the order of events), .ws the
    disk."""

    def __init__(self, ns, script, files=None, prompt=TASK, messages=None, max_calls=12):
        self.ws = lab.Workspace(files if files is not None else {"a.py": "A = 1\n"})
        self.model = lab.ScriptedModel(script, max_calls=max_calls)
        tools = [harness.make_read_tool(self.ws), harness.make_write_tool(self.ws)]
        self.rec = Recorder(self.model, tools)
        self.tools = self.rec.tools
        self.messages = [] if messages is None else messages
        self.before = len(self.messages)
        try:
            self.result = ns.run_agent(self.rec.model, harness.SYSTEM, self.messages, self.tools, prompt)
        except (NotImplementedError, RecursionError):
            raise  # a stub is "not done yet", never a verdict on what run_agent did
        except ScriptError as error:
            self.result = error
        except Exception as error:  # judged below, in a sentence
            self.result = error

    @property
    def calls(self):
        return self.model.calls

    def shape(self):
        return lab.shape(self.messages)

    def returned(self):
        """What run_agent handed back, as a phrase."""
        if isinstance(self.result, BaseException):
            return f"raised {type(self.result).__name__}: {self.result}"
        if isinstance(self.result, dict) and self.result.get("role") == "assistant":
            return f"returned the reply {lab.shape([self.result])} {harness.text_of(self.result)!r}"
        return f"returned {self.result!r}"

    def refused(self):
        """The first request the strict model refused, as (number, its shape, the reason), or None."""
        for request in self.calls:
            if request.reply and request.reply.get("stop_reason") == "error" \
                    and str(request.reply.get("error_message", "")).startswith("400"):
                return request.number, lab.shape(request.messages), request.reply["error_message"]
        return None


def common_faults(run):
    """The first thing that is wrong with any run, whatever its task: an exception, a request a
    strict provider refuses, a request sent before a reply's calls were all answered, a model
    asked again after it had finished, or a run that stopped while calls were still asked for.
    "" if none of these happened."""
    if len(run.messages) == run.before and run.calls:
        return (f"run_agent made {plural(len(run.calls), 'model call')} but left the caller's list as it was: "
                "the prompt, every reply and every result go on the end of `messages` itself, the record")
    for request in run.calls:
        previous = [m for m in request.messages if m.get("role") == "assistant"]
        last = request.messages[-1] if request.messages else {}
        if last.get("role") == "toolResult" and previous:
            asked = [c["id"] for c in harness.tool_calls(previous[-1])]
            answered = {m.get("tool_call_id") for m in request.messages if m.get("role") == "toolResult"}
            missing = [i for i in asked if i not in answered]
            if missing:
                return (f"run_agent asked the model again (request {request.number}, {lab.shape(request.messages)}) "
                        f"before {', '.join(missing)} had a result: every call of a reply is run and answered first")
        if last.get("role") == "assistant" and harness.tool_calls(last):
            return (f"run_agent sent request {request.number} ending on a reply whose calls had no results "
                    f"({lab.shape(request.messages)}): run the calls and append their results first")
    refused = run.refused()
    if refused:
        number, shape, reason = refused
        sent = run.calls[number - 1].messages
        why = ("every request sends the whole list so far" if sent != run.messages[:len(sent)]
               else "every call needs its result before the model is asked again")
        return f"run_agent sent request {number} as {shape}, which a strict provider refuses ({reason}): {why}"
    if isinstance(run.result, ScriptError):
        answered = [r for r in run.calls if r.reply and not harness.tool_calls(r.reply)]
        if answered:
            text = harness.text_of(answered[0].reply)
            return (f"run_agent asked the model again after the reply {text!r}, which asks for no tools: "
                    f"that reply was the answer, and the run should have returned it")
        return f"run_agent kept calling the model and never stopped: {run.result}"
    if isinstance(run.result, BaseException):
        return f"run_agent {run.returned()}"
    last = run.messages[-1] if run.messages else None
    if isinstance(last, dict) and last.get("role") == "toolResult":
        return (f"run_agent returned after {plural(len(run.calls), 'model call')} with results the model never "
                f"saw (the list ends {ends(run.messages)}): after a round of results, ask the model again")
    if isinstance(last, dict) and last.get("role") == "assistant" and harness.tool_calls(last):
        ids = ", ".join(f"{c['name']} ({c['id']})" for c in harness.tool_calls(last))
        return (f"run_agent stopped after {plural(len(run.calls), 'model call')} while the last reply still "
                f"asks for {ids}: keep going round until a reply asks for no tools")
    return ""


def check_common(run):
    fault = common_faults(run)
    if fault:
        raise Failed(fault)


def copy_task():
    """read a.py, write b.py, answer: the wall's task, as three scripted replies."""
    return [lab.reply(lab.call("read", {"path": "a.py"})),
            lab.reply(lab.call("write", {"path": "b.py", "content": "A = 1\n"})),
            lab.say(ANSWER)]


# -- visible ----------------------------------------------------------------------------------

@test(3, 1, "read a.py, write b.py, answer: run_agent makes three model calls, returns the answer, "
            "and b.py holds what the write call asked for.")
def read_write_answer(ns):
    run = Run(ns, copy_task())
    check_common(run)
    expect(len(run.calls) == 3,
           f"run_agent made {plural(len(run.calls), 'model call')} for read, write, answer; it should make 3 "
           f"(what it did: {run.rec.summary()})")
    expect(run.result is run.messages[-1] and harness.text_of(run.result) == ANSWER,
           f"run_agent should return the last reply, the one that asks for nothing ({ANSWER!r}); it {run.returned()}")
    expect(run.ws.exists("b.py") and run.ws.read_text("b.py") == "A = 1\n",
           "run_agent finished, but b.py does not hold 'A = 1\\n': the write call was not run as asked")


@test(3, 1, "Afterwards the record is U A[c1] R(c1) A[c2] R(c2) A: each result straight after the "
            "reply that asked for it, carrying its call's id.")
def the_record(ns):
    run = Run(ns, copy_task())
    check_common(run)
    want = "U A[c1] R(c1) A[c2] R(c2) A"
    expect(run.shape() == want, f"run_agent left the record as {run.shape()}; it should be {want}")
    results = [m for m in run.messages if m["role"] == "toolResult"]
    expect([(r["tool_name"], r["content"]) for r in results]
           == [("read", "A = 1\n"), ("write", "Successfully wrote to b.py.")],
           "run_agent appended results that do not hold what the tools returned: "
           f"{[(r.get('tool_name'), r.get('content')) for r in results]}")


@test(3, 1, "Every request carries the whole list so far, the system prompt, and the same "
            "tool_specs(tools): nothing is sent only once.")
def whole_list_every_time(ns):
    run = Run(ns, copy_task())
    check_common(run)
    specs = harness.tool_specs(run.tools)
    expect(len(run.calls) == 3,
           f"run_agent made {len(run.calls)} model calls on the copy task; it asks, runs the calls, and "
           "asks again until a reply asks for nothing: three requests here")
    for request, upto in zip(run.calls, (1, 3, 5)):
        sent, want = request.messages, run.messages[:upto]
        expect(sent == want,
               f"run_agent's request {request.number} carried {lab.shape(sent)}; it should carry the whole "
               f"list so far, {lab.shape(want)}: the model keeps nothing between calls")
        expect(request.system == harness.SYSTEM,
               f"run_agent's request {request.number} did not carry the system prompt it was given")
        expect(request.tools == specs,
               f"run_agent's request {request.number} offered "
               f"{[t.get('name') for t in request.tools] or 'no tools'}; every request offers tool_specs(tools), "
               "since the model keeps nothing between calls, tool definitions included")


@test(3, 1, "A reply that asks for two reads at once, reply(c1, c2): both run, and both results are "
            "in the list, R(c1) R(c2), before the model is called again.")
def parallel_calls_all_answered(ns):
    script = [lab.reply(lab.call("read", {"path": "a.py"}), lab.call("read", {"path": "c.py"})),
              lab.say("A is 1 and C is 3.")]
    run = Run(ns, script, files={"a.py": "A = 1\n", "c.py": "C = 3\n"})
    reads = [e["arguments"]["path"] for e in run.rec.events if e["kind"] == "tool"]
    if reads == ["a.py"]:
        raise Failed("run_agent ran only the first call of the reply (read a.py, c1); the reply asked for two, "
                     "and c2 (read c.py) was never run or answered")
    check_common(run)
    expect(run.rec.kinds() == "model, read, read, model",
           f"run_agent should call the model, run both reads, then call the model once more; it did: {run.rec.kinds()}")
    expect(lab.shape(run.calls[1].messages) == "U A[c1,c2] R(c1) R(c2)",
           f"run_agent's second request was {lab.shape(run.calls[1].messages)}; it should be U A[c1,c2] R(c1) R(c2)")


@test(3, 1, "write b.py then read b.py in one reply: the calls run in the order asked, so the read "
            "sees the new text, and the results follow in call order.")
def calls_in_order(ns):
    script = [lab.reply(lab.call("write", {"path": "b.py", "content": "B = 2\n"}),
                        lab.call("read", {"path": "b.py"})),
              lab.say("b.py now says B = 2.")]
    run = Run(ns, script, files={"b.py": "B = 0\n"})
    ran = [e["name"] for e in run.rec.events if e["kind"] == "tool"]
    expect(ran[:2] != ["read", "write"],
           "run_agent ran the reply's calls out of order (read b.py before write b.py), so the read saw "
           "the old text; run them in the order the reply lists them")
    check_common(run)
    results = [m for m in run.messages if m["role"] == "toolResult"]
    order = " ".join(f"R({m['tool_call_id']})" for m in results)
    expect(order == "R(c1) R(c2)",
           f"run_agent appended the results as {order}; they go in the order of the calls, R(c1) R(c2)")
    expect(results[1]["content"] == "B = 2\n",
           f"run_agent's read of b.py returned {results[1]['content']!r}; after the write it should be 'B = 2\\n'")


@test(3, 1, "The run ends on the first reply that asks for no tools, whatever its words: \"Done\" "
            "with a call goes on, \"I will now ...\" with no call ends, and nothing is added for the user.")
def ends_on_no_calls_not_on_words(ns):
    done_with_a_call = [lab.reply(lab.text("Done reading. Writing b.py now."),
                                  lab.call("write", {"path": "b.py", "content": "A = 1\n"})),
                        lab.say("b.py now holds A = 1."),
                        lab.say("(a reply nobody should have asked for)")]
    run = Run(ns, done_with_a_call)
    if len(run.calls) == 1 and not run.rec.kinds().endswith("write") and not isinstance(run.result, BaseException):
        raise Failed("run_agent stopped on the reply 'Done reading. Writing b.py now.' although it asks for "
                     "write (c1): the calls decide when a run ends, not the words")
    check_common(run)
    expect(len(run.calls) == 2 and run.shape() == "U A[c1] R(c1) A",
           f"run_agent should stop on 'b.py now holds A = 1.', the first reply without a call: 2 model calls and "
           f"U A[c1] R(c1) A; it made {plural(len(run.calls), 'call')} and left {run.shape()}")
    unfinished = [lab.say("I will now write b.py."), lab.say("(a reply nobody should have asked for)")]
    run = Run(ns, unfinished)
    users = [m for m in run.messages[1:] if m.get("role") == "user"]
    if users:
        raise Failed(f"run_agent added the user message {users[0].get('content')!r}, which the user never sent; a "
                     "reply with no call ends the run, however unfinished it sounds")
    check_common(run)
    expect(len(run.calls) == 1 and run.shape() == "U A" and run.result is run.messages[-1],
           f"run_agent should return 'I will now write b.py.' after one model call, leaving U A; it made "
           f"{plural(len(run.calls), 'call')}, left {run.shape()} and {run.returned()}")


def chain(ns, rounds):
    """A run of `rounds` reads in a row, each asked for after the last result, then an answer."""
    def one_more(request):
        done = sum(m["role"] == "toolResult" for m in request.messages)
        if done < rounds:
            return lab.reply(lab.call("read", {"path": "a.py"}))
        return lab.say(f"Read it {done} times.")
    run = Run(ns, [lab.forever(one_more)], max_calls=rounds + 5)
    check_common(run)
    expect(len(run.calls) == rounds + 1 and harness.text_of(run.messages[-1]) == f"Read it {rounds} times.",
           f"run_agent made {plural(len(run.calls), 'model call')} on a {rounds}-round chain; it should make "
           f"{rounds + 1} and return the answer: a reply with no call ends the run, and nothing else does, "
           "however many rounds that took")


@test(3, 1, "A task of five reads in a row and an answer runs to the end, six model calls, and so "
            "does one of forty reads, forty-one: no matter how many rounds that takes.")
def a_longer_chain(ns):
    files = {f"part{n}.txt": f"part {n}\n" for n in range(1, 6)}
    script = [lab.reply(lab.call("read", {"path": f"part{n}.txt"})) for n in range(1, 6)]
    script.append(lab.say("All five parts are read."))
    run = Run(ns, script, files=files, prompt="Read part1.txt to part5.txt, one after another.")
    check_common(run)
    want = "U" + "".join(f" A[c{n}] R(c{n})" for n in range(1, 6)) + " A"
    expect(len(run.calls) == 6 and run.shape() == want,
           f"run_agent made {plural(len(run.calls), 'model call')} and left {run.shape()}; five rounds of reads "
           f"and an answer need 6 calls and leave {want}")
    chain(ns, 40)


RESUMED = [lab.user("What is in a.py?"), lab.reply(lab.call("read", {"path": "a.py"}, id="c1")),
           lab.tool_result(lab.call("read", {"path": "a.py"}, id="c1"), "A = 1\n"), lab.say("A = 1.")]


@test(3, 1, "Each result carries the id its call came with, whatever it looks like: on a record "
            "that already holds c1, reply(toolu_Q7, call_2b) then reply(w_9) get R(toolu_Q7) "
            "R(call_2b), then R(w_9).")
def ids_are_copied_not_counted(ns):
    files = {"a.py": "A = 1\n", "c.py": "C = 3\n"}
    script = [lab.reply(lab.call("read", {"path": "a.py"}, id="toolu_Q7"),
                        lab.call("read", {"path": "c.py"}, id="call_2b")),
              lab.reply(lab.call("write", {"path": "b.py", "content": "A = 1\nC = 3\n"}, id="w_9")),
              lab.say("b.py has both.")]
    run = Run(ns, script, files=files, messages=copy.deepcopy(RESUMED), prompt="Copy a.py and c.py into b.py.")
    new = run.messages[len(RESUMED):]
    ids = [m.get("tool_call_id") for m in new if isinstance(m, dict) and m.get("role") == "toolResult"]
    expect(ids[:3] == ["toolu_Q7", "call_2b", "w_9"],
           f"run_agent gave its results the ids {ids}; each result carries its own call's id, "
           "['toolu_Q7', 'call_2b', 'w_9'], copied from the call and never counted or numbered by place")
    check_common(run)
    want = "U A[c1] R(c1) A U A[toolu_Q7,call_2b] R(toolu_Q7) R(call_2b) A[w_9] R(w_9) A"
    expect(run.shape() == want, f"run_agent left the record as {run.shape()}; it should be {want}")


# -- hidden -----------------------------------------------------------------------------------

@test(3, 1, "A reply that has text before and after its call keeps all of it in the record, "
            "exactly as it came, and its call is run.", hidden=True)
def text_and_calls_together(ns):
    script = [lab.reply(lab.text("Reading a.py first."), lab.call("read", {"path": "a.py"}),
                        lab.text("Then I answer.")),
              lab.say("A is 1.")]
    run = Run(ns, script)
    check_common(run)
    first = run.calls[0].reply
    # Equal, not identical: when graded, the model and the learner's code live in two processes.
    expect(len(run.messages) > 1 and run.messages[1] == first,
           "run_agent did not append the reply it got, as it came: the record's second message is not that reply")
    expect([b["type"] for b in run.messages[1]["content"]] == ["text", "toolCall", "text"],
           "run_agent changed the reply's content; it keeps its text blocks and its call, in order")
    expect(run.rec.kinds() == "model, read, model",
           f"run_agent should run the read between its two model calls; it did: {run.rec.kinds()}")


@test(3, 1, "A first reply that asks for nothing, and one that failed (503): one model call, no "
            "tool run, the record U A, and that reply returned.", hidden=True)
def no_call_at_first(ns):
    for script, what in (([lab.say("Hello."), lab.say("(never)")], "a plain answer"),
                         ([lab.fail("503 overloaded"), lab.say("(never)")], "a failed reply")):
        run = Run(ns, script)
        check_common(run)
        expect(len(run.calls) == 1 and run.shape() in ("U A", "U A!") and run.result is run.messages[-1],
               f"for {what} at once, run_agent should make one call, leave U A and return it; it made "
               f"{plural(len(run.calls), 'call')}, left {run.shape()} and {run.returned()}")
        expect(not any(e["kind"] == "tool" for e in run.rec.events),
               f"for {what} at once, run_agent ran a tool nobody asked for")


@test(3, 1, "Three calls in one reply, ids z, x, y: three results, R(z) R(x) R(y), then one more "
            "model call.", hidden=True)
def three_at_once(ns):
    files = {"a.py": "A = 1\n", "b.py": "B = 2\n", "c.py": "C = 3\n"}
    script = [lab.reply(*[lab.call("read", {"path": p}, id=i) for p, i in (("a.py", "z"), ("b.py", "x"), ("c.py", "y"))]),
              lab.say("1, 2 and 3.")]
    run = Run(ns, script, files=files)
    check_common(run)
    expect(run.shape() == "U A[z,x,y] R(z) R(x) R(y) A" and run.rec.kinds() == "model, read, read, read, model",
           f"run_agent left {run.shape()} after {run.rec.kinds()}; three calls get three results in call order, "
           "then one more model call")
    expect([m["content"] for m in run.messages[2:5]] == ["A = 1\n", "B = 2\n", "C = 3\n"],
           "run_agent paired the three results with the wrong calls")


@test(3, 1, "A chain of 120 reads, each asked for after the last result: 121 model calls, and the "
            "answer returned (no cap at 50 or 100 rounds).", hidden=True)
def a_long_chain(ns):
    chain(ns, 120)


@test(3, 1, "Rounds of different sizes, reply(c1, c2), then reply(c3), then an answer: "
            "U A[c1,c2] R(c1) R(c2) A[c3] R(c3) A.", hidden=True)
def mixed_rounds(ns):
    files = {"a.py": "A = 1\n", "c.py": "C = 3\n"}
    script = [lab.reply(lab.call("read", {"path": "a.py"}), lab.call("read", {"path": "c.py"})),
              lab.reply(lab.call("write", {"path": "b.py", "content": "A = 1\nC = 3\n"})),
              lab.say("b.py has both.")]
    run = Run(ns, script, files=files)
    check_common(run)
    want = "U A[c1,c2] R(c1) R(c2) A[c3] R(c3) A"
    expect(run.shape() == want, f"run_agent left {run.shape()}; it should leave {want}")
    expect(run.ws.read_text("b.py") == "A = 1\nC = 3\n", "run_agent's run left b.py without what the write asked for")


@test(3, 1, "The list is the caller's own: earlier messages stay as they were, new ones go on its "
            "end, the first request starts with the history, and the reply returned is the list's "
            "last message.", hidden=True)
def the_callers_list(ns):
    history = [lab.user("My name is Ada."), lab.say("Hello, Ada.")]
    messages = list(history)
    before = copy.deepcopy(history)
    run = Run(ns, copy_task(), messages=messages)
    check_common(run)
    expect(run.messages is messages and messages[:2] == before and messages[0] is history[0],
           "run_agent did not add to the caller's list in place, or changed the messages already in it")
    expect(lab.shape(messages) == "U A U A[c1] R(c1) A[c2] R(c2) A",
           f"run_agent left the caller's list as {lab.shape(messages)}; it should be U A U A[c1] R(c1) A[c2] R(c2) A")
    expect(lab.shape(run.calls[0].messages) == "U A U",
           f"run_agent's first request was {lab.shape(run.calls[0].messages)}; it should send the history and the prompt, U A U")
    expect(run.result is messages[-1], f"run_agent should return the list's last message; it {run.returned()}")
