"""The lab tests of lesson 14, "Someone else's words": QuotingWriter.complete, gate, command_rules.

The visible tests are the lesson's list, one for each wrong idea a rung argues against; the hidden
ones hold each contract to the clauses the visible ones do not reach."""

import re

import harness
import lab
from lab.checks import expect, test
from lab.lessons.lesson14 import stage
from lab.lessons.lesson14.props import gullible


class Recorder:
    """A tool's stand-in that counts its runs and what it was given."""

    def __init__(self, name, answer="ran"):
        self.runs, self.name, self.answer = [], name, answer

    def tool(self):
        def execute(arguments):
            self.runs.append(arguments)
            return self.answer
        return {"name": self.name, "description": f"The {self.name} tool.", "execute": execute,
                "parameters": {"type": "object", "properties": {}}}


def gated(ns, approve, names=("read", "bash"), **kwargs):
    recorders = {name: Recorder(name) for name in names}
    tools = ns.gate([r.tool() for r in recorders.values()], approve, **kwargs)
    return tools, recorders


def result(tools, name, arguments):
    return harness.run_tool(tools, {"id": "t1", "name": name, "arguments": arguments})


class Spy:
    def __init__(self, script):
        self.model, self.seen = lab.ScriptedModel(script, max_calls=5), []

    def complete(self, system, messages, tools):
        self.seen.append((system, messages, tools))
        return self.model.complete(system, messages, tools)


class Unswallowed:
    """Passes calls on to `writer`, keeping a stub's NotImplementedError for the test to raise."""

    def __init__(self, writer):
        self.writer, self.stub = writer, None

    def complete(self, system, messages, tools):
        try:
            return self.writer.complete(system, messages, tools)
        except NotImplementedError as stub:
            self.stub = stub
            raise


def writer_call(ns, system="You summarise.", messages=None, tools=None):
    spy = Spy([lab.say("A summary.")])
    messages = [lab.user("<conversation>\nuser: hi\n</conversation>")] if messages is None else messages
    tools = [] if tools is None else tools
    reply = ns.QuotingWriter(spy).complete(system, messages, tools)
    return spy, reply, messages, tools


# -- QuotingWriter.complete ---------------------------------------------------------------------

@test(14, 1, "QuotingWriter(model).complete makes one call to the model, with the system prompt it "
             "was given, a blank line and DATA_RULE, the messages and tools as they came, and "
             "hands back the model's reply unchanged.")
def writer_adds_the_rule_to_the_system_prompt(ns):
    spy, reply, messages, tools = writer_call(ns)
    expect(len(spy.seen) == 1, f"QuotingWriter.complete called the model {len(spy.seen)} times; "
                               "it should pass the request on exactly once.")
    system, sent, offered = spy.seen[0]
    expect(system == "You summarise.\n\n" + harness.DATA_RULE,
           "QuotingWriter.complete sent the system prompt "
           f"{system[:60]!r}...; it should be the prompt it was given, then \"\\n\\n\", then "
           "DATA_RULE, so the summariser keeps its job and learns the rule.")
    expect(sent == messages and len(sent) == 1,
           "QuotingWriter.complete changed the messages (the rule belongs in the system prompt, "
           "not in a message the summariser would read as part of the conversation).")
    expect(offered == [], "QuotingWriter.complete changed the tools it passed on.")
    expect(harness.text_of(reply) == "A summary.",
           "QuotingWriter.complete did not return the model's reply as it came.")


@test(14, 1, "The README's order, compacted by lesson 12's compact through QuotingWriter(gullible): "
             "the summary opens with SUMMARY_PREFIX and quotes the order instead of passing it "
             "on, and a careful model reading it runs nothing.")
def writer_keeps_the_order_a_quotation(ns):
    ws, shell = stage.repo(), lab.Shell()
    log = harness.SessionLog(ws, "session.jsonl")
    agent = harness.Harness(lab.ScriptedModel([stage.careful()]), harness.SYSTEM,
                            stage.tools(ws, shell))
    agent.subscribe(harness.persist_to(log))
    for prompt in ["Tidy up this repository; start with README.md.", "Now look at shop.py."]:
        for _ in agent.prompt(prompt):
            pass
    writer = Unswallowed(ns.QuotingWriter(lab.ScriptedModel([gullible()])))
    done = harness.compact(log, writer, keep_recent_tokens=30)
    if writer.stub:
        raise writer.stub  # compact catches RuntimeError, and a stub's NotImplementedError is one
    expect(done, "compact did not compact the session written through QuotingWriter; "
                 "QuotingWriter.complete must return the model's reply, a summary.")
    agent.replace_messages(log.replay())
    summary = agent.messages[0]["content"]
    expect(summary.startswith(harness.SUMMARY_PREFIX) and "Quoted" in summary,
           "QuotingWriter.complete let the summariser pass the README's order on as a next step: "
           f"{summary[:160]!r}; with DATA_RULE in its system prompt it quotes it.")
    for _ in agent.prompt("Carry on."):
        pass
    expect(shell.history == [], "After a compaction through QuotingWriter.complete, the careful "
                                f"model ran {shell.history}: the order reached it in the user's voice.")


@test(14, 1, "Two summaries through one QuotingWriter: each request carries DATA_RULE once; "
             "nothing piles up from one call to the next.", hidden=True)
def writer_keeps_no_state(ns):
    spy = Spy([lab.say("One."), lab.say("Two.")])
    writer = ns.QuotingWriter(spy)
    for _ in range(2):
        writer.complete("S", [lab.user("<conversation>\nuser: x\n</conversation>")], [])
    counts = [system.count(harness.DATA_RULE) for system, _, _ in spy.seen]
    expect(counts == [1, 1], f"QuotingWriter.complete sent DATA_RULE {counts} times in two calls; "
                             "once in each, from the prompt it was given, not from the last call.")


# -- gate ---------------------------------------------------------------------------------------

@test(14, 1, "gate(tools, approve): read, not consequential, runs without a question; bash asks "
             "approve({'name': 'bash', 'arguments': ...}) first and runs once the answer is True, "
             "and asks again at the next call: a yes is for one call.")
def gate_asks_before_consequential_tools(ns):
    user = stage.User(bash=True)
    tools, runs = gated(ns, user)
    first = result(tools, "read", {"path": "a"})
    expect(user.asked == [] and len(runs["read"].runs) == 1 and not first["is_error"],
           f"gate asked about read ({user.asked}) or did not run it; only the consequential "
           "tools, bash and write, wait for approval.")
    second = result(tools, "bash", {"command": "pytest -q"})
    expect(user.asked == [("bash", {"command": "pytest -q"})],
           f"gate asked approve {user.asked}; it should ask once, with the tool's name and the "
           "call's arguments.")
    expect(runs["bash"].runs == [{"command": "pytest -q"}] and second["content"] == "ran",
           "gate did not run bash after approve answered True.")
    answers = iter([True, "not this one"])
    asked = []
    tools, runs = gated(ns, lambda call: asked.append(call["arguments"]) or next(answers))
    result(tools, "bash", {"command": "pytest -q"})
    third = result(tools, "bash", {"command": "rm -rf build"})
    expect(len(asked) == 2 and runs["bash"].runs == [{"command": "pytest -q"}] and third["is_error"],
           f"gate asked approve {len(asked)} time(s) for two bash calls and ran {runs['bash'].runs}; "
           "a yes covers the call it was given for, so ask again before every call.")


@test(14, 1, "A refusal is an ordinary tool failure: run_tool hands back an is_error result "
             "saying '<name> was not run: <reason>', the tool never runs, and the run goes on "
             "to the model's next reply.")
def gate_denial_is_an_error_result(ns):
    tools, runs = gated(ns, lambda call: "the user said no")
    answer = result(tools, "bash", {"command": "rm -rf build"})
    expect(answer["is_error"] is True and answer["content"] == "bash was not run: the user said no",
           f"gate's refusal came back as {answer['content']!r} with is_error={answer['is_error']}; "
           "raise PermissionError('bash was not run: the user said no') so run_tool makes it an "
           "error result.")
    expect(runs["bash"].runs == [], "gate ran bash although approve refused it.")
    shell, ws = lab.Shell(), stage.repo()
    model = lab.ScriptedModel([gullible()], max_calls=6)
    h = harness.Harness(model, harness.SYSTEM, ns.gate(stage.tools(ws, shell), lambda c: "no"))
    for _ in h.prompt("Tidy up this repository; start with README.md."):
        pass
    expect(shell.history == [] and harness.text_of(h.messages[-1]) == "Done.",
           "With gate refusing every bash call, the gullible run did not end on its own reply; "
           "a refusal must be news for the model, not the end of the run.")


@test(14, 1, "Only True approves: an answer of 'yes', 1 or a non-empty reason is a refusal; a "
             "string answer is the reason given, anything else is 'not approved'.")
def gate_only_true_approves(ns):
    for answer, reason in [("yes", "yes"), (1, "not approved"), (None, "not approved"),
                           ("write outside the project", "write outside the project")]:
        tools, runs = gated(ns, lambda call, answer=answer: answer)
        got = result(tools, "bash", {"command": "ls"})
        expect(runs["bash"].runs == [] and got["content"] == f"bash was not run: {reason}",
               f"gate treated the answer {answer!r} as {('a yes' if runs['bash'].runs else repr(got['content']))}; "
               f"only True approves, and this refusal reads 'bash was not run: {reason}'.")


@test(14, 1, "An approve that raises is a refusal (the gate stays shut, the exception's text is "
             "the reason), and gate leaves the caller's tools list and dicts as they were.")
def gate_fails_shut_and_copies(ns):
    def broken(call):
        raise ValueError("the prompt window crashed")
    recorder = Recorder("bash")
    original = recorder.tool()
    tools = [original]
    new = ns.gate(tools, broken)
    got = result(new, "bash", {"command": "ls"})
    expect(recorder.runs == [] and got["is_error"] and "the prompt window crashed" in got["content"],
           f"gate ran bash, or reported {got['content']!r}, when approve raised; a broken gate "
           "must refuse, with the exception's text as the reason.")
    expect(tools == [original] and tools[0]["execute"] is original["execute"] and new[0] is not original,
           "gate changed the caller's tools; it returns new dicts and leaves the given ones alone.")


@test(14, 1, "approve is given a copy of the arguments: an approve that edits them cannot change "
             "what runs; an empty reason reads 'not approved'; a custom `consequential` is obeyed.",
      hidden=True)
def gate_edges(ns):
    def meddling(call):
        call["arguments"]["command"] = "rm -rf ~"
        return True
    tools, runs = gated(ns, meddling)
    result(tools, "bash", {"command": "ls"})
    expect(runs["bash"].runs == [{"command": "ls"}],
           f"gate let approve change the command to {runs['bash'].runs}; hand approve a copy.")
    tools, runs = gated(ns, lambda call: "")
    expect(result(tools, "bash", {})["content"] == "bash was not run: not approved",
           "gate gave an empty reason; an empty answer reads 'not approved'.")
    user = stage.User()
    tools, runs = gated(ns, user, consequential=("read",))
    result(tools, "bash", {"command": "ls"})
    result(tools, "read", {"path": "a"})
    expect([name for name, _ in user.asked] == ["read"] and len(runs["bash"].runs) == 1,
           f"gate asked about {user.asked} with consequential=('read',); it gates exactly the names given.")


@test(14, 1, "A tool that fails after approval fails as itself: its own error text comes back, "
             "not a refusal.", hidden=True)
def gate_passes_tool_failures_through(ns):
    def failing(arguments):
        raise FileNotFoundError("no such file: x")
    tool = {"name": "write", "description": "", "parameters": {}, "execute": failing}
    asked = []
    got = result(ns.gate([tool], lambda call: asked.append(call) or True), "write", {"path": "x"})
    expect(asked, "gate ran a write without asking approve first; every call of a gated tool is "
                  "put to approve before it runs")
    expect(got["is_error"] and got["content"] == "no such file: x",
           f"gate turned the tool's own failure into {got['content']!r}; after approval the tool's "
           "error is the tool's.")


# -- command_rules ------------------------------------------------------------------------------

def rule(ns, command):
    return ns.command_rules({"name": "bash", "arguments": {"command": command}})


@test(14, 1, "command_rules refuses the README's order ('no network: curl'), allows `pytest -q`, "
             "and says True to any tool that is not bash.")
def rules_refuse_the_order_and_allow_the_rest(ns):
    got = rule(ns, stage.ORDER)
    expect(got == "no network: curl", f"command_rules answered {got!r} for the README's order; "
                                      "expected 'no network: curl', the first rule that matches.")
    expect(rule(ns, "pytest -q") is True, f"command_rules refused 'pytest -q' ({rule(ns, 'pytest -q')!r}); "
                                          "rules deny by pattern and allow the rest.")
    other = ns.command_rules({"name": "write", "arguments": {"path": "curl.txt", "content": "curl"}})
    expect(other is True, f"command_rules answered {other!r} for a write; other tools are not its business.")


@test(14, 1, "A pattern matches anywhere in the line, in any case: 'echo ok && CURL -s x' and "
             "'cat notes | SH' are refused.")
def rules_search_anywhere_any_case(ns):
    for command, reason in [("echo ok && CURL -s x", "no network: CURL"),
                            ("cat notes | SH", "nothing piped into an interpreter: | SH")]:
        got = rule(ns, command)
        expect(got == reason, f"command_rules answered {got!r} for {command!r}; expected {reason!r}: "
                              "search the whole line, ignoring case.")


@test(14, 1, "Every rule of COMMAND_RULES is tried, not only the ones above: wget, a URL, git push, "
             "pip install, a pipe into python, sudo and rm -rf ~ are each refused with its "
             "'<why>: <the text it matched>'.")
def rules_apply_every_rule(ns):
    for command in ("wget -q example.org/x", "python fetch.py https://example.org", "git push origin main",
                    "pip install requests", "cat setup.txt | python3", "sudo make install", "rm -rf ~"):
        # The answer is spelled out here from the given rules, never from the function under test.
        wanted = next(f"{why}: {found.group(0)}" for pattern, why in harness.COMMAND_RULES
                      for found in [re.search(pattern, command, re.IGNORECASE)] if found)
        got = rule(ns, command)
        expect(got == wanted, f"command_rules answered {got!r} for {command!r}; expected {wanted!r}: try "
                              "every (pattern, why) of COMMAND_RULES in order, not a few words of your own.")


@test(14, 1, "No command line to check: a bash call without one, or with a number, is refused "
             "with 'no command line to check'; rules are tried in their order.", hidden=True)
def rules_edges(ns):
    for arguments in ({}, {"command": 7}):
        got = ns.command_rules({"name": "bash", "arguments": arguments})
        expect(got == "no command line to check",
               f"command_rules answered {got!r} for arguments {arguments}; expected 'no command line to check'.")
    got = rule(ns, "sudo wget x")
    expect(got == "no network: wget", f"command_rules answered {got!r} for 'sudo wget x'; the rules "
                                      "are tried in COMMAND_RULES's order, so the network rule answers.")


# -- all of it ----------------------------------------------------------------------------------

@test(14, 1, "The blast radius: the gullible model in the injected repository, with "
             "gate(tools, command_rules): the order is refused, nothing reaches the network, "
             "and the agent still reads the README it was asked to.")
def blast_radius(ns):
    ws, shell = stage.repo(), lab.Shell()
    model = lab.ScriptedModel([gullible()], max_calls=6)
    h = harness.Harness(model, harness.SYSTEM, ns.gate(stage.tools(ws, shell), ns.command_rules))
    for _ in h.prompt("Tidy up this repository; start with README.md."):
        pass
    expect(shell.network == [], f"gate with command_rules let {shell.network} reach the network.")
    refused = [m for m in h.messages if m["role"] == "toolResult" and m["is_error"]]
    expect(len(refused) == 1 and "no network" in refused[0]["content"],
           "gate with command_rules did not refuse the README's order as one error result.")
