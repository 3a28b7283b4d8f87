"""The lab tests of lesson 04, "Failure is news": run_tool, version 2, an answer on every path.

The visible tests are the plan's list, plus one for each wrong idea a question of the lesson
argues against: letting the failure go up, an empty success, a made-up message, a failure flagged
as a success, skipping or doubling the answer to a call, an exit code taken for a broken tool, a
fixed list of exceptions, and a bare except that swallows Ctrl-C. The hidden ones hold the
contract's edge cases: a huge message, a str() of its own, a non-string return, arguments that are
not a dict, names matched exactly, and four mixed calls through the loop.

One limit of the grader's sandbox shapes them: an exception crosses from the test's tools to
the learner's code as itself (its class, args, attributes and str), Ctrl-C included, but with
its message cut to 2,000 characters, so no test needs a longer one.

The tools come from `harness`, which is the reference here and the lesson's starter in the
grader's sandbox: for the files and commands these tests use, lesson 4's tools and the final ones
answer alike. The end-to-end runs go through `loop`, lesson 3's run_agent written out here (the
reference's run_agent is a later version), calling the learner's run_tool.
"""

import harness
import lab
from lab.checks import expect, Failed, test
from lab.stage.model import ScriptError

from .stage import recovering

FILES = {"README.md": "A small service.\n", "config.py": "PORT = 8080\nDEBUG = False\n",
         "main.py": "import config\n"}
LISTING = "File not found: confg.py. Files here: README.md, config.py, main.py"


def call(name, arguments, id="c1"):
    return {"type": "toolCall", "id": id, "name": name, "arguments": arguments}


def tool(name, execute):
    """A tool of the shape every tool has, around `execute`."""
    return {"name": name, "description": f"The {name} tool.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}


def raising(error):
    def execute(arguments):
        raise error
    return execute


class Outcome:
    """What one run_tool(tools, call) did: .value is what it returned, or .raised what it raised
    (KeyboardInterrupt and SystemExit included, which the tests raise on purpose); .ran the names of the tools that ran."""

    def __init__(self, ns, tools, the_call):
        self.call, self.ran = the_call, []
        self.value = self.raised = None
        watched = [dict(t, execute=self._watch(t)) for t in tools]
        try:
            self.value = ns.run_tool(watched, the_call)
        except NotImplementedError:
            raise  # a stub is "not done yet", never a verdict on what run_tool did
        except (Exception, KeyboardInterrupt, SystemExit) as error:  # judged below, in a sentence
            # Not BaseException: the check's own time limit is one, and must stop this test.
            self.raised = error

    def _watch(self, t):
        def execute(arguments):
            self.ran.append(t["name"])
            return t["execute"](arguments)
        return execute

    def what(self):
        """What run_tool did, as a phrase."""
        if self.raised is not None:
            return f"raised {type(self.raised).__name__} ({_clip(str(self.raised))!r})"
        return f"returned {_clip(repr(self.value))}"


def _clip(text, n=160):
    """`text` on one line (a verdict is one sentence), cut to `n` characters with its length said."""
    one = text.replace("\n", "\\n")
    return one if len(one) <= n else one[:n] + f"... ({len(text)} characters)"


def one_result(outcome, doing):
    """The one toolResult message run_tool returned for its call, or Failed saying what it did
    instead. `doing` names the situation, as "for a call to grep, a tool that is not there"."""
    value, the_call = outcome.value, outcome.call
    if outcome.raised is not None:
        raise Failed(f"run_tool {outcome.what()} {doing}; it should return an error result "
                     "for the model to read, and raise nothing")
    if value is None:
        raise Failed(f"run_tool returned None {doing}, so the call has no result: every call gets "
                     "exactly one toolResult, a failed one included")
    if isinstance(value, (list, tuple)):
        raise Failed(f"run_tool returned a {type(value).__name__} of {len(value)} messages {doing}; one "
                     "call gets exactly one result, a single toolResult message (put everything the "
                     "model should know into its content)")
    expect(isinstance(value, dict) and value.get("role") == "toolResult",
           f"run_tool {outcome.what()} {doing}; it should return a toolResult message")
    expect(value.get("tool_call_id") == the_call["id"] and value.get("tool_name") == the_call["name"],
           f"run_tool's result {doing} carries tool_call_id {value.get('tool_call_id')!r} and tool_name "
           f"{value.get('tool_name')!r}; it must carry the call's own, {the_call['id']!r} and "
           f"{the_call['name']!r}, on every path, or nothing ties it to its call")
    expect(set(value) == {"role", "tool_call_id", "tool_name", "content", "is_error"},
           f"run_tool's result {doing} has the keys {sorted(value)}; a toolResult has exactly role, "
           "tool_call_id, tool_name, content and is_error")
    return value


def an_error(outcome, doing, content):
    """The result must be an error result whose content is exactly `content`."""
    result = one_result(outcome, doing)
    got = result["content"]
    if result["is_error"] is not True:
        if got in ("", None):
            raise Failed(f"run_tool's answer {doing} is an empty success (content {got!r}, is_error "
                         f"{result['is_error']!r}): the model takes that for a tool that worked and "
                         "found nothing; it should be is_error True, with the error's text")
        raise Failed(f"run_tool's answer {doing} has is_error {result['is_error']!r}; a tool that could "
                     "not do its job gives is_error True, so that the model and every program reading "
                     "the record can tell a failure from a file that says those words")
    expect(got == content,
           f"run_tool's answer {doing} has the content {_clip(repr(got))}; it should be "
           f"{_clip(repr(content))}, the error's own words, which are what the model needs to "
           "put the call right")
    return result


# -- visible ----------------------------------------------------------------------------------

@test(4, 1, "A call to grep, a tool that is not there, gets one result: \"Tool grep not found\", "
            "is_error True, with the call's id and name, and nothing is run.")
def unknown_tool(ns):
    ws = lab.Workspace(FILES)
    the_call = call("grep", {"pattern": "PORT", "path": "config.py"}, id="c7")
    outcome = Outcome(ns, [make_read_tool(ws), harness.make_write_tool(ws)], the_call)
    an_error(outcome, "for a call to grep, a tool that is not there", "Tool grep not found")
    expect(outcome.ran == [], f"run_tool ran {outcome.ran} for a call to grep; with no tool of that "
                              "name, nothing runs")


@test(4, 1, "A read of confg.py, a file that is not there, raises FileNotFoundError in the tool and "
            "comes back as an error result holding its text, listing the files; run_tool raises nothing.")
def tool_raises(ns):
    ws = lab.Workspace(FILES)
    outcome = Outcome(ns, [make_read_tool(ws)], call("read", {"path": "confg.py"}, id="c3"))
    an_error(outcome, "for a read of confg.py, a file that is not there", LISTING)


@test(4, 1, "A tool that returns gives a result whose content is exactly what it returned, "
            "is_error False: text, and the empty string of a command that prints nothing.")
def tool_returns(ns):
    ws = lab.Workspace(FILES)
    outcome = Outcome(ns, [make_read_tool(ws)], call("read", {"path": "config.py"}, id="c2"))
    result = one_result(outcome, "for a read of config.py")
    expect(result["content"] == FILES["config.py"] and result["is_error"] is False,
           f"run_tool answered a read of config.py with content {_clip(repr(result['content']))} and "
           f"is_error {result['is_error']!r}; it should pass on what the tool returned, "
           f"{FILES['config.py']!r}, with is_error False")
    shell = lab.Shell({"true": ""})
    outcome = Outcome(ns, [make_bash_tool(shell)], call("bash", {"command": "true"}, id="c4"))
    result = one_result(outcome, "for a command that printed nothing")
    expect(result["content"] == "" and result["is_error"] is False,
           f"run_tool answered a command that printed nothing and exited 0 with content "
           f"{result['content']!r} and is_error {result['is_error']!r}; empty output is still a "
           "success: '' with is_error False")


@test(4, 1, "Arguments of the wrong type: {\"path\": 42} and a missing path give the error result "
            "\"path must be a string\" (str_arg's ValueError); a write with no content, \"content must "
            "be a string\".")
def bad_arguments(ns):
    ws = lab.Workspace(FILES)
    tools = [make_read_tool(ws), harness.make_write_tool(ws)]
    an_error(Outcome(ns, tools, call("read", {"path": 42})), "for a read whose path is 42",
             "path must be a string")
    an_error(Outcome(ns, tools, call("read", {})), "for a read with no path", "path must be a string")
    an_error(Outcome(ns, tools, call("write", {"path": "b.py"})), "for a write with no content",
             "content must be a string")
    expect(not ws.exists("b.py"), "run_tool's write with no content left b.py on the disk")


@test(4, 1, "A command that exits 1 has run: its result is ordinary, ending \"Command exited with "
            "code 1\", with is_error False; so is a passing run whose output says \"error\".")
def exit_code_is_news(ns):
    shell = lab.Shell({"pytest": ("test_config.py F\n1 failed, 3 passed\n", 1)})
    outcome = Outcome(ns, [make_bash_tool(shell)], call("bash", {"command": "pytest"}, id="c5"))
    result = one_result(outcome, "for pytest exiting with code 1")
    expect(result["content"] == "test_config.py F\n1 failed, 3 passed\n\nCommand exited with code 1",
           f"run_tool changed what the bash tool returned for pytest: {_clip(repr(result['content']))}")
    expect(result["is_error"] is False,
           "run_tool marked pytest's exit code 1 as is_error True; the tool did its job, it ran the "
           "command, and the failing tests are the news the model asked for: is_error False")
    shell = lab.Shell({"pytest -k error_page": ("test_pages.py::test_error_page PASSED\n1 passed\n", 0)})
    outcome = Outcome(ns, [make_bash_tool(shell)],
                      call("bash", {"command": "pytest -k error_page"}, id="c6"))
    result = one_result(outcome, "for a passing pytest run whose output holds the word error")
    expect(result["is_error"] is False,
           "run_tool marked a passing pytest run as is_error True because its output holds the word "
           "\"error\"; the flag says whether the tool could do its job, never what the words look like")


@test(4, 1, "An Exception of any class becomes an error result holding str() of it: RuntimeError, "
            "ZeroDivisionError, and a class of the tool's own.")
def any_exception(ns):
    class QuotaExceeded(Exception):
        pass

    for error in (RuntimeError("the service is down"), ZeroDivisionError("division by zero"),
                  QuotaExceeded("quota exceeded: 0 requests left today")):
        name = type(error).__name__
        outcome = Outcome(ns, [tool("fetch", raising(error))], call("fetch", {"url": "x"}))
        an_error(outcome, f"for a tool that raised {name}", str(error))


@test(4, 1, "KeyboardInterrupt raised inside a tool passes through run_tool: Ctrl-C still stops "
            "the program.")
def ctrl_c_passes(ns):
    outcome = Outcome(ns, [tool("sleep", raising(KeyboardInterrupt()))], call("sleep", {}))
    if isinstance(outcome.raised, KeyboardInterrupt):
        return
    if outcome.raised is not None:
        raise Failed(f"run_tool turned a KeyboardInterrupt into {type(outcome.raised).__name__}; let "
                     "it go up as it is")
    raise Failed(f"run_tool caught the KeyboardInterrupt a tool raised and {outcome.what()}; catch "
                 "Exception, not everything, so that Ctrl-C still stops the program")


def make_read_tool(ws):
    return harness.make_read_tool(ws)


def make_bash_tool(shell):
    return harness.make_bash_tool(shell)


def loop(run_tool, model, system, messages, tools, prompt):
    """Lesson 3's run_agent, as the learner's starter has it, with `run_tool` in it."""
    messages.append(harness.user_message(prompt))
    while True:
        reply = model.complete(system, messages, harness.tool_specs(tools))
        messages.append(reply)
        calls = harness.tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run(ns, script, files=None, tools=None, prompt="What port does config.py set?"):
    """Lesson 3's loop with the learner's run_tool in it: (messages, model, the exception if the
    run raised one)."""
    ws = lab.Workspace(FILES if files is None else files)
    model = lab.ScriptedModel(script, max_calls=10)
    messages, raised = [], None
    try:
        loop(ns.run_tool, model, harness.SYSTEM, messages, tools(ws) if tools else [make_read_tool(ws)],
             prompt)
    except NotImplementedError:
        raise
    except (Exception, KeyboardInterrupt, SystemExit) as error:  # judged by the caller, in a sentence
        raised = error
    return messages, model, raised


@test(4, 1, "End to end: the model reads confg.py, is shown the error and the files there, reads "
            "config.py and answers: three model calls, U A[c1] R(c1) A[c2] R(c2) A.")
def recovers_end_to_end(ns):
    messages, model, raised = run(ns, [recovering(lab.call("read", {"path": "confg.py"}), "PORT")])
    if isinstance(raised, ScriptError):
        raise Failed(f"run_tool's results kept the model going until the lab stopped it ({raised})")
    expect(raised is None, f"the run died: run_tool let {type(raised).__name__}: {_clip(str(raised))} "
                           "go up, and the model never heard of the typo")
    want = "U A[c1] R(c1) A[c2] R(c2) A"
    first = messages[2] if len(messages) > 2 and isinstance(messages[2], dict) else {}
    # What the model was told about the typo decides the rest of the run, so it is judged first.
    expect(first.get("role") != "toolResult" or first.get("tool_call_id") == "c1",
           f"run_tool's answer to the read of confg.py carries tool_call_id {first.get('tool_call_id')!r}; "
           "it must carry the call's own id, 'c1', or the provider cannot tie it to its call")
    if first.get("role") == "toolResult":
        expect(first.get("is_error") is True and first.get("content") == LISTING,
               f"run_tool's answer to the read of confg.py was {_clip(repr(first.get('content')))} with is_error "
               f"{first.get('is_error')!r}; the model needed the error, listing the files, to find config.py")
    expect(lab.shape(messages) == want,
           f"with your run_tool the record is {lab.shape(messages)}; it should be {want}: every call "
           "answered by exactly one result, right after it")
    answer = harness.text_of(messages[-1])
    expect(len(model.calls) == 3 and answer == "config.py says: PORT = 8080",
           f"with your run_tool the model made {len(model.calls)} calls and said {answer!r}; it should "
           "take 3 and say 'config.py says: PORT = 8080'")


# -- hidden -----------------------------------------------------------------------------------

@test(4, 1, "An exception whose message is 200,000 characters long: one error result, whose content "
            "is that message word for word from its first character, not cut short by run_tool.",
      hidden=True)
def huge_message(ns):
    from lab.grader.wire import MAX_TEXT
    text = "".join(f"line {n}: the upstream service refused the request\n" for n in range(4000))
    outcome = Outcome(ns, [tool("fetch", raising(RuntimeError(text)))], call("fetch", {}))
    result = one_result(outcome, "for a tool whose error message is 200,000 characters")
    content = result["content"]
    # The grader's sandbox hands an exception's message to the learner's code cut to MAX_TEXT
    # characters, so what run_tool was given is either the whole text or that much of it.
    expect(result["is_error"] is True and isinstance(content, str) and text.startswith(content)
           and len(content) >= min(len(text), MAX_TEXT),
           f"run_tool's answer for a tool whose error message is 200,000 characters has is_error "
           f"{result['is_error']!r} and {len(str(content))} characters of content, starting "
           f"{_clip(repr(str(content)), 60)}; it should be the message itself, word for word and "
           "uncut: making results smaller is the tools' job, with a note that says so (lesson 6)")


@test(4, 1, "An Exception subclass with a str() of its own: the content is str(exc), not its "
            "arguments or its repr.", hidden=True)
def own_str(ns):
    class Refused(PermissionError):
        def __init__(self, path):
            super().__init__(13, "refused")
            self.path = path

        def __str__(self):
            return f"{self.path} is read-only for this agent"

    class Deeper(Refused):
        pass

    outcome = Outcome(ns, [tool("write", raising(Deeper("settings.toml")))], call("write", {}))
    an_error(outcome, "for a tool that raised an exception of its own class", "settings.toml is read-only for this agent")


@test(4, 1, "A tool that returns something other than a string (42, None, a list): one result, "
            "is_error False, holding what it returned, and nothing raises.", hidden=True)
def non_string_return(ns):
    for value in (42, None, ["a.py", "b.py"]):
        outcome = Outcome(ns, [tool("count", lambda arguments, v=value: v)], call("count", {}))
        result = one_result(outcome, f"for a tool that returned {value!r}")
        expect(result["is_error"] is False and result["content"] in (value, str(value)),
               f"run_tool answered a tool that returned {value!r} with content {result['content']!r} and "
               f"is_error {result['is_error']!r}; the tool ran and returned, so is_error is False and the "
               "content is what it returned")


@test(4, 1, "Arguments that are not a dict (a JSON string, None, a list): the tool's failure is an "
            "error result, and run_tool raises nothing.", hidden=True)
def arguments_not_a_dict(ns):
    ws = lab.Workspace(FILES)
    for arguments in ('{"path": "config.py"}', None, ["config.py"]):
        outcome = Outcome(ns, [make_read_tool(ws)], call("read", arguments))
        result = one_result(outcome, f"for a read whose arguments were {arguments!r}")
        expect(result["is_error"] is True and isinstance(result["content"], str) and result["content"],
               f"run_tool answered a read whose arguments were {arguments!r} with is_error "
               f"{result['is_error']!r} and content {result['content']!r}; the tool failed, so it is an "
               "error result with the exception's text")


@test(4, 1, "The name must match exactly: with no tools at all, or a call of \"Read\" when the tool "
            "is \"read\", the answer is \"Tool <name> not found\" and nothing runs.", hidden=True)
def exact_names_only(ns):
    an_error(Outcome(ns, [], call("read", {"path": "config.py"})), "for a call when there are no tools",
             "Tool read not found")
    ws = lab.Workspace(FILES)
    outcome = Outcome(ns, [make_read_tool(ws)], call("Read", {"path": "config.py"}))
    an_error(outcome, "for a call of Read when the tool is read", "Tool Read not found")
    expect(outcome.ran == [], f"run_tool ran {outcome.ran} for a call of Read; names are matched exactly")


@test(4, 1, "One reply asking for four calls (a missing file, a missing tool, a bad argument, a "
            "command that exits 1): four results, each right after the one before, in call order, "
            "and the request after them is one a strict provider takes.", hidden=True)
def four_calls_in_one_reply(ns):
    shell = lab.Shell({"pytest": ("1 failed\n", 1)})
    calls = [lab.call("read", {"path": "confg.py"}), lab.call("grep", {"pattern": "PORT"}),
             lab.call("read", {"path": 42}), lab.call("bash", {"command": "pytest"})]
    script = [lab.reply(*calls), lab.say("Noted.")]
    messages, model, raised = run(ns, script, tools=lambda ws: [make_read_tool(ws), make_bash_tool(shell)])
    expect(raised is None, f"the run died: run_tool let {type(raised).__name__} go up")
    want = "U A[c1,c2,c3,c4] R(c1) R(c2) R(c3) R(c4) A"
    expect(lab.shape(messages) == want,
           f"with your run_tool the record is {lab.shape(messages)}; it should be {want}")
    flags = [m.get("is_error") for m in messages[2:6]]
    expect(flags == [True, True, True, False],
           f"run_tool's four results have is_error {flags}; they should be [True, True, True, False]")
    problems = lab.validate(model.calls[-1].messages)
    expect(problems == [], f"the request after run_tool's four results is refused: {problems[:1]}")
