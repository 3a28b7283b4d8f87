"""The lab tests of lesson 08, "One pen": Harness.messages, Harness.prompt and Harness._run, one
lab.

`ns.Harness` is a Harness class whose messages, prompt and _run are the learner's (__init__ and
is_running are given). The visible tests are the plan's seven and one for each wrong idea a rung
of the lesson warns about: returning the list, a deep copy, prompt as a generator, clearing the
flag after the loop, a nested prompt from a tool. Each failure names the method at fault: a
refusal that comes late or not at all is prompt's, a flag left standing is _run's, a snapshot that
is not one is messages'. The hidden tests hold each method to the edges of its docstring.

How the tests hold a harness. Its list is a Record, an object of this process that takes
append(), put in place of the list __init__ made: under the grader the learner's methods run in
another process, where a plain list read from the instance would be a copy, and a run would write
into the copy. The model is wrapped so that ScriptedModel is always handed a plain list. For the
same reason a message that crosses from the learner's process is a copy, so the one test of
identity (the snapshot holds the record's own dicts) looks at identity only where both live in
one process, as in the notebook and on the command line, and at contents elsewhere.
"""

import inspect

import harness
import lab
from lab.checks import blame, expect, Failed, test
from lab.checks.handover import ListModel as Model, Record
from lab.lessons.lesson08.stage import Dying, notes, tool
from lab.stage.prose import plural

PROMPT = "Read notes.txt."
HELLO = "Say hello."


def new(ns, model=None, tools=None, **settings):
    """A Harness over a workspace holding notes.txt, with the model that reads what it is asked
    to, its list a Record. Returns the harness and the model, whose .calls the tests read."""
    ws = lab.Workspace({"notes.txt": "Buy milk.\n"})
    model = model if model is not None else lab.ScriptedModel([notes()])
    tools = tools if tools is not None else [harness.make_read_tool(ws)]
    h = ns.Harness(Model(model), harness.SYSTEM, tools, **settings)
    h._messages = Record(h._messages)
    return h, model


def same_process(ns):
    """True where the learner's methods run in this process, so that identity can be seen: False
    under the grader, where every message that crosses over is a copy."""
    getter = inspect.getattr_static(ns.Harness, "messages", None)
    return inspect.isfunction(getattr(getter, "fget", getter))  # the grader's stand-in is no function


def snapshot(h):
    return blame("Harness.messages", lambda: h.messages)


def start(h, text=PROMPT):
    return blame("Harness.prompt", h.prompt, text)


def events_of(run):
    """Every event of a run, anything it raises named as _run's."""
    return blame("Harness._run", list, run)


def each(run):
    """The events of a run one at a time, as the consumer asks for them; anything the run raises
    is named as _run's."""
    events = blame("Harness._run", iter, run)
    while True:
        try:
            event = next(events)
        except StopIteration:
            return
        except (NotImplementedError, Failed, RecursionError):
            raise
        except Exception as error:
            raise Failed(f"Harness._run raised {type(error).__name__}: {error}") from None
        yield event


def run(h, text=PROMPT):
    return events_of(start(h, text))


def close(run):
    closer = getattr(run, "close", None)
    if closer is not None:
        blame("Harness._run", closer)


def accepts_a_prompt(h, after):
    """Fails, naming _run, if `h` refuses a new prompt: the flag was left standing."""
    try:
        fresh = h.prompt(HELLO)
    except RuntimeError as error:
        raise Failed(f"after {after}, prompt() still raised RuntimeError({str(error)!r}): _run left is_running "
                     "set, so the harness refuses every prompt from now on. Clear it in a finally") from None
    except (NotImplementedError, Failed, RecursionError):
        raise
    except Exception as error:
        raise Failed(f"after {after}, prompt() raised {type(error).__name__}: {error}") from None
    close(fresh)


def refused(h, text=HELLO):
    """The RuntimeError prompt(text) raises at the call, or a Failed naming prompt."""
    try:
        second = h.prompt(text)
    except RuntimeError as error:
        return error
    except (NotImplementedError, Failed, RecursionError):
        raise
    except Exception as error:
        raise Failed(f"prompt() during a run raised {type(error).__name__}: {error}; it should raise "
                     "RuntimeError(\"already running\")") from None
    kind = type(second).__name__
    raise Failed(f"prompt() called during a run returned a {kind} instead of raising RuntimeError(\"already "
                 "running\") on the caller's line. The check must run when prompt is called (a plain def, "
                 "not a generator), and it must refuse")


# -- the snapshot -------------------------------------------------------------------------------

@test(8, 1, "h.messages is a tuple holding the transcript: it has no append, changing the caller's list "
            "does not change it, and a snapshot taken before a run stays as it was.")
def messages_is_a_tuple_snapshot(ns):
    caller = [lab.user("Hi."), lab.say("Hello!")]
    h, _ = new(ns, messages=caller)
    snap = snapshot(h)
    what = "the harness's own list" if snap is h._messages else f"a {type(snap).__name__}"
    expect(isinstance(snap, tuple),
           f"Harness.messages handed out {what}; it should return a tuple, a snapshot that nobody outside can "
           "append to or pop from")
    expect(list(snap) == caller, f"Harness.messages should hold the transcript {lab.shape(caller)}; it holds "
                                 f"{lab.shape(list(snap))}")
    caller.append(lab.user("Slipped in from outside."))
    expect(len(snapshot(h)) == 2, "Harness.messages changed when the list the caller passed in was appended to")
    run(h)
    after = snapshot(h)
    expect(isinstance(after, tuple) and lab.shape(list(after)) == "U A U A[c1] R(c1) A",
           f"after a run, h.messages holds {lab.shape(list(after))}; it should be the record U A U A[c1] R(c1) A: "
           "messages must read self._messages, and _run must give run_agent that same list")
    expect(len(snap) == 2, f"a snapshot Harness.messages gave out before the run now holds {len(snap)} "
                           "messages: it changed as the run wrote to the list")


@test(8, 1, "The snapshot holds the very message dicts of the record, not copies: h.messages[-1] is the "
            "message each message_end announces.")
def messages_shares_the_dicts(ns):
    caller = [lab.user("Hi."), lab.say("Hello!")]
    h, _ = new(ns, messages=caller)
    same = (lambda a, b: a is b) if same_process(ns) else (lambda a, b: a == b)
    expect(len(snapshot(h)) == len(caller),
           f"Harness.messages gave {snapshot(h)!r:.80} for a harness made with two messages; it is a tuple "
           "of the record's messages")
    expect(all(same(a, b) for a, b in zip(snapshot(h), caller)),
           "Harness.messages copied the message dicts: a snapshot is a new tuple of the same dicts; a deep copy "
           "costs a copy of the whole transcript on every read, and the tuple already stops appends and pops")
    for event in each(start(h)):
        if event["type"] == "message_end":
            now = snapshot(h)
            expect(list(now[-1:]) == [event["message"]] or event["message"] not in list(now),
                   f"at a message_end the harness's record had already gone on to {lab.shape(list(now))}: "
                   "the run did not wait for its consumer; Harness.prompt returns the run unstarted, "
                   "and each message is written as its event is asked for")
            expect(list(now[-1:]) == [event["message"]],
                   f"at a message_end the harness's record was {lab.shape(list(now))}, without the message "
                   "announced: Harness._run must give run_agent self._messages, the harness's own list, "
                   "so that the run writes there")
            expect(same(now[-1], event["message"]),
                   "at a message_end, Harness.messages[-1] is not the message the event announces: the snapshot "
                   "should hold the same dicts, not copies")


# -- one writer ---------------------------------------------------------------------------------

@test(8, 1, "prompt() during a run raises RuntimeError(\"already running\") on the caller's line; the "
            "record is untouched and the first run finishes valid.")
def second_prompt_is_refused_at_the_call(ns):
    h, _ = new(ns)
    asked = False
    for event in each(start(h)):
        if event["type"] == "tool_execution_start":
            before = snapshot(h)
            error = refused(h)
            asked = True
            expect("already running" in str(error),
                   f"prompt() during a run raised RuntimeError({str(error)!r}); its message should say "
                   "\"already running\"")
            expect(snapshot(h) == before, "the refused prompt() changed the record: a refusal must write nothing")
    expect(asked, "the run never reached tool_execution_start: _run should yield every event of run_agent")
    record = list(snapshot(h))
    expect(lab.shape(record) == "U A[c1] R(c1) A" and lab.validate(record) == [],
           f"after the refused prompt, the first run should finish as U A[c1] R(c1) A; the record is "
           f"{lab.shape(record) or 'empty'}")


@test(8, 1, "is_running is True from the moment prompt() returns, through every event, and False once the "
            "run is used up; then a new prompt is accepted.")
def is_running_from_prompt_to_the_end(ns):
    h, _ = new(ns)
    expect(not h.is_running, "a new Harness says is_running before any prompt")
    started = start(h)
    expect(h.is_running, "is_running was False right after prompt() returned: prompt must set the flag when it "
                         "is called, before anyone asks for the first event (a prompt that is itself a generator "
                         "runs none of its lines until then)")
    for event in each(started):
        expect(h.is_running, f"is_running was False at {event['type']}, before the run was used up: _run cleared "
                             "the flag too early")
    expect(not h.is_running, "is_running was still True after the run was used up: _run should clear it in a "
                             "finally")
    accepts_a_prompt(h, "a run that was used up")


@test(8, 1, "A consumer that stops early and closes the run (at agent_start, at tool_execution_start, at "
            "the first message_end) leaves is_running False, and the next prompt is accepted.")
def closing_early_frees_the_pen(ns):
    for where in ("agent_start", "tool_execution_start", "message_end"):
        h, _ = new(ns)
        started = start(h)
        reached = False
        for event in each(started):
            if event["type"] == where:
                reached = True
                break
        expect(reached, f"the run ended without a {where} event; Harness._run yields run_agent's events, "
                        "each one as the consumer asks for it")
        close(started)
        expect(not h.is_running,
               f"a consumer stopped at {where} and closed the run, and is_running was still True: _run must clear "
               "the flag in a finally, which runs when the consumer walks away too, not after its loop")
        accepts_a_prompt(h, f"a consumer closed the run at {where}")


@test(8, 1, "A run whose model raises mid-run (a dropped connection) hands the error to the consumer and "
            "leaves is_running False; the next prompt is accepted.")
def a_run_that_dies_frees_the_pen(ns):
    model = Dying(lab.ScriptedModel([notes()]), at=2)
    h, _ = new(ns, model=model)
    got = None
    try:
        for _ in start(h):
            pass
    except ConnectionResetError as error:
        got = error
    except (NotImplementedError, Failed, RecursionError):
        raise
    except Exception as error:
        raise Failed(f"the run died of ConnectionResetError, but the consumer got {type(error).__name__}: "
                     f"{error}") from None
    expect(got is not None, "the model raised ConnectionResetError on its second call, and the consumer never "
                            "saw it: _run must let the error go up after its finally")
    expect(not h.is_running, "after the run died of an exception, is_running was still True: _run must clear "
                             "the flag in a finally, which runs when the run raises too")
    accepts_a_prompt(h, "a run that died")


# -- the settings, run after run ----------------------------------------------------------------

@test(8, 1, "Two prompts one after the other: the second request carries the first run's messages.")
def the_second_prompt_sees_the_first(ns):
    h, model = new(ns)
    run(h)
    run(h, HELLO)
    sent = lab.shape(model.calls[-1].messages) if model.calls else "nothing"
    expect(sent == "U A[c1] R(c1) A U",
           f"the second prompt's request held {sent}; it should carry the first run's messages, U A[c1] R(c1) A U: "
           "_run must give run_agent self._messages, the harness's own list")
    record = lab.shape(list(snapshot(h)))
    expect(record == "U A[c1] R(c1) A U A", f"after two prompts the record should be U A[c1] R(c1) A U A; it is "
                                            f"{record}")


@test(8, 1, "max_turns given to Harness applies to every run, not only the first.")
def max_turns_applies_to_every_run(ns):
    h, model = new(ns, max_turns=1)
    run(h, HELLO)        # one model call: within the limit
    run(h)               # a read, then a second call the limit forbids
    record = snapshot(h)
    expect(len(record) > 0, "after two prompts Harness.messages was empty: _run must give run_agent "
                            "self._messages, the harness's own list, for the run to write in")
    last = record[-1]
    expect(last.get("error_message") == "Agent stopped after max_turns=1",
           f"the second prompt to a Harness(..., max_turns=1) ended with {lab.shape([last])} "
           f"{last.get('error_message') or harness.text_of(last)!r}, not the stop \"Agent stopped after "
           "max_turns=1\": _run must pass max_turns=self._max_turns to run_agent on every run")
    expect(len(model.calls) == 2, f"two prompts with max_turns=1 made {len(model.calls)} model calls, not 2")


@test(8, 1, "A tool that calls h.prompt() mid-run gets an error result saying \"already running\"; the run "
            "carries on, and validate finds nothing wrong.")
def a_tool_that_prompts_is_refused(ns):
    box = {}

    def meddle(arguments):
        for _ in box["h"].prompt(HELLO):
            pass
        return "a second run went ahead inside the first"

    h, _ = new(ns, tools=[tool("meddle", meddle)])
    box["h"] = h
    run(h)
    record = list(snapshot(h))
    results = [m for m in record if m.get("role") == "toolResult"]
    expect(results, f"Harness._run left the harness's record {lab.shape(record) or 'empty'}, with no tool "
                    "result in it: _run must give run_agent self._messages, the harness's own list")
    content = results[0].get("content")
    expect(results[0].get("is_error") and "already running" in str(content),
           f"a tool called prompt() while the run that called it was going on, and got {content!r}: prompt must "
           "refuse with RuntimeError(\"already running\"), which run_tool turns into an error result")
    expect(lab.shape(record) == "U A[c1] R(c1) A" and lab.validate(record) == [],
           f"after the tool's prompt was refused the record should be U A[c1] R(c1) A and valid; it is "
           f"{lab.shape(record)}")


@test(8, 1, "prompt() returns before any model call and writes nothing; the model is called when the "
            "events are asked for.")
def prompt_returns_before_the_model_is_called(ns):
    h, model = new(ns)
    started = start(h)
    expect(not model.calls, f"prompt() made {len(model.calls)} model call(s) before it returned: it should "
                            "return the run, and the run should do nothing until its events are asked for")
    expect(len(snapshot(h)) == 0, f"prompt() wrote {lab.shape(list(snapshot(h)))} to the record before any "
                                  "event was asked for; it only starts the run, and the run writes")
    events_of(started)
    expect(len(model.calls) == 2, f"the run made {len(model.calls)} model calls, not 2")


# -- hidden: the edges of each contract ---------------------------------------------------------

@test(8, 1, "A run closed after any number of its events leaves is_running False, and the next prompt "
            "is accepted.", hidden=True)
def closed_after_any_event(ns):
    total = len(run(new(ns)[0]))
    expect(total > 2, f"a whole run yielded {plural(total, 'event')}; Harness._run yields run_agent's events, "
                      "from agent_start to agent_end")
    for taken in range(1, total):
        h, _ = new(ns)
        started = start(h)
        events = blame("Harness._run", iter, started)
        for _ in range(taken):
            blame("Harness._run", next, events)
        close(started)
        expect(not h.is_running, f"a run closed after {taken} of its {total} events left is_running True")
        accepts_a_prompt(h, f"a run closed after {taken} events")


@test(8, 1, "Snapshots: an empty Harness gives (); one taken mid-run keeps its length after the run; the "
            "caller's list changed mid-run changes nothing.", hidden=True)
def snapshots_stay_put(ns):
    caller = []
    h, _ = new(ns, messages=caller)
    empty = snapshot(h)
    expect(empty == () and isinstance(empty, tuple), f"Harness.messages of an empty harness is {empty!r}, not ()")
    middle = None
    for event in each(start(h)):
        if event["type"] == "tool_execution_start":
            middle = snapshot(h)
            caller.append(lab.user("Slipped in from outside."))
    expect(middle is not None and len(middle) == 2,
           f"a snapshot taken at tool_execution_start should keep its 2 messages; it has "
           f"{len(middle) if middle is not None else 'none'}")
    expect(lab.shape(list(snapshot(h))) == "U A[c1] R(c1) A",
           f"Harness.messages after the run is {lab.shape(list(snapshot(h)))}")


@test(8, 1, "A refused prompt leaves no trace: its words are in no request and not in the record, no model "
            "call is made for it, and the harness is still running.", hidden=True)
def a_refusal_leaves_no_trace(ns):
    h, model = new(ns)
    replies = 0
    for event in each(start(h)):
        if event["type"] == "message_end" and event["message"].get("role") == "assistant":
            replies += 1
            calls = len(model.calls)
            refused(h)
            expect(len(model.calls) == calls, "the refused prompt() made a model call")
            expect(h.is_running, "after refusing a second prompt, is_running was False while the first run went on")
    expect(replies > 0, "the run yielded no message_end for a reply; Harness._run yields run_agent's events")
    words = [m.get("content") for request in model.calls for m in request.messages] + \
            [m.get("content") for m in snapshot(h)]
    expect(HELLO not in words, "the words of the refused prompt reached the record or a request")


@test(8, 1, "Two harnesses are two pens: while one is running, the other takes a prompt and runs to the end.",
      hidden=True)
def two_harnesses_are_independent(ns):
    first, _ = new(ns)
    second, _ = new(ns)
    for event in each(start(first)):
        if event["type"] == "tool_execution_start":
            try:
                other = second.prompt(HELLO)
            except RuntimeError as error:
                raise Failed(f"prompt() on one Harness was refused with {str(error)!r} because another Harness was "
                             "running: the flag belongs to each harness, self._running") from None
            events_of(other)
            expect(not second.is_running, "the second harness was still running after its run was used up")
    expect(lab.shape(list(snapshot(first))) == "U A[c1] R(c1) A" and lab.shape(list(snapshot(second))) == "U A",
           "two harnesses running one inside the other wrote into each other's records")


@test(8, 1, "A run that dies keeps what it recorded, once each, whether it dies on its first model call "
            "or after a tool; the next prompt's request carries it and is valid.", hidden=True)
def a_death_keeps_the_record(ns):
    for at, kept in ((1, "U"), (2, "U A[c1] R(c1)")):
        model = Dying(lab.ScriptedModel([notes()]), at=at)
        h, _ = new(ns, model=model)
        try:
            events_of(start(h))
        except Failed:
            pass
        record = lab.shape(list(snapshot(h)))
        expect(not h.is_running, f"a run that died on model call {at} left is_running True")
        expect(record == kept, f"a run that died on model call {at} should leave {kept}; the record is {record}")
        run(h, HELLO)
        sent = lab.shape(model.calls[-1].messages)
        expect(sent == kept + " U" and not model.calls[-1].reply.get("error_message"),
               f"the prompt after a death on model call {at} sent {sent}; it should send {kept} U")


@test(8, 1, "max_turns=0 is a limit too: every run stops before any model call.", hidden=True)
def max_turns_zero(ns):
    h, model = new(ns, max_turns=0)
    run(h)
    run(h, HELLO)
    stops = [m.get("error_message") for m in snapshot(h) if m.get("role") == "assistant"]
    expect(stops == ["Agent stopped after max_turns=0"] * 2 and not model.calls,
           f"with max_turns=0 two prompts made {len(model.calls)} model calls and ended {stops}: _run must pass "
           "self._max_turns as it is, 0 included")


@test(8, 1, "A run uses the harness's own settings: a Harness built with a system prompt of its own "
            "sends that prompt and its own tools in every request of every run.", hidden=True)
def runs_on_its_own_settings(ns):
    ws = lab.Workspace({"notes.txt": "Buy milk.\n"})
    tools = [harness.make_read_tool(ws)]
    model = lab.ScriptedModel([notes()])
    system = "You keep a shopping list. Answer in one line."
    h = ns.Harness(Model(model), system, tools)
    h._messages = Record(h._messages)
    run(h)
    run(h, HELLO)
    systems = {request.system for request in model.calls}
    expect(systems == {system},
           f"Harness._run sent the system prompt(s) {sorted(systems)}; every request should carry the "
           f"one the harness was built with, {system!r}")
    offered = [[t["name"] for t in request.tools] for request in model.calls]
    expect(all(o == ["read"] for o in offered),
           f"Harness._run offered the tools {offered} across the requests; each should offer the "
           "harness's own, ['read']")
