"""The lab tests of lesson 07, "Running commentary": run_agent, version 7, a generator of events,
and FinalTextRenderer, the frontend that prints only the answer.

The visible tests are the plan's list, plus one for each wrong idea a question of the lesson
argues against: announcing a message before it is in the record, a max_turns stop with no
events, tool_execution_end before the result's message_end, one turn per user prompt, printing
progress from the loop, a renderer that prints as it goes, keeps the first answer, or meets a
failure with silence, the empty text or True. The hidden ones hold the contract's edge cases: a
renderer given a run that failed after getting some text out, or stopped by max_turns; two
renderers at once; two calls in one reply; max_turns=0; a 503 as the first reply; what each
event carries; a consumer that stops at the reply.

How the tests watch a run. The caller's list is a Record, an object of this process that takes
append(): under the grader the learner's run_agent runs in another process and would otherwise
change a copy, seen here only when the run is over. Each event is checked against the Record as
it stands at the moment the event arrives. The model is wrapped so that ScriptedModel is always
handed a plain list. Verdicts compare contents, never identity.
"""

import json

import harness
import lab
from harness.earlier.lesson07 import run_agent as reference_run_agent
from lab.checks import expect, Failed, test
from lab.checks.handover import ListModel as Model, Record
from lab.stage.model import ScriptError

TASK = "Is B in b.py equal to 2?"
FILES = {"a.py": "A = 1\n", "b.py": "from a import A\nB = A + 1\n"}
READ_B = {"path": "b.py"}
ID = "toolu_b7"   # an id the script chooses, as a provider does: no counter of calls makes it
ANSWER = "Yes: B is A + 1, and A is 1, so B is 2."


NOT_PASSED = object()


class capture_stderr(lab.capture_stdout):
    """lab.capture_stdout's twin for sys.stderr: what run_agent writes there, kept to be judged."""

    def __enter__(self):
        import sys
        self.captured, self._saved = lab.Captured(), sys.stderr
        sys.stderr = self.captured
        return self.captured

    def __exit__(self, *exc):
        import sys
        sys.stderr = self._saved
        self.captured._close()
        return False


def _types(events):
    return [_type(e) for e in events]


def _type(event):
    if not isinstance(event, dict):
        return repr(event)[:40]
    message = event.get("message")
    if event.get("type") == "message_end" and isinstance(message, dict):
        return f"message_end({message.get('role')})"
    return str(event.get("type"))


class Run:
    """One run of the learner's run_agent, consumed event by event as a frontend would.

    .events        the events, in order
    .record_at     for each event, the caller's list as it stood when that event arrived
    .record        the caller's list at the end; .new, what this run added to it
    .printed       what run_agent printed while it ran; .errors, what it wrote to sys.stderr
    .calls_at_call model calls made by the call of run_agent itself, before any event was asked for
    .error         an exception run_agent raised, or None
    `stop_at(event)` True ends the consumer's loop at that event, closing the run as a
    frontend's `break` would."""

    def __init__(self, ns, steps, limit=NOT_PASSED, earlier=(), stop_at=None, max_calls=20):
        self.model = lab.ScriptedModel(steps, max_calls=max_calls)
        self.ws = lab.Workspace(dict(FILES))
        self.record = Record(earlier)
        self.before = len(self.record.items)
        self.events, self.record_at, self.error = [], [], None
        kwargs = {} if limit is NOT_PASSED else {"max_turns": limit}
        with lab.capture_stdout() as out, capture_stderr() as err:
            try:
                run = ns.run_agent(Model(self.model), harness.SYSTEM, self.record,
                                   [harness.make_read_tool(self.ws)], TASK, **kwargs)
                self.calls_at_call = len(self.model.calls)
                self.recorded_at_call = len(self.record.items) - self.before
                for event in run:
                    self.events.append(event)
                    self.record_at.append(list(self.record.items))
                    if stop_at is not None and stop_at(event):
                        close = getattr(run, "close", None)
                        if close is not None:
                            close()
                        break
            except (NotImplementedError, RecursionError):
                raise  # a stub is "not done yet", never a verdict on what run_agent did
            except Exception as error:
                self.error = error
        self.printed, self.errors = out.text, err.text

    @property
    def new(self):
        return self.record.items[self.before:]

    def types(self):
        return _types(self.events)

    def shape(self):
        return lab.shape(self.new)

    def well_formed(self, how):
        """Fail unless the run ended without raising and yielded only events."""
        if isinstance(self.error, ScriptError):
            raise Failed(f"run_agent {how} kept calling the model until the lab's brake stopped it "
                         f"({len(self.model.calls)} model calls)")
        if self.error is not None:
            raise Failed(f"run_agent {how} raised {type(self.error).__name__}: {self.error}")
        refused = next((r for r in self.model.calls if r.reply and
                        str(r.reply.get("error_message", "")).startswith("400")), None)
        if refused is not None:
            raise Failed(f"run_agent {how} sent request {refused.number}, which the strict provider "
                         f"refused ({refused.reply['error_message']!r}), leaving the record "
                         f"{self.shape()}; record each result under the id of the call it answers, "
                         "straight after that call's reply")
        odd = [e for e in self.events if not isinstance(e, dict) or "type" not in e]
        if odd:
            raise Failed(f"run_agent {how} yielded {odd[0]!r}; it should yield events, dicts with a "
                         "\"type\", and return nothing")
        if not self.events or self.events[0]["type"] != "agent_start":
            first = self.events[0]["type"] if self.events else "no event at all"
            raise Failed(f"run_agent {how} began with {first}; every run opens with agent_start, "
                         "before the model is asked anything")


def read_then_answer():
    """A reply that says a word and reads b.py, then the answer."""
    return [lab.reply(lab.text("Reading b.py."), lab.call("read", READ_B, id=ID)), lab.say(ANSWER)]


def runaway():
    return [lab.forever(lambda request: lab.reply(lab.call("read", READ_B, id=f"rd-{7 * request.number}")))]


def failing_after_a_read(partial=None):
    return [lab.reply(lab.call("read", READ_B, id=ID)), lab.fail("503 overloaded", partial=partial)]


EXPECTED = ["agent_start", "turn_start", "message_end(user)", "message_end(assistant)",
            "tool_execution_start", "message_end(toolResult)", "tool_execution_end", "turn_end",
            "turn_start", "message_end(assistant)", "turn_end", "agent_end"]


def first_difference(got, want):
    for n, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return f"event {n + 1} is {a} where {b} belongs"
    if len(got) < len(want):
        return f"it stops after {len(got)} events, before {want[len(got)]}"
    if len(got) > len(want):
        return f"it goes on past {want[-1]} with {got[len(want)]}"
    return "none"


def check_balanced(run, how):
    """agent_start first and agent_end last, once each; turn_start and turn_end alternating,
    every turn closed; nothing outside a turn but the two ends."""
    types = run.types()
    expect(types[:1] == ["agent_start"] and types.count("agent_start") == 1,
           f"run_agent {how} yielded {types}; agent_start comes first, once")
    expect(types[-1:] == ["agent_end"] and types.count("agent_end") == 1,
           f"run_agent {how} yielded {types}, with no agent_end at the end; every way out of the "
           "run, this one too, ends on one agent_end, or a frontend's spinner never stops")
    open_turn = False
    for t in types[1:-1]:
        if t == "turn_start":
            expect(not open_turn, f"run_agent {how} yielded {types}: a turn_start before the "
                                  "last turn had its turn_end")
            open_turn = True
        elif t == "turn_end":
            expect(open_turn, f"run_agent {how} yielded {types}: a turn_end with no turn_start")
            open_turn = False
        else:
            expect(open_turn, f"run_agent {how} yielded {types}: {t} outside any turn; everything "
                              "between agent_start and agent_end happens inside a turn")
    expect(not open_turn, f"run_agent {how} yielded {types}: the last turn has no turn_end; every "
                          "turn is closed, however the run ends")


# -- visible: run_agent ---------------------------------------------------------------------------

@test(7, 1, "A read-then-answer run yields exactly: agent_start, turn_start, message_end(user), "
            "message_end(assistant), tool_execution_start, message_end(toolResult), "
            "tool_execution_end, turn_end, turn_start, message_end(assistant), turn_end, agent_end; "
            "each turn_end carries its turn's reply.")
def read_then_answer_events(ns):
    run = Run(ns, read_then_answer())
    run.well_formed("on a read-then-answer run")
    got = run.types()
    expect(got == EXPECTED, f"run_agent yielded {got} for a read-then-answer run: "
                            f"{first_difference(got, EXPECTED)}")
    turn_ends_carry_their_replies(run, "on a read-then-answer run")
    want = f"U A[{ID}] R({ID}) A"
    expect(run.shape() == want,
           f"run_agent left the caller's list {run.shape()}; the run records {want}, as lesson 5's "
           "did, each result carrying the id of the call it answers")


@test(7, 1, "Mutate, then announce: at every message_end the message is already the last item "
            "of the caller's list.")
def mutate_then_announce(ns):
    run = Run(ns, read_then_answer())
    run.well_formed("on a read-then-answer run")
    for event, record in zip(run.events, run.record_at):
        if event["type"] != "message_end":
            continue
        message = event.get("message")
        role = message.get("role") if isinstance(message, dict) else None
        expect(record and record[-1] == message,
               f"when run_agent yielded message_end for the {role} message, the caller's list was "
               f"{lab.shape(record) or 'empty'}, without it: announce only what is already in the record "
               "(record appends, then returns the event), or a consumer that stops there loses it")


@test(7, 1, "A result is recorded before tool_execution_end: a consumer that stops listening at "
            "tool_execution_end finds the result in the record.")
def result_before_tool_execution_end(ns):
    run = Run(ns, read_then_answer(), stop_at=lambda e: isinstance(e, dict)
              and e.get("type") == "tool_execution_end")
    run.well_formed("stopped at tool_execution_end")
    has_result = any(m.get("role") == "toolResult" for m in run.new if isinstance(m, dict))
    expect(has_result,
           f"a consumer stopped listening at tool_execution_end and found the record {run.shape()}: "
           "the read had run, but run_agent had not recorded its result; yield record(result) "
           "right after run_tool returns, and tool_execution_end only after it")


@test(7, 1, "Pairs balance on every exit: agent_start ... agent_end around the run and turn_start "
            "... turn_end around each turn, each turn_end with its turn's reply, for a normal end, a "
            "max_turns stop and a failed reply.")
def pairs_balance(ns):
    for steps, limit, how in ((read_then_answer(), NOT_PASSED, "on a normal run"),
                              (runaway(), 1, "on a run stopped by max_turns=1"),
                              (failing_after_a_read(), NOT_PASSED, "on a run that ended in a 503")):
        run = Run(ns, steps, limit)
        run.well_formed(how)
        check_balanced(run, how)
        turn_ends_carry_their_replies(run, how)


def turn_ends_carry_their_replies(run, how):
    replies = [e["message"] for e in run.events if e["type"] == "message_end"
               and e["message"].get("role") == "assistant"]
    ends = [e.get("message") for e in run.events if e["type"] == "turn_end"]
    expect(ends == replies, f"{how}, run_agent's turn_end should carry the turn's reply (or stop) as "
                            "\"message\", {\"type\": \"turn_end\", \"message\": reply}, as its "
                            "message_end did.")


@test(7, 1, "A max_turns stop is reported like any ending: max_turns=2 makes 2 model calls and "
            "ends on message_end (the stop), turn_end, agent_end.")
def stop_is_reported(ns):
    run = Run(ns, runaway(), 2)
    run.well_formed("with max_turns=2")
    expect(len(run.model.calls) == 2, f"run_agent with max_turns=2 made {len(run.model.calls)} model "
                                      "calls; the limit is lesson 5's, tested before each call")
    tail = run.types()[-3:]
    want = ["message_end(assistant)", "turn_end", "agent_end"]
    stop = run.events[-3].get("message", {}) if len(run.events) >= 3 else {}
    expect(tail == want and stop.get("error_message") == "Agent stopped after max_turns=2",
           f"run_agent with max_turns=2 ended on {tail}; it should end on message_end of the stop "
           "(\"Agent stopped after max_turns=2\"), turn_end, agent_end: a stop that yields nothing "
           "leaves every frontend waiting")


@test(7, 1, "One turn per model call: a read-then-answer run has two turns, and a run of three "
            "reads and an answer has four, each with one assistant message.")
def turn_per_model_call(ns):
    for steps, turns in ((read_then_answer(), 2),
                         ([lab.reply(lab.call("read", READ_B, id=f"t{n}x")) for n in (5, 3, 8)]
                          + [lab.say(ANSWER)], 4)):
        run = Run(ns, steps)
        run.well_formed(f"on a run of {turns} model calls")
        types = run.types()
        got = types.count("turn_start")
        expect(got == turns, f"run_agent yielded {got} turn_start for a run of {turns} model calls; "
                             "one turn is one model call (the user prompted once, but the model "
                             f"was asked {turns} times)")
        per_turn, count = [], None
        for t in types:
            if t == "turn_start":
                count = 0
            elif t == "message_end(assistant)" and count is not None:
                count += 1
            elif t == "turn_end" and count is not None:
                per_turn.append(count)
        expect(per_turn == [1] * turns, f"run_agent's turns held {per_turn} assistant messages; "
                                        "each turn holds exactly one reply")


@test(7, 1, "agent_end's messages are exactly those this run appended, the final message last, "
            "even when the caller's list already held a conversation.")
def agent_end_messages(ns):
    earlier = [lab.user("Hello."), lab.say("Hello. What shall I look at?")]
    run = Run(ns, read_then_answer(), earlier=earlier)
    run.well_formed("on a list that already held two messages")
    end = run.events[-1] if run.events else {}
    got = end.get("messages") if isinstance(end, dict) else None
    got = list(got) if isinstance(got, (list, tuple)) else got
    expect(end.get("type") == "agent_end" and got == run.new,
           f"run_agent's agent_end carried {lab.shape(got) if isinstance(got, list) else got!r}; it "
           f"should carry exactly what this run added, {run.shape()}, not the whole list")
    expect(harness.text_of(got[-1]) == ANSWER,
           "run_agent's agent_end messages do not end on the final answer")
    expect(run.record.items[:2] == earlier, "run_agent changed the messages already in the caller's list")


@test(7, 1, "Calling run_agent makes no model call and records nothing until the first event is "
            "asked for: it is a generator.")
def lazy(ns):
    run = Run(ns, read_then_answer(), stop_at=lambda e: True)
    expect(run.calls_at_call == 0 and run.recorded_at_call == 0,
           f"calling run_agent made {run.calls_at_call} model calls and recorded {run.recorded_at_call} "
           "messages before anyone asked for an event; make it a generator (yield the events), so "
           "the frontend sees each one as it happens")
    run.well_formed("asked for one event")
    expect(run.types() == ["agent_start"] and len(run.model.calls) == 0,
           f"run_agent's first event was {run.types()[:1]}, after {len(run.model.calls)} model calls; "
           "agent_start comes first, before the model is asked anything")


@test(7, 1, "run_agent prints nothing, to stdout or to stderr: it reports, and frontends draw.")
def prints_nothing(ns):
    run = Run(ns, read_then_answer())
    run.well_formed("on a read-then-answer run")
    expect(run.printed == "", f"run_agent printed {run.printed.splitlines()[:2]}; the loop only "
                              "yields events, or `> answer.txt` fills with progress lines")
    expect(run.errors == "", f"run_agent wrote {run.errors.splitlines()[:2]} to stderr; progress on "
                             "stderr is still the loop drawing: yield the event, and let a frontend "
                             "that wants progress draw it from tool_execution_start")


@test(7, 1, "JsonRenderer prints one parseable JSON object per event of your run_agent.")
def json_lines(ns):
    run = Run(ns, read_then_answer())
    run.well_formed("on a read-then-answer run")
    renderer = harness.JsonRenderer()
    try:
        with lab.capture_stdout() as out:
            for event in run.events:
                renderer.render(event)
    except TypeError as error:
        raise Failed(f"JsonRenderer could not print an event of run_agent ({error}); events are "
                     "plain data: dicts of strings, numbers, lists and dicts") from None
    lines = out.lines
    expect(len(lines) == len(run.events),
           f"JsonRenderer printed {len(lines)} lines for run_agent's {len(run.events)} events")
    expect([json.loads(line) for line in lines] == json.loads(json.dumps(run.events)),
           "JsonRenderer's lines do not read back as run_agent's events")
    expect(renderer.finish() is True, "JsonRenderer.finish() returned False on a run that went well")


# -- visible: FinalTextRenderer --------------------------------------------------------------------

def reference_events(steps, limit=None, earlier=()):
    """The events of the reference run_agent (lesson 7's) on `steps`: what a renderer is fed."""
    model = lab.ScriptedModel(steps, max_calls=20)
    tools = [harness.make_read_tool(lab.Workspace(dict(FILES)))]
    return list(reference_run_agent(model, harness.SYSTEM, list(earlier), tools, TASK, max_turns=limit))


class Rendered:
    """A FinalTextRenderer of the learner's, made and fed `events`, then finished; what each of
    the three printed, and what finish returned."""

    def __init__(self, ns, events):
        with lab.capture_stdout() as made:
            self.renderer = self._step("__init__", ns.FinalTextRenderer)
        with lab.capture_stdout() as during:
            for event in events:
                self._step("render", self.renderer.render, event)
        with lab.capture_stdout() as end:
            self.returned = self._step("finish", self.renderer.finish)
        self.made, self.during, self.finished = made.text, during.text, end.text

    @staticmethod
    def _step(method, function, *args):
        """function(*args), anything it raises put in a sentence that names the method."""
        try:
            return function(*args)
        except (NotImplementedError, Failed, RecursionError):
            raise
        except Exception as error:
            what = f" on {_type(args[0])}" if args else ""
            raise Failed(f"FinalTextRenderer.{method} raised {type(error).__name__}: {error}{what}; "
                         "render keeps only assistant messages, and finish prints nothing and "
                         "returns False when none came") from None

    def quiet(self):
        expect(self.made == "", f"FinalTextRenderer() printed {self.made!r} when it was made; its "
                                "__init__ prints nothing, or answer.txt starts with it")
        expect(self.during == "", f"FinalTextRenderer.render printed {self.during!r} while the run went "
                                  "on; render only keeps the newest assistant message, and finish "
                                  "prints")


@test(7, 1, "FinalTextRenderer prints nothing while it is made and fed a run, and then finish() "
            "prints only the final text and returns True.")
def final_text(ns):
    shown = Rendered(ns, reference_events(read_then_answer()))
    shown.quiet()
    expect(shown.finished == ANSWER + "\n",
           f"FinalTextRenderer.finish printed {shown.finished!r}; it should print the final answer, "
           f"{ANSWER!r}: render keeps the NEWEST assistant message (an earlier reply said "
           "'Reading b.py.')")
    expect(shown.returned is True, f"FinalTextRenderer.finish returned {shown.returned!r} after a run "
                                   "that went well; it returns True")


@test(7, 1, "After a failed reply FinalTextRenderer.finish() prints \"Error: 503 overloaded\" and "
            "returns False.")
def final_text_failed(ns):
    shown = Rendered(ns, reference_events(failing_after_a_read()))
    shown.quiet()
    expect(shown.finished == "Error: 503 overloaded\n",
           f"FinalTextRenderer.finish printed {shown.finished!r} for a run that ended in a 503; it "
           "should print \"Error: 503 overloaded\": render keeps the newest assistant message, here the "
           "failed one, and finish prints its error_message, since an empty answer.txt tells nobody why")
    expect(shown.returned is False, f"FinalTextRenderer.finish returned {shown.returned!r} for a failed "
                                    "run; it returns False, so the program can exit non-zero")


@test(7, 1, "With no assistant message at all, FinalTextRenderer.finish() prints nothing and "
            "returns False.")
def final_text_nothing(ns):
    events = reference_events(read_then_answer())[:3]   # agent_start, turn_start, the user's prompt
    shown = Rendered(ns, events)   # anything raised is named with its method, in one sentence
    shown.quiet()
    expect(shown.returned is False and shown.finished == "",
           f"FinalTextRenderer.finish printed {shown.finished!r} and returned {shown.returned!r} with "
           "no assistant message seen; it should print nothing and return False (__init__ starts "
           "with none kept, and render keeps only assistant messages)")


# -- hidden ---------------------------------------------------------------------------------------

@test(7, 1, "A renderer given a run whose reply failed after getting text out prints the error, "
            "not the text, and returns False.", hidden=True)
def final_text_failed_with_text(ns):
    shown = Rendered(ns, reference_events(failing_after_a_read(partial=[lab.text("B is")])))
    expect(shown.finished == "Error: 503 overloaded\n" and shown.returned is False,
           f"FinalTextRenderer.finish printed {shown.finished!r} and returned {shown.returned!r} for a "
           "reply that failed after writing 'B is'; a failed reply is an error whatever text it "
           "carries (look at stop_reason)")


@test(7, 1, "A renderer given a run stopped by max_turns prints \"Error: Agent stopped after "
            "max_turns=1\" and returns False.", hidden=True)
def final_text_stopped(ns):
    shown = Rendered(ns, reference_events(runaway(), limit=1))
    expect(shown.finished == "Error: Agent stopped after max_turns=1\n" and shown.returned is False,
           f"FinalTextRenderer.finish printed {shown.finished!r} and returned {shown.returned!r} for a "
           "run stopped by max_turns=1")


@test(7, 1, "Two renderers fed two runs keep one answer each.", hidden=True)
def two_renderers(ns):
    first, second = reference_events(read_then_answer()), reference_events(failing_after_a_read())
    with lab.capture_stdout():
        one, other = ns.FinalTextRenderer(), ns.FinalTextRenderer()
        for event in first:
            one.render(event)
        for event in second:
            other.render(event)
    with lab.capture_stdout() as out:
        results = (one.finish(), other.finish())
    expect(out.lines == [ANSWER, "Error: 503 overloaded"] and results == (True, False),
           f"two FinalTextRenderers printed {out.lines} and returned {results}; each keeps its own "
           "message, on self, not on the class")


@test(7, 1, "Two calls in one reply: start, result, end for the first call, then for the second, "
            "each tool_execution_end carrying its call and its result.", hidden=True)
def two_calls(ns):
    steps = [lab.reply(lab.call("read", READ_B, id="x9"), lab.call("read", {"path": "a.py"}, id="k4")),
             lab.say(ANSWER)]
    run = Run(ns, steps)
    run.well_formed("on a reply with two calls")
    middle = run.types()[4:10]
    expect(middle == ["tool_execution_start", "message_end(toolResult)", "tool_execution_end"] * 2,
           f"run_agent yielded {middle} for a reply with two calls")
    ends = [e for e in run.events if e.get("type") == "tool_execution_end"]
    results = [m for m in run.new if m.get("role") == "toolResult"]
    expect([(e.get("call", {}).get("id"), e.get("result")) for e in ends] == [(r["tool_call_id"], r) for r in results],
           "run_agent's tool_execution_end events do not carry each call and the result recorded for it")
    starts = [e.get("call") for e in run.events if e.get("type") == "tool_execution_start"]
    expect(starts == harness.tool_calls(run.new[1]), "run_agent's tool_execution_start events do not "
                                                     "carry the calls of the reply, in order")


@test(7, 1, "max_turns=0: the prompt and the stop in one turn, balanced, and no model call.",
      hidden=True)
def limit_zero(ns):
    run = Run(ns, runaway(), 0)
    run.well_formed("with max_turns=0")
    want = ["agent_start", "turn_start", "message_end(user)", "message_end(assistant)", "turn_end", "agent_end"]
    expect(run.types() == want and len(run.model.calls) == 0,
           f"run_agent with max_turns=0 yielded {run.types()} after {len(run.model.calls)} model calls")


@test(7, 1, "A 503 as the first reply: one turn, the failed reply's message_end, turn_end, "
            "agent_end, and no tool run.", hidden=True)
def fails_first(ns):
    run = Run(ns, [lab.fail("503 overloaded", partial=[lab.call("read", READ_B, id=ID)]), lab.say(ANSWER)])
    run.well_formed("on a 503 as the first reply")
    want = ["agent_start", "turn_start", "message_end(user)", "message_end(assistant)", "turn_end", "agent_end"]
    expect(run.types() == want and len(run.model.calls) == 1,
           f"run_agent yielded {run.types()} for a 503 as the first reply")


@test(7, 1, "What the events carry: turn_end its turn's reply, agent_end this run's messages "
            "ending on the final one, message_end the message recorded.", hidden=True)
def events_carry(ns):
    run = Run(ns, read_then_answer())
    run.well_formed("on a read-then-answer run")
    replies = [m for m in run.new if m.get("role") == "assistant"]
    turn_ends = [e.get("message") for e in run.events if e.get("type") == "turn_end"]
    expect(turn_ends == replies, "run_agent's turn_end events do not carry their turns' replies")
    announced = [e.get("message") for e in run.events if e.get("type") == "message_end"]
    expect(announced == run.new, "run_agent's message_end events are not the messages it recorded, in order")


@test(7, 1, "A consumer that stops at the first reply's message_end: the record is U A[x] and "
            "no tool has run.", hidden=True)
def stop_at_reply(ns):
    run = Run(ns, read_then_answer(), stop_at=lambda e: isinstance(e, dict) and e.get("type") == "message_end"
              and isinstance(e.get("message"), dict) and e["message"].get("role") == "assistant")
    run.well_formed("stopped at the first reply")
    expect(run.shape() == f"U A[{ID}]" and run.ws.reads == [],
           f"after the consumer stopped at the reply, run_agent had recorded {run.shape()} and read "
           f"{run.ws.reads}; nothing should run that nobody asked for")
