"""The lab tests of lesson 09, "A word in edgeways": run_agent version 9, and the Harness's
prompt, steer, follow_up, _drain and _run, one lab.

run_agent is tested on its own, called with two getters the test holds (a `Voice`: two deques and
the functions that hand out one message per ask), so a failure there is the loop's. Each Harness
method is tested with the reference's lesson-9 methods standing in for the other ones (`alone`),
so a failure names the method at fault; the last tests take the learner's class whole. The visible
tests are the plan's seven and one for every wrong idea a question of the lesson argues against;
the hidden ones hold the contract's edges: words that come while a tool runs, two steers in a row,
a follow-up after the last reply.
"""

from collections import deque

import harness
import lab
from lab.course import manifest
from lab.checks import expect, Failed, test

METHODS = ("Harness.prompt", "Harness.steer", "Harness.follow_up", "Harness._drain", "Harness._run")


def blame(name, function, *args, **kwargs):
    """function(*args), with anything it raises put in a sentence that names `name`."""
    try:
        return function(*args, **kwargs)
    except (NotImplementedError, Failed, RecursionError):
        raise
    except lab.ScriptError:
        raise Failed(f"{name} kept calling the model after the script was used up: the run never ended") from None
    except Exception as error:
        raise Failed(f"{name} raised {type(error).__name__}: {error}") from None


def valid(name, messages):
    problems = lab.validate(list(messages))
    expect(not problems, f"{name} left a transcript a provider refuses: {problems[0] if problems else ''}")


# -- the stage of these tests -----------------------------------------------------------------

RAISED = []  # what the user's side raised inside a tool: a learner's steer, say


def write(path, call_id):
    return lab.call("write", {"path": path, "content": f"# {path}\n"}, id=call_id)


def tools(ws, during=None):
    """The write tool over `ws`; during(path), if given, runs while the tool is writing path."""
    def execute(arguments):
        if during:
            try:
                during(arguments["path"])
            except Exception as error:  # run_tool would make a tool result of it: keep it
                RAISED.append(error)
                raise
        ws.write_text(arguments["path"], arguments["content"])
        return f"Successfully wrote to {arguments['path']}."
    spec = harness.make_write_tool(ws)
    return [dict(spec, execute=execute)]


# A reply that fails after saying something, so that it stays a valid message of the transcript.
FAILED = lab.fail("503 overloaded", partial=[lab.text("Next, f2.py.")])


def job(turns=3, calls=1):
    """A script of `turns` tool turns of `calls` writes each, then an answer, then answers for ever."""
    steps, n = [], 0
    for _ in range(turns):
        batch = []
        for _ in range(calls):
            n += 1
            batch.append(write(f"f{n}.py", f"w{n}"))
        steps.append(lab.reply(*batch))
    return steps + [lab.forever(lambda request: lab.say("Done."))]


class Voice:
    """A user the test speaks for: two deques, and the getters run_agent is given. Each getter
    hands out the oldest waiting message, one per call, and counts its calls."""

    def __init__(self):
        self.steering, self.follow_ups = deque(), deque()
        self.asked = {"steering": 0, "follow_ups": 0}

    def steer(self, text):
        self.steering.append(lab.user(text))

    def follow_up(self, text):
        self.follow_ups.append(lab.user(text))

    def get_steering(self):
        self.asked["steering"] += 1
        return [self.steering.popleft()] if self.steering else []

    def get_follow_ups(self):
        self.asked["follow_ups"] += 1
        return [self.follow_ups.popleft()] if self.follow_ups else []


def loop(ns, model, messages, tool_list, prompt, voice=None, **more):
    """Every event of the learner's run_agent, run to its end."""
    keywords = dict(more)
    if voice is not None:
        keywords.update(get_steering=voice.get_steering, get_follow_ups=voice.get_follow_ups)
    events = blame("run_agent", lambda: list(ns.run_agent(model, harness.SYSTEM, messages, tool_list,
                                                            prompt, **keywords)))
    refused = next((r for r in getattr(model, "calls", []) if r.reply
                    and str(r.reply.get("error_message", "")).startswith("400")), None)
    if refused is not None:
        raise Failed(f"run_agent sent request {refused.number}, which the strict provider refused "
                     f"({refused.reply['error_message']!r}); record each result under the id of the "
                     "call it answers, straight after that call's reply")
    return events


def recorded(events):
    """The messages a run recorded, read off its message_end events. Under the grader the loop
    runs in another process and appends to its own copy of the list it was handed, so the events
    are what a test can trust to say what the transcript became."""
    return [e["message"] for e in events if e["type"] == "message_end"]


def position(messages, text):
    """Index of the user message whose content is `text`, or None."""
    for i, m in enumerate(messages):
        if m.get("role") == "user" and m.get("content") == text:
            return i
    return None


def reference_methods():
    return {manifest.bare(name): manifest.reference(name, 9) for name in METHODS}


def alone(ns, name):
    """A Harness class whose method `name` ("Harness.steer") is the learner's and whose other
    lesson-9 methods are the reference's, so that a failure is that method's own."""
    methods = reference_methods()
    methods[manifest.bare(name)] = inspect_method(ns.Harness, manifest.bare(name))
    # learner_state: under the grader the learner's method runs in another process and reads
    # the queues on the instance a test made (lab/grader/wire.py, WRITABLE).
    return type("Harness", (harness.Harness,), dict(methods, learner_state=True))


def inspect_method(cls, attribute):
    import inspect
    return inspect.getattr_static(cls, attribute)


def run(h, text, name, consumer=None):
    """Every event of h.prompt(text); consumer(event), if given, sees each one as it comes."""
    events = []

    def go():
        for event in h.prompt(text):
            events.append(event)
            if consumer:
                consumer(event)
    RAISED.clear()
    blame(name, go)
    if RAISED:
        error = RAISED.pop()
        RAISED.clear()
        if isinstance(error, NotImplementedError):
            raise error
        raise Failed(f"{name} raised {type(error).__name__} when called while a tool ran: {error}")
    return events


def a_harness(cls, script, during=None, ws=None, max_turns=None):
    ws = ws if ws is not None else lab.Workspace()
    model = lab.ScriptedModel(script, max_calls=30)
    h = cls(model, harness.SYSTEM, tools(ws, during), max_turns=max_turns)
    return h, model


# -- run_agent, on its own --------------------------------------------------------------------

@test(9, 1, "run_agent: steering that arrives while a tool runs is recorded after the last result "
            "of that turn and before the next model call, whose request ends … R U.")
def steering_waits_for_the_whole_batch(ns):
    voice = Voice()
    ws = lab.Workspace()
    said = []

    def during(path):
        if path == "f1.py" and not said:
            said.append(path)
            voice.steer("Use spaces.")
    model = lab.ScriptedModel(job(turns=2, calls=2), max_calls=30)
    events = loop(ns, model, [], tools(ws, during), "Write four files.", voice)
    messages = recorded(events)
    at = position(messages, "Use spaces.")
    expect(at is not None, "run_agent never recorded the steering message sent while the first tool "
                           "ran; ask get_steering once the turn's calls all have results")
    expect(lab.shape(messages[:at + 1]) == "U A[w1,w2] R(w1) R(w2) U",
           f"run_agent recorded the steering message too early: the transcript goes "
           f"{lab.shape(messages[:at + 1])}; it belongs after R(w2), once every call of the turn has its result")
    second = model.calls[1].messages if len(model.calls) > 1 else []
    expect(lab.shape(second).endswith("R(w2) U"),
           f"run_agent's second request should end with R(w2) U (the steering right before the model "
           f"call); it was {lab.shape(second) or 'never made'}")
    ends = [i for i, e in enumerate(events) if e["type"] == "message_end" and e["message"].get("content") == "Use spaces."]
    starts = [i for i, e in enumerate(events) if e["type"] == "turn_start"]
    expect(ends and len(starts) > 1 and starts[1] < ends[0],
           "run_agent announced the steering message before the second turn_start; a user's words open a turn")
    valid("run_agent", messages)


@test(9, 1, "run_agent: a follow-up is recorded only when a reply has no calls, and the run goes on "
            "with another turn before agent_end.")
def follow_ups_wait_for_the_end(ns):
    voice = Voice()
    ws = lab.Workspace()

    def during(path):
        if path == "f1.py":
            voice.follow_up("Now run the tests.")
    model = lab.ScriptedModel(job(turns=2), max_calls=30)
    events = loop(ns, model, [], tools(ws, during), "Write two files.", voice)
    messages = recorded(events)
    at = position(messages, "Now run the tests.")
    expect(at is not None, "run_agent never recorded the follow-up: when a reply has no calls and no "
                           "steering is waiting, ask get_follow_ups")
    expect(lab.shape(messages[:at]) == "U A[w1] R(w1) A[w2] R(w2) A",
           f"run_agent took the follow-up while there was still work: the transcript before it goes "
           f"{lab.shape(messages[:at])}; a follow-up waits for a reply with no calls, U A[w1] R(w1) A[w2] R(w2) A")
    expect(at + 1 < len(messages) and messages[at + 1].get("role") == "assistant",
           "run_agent recorded the follow-up and stopped; it must go to the model in one more turn")
    expect(events[-1]["type"] == "agent_end" and events[-1]["messages"][-1] == messages[-1],
           "run_agent's agent_end should come last and end on the reply to the follow-up")


@test(9, 1, "run_agent: two steering messages queued during one turn go in one per turn, oldest "
            "first: get_steering is asked once per gap.")
def one_steer_per_gap(ns):
    voice = Voice()

    def during(path):
        if path == "f1.py":
            voice.steer("Use spaces.")
            voice.steer("Add a docstring.")
    model = lab.ScriptedModel(job(turns=3), max_calls=30)
    messages = recorded(loop(ns, model, [], tools(lab.Workspace(), during), "Write three files.", voice))
    first, second = position(messages, "Use spaces."), position(messages, "Add a docstring.")
    expect(first is not None and second is not None,
           "run_agent lost a steering message: both should be in the transcript by the end")
    expect(first < second, "run_agent recorded the two steering messages newest first; the oldest goes first")
    expect(second != first + 1,
           "run_agent recorded both steering messages at one gap: it asked get_steering more than once "
           "there. Ask once per gap; the second waits for the next one")
    expect(lab.shape(messages[first:second + 1]) == "U A[w2] R(w2) U",
           f"run_agent should take the second steering message one turn after the first; between "
           f"them the transcript goes {lab.shape(messages[first:second + 1])}")


@test(9, 1, "run_agent: steering queued while no run was going goes in right after the prompt, in "
            "the first turn, before the first model call.")
def idle_steering_joins_the_prompt(ns):
    voice = Voice()
    voice.steer("Use spaces.")
    model = lab.ScriptedModel(job(turns=1), max_calls=30)
    messages = []
    loop(ns, model, messages, tools(lab.Workspace()), "Write a file.", voice)
    first = model.calls[0].messages if model.calls else []
    expect([m.get("content") for m in first[:2]] == ["Write a file.", "Use spaces."],
           f"run_agent's first request should open with the prompt and then the steering sent "
           f"before the run (U U); it opened {lab.shape(first[:3]) or 'with nothing'}. Ask "
           "get_steering once before the first turn")


@test(9, 1, "run_agent: after a failed reply neither get_steering nor get_follow_ups is called, so "
            "what is queued stays queued.")
def nobody_is_asked_after_a_failure(ns):
    voice = Voice()

    def speaks_then_fails(request):
        """The user speaks while the model is busy with the second request, which fails."""
        voice.steer("Use spaces.")
        voice.follow_up("Now run the tests.")
        return FAILED
    script = [lab.reply(write("f1.py", "w1")), speaks_then_fails, lab.forever(lambda request: lab.say("Done."))]
    model = lab.ScriptedModel(script, max_calls=30)
    messages = []
    before = {}

    def spy(get, key):
        def getter():
            before.setdefault(key, len(model.calls))
            if len(model.calls) >= 2:
                before["after_failure"] = key
            return get()
        return getter
    events = blame("run_agent", lambda: list(ns.run_agent(
        model, harness.SYSTEM, messages, tools(lab.Workspace()), "Write two files.",
        get_steering=spy(voice.get_steering, "steering"), get_follow_ups=spy(voice.get_follow_ups, "follow_ups"))))
    expect("after_failure" not in before,
           f"run_agent called get_{before.get('after_failure')} after the reply failed; a failed reply "
           "ends the run and nobody is asked for anything")
    expect(len(model.calls) == 2, f"run_agent called the model {len(model.calls)} times; the failed second "
                                  "reply should end the run")
    expect(len(voice.steering) == 1 and len(voice.follow_ups) == 1,
           "after the failed reply, the queued steering and follow-up should both still be waiting")
    expect(events and events[-1]["type"] == "agent_end", "run_agent should still end with agent_end")


@test(9, 1, "run_agent without get_steering or get_follow_ups behaves exactly as in lesson 8: the "
            "same events, with the same keys, and the same transcript.")
def without_getters_nothing_changes(ns):
    old = manifest.reference("run_agent", 9)  # with no getters, the loop of lessons 7 and 8
    for script in (job(turns=2, calls=2), [lab.fail("503 overloaded")]):
        theirs = []
        got = loop(ns, lab.ScriptedModel(script, max_calls=30), [], tools(lab.Workspace()), "Go.")
        mine = recorded(got)
        want = list(old(lab.ScriptedModel(script, max_calls=30), harness.SYSTEM, theirs,
                        tools(lab.Workspace()), "Go."))
        expect([e["type"] for e in got] == [e["type"] for e in want],
               "run_agent called without get_steering and get_follow_ups should yield the events lesson 8's "
               f"did; it yielded {len(got)} events where lesson 8 yielded {len(want)}")
        apart = [(sorted(e), sorted(w)) for e, w in zip(got, want) if sorted(e) != sorted(w)]
        expect(not apart,
               "run_agent should give each event lesson 8's keys (turn_end its \"message\", "
               "tool_execution_start its \"call\", tool_execution_end its \"call\" and \"result\"); "
               f"it gave {apart[0][0] if apart else ''} where lesson 8 gave {apart[0][1] if apart else ''}")
        expect(lab.shape(mine) == lab.shape(theirs),
               f"run_agent without getters left {lab.shape(mine)}; lesson 8's left {lab.shape(theirs)}")
    got = loop(ns, lab.ScriptedModel(job(turns=1), max_calls=30), [], tools(lab.Workspace()), "Go.",
               max_turns=1)
    expect(got[-1]["type"] == "agent_end", "run_agent with max_turns and no getters should still end with agent_end")


# -- the Harness methods, one at a time --------------------------------------------------------

@test(9, 1, "steer() queues: called while idle it leaves h.messages as it was, and the words go "
            "in with the next prompt; called while a tool runs, they wait for the next gap.")
def steer_only_queues(ns):
    cls = alone(ns, "Harness.steer")
    h, model = a_harness(cls, job(turns=2))
    blame("steer", h.steer, "Use spaces.")
    expect(len(h.messages) == 0, f"steer() put {len(h.messages)} message(s) into the transcript at once; "
                                 "it only queues, and the loop takes the words when it asks")
    queued = list(h._steering)
    expect(queued == [harness.user_message("Use spaces.")],
           f"steer('Use spaces.') while idle left self._steering holding {queued!r}; it should append "
           "user_message(text), the message the loop will record as it is, and nothing else")
    run(h, "Write two files.", "steer")
    first = model.calls[0].messages if model.calls else []
    expect(lab.shape(first) == "U U" and first[1].get("content") == "Use spaces.",
           f"after steer() while idle, the first request should be U U, the prompt and then the words; "
           f"it was {lab.shape(first)}. steer should append user_message(text) to self._steering")
    holder = {}
    h2, model2 = a_harness(cls, job(turns=2), during=lambda path: path == "f1.py" and holder["h"].steer("Use tabs."))
    holder["h"] = h2
    run(h2, "Write two files.", "steer")
    at = position(h2.messages, "Use tabs.")
    expect(at is not None and lab.shape(h2.messages[:at + 1]) == "U A[w1] R(w1) U",
           f"steer() during the first tool run should put the words after R(w1); the transcript goes "
           f"{lab.shape(h2.messages)}")
    valid("steer", h2.messages)


@test(9, 1, "follow_up() queues for the end: called while the first tool runs, its words are not "
            "taken at the next gap but once a reply has no calls.")
def follow_up_waits(ns):
    cls = alone(ns, "Harness.follow_up")
    idle, _ = a_harness(cls, job(turns=1))
    blame("follow_up", idle.follow_up, "Now run the tests.")
    queued, steering = list(idle._follow_ups), list(idle._steering)
    expect(queued == [harness.user_message("Now run the tests.")] and not steering and not idle.messages,
           f"follow_up('Now run the tests.') while idle left self._follow_ups holding {queued!r}, "
           f"self._steering {steering!r} and the transcript {lab.shape(idle.messages) or 'empty'}; it "
           "should only append user_message(text) to self._follow_ups")
    holder = {}
    h, model = a_harness(cls, job(turns=2),
                         during=lambda path: path == "f1.py" and holder["h"].follow_up("Now run the tests."))
    holder["h"] = h
    run(h, "Write two files.", "follow_up")
    at = position(h.messages, "Now run the tests.")
    expect(at is not None, "follow_up()'s words never reached the transcript; append user_message(text) to "
                           "self._follow_ups")
    expect(lab.shape(h.messages[:at]) == "U A[w1] R(w1) A[w2] R(w2) A",
           f"follow_up()'s words were taken before the work was done: the transcript before them goes "
           f"{lab.shape(h.messages[:at])}. A follow-up goes in self._follow_ups, not the steering queue")
    valid("follow_up", h.messages)


@test(9, 1, "_drain(queue) hands out the oldest message in a list of one and leaves the rest: two "
            "queued give [first], then [second], then [].")
def drain_one_at_a_time(ns):
    cls = alone(ns, "Harness._drain")
    h, _ = a_harness(cls, job(turns=1))
    a, b = lab.user("Use spaces."), lab.user("Add a docstring.")
    queue = deque([a, b])
    got = [blame("_drain", h._drain, queue) for _ in range(3)]
    expect(isinstance(got[0], list), f"_drain should return a list; it returned {type(got[0]).__name__}")
    expect(got[0] != [a, b], "_drain handed over both queued messages at once; one per ask, so they go "
                             "in at two gaps")
    expect(got == [[a], [b], []],
           f"_drain on a queue of two should give [first], then [second], then []; it gave "
           f"{[[m.get('content') for m in g] if isinstance(g, list) else g for g in got]}")
    expect(len(queue) == 0, "_drain left messages in the queue after handing them over; take each off with popleft")


@test(9, 1, "_run wires the queues in: a steer sent while the first tool runs is taken at the next "
            "gap, a follow-up at the end, and neither is lost.")
def run_wires_the_queues(ns):
    cls = alone(ns, "Harness._run")
    holder = {}

    def during(path):
        if path == "f1.py":
            holder["h"].steer("Use spaces.")
            holder["h"].follow_up("Now run the tests.")
    h, model = a_harness(cls, job(turns=2), during=during)
    holder["h"] = h
    messages = recorded(run(h, "Write two files.", "_run"))
    steer_at, follow_at = position(messages, "Use spaces."), position(messages, "Now run the tests.")
    expect(steer_at is not None, "_run never let the loop take steering: pass run_agent "
                                 "get_steering=lambda: self._drain(self._steering)")
    expect(follow_at is not None, "_run never let the loop take follow-ups: pass run_agent "
                                  "get_follow_ups=lambda: self._drain(self._follow_ups)")
    expect(steer_at == 3 and follow_at > steer_at,
           f"_run handed the loop the queues the wrong way round: the steering went in at message "
           f"{steer_at} and the follow-up at {follow_at}; steering belongs at the next gap (3), the "
           "follow-up at the end")
    valid("_run", messages)


@test(9, 1, "_run: a message queued when a reply fails stays queued, and goes in with the next "
            "prompt: queues outlive runs.")
def queues_outlive_a_failed_run(ns):
    cls = alone(ns, "Harness._run")
    holder = {}
    def speaks_then_fails(request):
        holder["h"].steer("Use spaces.")
        return FAILED
    script = [lab.reply(write("f1.py", "w1")), speaks_then_fails, lab.forever(lambda request: lab.say("Done."))]
    h, model = a_harness(cls, script)
    holder["h"] = h
    first = recorded(run(h, "Write two files.", "_run"))
    expect(position(first, "Use spaces.") is None,
           "after the reply failed, the steering message went into the transcript anyway; nobody is "
           "asked after a failure")
    second = recorded(run(h, "Carry on.", "_run"))
    at = position(second, "Carry on.")
    expect(at is not None and position(second, "Use spaces.") == at + 1,
           "_run dropped the steering queued when the run failed: it should go in right after the next "
           "prompt. Leave the queues alone when a run ends; they belong to the harness")


@test(9, 1, "prompt() during a run raises RuntimeError(\"already running; use steer() or "
            "follow_up()\") on the caller's line, and queues nothing.")
def prompt_says_where_to_go(ns):
    cls = alone(ns, "Harness.prompt")
    h, _ = a_harness(cls, job(turns=2))
    caught = []

    def consumer(event):
        if event["type"] == "tool_execution_end" and not caught:
            try:
                h.prompt("Use spaces.")
            except RuntimeError as error:
                caught.append(str(error))
            else:
                caught.append(None)
    run(h, "Write two files.", "prompt", consumer)
    expect(caught and caught[0] is not None, "prompt() during a run did not raise; it must refuse with "
                                             "RuntimeError, since only one run may write at a time")
    expect(caught[0] == "already running; use steer() or follow_up()",
           f"prompt() during a run raised RuntimeError({caught[0]!r}); it should say "
           "\"already running; use steer() or follow_up()\"")
    expect(position(h.messages, "Use spaces.") is None,
           "prompt() refused during a run but its words reached the transcript anyway")
    expect(not h.is_running, "after the run, is_running should be False again")


# -- the whole class ---------------------------------------------------------------------------

@test(9, 1, "Your whole Harness: the six-file job with \"Use spaces.\" steered in after the first "
            "write leaves one file with tabs, and every transcript passes validate.")
def the_six_file_job(ns):
    from lab.lessons.lesson09.stage import make_test_tool, six_files, tabbed
    ws = lab.Workspace()
    h = ns.Harness(lab.ScriptedModel([six_files()], max_calls=30), harness.SYSTEM,
                   [harness.make_write_tool(ws), make_test_tool(ws)])

    def consumer(event):
        if event["type"] == "tool_execution_end" and event["call"]["arguments"].get("path") == "a.py":
            h.steer("Use spaces.")
            h.follow_up("Now run the tests.")
    names = "your run_agent, steer, follow_up, _drain or _run"
    messages = recorded(run(h, "Write the six modules a.py to f.py.", names, consumer))
    valid(names, messages)
    expect(tabbed(ws) == 1, f"with \"Use spaces.\" steered in after a.py, {tabbed(ws)} of 6 files have tabs; "
                            f"only a.py should. The transcript went {lab.shape(messages)}")
    last = messages[-1] if messages else {}
    expect(last.get("role") == "assistant" and "6 passed" in harness.text_of(last),
           "the follow-up \"Now run the tests.\" should run after all six files, and the run end on "
           f"the tests' verdict; it ended {lab.shape(messages[-1:])}")


# -- hidden: the edges of the contract ---------------------------------------------------------

@test(9, 1, "Steering sent from inside a tool of a three-call turn waits until all three results "
            "are in, whichever tool sent it.", hidden=True)
def steering_inside_a_long_batch(ns):
    for speaker in ("f1.py", "f2.py", "f3.py"):
        holder = {}
        h, model = a_harness(ns.Harness, job(turns=2, calls=3),
                             during=lambda path, s=speaker: path == s and holder["h"].steer("Use spaces."))
        holder["h"] = h
        messages = recorded(run(h, "Write six files.", "your run_agent or steer"))
        at = position(messages, "Use spaces.")
        expect(at == 5, f"steering sent while {speaker} was written went in at message {at}; it belongs "
                        f"right after R(w3), at 5: {lab.shape(messages)}")
        valid("run_agent", messages)


@test(9, 1, "Two steers in a row, sent while the last tool of the job runs: the run goes on until "
            "both are in, one per turn.", hidden=True)
def two_steers_at_the_end(ns):
    voice = Voice()

    def speaks(path):
        if path == "f2.py":
            voice.steer("Use spaces.")
            voice.steer("Add a docstring.")
    messages = recorded(loop(ns, lab.ScriptedModel(job(turns=2), max_calls=30), [],
                             tools(lab.Workspace(), speaks), "Write two files.", voice))
    expect(lab.shape(messages) == "U A[w1] R(w1) A[w2] R(w2) U A U A",
           f"run_agent: two steers sent during the last tool run should each open a turn, U A U A at "
           f"the end; the transcript went {lab.shape(messages)}. Steering is asked for after every "
           "turn, also one whose reply had no calls")
    holder = {}

    def during(path):
        if path == "f2.py":
            holder["h"].steer("Use spaces.")
            holder["h"].steer("Add a docstring.")
    h, model = a_harness(ns.Harness, job(turns=2), during=during)
    holder["h"] = h
    shape = lab.shape(recorded(run(h, "Write two files.", "your run_agent or _drain")))
    expect(shape == "U A[w1] R(w1) A[w2] R(w2) U A U A",
           f"two steers sent during the last tool run should each open a turn, U A U A at the end; "
           f"the transcript went {shape}")
    expect(len(h._steering) == 0, "a steering message was still queued when the run ended")


@test(9, 1, "A follow-up sent after the last reply (the consumer sees the answer and follows up) is "
            "taken before agent_end, and a follow-up's own turn can be steered.", hidden=True)
def follow_up_after_the_last_reply(ns):
    h, model = a_harness(ns.Harness, job(turns=1))
    said = []

    def consumer(event):
        message = event.get("message") or {}
        if event["type"] == "message_end" and message.get("role") == "assistant" \
                and harness.text_of(message) == "Done." and not said:
            said.append(1)
            h.follow_up("Now run the tests.")
    events = run(h, "Write a file.", "your run_agent or follow_up", consumer)
    messages = recorded(events)
    at = position(messages, "Now run the tests.")
    expect(at == 4 and len(messages) == 6,
           f"a follow-up sent as the last reply came in should open one more turn; the transcript went "
           f"{lab.shape(messages)}")
    expect([e["type"] for e in events].count("agent_end") == 1 and events[-1]["type"] == "agent_end",
           "the follow-up's turn should come before the one agent_end")
    holder = {}
    h2, _ = a_harness(ns.Harness, job(turns=2),
                      during=lambda path: path == "f2.py" and holder["h"].steer("Use spaces."))
    holder["h"] = h2
    h2.follow_up("Then stop.")
    later = recorded(run(h2, "Start.", "your run_agent"))
    expect(position(later, "Then stop.") is not None and position(later, "Use spaces.") is not None
           and position(later, "Use spaces.") < position(later, "Then stop."),
           f"a follow-up queued before the run waits for its end, after the steering: {lab.shape(later)}")


@test(9, 1, "A follow-up queued while idle is not taken with the prompt, only when the next run "
            "would end; steering and follow-ups waiting together: steering first.", hidden=True)
def idle_follow_up_waits_for_the_end(ns):
    h, model = a_harness(ns.Harness, job(turns=1))
    h.follow_up("Now run the tests.")
    h.steer("Use spaces.")
    messages = recorded(run(h, "Write a file.", "your run_agent"))
    contents = [m.get("content") for m in messages if m.get("role") == "user"]
    expect(contents == ["Write a file.", "Use spaces.", "Now run the tests."],
           f"the user messages went in as {contents}; the steering joins the prompt and the follow-up "
           "waits for the end")
    expect(lab.shape(messages) == "U U A[w1] R(w1) A U A",
           f"the transcript went {lab.shape(messages)}, not U U A[w1] R(w1) A U A")


@test(9, 1, "run_agent records every message a getter hands over, in order, and calls no getter it "
            "was not given (only get_steering, or only get_follow_ups).", hidden=True)
def getters_one_at_a_time(ns):
    batch = [lab.user("One."), lab.user("Two.")]
    handed = []

    def two_at_once():
        if handed:
            return []
        handed.append(1)
        return list(batch)
    messages = recorded(loop(ns, lab.ScriptedModel(job(turns=1), max_calls=30), [], tools(lab.Workspace()),
                             "Go.", get_steering=two_at_once))
    expect([m.get("content") for m in messages[:3]] == ["Go.", "One.", "Two."],
           f"run_agent should record all that get_steering returns, in order; it began {lab.shape(messages[:3])}")
    voice = Voice()
    voice.follow_up("Then stop.")
    messages = recorded(loop(ns, lab.ScriptedModel(job(turns=1), max_calls=30), [], tools(lab.Workspace()),
                             "Go.", get_follow_ups=voice.get_follow_ups))
    expect(lab.shape(messages) == "U A[w1] R(w1) A U A",
           f"run_agent with only get_follow_ups should end U A after the answer; it left {lab.shape(messages)}")


@test(9, 1, "max_turns still holds when steering keeps arriving: the run stops with the max_turns "
            "error, the transcript stays valid, and prompt works again after it.", hidden=True)
def steering_cannot_outrun_max_turns(ns):
    holder = {}
    h, model = a_harness(ns.Harness, [lab.forever(lambda request: lab.say("Noted."))], max_turns=3)
    holder["h"] = h

    def consumer(event):
        if event["type"] == "turn_end":
            h.steer("And another thing.")
    messages = recorded(run(h, "Hello.", "your run_agent", consumer))
    last = messages[-1] if messages else {}
    expect(last.get("stop_reason") == "error" and "max_turns=3" in (last.get("error_message") or ""),
           f"steering after every turn should not outrun max_turns=3; the run ended with {lab.shape([last])}")
    expect(len(model.calls) == 3, f"the model was called {len(model.calls)} times with max_turns=3")
    expect(not h.is_running, "after the run, is_running should be False")
    run(h, "Still there?", "your prompt")


@test(9, 1, "_drain works on whichever deque it is given, and an empty one gives [] every time.",
      hidden=True)
def drain_any_queue(ns):
    h, _ = a_harness(ns.Harness, job(turns=1))
    empty = deque()
    expect(blame("_drain", h._drain, empty) == [] and blame("_drain", h._drain, empty) == [],
           "_drain of an empty queue should be []")
    mine = deque([lab.user("x")])
    expect(blame("_drain", h._drain, mine) == [lab.user("x")] and not mine,
           "_drain should take from the queue it is given, not from one of its own choosing")


@test(9, 1, "_run frees the harness however the run ends: a consumer that stops at the first "
            "tool_execution_start and closes the run leaves is_running False, and the next prompt "
            "runs.", hidden=True)
def closing_early_frees_the_harness(ns):
    h, _ = a_harness(ns.Harness, job(turns=2))
    events = blame("Harness._run", iter, blame("Harness.prompt", h.prompt, "Write two files."))
    reached = False
    for event in events:
        if event["type"] == "tool_execution_start":
            reached = True
            break
    expect(reached, "the run ended without a tool_execution_start on a task that writes two files; "
                    "Harness._run yields run_agent's events")
    blame("Harness._run", getattr(events, "close", lambda: None))
    expect(not h.is_running,
           "a consumer closed the run at tool_execution_start and is_running was still True: _run must "
           "clear the flag in a finally, which runs when the consumer walks away too")
    run(h, "Still there?", "_run")
