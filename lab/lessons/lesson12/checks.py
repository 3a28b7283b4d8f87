"""The lab tests of lesson 12, "Memory that outlives the process".

Lab 1: summarize. Lab 2: the snap forward of find_cut, SessionLog.rows, compact.
The visible tests are the ten the lesson lists; the hidden ones hold each gap to the sentences
of its contract that the visible ones do not reach.
"""

import copy
import json

import harness
import lab
from lab.checks import expect, Failed, test
from lab.runtime.takeover import installed
from lab.stage.prose import plural

PREFIX = harness.SUMMARY_PREFIX


# -- lab 1: summarize ---------------------------------------------------------------------------

def port_session():
    """A session that ends on a question already answered, and so tempts a model to answer it."""
    opened = lab.call("read", {"path": "settings.py"}, id="s1")
    return [
        lab.user("We are moving the web server to port 8080; open settings.py first."),
        lab.reply(lab.text("Opening it now."), opened),
        lab.tool_result(opened, "BIND = '0.0.0.0'\nPORT = 9090\n"),
        lab.say("settings.py binds port 9090 today."),
        lab.user("So settings.py still says 9090, right?"),
        lab.say("Right, 9090."),
    ]


def wrapped(messages):
    return "<conversation>\n" + harness.render(messages) + "\n</conversation>"


class Spy:
    """A model that passes every call on to `model` and keeps the tools argument exactly as it was
    given: ScriptedModel reads tools=None as [], and a summary call must say [] itself."""

    def __init__(self, model):
        self.model, self.tools_given = model, []

    def complete(self, system, messages, tools):
        self.tools_given.append(tools)
        return self.model.complete(system, messages, tools)

    def __getattr__(self, name):
        return getattr(self.model, name)


def summary_call(ns, messages, script):
    """Call the learner's summarize with a model playing `script`: (result or the exception, model).
    model.tools_given holds each call's tools argument as the learner passed it."""
    model = Spy(lab.ScriptedModel(script, max_calls=5))
    try:
        return ns.summarize(model, messages), model
    except (NotImplementedError, RecursionError):
        raise  # a stub is "not done yet", never a verdict on what summarize did
    except Exception as error:  # judged by the caller: some tests want an exception
        return error, model


def padded_summariser():
    """lab.summariser(), with white space round its reply, so that stripping shows."""
    inner = lab.summariser().fn

    def answer(request):
        reply = inner(request)
        return lab.say("\n  " + harness.text_of(reply) + "  \n")
    return lab.forever(answer)


def why_not_a_summary(call, messages, tools_given=()):
    """The first thing about a summary request that lets the summariser carry on the conversation."""
    if call.tools:
        names = ", ".join(t["name"] for t in call.tools)
        return f"the call offered tools ({names}); a summary call offers none: []"
    if tools_given is None:
        return ("the call passed tools=None; pass the empty list [], which says in so many words "
                "that no tool is on offer, where None leaves it to whoever reads the request")
    if call.system != harness.SUMMARY_SYSTEM:
        return "the call's system prompt was not SUMMARY_SYSTEM" + (
            ", it was the agent's own" if call.system == harness.SYSTEM else "")
    if len(call.messages) != 1 or call.messages[0].get("role") != "user":
        return (f"the call sent {plural(len(call.messages), 'message')} ({lab.shape(call.messages)}); "
                "it should send one user message holding the whole conversation")
    if call.messages[0]["content"] != wrapped(messages):
        return ("its one user message was not <conversation>, render(messages) and </conversation>, "
                "each on a line of its own")
    return ""


@test(12, 1, "Built right, the call makes lab.summariser() summarise instead of answering the "
             "conversation's last question: SUMMARY_SYSTEM, tools == [], and one user message "
             "holding render(messages) between <conversation> tags; the reply comes back stripped.")
def summary_call_is_built_right(ns):
    session = port_session()
    result, model = summary_call(ns, session, [padded_summariser()])
    # The list is checked first: a request appended to the transcript is that mistake, whatever
    # else it does to the call.
    expect(session == port_session(),
           f"summarize changed the list it was given, which now holds {plural(len(session), 'message')} "
           f"({lab.shape(session)}); the request is a list of its own, and the transcript is only read")
    expect(len(model.calls) == 1, f"summarize should make exactly one model call; it made {len(model.calls)}")
    call = model.calls[0]
    why = why_not_a_summary(call, session, model.tools_given[0])
    if isinstance(result, str) and "(Not a summary.)" in result:
        raise Failed(f"summarize got the conversation's question answered instead of a summary, because "
                     f"{why or 'the call was not a summary request'}")
    expect(not why, f"summarize built the summary request wrong: {why}")
    expect(not isinstance(result, BaseException),
           f"summarize raised {type(result).__name__}: {result}, though the summariser replied with a summary")
    reference = lab.ScriptedModel([lab.summariser()])
    expected = harness.text_of(reference.complete(
        harness.SUMMARY_SYSTEM, [harness.user_message(wrapped(session))], [])).strip()
    if isinstance(result, str) and result != expected and result.strip() == expected:
        raise Failed(f"summarize returned the reply with its white space ({result!r}); return it "
                     "stripped, so that a reply of only white space shows up as empty")
    expect(result == expected, f"summarize should return the reply's text, stripped ({expected!r}); it returned {result!r}")


@test(12, 1, "summarize(model, messages) leaves `messages` exactly as it was: neither the request "
             "nor the summary goes into the transcript.")
def messages_are_left_alone(ns):
    session = port_session()
    before = copy.deepcopy(session)
    ids = [id(m) for m in session]
    result, _ = summary_call(ns, session, [lab.summariser()])
    expect(len(session) == len(before),
           f"summarize changed the list it was given: it had {len(before)} messages and now has {len(session)}; "
           "the request is a list of its own, and the transcript is only read")
    expect([id(m) for m in session] == ids and session == before,
           "summarize changed the messages it was given; it may only read them")
    expect(isinstance(result, str) and result.strip(),
           f"summarize returned {result!r:.80}; it returns the summary's text")


@test(12, 1, "A summary call that fails (503) and one that comes back empty both make summarize "
             "raise RuntimeError; neither yields a value.")
def failed_or_empty_reply_raises(ns):
    for script, what in (([lab.fail("503 overloaded")], "a failed reply (503 overloaded)"),
                         ([lab.say("")], "an empty reply")):
        result, model = summary_call(ns, port_session(), script)
        expect(isinstance(result, RuntimeError),
               f"for {what}, summarize should raise RuntimeError; it "
               + (f"raised {type(result).__name__}" if isinstance(result, BaseException)
                  else f"returned {result!r}"))


@test(12, 1, "A reply of white space only is no summary either: RuntimeError.", hidden=True)
def blank_reply_raises(ns):
    result, _ = summary_call(ns, port_session(), [lab.say("  \n\t ")])
    expect(isinstance(result, RuntimeError),
           f"a reply of nothing but white space should make summarize raise RuntimeError; it returned {result!r}")


@test(12, 1, "A failed reply that still carries some text raises RuntimeError: failure wins.",
      hidden=True)
def failed_reply_with_text_raises(ns):
    half = lab.reply(lab.text("Summary: the goal is"))
    half.update(stop_reason="error", error_message="connection reset")
    result, _ = summary_call(ns, port_session(), [half])
    expect(isinstance(result, RuntimeError),
           f"a reply with stop_reason \"error\" should raise RuntimeError even with text in it; summarize returned {result!r}")


@test(12, 1, "A reply that only calls a tool has no text, so summarize raises RuntimeError.",
      hidden=True)
def tool_call_reply_raises(ns):
    result, _ = summary_call(ns, port_session(), [lab.reply(lab.call("read", {"path": "a.py"}, id="x1"))])
    expect(isinstance(result, RuntimeError),
           f"a reply holding only a tool call should raise RuntimeError; summarize returned {result!r}")


@test(12, 1, "The summary is the reply's text with white space stripped from both ends, and a failed "
             "call is not retried.", hidden=True)
def strips_and_does_not_retry(ns):
    result, _ = summary_call(ns, port_session(), [lab.say("  Goal: port 8080.\n")])
    expect(result == "Goal: port 8080.", f"the reply '  Goal: port 8080.\\n' should give 'Goal: port 8080.'; summarize returned {result!r}")
    result, model = summary_call(ns, port_session(), [lab.fail("503 overloaded"), lab.say("Late.")])
    expect(len(model.calls) == 1, f"after a failed reply summarize should give up at once; it made {len(model.calls)} calls")


@test(12, 1, "Any transcript is rendered whole: tool calls, results and newlines included, and an "
             "empty one too.", hidden=True)
def renders_any_transcript(ns):
    c = lab.call("bash", {"command": "pytest -q"}, id="c9")
    session = [lab.user("Run it.\nThen tell me."), lab.reply(c), lab.tool_result(c, "1 failed\n"),
               lab.say("One test fails.")]
    for messages in (session, []):
        result, model = summary_call(ns, messages, [lab.summariser()])
        expect(len(model.calls) == 1 and not why_not_a_summary(model.calls[0], messages),
               f"for a transcript of {lab.shape(messages) or 'no messages'}, summarize's request should be one user message "
               f"holding exactly {wrapped(messages)!r}")


# -- lab 2: find_cut, rows, compact -------------------------------------------------------------

def sizes(rows):
    return [harness.estimate_tokens([m]) for _, m in rows]


def walk_back(rows, budget):
    """The given half of find_cut: where the walk back stops (None: everything fits)."""
    spent = 0
    for position in reversed(range(len(rows))):
        spent += harness.estimate_tokens([rows[position][1]])
        if spent >= budget:
            return position
    return None


def snapped(rows, stop):
    """Where the cut belongs, worked out here from the contract, not from anyone's find_cut."""
    for i in range(stop, len(rows)):
        if rows[i][1]["role"] == "user":
            return i
    while stop < len(rows) and rows[stop][1]["role"] == "toolResult":
        stop += 1
    return stop


def name_of(rows, i):
    return "len(rows)" if i == len(rows) else f"{i} ({rows[i][0]}, {lab.shape([rows[i][1]])})"


def as_rows(messages):
    """(id, message) rows as a log that has never been compacted numbers them: e1, e2, ..."""
    return [("e" + str(position + 1), message) for position, message in enumerate(messages)]


def busy_log():
    """Eleven rows: a prompt with one call and its result, a reply; a prompt with two calls in one
    reply, their two results, a reply; a last prompt and its reply."""
    one = lab.call("read", {"path": "mathlib.py"}, id="k1")
    two = lab.call("read", {"path": "helpers.py"}, id="k2")
    three = lab.call("read", {"path": "test_mathlib.py"}, id="k3")
    return as_rows([
        lab.user("mul() gives wrong answers; look at mathlib.py to see why."),
        lab.reply(one), lab.tool_result(one, "def mul(x, y): return x + y\n"),
        lab.say("mul() adds instead of multiplying."),
        lab.user("Open helpers.py and the test file too."),
        lab.reply(two, three), lab.tool_result(two, "from mathlib import mul\n"),
        lab.tool_result(three, "assert mul(3, 3) == 9\nassert mul(1, 5) == 5\n"),
        lab.say("Only mathlib.py is at fault."),
        lab.user("Give me the fix as a single line?"),
        lab.say("Use x * y."),
    ])


def one_long_run():
    """One prompt, then tool calls and results to the end: no user message to cut at."""
    calls = [lab.call("read", {"path": f"f{n}.py"}, id=f"r{n}") for n in range(1, 4)]
    messages = [lab.user("Read the three files.")]
    for c in calls:
        messages += [lab.reply(c), lab.tool_result(c, f"# {c['arguments']['path']}\nX = 1\n")]
    return as_rows(messages)


def check_cuts(ns, rows):
    before = copy.deepcopy(rows)
    for stop in range(len(rows)):
        budget = sum(sizes(rows)[stop:])
        assert walk_back(rows, budget) == stop
        want, got = snapped(rows, stop), ns.find_cut(rows, budget)
        expect(rows == before, "find_cut changed the rows it was given; it may only read them")
        if got == want:
            continue
        story = f"with keep_recent_tokens={budget} the walk back stops on row {name_of(rows, stop)}"
        if isinstance(got, int) and got < stop:
            raise Failed(f"{story}; the cut may only move forward, but find_cut returned {got}, further back")
        if (got == stop and rows[stop][1]["role"] == "toolResult"
                and not any(m["role"] == "user" for _, m in rows[stop:])):
            raise Failed(f"{story}, a tool result with no user message after it; find_cut left the cut "
                         f"there, so the kept tail would open on a result whose call is summarised away: "
                         f"step past the results, to {name_of(rows, want)}")
        raise Failed(f"{story}, so the cut belongs at {name_of(rows, want)}; find_cut returned "
                     + (name_of(rows, got) if isinstance(got, int) and 0 <= got <= len(rows) else repr(got)))


@test(12, 2, "Stopping the walk back at each of the eleven rows in turn, and at each row of a run "
             "of tool calls with no later prompt: find_cut goes on to the following user message, "
             "or, with none ahead, past tool results; never to an earlier row; and 0 when all of "
             "it fits.")
def cut_snaps_forward(ns):
    rows = busy_log()
    check_cuts(ns, rows)
    check_cuts(ns, one_long_run())
    got = ns.find_cut(rows, sum(sizes(rows)) + 1)
    expect(got == 0, f"when everything fits in keep_recent_tokens, find_cut should return 0; it returned {got!r}")


def log_of(ns, ws, path="session.jsonl"):
    """A SessionLog whose rows() is the learner's."""
    return ns.SessionLog(ws, path)


def turns(*numbers):
    messages = []
    for n in numbers:
        messages += [lab.user(f"Question {n}."), lab.say(f"Answer {n}.")]
    return messages


def row_ids(rows):
    return [row_id for row_id, _ in rows]


@test(12, 2, "A log of eleven messages, then append_compaction(\"...\", \"e6\"), then two messages"
             " more: rows() gives the summary in the user's voice, e6 to e11, the two newer "
             "messages, and the file's old lines are intact; after a second compaction, rows are "
             "found by their ids, not their positions.")
def rows_read_a_compaction(ns):
    ws = lab.Workspace()
    log = log_of(ns, ws)
    for m in turns(1, 2, 3, 4, 5) + [lab.user("Question 6.")]:
        log.append_message(m)
    before = ws.read_text("session.jsonl")
    log.append_compaction("The first two questions have answers.", "e6")
    for m in [lab.say("Answer 6."), lab.user("Question 7.")]:
        log.append_message(m)
    rows = ns.SessionLog.rows(log)
    expect(isinstance(rows, list), f"rows() should return a list, which can be read more than once; "
                                   f"it returned a {type(rows).__name__}")
    expect(ws.read_text("session.jsonl").startswith(before), "rows() changed the lines already in the file; it may only read them")
    want = ["e12"] + [f"e{n}" for n in range(6, 12)] + ["e13", "e14"]
    expect(row_ids(rows) == want, f"rows() should give the ids {want}; it gave {row_ids(rows)}")
    summary = harness.user_message(PREFIX + "The first two questions have answers.")
    if rows[0][1] == harness.user_message("The first two questions have answers."):
        raise Failed(f"rows() gave the summary row without SUMMARY_PREFIX ({PREFIX!r}) in front; without "
                     "it the model reads the summary as something the user just typed")
    expect(rows[0][1] == summary, f"rows() should give the summary as a user message first, {summary!r}; it gave {rows[0][1]!r}")
    entries = {e["id"]: e for e in log.entries()}
    expect(all(rows[i][1] == entries[row_id]["message"] for i, row_id in enumerate(want) if i),
           "rows() should give the kept rows as the logged messages, word for word")
    expect(log.replay() == [m for _, m in rows], "replay() should be the messages of rows(), in order")
    rows_compact_twice(ns)


def rows_compact_twice(ns):
    """A second compaction whose first_kept_id is the first one's own id: rows() finds rows by id,
    so the first summary's row is kept, though ids and positions no longer match."""
    ws = lab.Workspace()
    log = log_of(ns, ws)
    for m in turns(1, 2, 3):
        log.append_message(m)                                   # e1 .. e6
    log.append_compaction("One and two.", "e5")                 # e7
    for m in turns(4):
        log.append_message(m)                                   # e8, e9
    log.append_compaction("One to three.", "e7")                # e10: keeps the first summary row
    rows = ns.SessionLog.rows(log)
    want = ["e10", "e7", "e5", "e6", "e8", "e9"]
    expect(row_ids(rows) == want,
           f"after a second compaction whose first_kept_id is the first one's id (e7), rows() should give "
           f"{want}; it gave {row_ids(rows)}"
           + ("; e7 is an id, not the seventh row: look the id up among the rows' ids"
              if row_ids(rows) != want and "e7" not in row_ids(rows) else ""))
    expect(rows[1][1] == harness.user_message(PREFIX + "One and two."),
           "rows() should still read the kept row e7 as the first summary")


@test(12, 2, "A first_kept_id that no row has leaves the summary row alone, and later messages follow it.",
      hidden=True)
def rows_unknown_first_kept_id(ns):
    ws = lab.Workspace()
    log = log_of(ns, ws)
    for m in turns(1, 2):
        log.append_message(m)
    log.append_compaction("All of it.", "e99")
    log.append_message(lab.user("Question 3."))
    rows = ns.SessionLog.rows(log)
    expect(row_ids(rows) == ["e5", "e6"],
           f"with first_kept_id e99, which no row has, the rows should be ['e5', 'e6']; rows() gave {row_ids(rows)}")
    expect(ns.SessionLog.rows(log_of(ns, lab.Workspace(), "none.jsonl")) == [], "rows() of a log with no file yet should be []")


def five_turn_log(ns, ws):
    log = log_of(ns, ws)
    for m in turns(1, 2, 3, 4, 5):
        log.append_message(m)
    return log


@test(12, 2, "Compacting five turns with a budget of about one: True, exactly one line more in the"
             " file, only the older rows go to the summariser, and the replay opens with the "
             "summary followed by a tail whose first message is the user's; after an earlier "
             "compaction, the row at the cut is named by its id, not its position.")
def compact_five_turns(ns):
    ws = lab.Workspace()
    log = five_turn_log(ns, ws)
    before = ws.read_text("session.jsonl")
    old_rows = harness.SessionLog(ws, "session.jsonl").rows()
    budget = sum(sizes(old_rows)[-2:])
    cut = snapped(old_rows, walk_back(old_rows, budget))
    model = lab.ScriptedModel([lab.summariser()], max_calls=5)
    done = ns.compact(log, model, keep_recent_tokens=budget)
    expect(done is True, f"compact should return True when it compacts; it returned {done!r}")
    after = ws.read_text("session.jsonl")
    expect(after.startswith(before), "compact changed lines that were already in the file; it may only append")
    added = after[len(before):].splitlines()
    expect(len(added) == 1, f"compact should append exactly one line; it appended {len(added)}")
    entry = json.loads(added[0])
    expect(entry.get("type") == "compaction", f"compact should append a compaction entry; it appended {added[0]!r}")
    expect(entry.get("first_kept_id") == old_rows[cut][0],
           f"compact should name the row at the cut, {old_rows[cut][0]}, as first_kept_id; it wrote {entry.get('first_kept_id')!r}")
    expect(len(model.calls) == 1, f"compact should ask for one summary; the model was called {len(model.calls)} times")
    sent = model.calls[0].messages[0]["content"] if model.calls[0].messages else ""
    expect(sent == wrapped([m for _, m in old_rows[:cut]]), sent_wrong(sent, old_rows, cut))
    replayed = log.replay()
    expect(replayed[0]["role"] == "user" and replayed[0]["content"].startswith(PREFIX)
           and replayed[1:] == [m for _, m in old_rows[cut:]] and replayed[1]["role"] == "user",
           f"after compact, replay() should be the summary, then the tail from {old_rows[cut][0]}; it was {lab.shape(replayed)}")
    compact_uses_ids_not_positions(ns)


def sent_wrong(sent, rows, cut):
    """The sentence for a summary request that held something other than the rows before the cut."""
    if sent == wrapped([m for _, m in rows]):
        return (f"compact sent all {len(rows)} rows to be summarised, the kept tail too; send only the "
                f"{cut} before the cut, since the tail stays word for word after the summary")
    return ("compact should send only the rows before the cut to be summarised (summarize renders them "
            "between <conversation> tags)")


def compact_uses_ids_not_positions(ns):
    """After an earlier compaction, compact names the row at the cut by its id, not by its
    position, and sends only the rows before the cut, the earlier summary first."""
    ws = lab.Workspace()
    log = log_of(ns, ws)
    for m in turns(1, 2, 3):
        log.append_message(m)                             # e1 .. e6
    log.append_compaction("Two questions done, the third asked.", "e5")   # e7
    for m in turns(4, 5, 6):
        log.append_message(m)                             # e8 .. e13
    rows = harness.SessionLog(ws, "session.jsonl").rows()
    budget = sum(sizes(rows)[-2:])
    cut = snapped(rows, walk_back(rows, budget))
    model = lab.ScriptedModel([lab.summariser()], max_calls=5)
    expect(ns.compact(log, model, keep_recent_tokens=budget) is True, "compact should compact this session and return True")
    entry = log.entries()[-1]
    kept = entry.get("first_kept_id")
    if kept == f"e{cut + 1}" != rows[cut][0]:
        raise Failed(f"compact wrote first_kept_id {kept!r}, the cut's position ({cut}) plus one; after the "
                     f"earlier compaction the row at the cut is {rows[cut][0]}: ids and positions differ, so "
                     "take the id from the row itself, rows[cut][0]")
    expect(kept == rows[cut][0],
           f"the row at the cut is {rows[cut][0]} (position {cut}); compact wrote first_kept_id {kept!r}")
    sent = model.calls[0].messages[0]["content"] if model.calls and model.calls[0].messages else ""
    expect(sent == wrapped([m for _, m in rows[:cut]]), sent_wrong(sent, rows, cut))


@test(12, 2, "Two sessions with nothing to gain, one that already fits the budget and one made of "
             "a single huge tool result: compact says False, leaves the file as it was, and asks "
             "no model.")
def compact_refuses_both_ends(ns):
    ws = lab.Workspace()
    log = five_turn_log(ns, ws)
    before = ws.read_text("session.jsonl")
    model = lab.ScriptedModel([lab.summariser()], max_calls=5)
    done = ns.compact(log, model, keep_recent_tokens=10_000)
    expect(done is False and ws.read_text("session.jsonl") == before and not model.calls,
           f"when everything fits (the cut is 0), compact should return False, append nothing and call no model; "
           f"it returned {done!r}, appended {plural(len(ws.read_text('session.jsonl')) - len(before), 'character')} "
           f"and called the model {plural(len(model.calls), 'time')}")
    ws = lab.Workspace()
    log = log_of(ns, ws)
    big = lab.call("read", {"path": "big.log"}, id="c1")
    for m in [lab.user("Read big.log."), lab.reply(big), lab.tool_result(big, lab.big_log(lines=400))]:
        log.append_message(m)
    before = ws.read_text("session.jsonl")
    done = ns.compact(log, model, keep_recent_tokens=300)
    expect(done is False and ws.read_text("session.jsonl") == before and not model.calls,
           f"when nothing can be kept (the cut is len(rows)), compact should return False, append nothing and call "
           f"no model; it returned {done!r} and called the model {plural(len(model.calls), 'time')}")


GOAL = "The aim: list every chunk file in CATALOGUE.md."
CHUNK = "".join("row %02d of twelve, padded out with some filler words\n" % k for k in range(1, 13))


def reader(request):
    """Reads the file the latest prompt ends with, then reports it read."""
    latest = [k for k, message in enumerate(request.messages) if message["role"] == "user"][-1]
    wanted = request.messages[latest]["content"].rsplit(" ", 1)[-1]
    since = request.messages[latest:]
    if any(message["role"] == "toolResult" for message in since):
        return lab.say(wanted + " has been read.")
    return lab.reply(lab.call("read", {"path": wanted}))


def long_session(ns, summaries, prompts=20):
    """Prompts that each read a file, under a 2,000-token window, with maybe_compact (on the
    learner's code) before each one. Returns what the test needs to look at."""
    ws = lab.Workspace({"chunk%d.txt" % k: CHUNK for k in range(1, prompts + 1)})
    agent = lab.ScriptedModel([lab.forever(reader)], context_window=2000, max_calls=4 * prompts)
    tools = [harness.make_read_tool(ws)]
    h = harness.Harness(agent, harness.SYSTEM, tools)
    log = log_of(ns, ws)
    h.subscribe(harness.persist_to(log))
    compactions, invalid, replies = 0, [], []
    with installed(ns):
        for k in range(1, prompts + 1):
            # the trigger and sizes the lesson gives: a 2,000 window, 900 in reserve, 300 kept
            if harness.maybe_compact(h, log, summaries, keep_recent_tokens=300, reserve=900, window=2000):
                compactions += 1
                problems = lab.validate(list(h.messages))
                if problems:
                    invalid.append((k, problems[0]))
            ask = "Please read chunk%d.txt" % k
            for event in h.prompt(GOAL + " " + ask if k == 1 else ask):
                if event["type"] == "turn_end":
                    replies.append(event["message"])
    return ws, log, h, agent, compactions, invalid, replies


@test(12, 2, "Twenty file-reading prompts against a 2,000-token window, maybe_compact running "
             "before each and lab.summariser() as the writer: nothing refused, a valid record "
             "after each compaction, the goal of the first message present in the final request, "
             "and a new SessionLog replaying list(h.messages) exactly.")
def twenty_prompts_under_the_wall(ns):
    ws, log, h, agent, compactions, invalid, replies = long_session(ns, lab.ScriptedModel([lab.summariser()], max_calls=40))
    mine = "your " + ", ".join(ns.learner()) if hasattr(ns, "learner") else "your code"
    refused = [m["error_message"] for m in replies if m.get("stop_reason") == "error"]
    expect(not refused, f"running on {mine}, {plural(len(refused), 'request')} failed, the first with: "
                        f"{refused[0] if refused else ''}")
    expect(compactions > 0, f"running on {mine}, compact never compacted, so the session only got through by luck")
    expect(not invalid, f"running on {mine}, the record was invalid after the compaction before prompt "
                        f"{invalid[0][0] if invalid else ''}: {invalid[0][1] if invalid else ''}")
    last = agent.calls[-1]
    expect("list every chunk file" in last.user_text,
           f"running on {mine}, the goal from message 1 is missing from the last request: the summaries lost it")
    fresh = ns.SessionLog(ws.reboot(), "session.jsonl")
    expect(fresh.replay() == list(h.messages),
           "a fresh SessionLog over the same file should replay exactly list(h.messages), but rows() "
           "read the file into something else")


@test(12, 2, "That session again, with every summary call failing (503): maybe_compact says False "
             "and raises nothing, the log gains no entry, and each prompt still reaches the model.")
def failing_summariser_costs_nothing(ns):
    summaries = lab.ScriptedModel([lab.forever(lambda request: lab.fail("503 overloaded"))], max_calls=40)
    try:
        ws, log, h, agent, compactions, invalid, replies = long_session(ns, summaries, prompts=12)
    except NotImplementedError:
        raise  # a gap not written yet: "not done", never "the summary call failed"
    except RuntimeError as error:
        raise Failed(f"compact let the failed summary call's RuntimeError ({error}) out through "
                     "maybe_compact, so the user's prompt was never sent; compact should return False "
                     "instead") from None
    entries = log.entries()
    written = [e for e in entries if e["type"] == "compaction"]
    expect(compactions == 0, f"compact returned True {plural(compactions, 'time')}, though every summary call failed")
    expect(not written, f"compact wrote {plural(len(written), 'compaction entry')} after a failed summary call; "
                        "it should write none")
    prompts = [c for c in agent.calls if c.messages and c.messages[-1]["role"] == "user"]
    expect(len(prompts) == 12, f"every one of the 12 prompts should reach the model; {len(prompts)} did")
    expect(summaries.calls, "the summariser was never asked, so this test proves nothing about a failed summary")


@test(12, 2, "replace_messages([]) called by a tool in the middle of a run raises RuntimeError and"
             " changes nothing; called after the run, it does swap the transcript.")
def replace_messages_is_shut_during_a_run(ns):
    outcome = []

    def meddle(arguments):
        try:
            h.replace_messages([])
        except RuntimeError as error:
            outcome.append(str(error))
            return "refused"
        outcome.append("swapped")
        return "swapped"

    tool = {"execute": meddle, "parameters": {}, "description": "swaps the transcript", "name": "swap"}
    model = lab.ScriptedModel([lab.reply(lab.call("swap", id="x1")), lab.say("Finished.")])
    log = log_of(ns, lab.Workspace())
    for m in turns(1):
        log.append_message(m)
    # resumed through rows(), so that the test waits for lab 2 like the others
    h = harness.Harness(model, harness.SYSTEM, [tool], messages=log.replay())
    for _ in h.prompt("Question 2."):
        pass
    expect(outcome == ["cannot replace messages during a run"],
           f"replace_messages during a run should raise RuntimeError('cannot replace messages during a run'); got {outcome}")
    expect(lab.shape(h.messages) == "U A U A[x1] R(x1) A", f"the record should be untouched; it is {lab.shape(h.messages)}")
    h.replace_messages([])
    expect(h.messages == (), "between runs, replace_messages([]) should empty the transcript")


@test(12, 2, "A prompt whose one reply asks for two calls at once, and later calls after them: "
             "with no user message ahead, the cut steps past every result of the batch.", hidden=True)
def cut_in_a_batch_of_calls(ns):
    a, b, c = (lab.call("read", {"path": f"{n}.py"}, id=f"b{n}") for n in "abc")
    check_cuts(ns, as_rows([lab.user("Read a.py and b.py together, then c.py."), lab.reply(a, b),
                            lab.tool_result(a, "A = 1\n" * 8), lab.tool_result(b, "B = 2\n" * 8),
                            lab.reply(c), lab.tool_result(c, "C = 3\n" * 8), lab.say("All three read.")]))


@test(12, 2, "find_cut works on rows that begin with an earlier summary, and on a log of one row.",
      hidden=True)
def cut_after_a_compaction(ns):
    rows = [("e7", harness.user_message(PREFIX + "Three chunks have been read."))] + busy_log()[4:]
    check_cuts(ns, rows)
    one = [("e1", lab.user("Hello there, how are you today?"))]
    check_cuts(ns, one)


@test(12, 2, "When summarize fails, compact returns False and writes nothing; the file is unchanged.",
      hidden=True)
def compact_after_a_failed_summary(ns):
    ws = lab.Workspace()
    log = five_turn_log(ns, ws)
    before = ws.read_text("session.jsonl")
    rows = harness.SessionLog(ws, "session.jsonl").rows()
    for script in ([lab.fail("503 overloaded")], [lab.say("")]):
        model = lab.ScriptedModel(script, max_calls=5)
        try:
            done = ns.compact(log, model, keep_recent_tokens=sum(sizes(rows)[-2:]))
        except NotImplementedError:
            raise
        except RuntimeError as error:
            raise Failed(f"compact let the failed summary call's RuntimeError ({error}) escape; it should "
                         "return False so that the user's prompt still goes ahead") from None
        expect(done is False, f"when the summary call fails, compact should return False; it returned {done!r}")
        expect(ws.read_text("session.jsonl") == before,
               "compact wrote to the log although the summary call failed; it must append nothing")
