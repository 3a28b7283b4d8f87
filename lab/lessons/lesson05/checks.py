"""The lab tests of lesson 05, "Brakes": run_agent, version 5, with max_turns and failed replies.

The visible tests are the plan's list, plus one for each wrong idea a question of the lesson
argues against: testing the limit after the call, stopping with an exception, raising a failed
reply, retrying it, dropping it from the record, acting on its calls, counting a turn per tool
call, reading max_turns=None as 0, reading 0 as no limit, pairing results with calls by
position, and a try around model.complete (an adapter's work). The hidden ones hold the
contract's edge cases: the limit reached on a reply that still asks for tools (the record must
stay whole for the next prompt), limits of 0 and 1 at their edges, a failed reply whose partial text is kept, a 503 as the very first reply, a
refusal of the strict provider, a caller's list that already holds earlier turns, and what
every request carries.

Call ids are the script's own (cid), as a provider's are: no counter in run_agent can guess them.

Tools are lesson 4's (harness/earlier/lesson04.py); the learner's run_agent calls its own
run_tool. Verdicts compare contents, never identity: under the grader the learner's code may run
in another process.
"""

import harness
import lab
from harness.earlier.lesson04 import make_bash_tool, make_read_tool
from lab.checks import expect, Failed, test
from lab.stage.model import Request, ScriptError
from lab.stage.prose import plural

from .stage import FILES, TASK

READ_A = {"path": "a.py"}


def cid(n):
    """The id of the n-th call a check's script makes: chosen by the script, as a provider
    chooses its own, so that no counter of calls or results in run_agent can guess it."""
    return f"toolu_{(n * 37) % 89:02d}{'kqwzmxvb'[n % 8]}"


def reads(path="a.py"):
    """A script step: like stage.runaway, a model that never stops asking to read `path`, but its
    calls carry ids of the script's own (see cid), so that results must be paired by id."""
    def again(request):
        return lab.reply(lab.call("read", {"path": path}, id=cid(request.number)))
    return lab.forever(again)


def stop(n):
    return {"role": "assistant", "content": [], "stop_reason": "error",
            "error_message": f"Agent stopped after max_turns={n}"}


class Run:
    """One run of the learner's run_agent on a scripted model, over lesson 4's read and bash tools.

    .result is what run_agent returned, or the exception it raised (the lab's brake, ScriptError,
    included); .messages the caller's list afterwards; .model the ScriptedModel; .shell the
    scripted shell, whose .history is every command the bash tool ran; .runs the names of the
    tools run, in order. `limit` is passed as max_turns=...; leave it out to pass nothing."""

    NOT_PASSED = object()

    def __init__(self, ns, script, limit=NOT_PASSED, messages=None, max_calls=30, shell=None,
                 model=None):
        self.ws = lab.Workspace(FILES)
        self.shell = shell or lab.Shell({"rm -rf build": ""})
        self.model = model or lab.ScriptedModel(script, max_calls=max_calls)
        self.runs = []
        self.tools = [self._watch(make_read_tool(self.ws)), self._watch(make_bash_tool(self.shell))]
        self.messages = [] if messages is None else messages
        self.before = len(self.messages)
        kwargs = {} if limit is Run.NOT_PASSED else {"max_turns": limit}
        try:
            self.result = ns.run_agent(self.model, harness.SYSTEM, self.messages, self.tools, TASK,
                                       **kwargs)
        except (NotImplementedError, RecursionError):
            raise  # a stub is "not done yet", never a verdict on what run_agent did
        except Exception as error:  # judged by each test, in a sentence
            self.result = error

    def _watch(self, tool):
        execute = tool["execute"]

        def watched(arguments):
            self.runs.append(tool["name"])
            return execute(arguments)
        return dict(tool, execute=watched)

    @property
    def calls(self):
        return len(self.model.calls)

    @property
    def new(self):
        """The messages this run added to the caller's list."""
        return self.messages[self.before:]

    def shape(self):
        return lab.shape(self.new)

    def raised(self):
        return isinstance(self.result, BaseException)

    def did(self):
        """What run_agent did, as a phrase: made N model calls and returned or raised what."""
        made = f"made {plural(self.calls, 'model call')}"
        if isinstance(self.result, ScriptError):
            return f"{made} and was still going when the lab's brake stopped it"
        if self.raised():
            return f"{made} and raised {type(self.result).__name__}: {self.result}"
        return f"{made}, left the record {self.shape()} and returned {_brief(self.result)}"

    def unanswered(self):
        """Ids of calls in the new messages that have no result after them, failed replies'
        calls left out (nothing in a failed reply is answered)."""
        missing = []
        for i, m in enumerate(self.new):
            if m.get("role") == "assistant" and m.get("stop_reason") != "error":
                answered = {r.get("tool_call_id") for r in self.new[i + 1:] if r.get("role") == "toolResult"}
                missing += [c["id"] for c in harness.tool_calls(m) if c["id"] not in answered]
        return missing


def _brief(value):
    if isinstance(value, dict) and value.get("role") == "assistant":
        if value.get("stop_reason") == "error":
            return f"a failed message ({value.get('error_message')!r})"
        return f"the reply {lab.shape([value])}"
    return repr(value)[:120]


def many_reads(n, answer="Done: B is 2."):
    """A script of `n` replies that each read a.py, then one that answers."""
    return [lab.reply(lab.call("read", READ_A, id=cid(k))) for k in range(1, n + 1)] + [lab.say(answer)]


def check_accepted(run, what):
    """Fail if the strict provider refused one of run_agent's requests: whatever the test is
    about, the run went wrong earlier, in the record it sent."""
    refused = next((r for r in run.model.calls if isinstance(r, Request) and r.reply
                    and str(r.reply.get("error_message", "")).startswith("400")), None)
    if refused is None:
        return
    said = f"run_agent, {what}, sent request {refused.number}, which the strict provider refused " \
           f"({refused.reply['error_message']!r}), leaving the record {run.shape()}"
    if any(m.get("stop_reason") == "error" for m in refused.messages):
        raise Failed(f"{said}; it held a failed reply, so run_agent asked the model again after a "
                     "failure: a failed reply ends the run")
    if "toolResult" in refused.reply["error_message"]:
        raise Failed(f"{said}; each result must carry the id of the call it answers and follow "
                     "that call's reply")
    raise Failed(f"{said}; send the record as it happened, each reply as it came back")


def check_stopped(run, n, calls):
    """The run was stopped by max_turns=n after exactly `calls` model calls, the stop recorded
    last and returned, and every call of every reply it paid for answered."""
    if isinstance(run.result, ScriptError):
        raise Failed(f"run_agent with max_turns={n} never stopped: it {run.did()}; it should stop "
                     f"after {plural(calls, 'model call')}")
    check_accepted(run, f"with max_turns={n}")
    if run.raised():
        raise Failed(f"run_agent with max_turns={n} {run.did()}; a stop is written into the record "
                     f"as error_message('Agent stopped after max_turns={n}') and returned, not raised")
    expect(run.calls == calls,
           f"run_agent with max_turns={n} {run.did()}; it should make exactly "
           f"{plural(calls, 'model call')}: the limit is tested before each call, and a turn is one "
           "model call however many tools its reply asks for")
    missing = run.unanswered()
    expect(not missing,
           f"run_agent with max_turns={n} left the record {run.shape()}, where {', '.join(missing)} has "
           "no result: stop before the next call, once every call of the last reply is answered")
    last = run.new[-1] if run.new else None
    expect(last == stop(n),
           f"run_agent with max_turns={n} left the record {run.shape()} ending on {last!r}; it should "
           f"end on error_message('Agent stopped after max_turns={n}'), the stop written into the record")
    expect(run.result == stop(n),
           f"run_agent with max_turns={n} returned {_brief(run.result)}; it should return the stop "
           "message it recorded, the message that ended the run")


# -- visible ----------------------------------------------------------------------------------

@test(5, 1, "max_turns=3 against a model that never stops: exactly 3 model calls, every call "
            "answered, and the record ends on \"Agent stopped after max_turns=3\", which is returned.")
def stops_after_three(ns):
    check_stopped(Run(ns, [reads("a.py")], limit=3), 3, 3)


@test(5, 1, "A stop does not raise: max_turns=2 on a model that never stops returns the stop "
            "message, with stop_reason \"error\", and nothing goes up.")
def stop_is_not_raised(ns):
    run = Run(ns, [reads("a.py")], limit=2)
    if run.raised() and not isinstance(run.result, ScriptError):
        raise Failed(f"run_agent with max_turns=2 {run.did()}; the stop is a message, recorded and "
                     "returned, so that the record says why the run ended")
    check_stopped(run, 2, 2)


@test(5, 1, "A task that needs exactly max_turns model calls finishes normally: max_turns=2, one "
            "read and an answer, and no stop is recorded after the answer.")
def exactly_enough(ns):
    run = Run(ns, many_reads(1), limit=2)
    expect(not run.raised(), f"run_agent with max_turns=2 on a two-call task {run.did()}")
    check_accepted(run, "with max_turns=2 on a two-call task")
    want = f"U A[{cid(1)}] R({cid(1)}) A"
    expect(run.calls == 2 and run.shape() == want,
           f"run_agent with max_turns=2 on a task that needs two model calls {run.did()}; it should "
           f"make both calls and end on the answer, {want}: the limit only stops a call that "
           "would be the third")
    expect(harness.text_of(run.result) == "Done: B is 2.",
           f"run_agent returned {_brief(run.result)}; it should return the answer")


@test(5, 1, "A turn is one model call: with max_turns=3 and replies that each ask for two reads, "
            "3 model calls and 6 results, then the stop.")
def turns_are_model_calls(ns):
    two = lambda request: lab.reply(lab.call("read", READ_A, id=cid(2 * request.number)),
                                    lab.call("read", {"path": "b.py"}, id=cid(2 * request.number + 1)))
    run = Run(ns, [lab.forever(two)], limit=3)
    check_stopped(run, 3, 3)
    results = sum(m.get("role") == "toolResult" for m in run.new)
    expect(results == 6, f"run_agent with max_turns=3 recorded {results} results; three replies of two "
                         "calls each get six")


@test(5, 1, "max_turns=None, passed or left out, means no limit: a 40-step script runs to its end "
            "(40 model calls, no stop recorded).")
def none_is_no_limit(ns):
    for how, limit in (("max_turns=None", None), ("no max_turns", Run.NOT_PASSED)):
        run = Run(ns, many_reads(39), limit=limit, max_calls=45)
        expect(not run.raised(), f"run_agent with {how} {run.did()}")
        check_accepted(run, f"with {how}")
        expect(run.calls == 40 and harness.text_of(run.result) == "Done: B is 2.",
               f"run_agent with {how} {run.did()}; None means no limit, not a limit of 0: all 40 "
               "steps of the script should run, the last one the answer")
        expect(all(m.get("stop_reason") != "error" for m in run.new),
               f"run_agent with {how} recorded a stop in {run.shape()}; with no limit nothing stops the run")


@test(5, 1, "max_turns=0 is a limit, not the absence of one: the record is the prompt and the "
            "stop, \"Agent stopped after max_turns=0\", and the model is never asked.")
def limit_zero(ns):
    run = Run(ns, [reads("a.py")], limit=0)
    check_stopped(run, 0, 0)
    expect(run.shape() == "U A!", f"run_agent with max_turns=0 left the record {run.shape()}; it should be "
                                  "the prompt and the stop, U A!")


def failed_after_one_round(ns, failure):
    """A run whose second reply is `failure` (made by lab.fail), the model ready to answer after."""
    return Run(ns, [lab.reply(lab.call("read", READ_A, id=cid(1))), failure, lab.say("Done: B is 2.")],
               limit=10)


def check_not_raised(run, what, refused=False):
    if run.raised() and not isinstance(run.result, ScriptError):
        raise Failed(f"run_agent {run.did()} on {what}; a failed reply is recorded and returned as the "
                     "message that ended the run, never raised")
    if not refused:
        check_accepted(run, f"on {what}")


@test(5, 1, "A failed reply (503 overloaded) is returned as the message that ended the run; "
            "run_agent raises nothing.")
def failure_not_raised(ns):
    run = failed_after_one_round(ns, lab.fail("503 overloaded"))
    check_not_raised(run, "a 503")
    want = lab.fail("503 overloaded")
    got = {k: v for k, v in run.result.items() if k != "usage"} if isinstance(run.result, dict) else run.result
    expect(got == want, f"run_agent {run.did()} on a 503; it should return the failed reply itself, "
                        "stop_reason 'error', error_message '503 overloaded'")


@test(5, 1, "A failed reply ends the run: after a 503 the model is not asked again, no retry.")
def failure_not_retried(ns):
    run = failed_after_one_round(ns, lab.fail("503 overloaded"))
    check_not_raised(run, "a 503")
    expect(run.calls == 2, f"run_agent {run.did()} on a 503 as the second reply; it should stop at "
                           "the failure, after 2 model calls: asking again is a retry, and a retry "
                           "with no limit is a runaway of its own")
    forever_down = Run(ns, [lab.reply(lab.call("read", READ_A, id=cid(1))), lab.forever(lambda r: lab.fail("503 overloaded"))],
                       limit=None)
    expect(forever_down.calls == 2, f"run_agent, against a provider that stays down, {forever_down.did()}; "
                                    "it should stop at the first failed reply")


@test(5, 1, "A failed reply goes into the record as it came: U A[x] R(x) A!, the last "
            "message with stop_reason \"error\" and error_message \"503 overloaded\".")
def failure_recorded(ns):
    run = failed_after_one_round(ns, lab.fail("503 overloaded"))
    check_not_raised(run, "a 503")
    last = run.new[-1] if run.new else {}
    expect(last.get("stop_reason") == "error" and last.get("error_message") == "503 overloaded",
           f"run_agent {run.did()} on a 503; the failed reply belongs in the record, as its last "
           "message, so that everyone who reads the record can see the run failed")
    want = f"U A[{cid(1)}] R({cid(1)}) A!"
    expect(run.shape() == want,
           f"run_agent left the record {run.shape()} after a 503 as the second reply; it should be "
           f"{want}, the failed reply (A!) last")


@test(5, 1, "Nothing in a failed reply is acted on: a 503 that got out \"rm -rf build\" leaves the "
            "shell's history empty and the call without a result.")
def failure_not_acted_on(ns):
    failure = lab.fail("503 overloaded", partial=[lab.text("Clearing the build."),
                                                  lab.call("bash", {"command": "rm -rf build"})])
    run = Run(ns, [failure, lab.say("Done.")], limit=10)
    check_not_raised(run, "a 503 carrying a bash call")
    expect(run.shell.history == [] and "bash" not in run.runs,
           f"run_agent ran {run.shell.history} from a reply that failed (503 overloaded); nothing in a "
           "failed reply is carried out, however complete its calls look")
    expect(not any(m.get("role") == "toolResult" for m in run.new),
           f"run_agent left the record {run.shape()}: it answered a call of a failed reply")
    expect(run.calls == 1, f"run_agent {run.did()}; after a failed reply the run is over")


@test(5, 1, "Results answer their calls by id: a reply asking for two reads with ids of the "
            "provider's own (\"toolu_7\", \"read-b\") gets R(toolu_7) R(read-b), in the order asked, "
            "before the model is asked again.")
def results_answer_ids(ns):
    script = [lab.reply(lab.call("read", READ_A, id="toolu_7"), lab.call("read", {"path": "b.py"}, id="read-b")),
              lab.say("Done: B is 2.")]
    run = Run(ns, script, limit=5)
    expect(not run.raised(), f"run_agent {run.did()} on a reply asking for two reads")
    check_accepted(run, "on a reply asking for two reads")
    want = "U A[toolu_7,read-b] R(toolu_7) R(read-b) A"
    got = [m.get("tool_call_id") for m in run.new if m.get("role") == "toolResult"]
    expect(run.shape() == want,
           f"run_agent left the record {run.shape()}, its results answering {got}; it should be {want}: "
           "each result carries the id of the call it answers, as run_tool gives it, in the order "
           "the calls were asked, never an id of run_agent's own making")
    sent = run.model.calls[1].messages if run.calls > 1 else []
    expect(len(sent) == 4, f"run_agent asked the model again with {plural(len(sent), 'message')}; the "
                           "second request should hold the prompt, the reply and both results")


class BrokenSDK:
    """A model object whose complete() answers from `script` until it runs out, then raises
    ConnectionError, as a real SDK does when the network goes: no adapter in front of it."""

    def __init__(self, script):
        self.inner, self.raised = lab.ScriptedModel(script, max_calls=10), 0

    @property
    def calls(self):
        return self.inner.calls + ["raised"] * self.raised

    def complete(self, system, messages, tools):
        if len(self.inner.calls) < len(self.inner.script):
            return self.inner.complete(system, messages, tools)
        if self.raised >= 5:  # a loop that catches and asks again must still end
            raise ScriptError("the broken SDK was asked 5 times after it first raised")
        self.raised += 1
        raise ConnectionError("connection reset by peer")


@test(5, 1, "An exception raised by model.complete goes up unchanged: run_agent has no try around "
            "the call, and the record keeps what happened before it (turning a provider's "
            "exceptions into failed replies is an adapter's work).")
def model_exception_goes_up(ns):
    model = BrokenSDK([lab.reply(lab.call("read", READ_A, id=cid(1)))])
    run = Run(ns, None, limit=5, model=model)
    if not run.raised():
        raise Failed(f"run_agent turned a ConnectionError raised by model.complete into "
                     f"{_brief(run.result)}, leaving the record {run.shape()}; let the exception go up "
                     "unchanged, with no try around the call: building failed replies from a provider's "
                     "exceptions is the adapter's work, not the loop's")
    expect(isinstance(run.result, ConnectionError) and str(run.result) == "connection reset by peer",
           f"run_agent {run.did()} when model.complete raised ConnectionError('connection reset by "
           "peer'); that exception should go up unchanged, not be caught and raised as another")
    want = f"U A[{cid(1)}] R({cid(1)})"
    expect(run.shape() == want,
           f"run_agent left the record {run.shape()} when model.complete raised; it should be {want}, "
           "what happened before the call, and nothing made up for the call that raised")


# -- hidden -----------------------------------------------------------------------------------

@test(5, 1, "max_turns reached on a reply that still asks for tools: its calls are answered before "
            "the stop, and the record up to the stop is one a strict provider accepts, with a next "
            "prompt after it.", hidden=True)
def stop_leaves_the_record_whole(ns):
    a, b, c = cid(1), cid(2), cid(3)
    run = Run(ns, [lab.reply(lab.call("read", READ_A, id=a), lab.call("read", {"path": "b.py"}, id=b)),
                   lab.reply(lab.call("bash", {"command": "rm -rf build"}, id=c)), lab.say("Done.")],
              limit=2)
    check_stopped(run, 2, 2)
    want = f"U A[{a},{b}] R({a}) R({b}) A[{c}] R({c}) A!"
    expect(run.shape() == want,
           f"run_agent with max_turns=2 left the record {run.shape()}; it should be "
           f"{want}, the stop after the last reply's result")
    problems = lab.validate(run.new[:-1] + [lab.user("Go on.")])
    expect(problems == [], f"run_agent with max_turns=2 left a record a strict provider refuses before "
                           f"the stop: {problems[:1]}")


@test(5, 1, "Limits of 0 and 1 at their edges: max_turns=0 asks nothing even of a provider that "
            "would fail; max_turns=1 answers a read and then stops, or ends on an answer with no stop.",
      hidden=True)
def limits_zero_and_one(ns):
    down = Run(ns, [lab.fail("503 overloaded")], limit=0)
    check_stopped(down, 0, 0)
    run = Run(ns, [reads("a.py")], limit=1)
    check_stopped(run, 1, 1)
    answered = Run(ns, [lab.say("B is 2.")], limit=1)
    expect(not answered.raised() and answered.shape() == "U A" and answered.calls == 1,
           f"run_agent with max_turns=1 on a model that answers at once {answered.did()}; the one call "
           "it may make is the answer, and no stop follows it")


@test(5, 1, "A failed reply that got text out before failing is recorded with that text: "
            "nothing in it is dropped or rewritten.", hidden=True)
def partial_text_kept(ns):
    failure = lab.fail("503 overloaded", partial=[lab.text("B is")])
    run = Run(ns, [lab.reply(lab.call("read", READ_A, id=cid(1))), failure], limit=5)
    check_not_raised(run, "a 503 that got text out")
    last = run.new[-1] if run.new else {}
    kept = {k: v for k, v in last.items() if k != "usage"}
    expect(kept == failure, f"run_agent recorded the failed reply as {kept!r}; it should be recorded "
                            f"as it came, {failure!r}")
    expect(run.calls == 2, f"run_agent {run.did()}")


@test(5, 1, "A 503 as the very first reply: the record is the prompt and the failed reply, one "
            "model call, nothing run, and the failed reply is returned.", hidden=True)
def fails_first(ns):
    run = Run(ns, [lab.fail("503 overloaded"), lab.say("Done.")], limit=None)
    check_not_raised(run, "a 503 as the first reply")
    expect(run.calls == 1 and run.shape() == "U A!" and run.runs == [],
           f"run_agent {run.did()} on a 503 as the first reply; it should record it after the prompt "
           "(U A!) and stop, after one model call")
    expect(isinstance(run.result, dict) and run.result.get("error_message") == "503 overloaded",
           f"run_agent returned {_brief(run.result)}; it should return the failed reply")


@test(5, 1, "A request the strict provider refuses (400) is recorded like any failed reply: the "
            "run ends on it and raises nothing.", hidden=True)
def refusal_recorded(ns):
    dangling = [lab.user("Read a.py."), lab.reply(lab.call("read", READ_A, id="c0"))]
    run = Run(ns, [lab.say("Done.")], limit=5, messages=dangling)
    check_not_raised(run, "a 400 refusal", refused=True)
    last = run.new[-1] if run.new else {}
    expect(run.calls == 1 and str(last.get("error_message", "")).startswith("400 invalid_request"),
           f"run_agent {run.did()} when the provider refused the request; the refusal is a failed "
           "reply, recorded last and returned")


@test(5, 1, "max_turns counts this run's model calls only: a list that already holds five replies "
            "still gets max_turns=2 calls.", hidden=True)
def counts_this_run(ns):
    earlier = []
    for n in range(5):
        earlier += [lab.user(f"Question {n}?"), lab.say(f"Answer {n}.")]
    run = Run(ns, [reads("a.py")], limit=2, messages=earlier)
    check_stopped(run, 2, 2)
    expect(run.messages[:10] == earlier[:10] and len(run.messages) == 10 + len(run.new),
           "run_agent changed the messages that were already in the caller's list")


@test(5, 1, "Every request carries the whole record, `system` and tool_specs(tools), and the record "
            "starts with user_message(prompt).", hidden=True)
def every_request_whole(ns):
    run = Run(ns, many_reads(3), limit=10)
    expect(not run.raised(), f"run_agent {run.did()} on a four-call task")
    expect(run.new[:1] == [harness.user_message(TASK)],
           f"run_agent began the record with {run.new[:1]!r}; it should begin with user_message(prompt)")
    specs = harness.tool_specs(run.tools)
    for request in run.model.calls:
        n = request.number
        expect(request.system == harness.SYSTEM,
               f"run_agent sent request {n} with system {request.system!r}; every request carries `system`")
        expect(request.tools == specs,
               f"run_agent sent request {n} with tools {[t.get('name') for t in request.tools or []]}; "
               "every request carries tool_specs(tools), the same on every call")
        expect(request.messages == run.messages[:len(request.messages)] and request.messages[-1:] != [],
               f"run_agent sent request {n} with {lab.shape(request.messages)}, which is not the record "
               "so far; every request sends the whole list")
    lengths = [len(r.messages) for r in run.model.calls]
    expect(lengths == [1, 3, 5, 7], f"run_agent's requests held {lengths} messages; each should hold the "
                                    "whole record so far, [1, 3, 5, 7]")
