"""Wrong answers to lesson 14's gaps: each is a design one of the lesson's rungs argues against,
and its docstring names that rung (its id in RUNGS). The lab tests must catch every one with a
visible test, in a sentence that names the function at fault (tests/lessons/test_checks.py)."""

import re

from harness import COMMAND_RULES, CONSEQUENTIAL, DATA_RULE, user_message


# -- QuotingWriter.complete ---------------------------------------------------------------------

def complete_rule_as_message(self, system, messages, tools):
    """Sends the rule as one more user message (who-speaks: a rule in the conversation is one
    more line of the conversation, in the user's voice)."""
    return self.model.complete(system, list(messages) + [user_message(DATA_RULE)], tools)


def complete_rule_instead(self, system, messages, tools):
    """Replaces the summary prompt with the rule (who-speaks: the summariser loses its job)."""
    return self.model.complete(DATA_RULE, messages, tools)


def complete_without_rule(self, system, messages, tools):
    """Passes the request on untouched (who-speaks: the order comes back as a next step)."""
    return self.model.complete(system, messages, tools)


# -- gate ---------------------------------------------------------------------------------------

def _gate(tools, approve, consequential, decide, ask_all=False):
    def gated(tool):
        def execute(arguments):
            return decide(tool, arguments)
        return dict(tool, execute=execute)
    return [gated(t) if ask_all or t["name"] in consequential else dict(t) for t in tools]


def gate_returns_text(tools, approve, consequential=CONSEQUENTIAL):
    """Answers a refusal as the tool's output (denial: then it is no error at all)."""
    def decide(tool, arguments):
        answer = approve({"name": tool["name"], "arguments": dict(arguments)})
        if answer is not True:
            return f"{tool['name']} was not run: {answer if isinstance(answer, str) and answer else 'not approved'}"
        return tool["execute"](arguments)
    return _gate(tools, approve, consequential, decide)


def gate_truthy(tools, approve, consequential=CONSEQUENTIAL):
    """Takes any truthy answer for a yes (where-gate: a reason given is a no)."""
    def decide(tool, arguments):
        answer = approve({"name": tool["name"], "arguments": dict(arguments)})
        if not answer:
            raise PermissionError(f"{tool['name']} was not run: not approved")
        return tool["execute"](arguments)
    return _gate(tools, approve, consequential, decide)


def gate_asks_everything(tools, approve, consequential=CONSEQUENTIAL):
    """Asks about every tool, read included (where-gate: consequential tools only)."""
    def decide(tool, arguments):
        answer = approve({"name": tool["name"], "arguments": dict(arguments)})
        if answer is not True:
            raise PermissionError(f"{tool['name']} was not run: "
                                  f"{answer if isinstance(answer, str) and answer else 'not approved'}")
        return tool["execute"](arguments)
    return _gate(tools, approve, consequential, decide, ask_all=True)


def gate_remembers_a_yes(tools, approve, consequential=CONSEQUENTIAL):
    """Asks once per tool and remembers a yes, so the user is not asked again (where-gate: the
    question comes before each run of the tool, and the next call's arguments may be the
    README's order)."""
    approved = set()

    def decide(tool, arguments):
        if tool["name"] not in approved:
            answer = approve({"name": tool["name"], "arguments": dict(arguments)})
            if answer is not True:
                raise PermissionError(f"{tool['name']} was not run: "
                                      f"{answer if isinstance(answer, str) and answer else 'not approved'}")
            approved.add(tool["name"])
        return tool["execute"](arguments)
    return _gate(tools, approve, consequential, decide)


def gate_fails_open(tools, approve, consequential=CONSEQUENTIAL):
    """Runs the tool when approve itself breaks (colleague: a broken gate must stay shut)."""
    def decide(tool, arguments):
        try:
            answer = approve({"name": tool["name"], "arguments": dict(arguments)})
        except Exception:
            answer = True
        if answer is not True:
            raise PermissionError(f"{tool['name']} was not run: "
                                  f"{answer if isinstance(answer, str) and answer else 'not approved'}")
        return tool["execute"](arguments)
    return _gate(tools, approve, consequential, decide)


def gate_in_place(tools, approve, consequential=CONSEQUENTIAL):
    """Swaps execute inside the caller's own dicts (denial: the ungated tools are gone)."""
    for tool in tools:
        if tool["name"] in consequential:
            inner = tool["execute"]

            def execute(arguments, inner=inner, name=tool["name"]):
                answer = approve({"name": name, "arguments": dict(arguments)})
                if answer is not True:
                    raise PermissionError(f"{name} was not run: "
                                          f"{answer if isinstance(answer, str) and answer else 'not approved'}")
                return inner(arguments)
            tool["execute"] = execute
    return tools


# -- command_rules ------------------------------------------------------------------------------

def _command(call):
    command = call["arguments"].get("command")
    return command if isinstance(command, str) else None


def rules_at_the_start(call):
    """Looks only at the start of the line (filter: 'echo ok && curl' gets through)."""
    if call["name"] != "bash":
        return True
    command = _command(call)
    if command is None:
        return "no command line to check"
    for pattern, why in COMMAND_RULES:
        found = re.match(pattern, command, re.IGNORECASE)
        if found:
            return f"{why}: {found.group(0)}"
    return True


def rules_case_sensitive(call):
    """Matches in lower case only (filter: CURL is curl)."""
    if call["name"] != "bash":
        return True
    command = _command(call)
    if command is None:
        return "no command line to check"
    for pattern, why in COMMAND_RULES:
        found = re.search(pattern, command)
        if found:
            return f"{why}: {found.group(0)}"
    return True


def rules_for_the_tests_words(call):
    """Refuses the two things the README's order and the visible examples use, curl and a pipe
    into sh, and lets every other rule go (filter: a list written for one attack misses the next;
    the given rules are the list)."""
    if call["name"] != "bash":
        return True
    command = _command(call)
    if command is None:
        return "no command line to check"
    for pattern, why in ((r"curl", "no network"), (r"\|\s*sh\b", "nothing piped into an interpreter")):
        found = re.search(pattern, command, re.IGNORECASE)
        if found:
            return f"{why}: {found.group(0)}"
    return True


def rules_refuse_all_bash(call):
    """Refuses every command (filter: a rule that blocks all work is no rule, it is no bash)."""
    return True if call["name"] != "bash" else "no bash"


WRONG = {
    1: {"QuotingWriter.complete": [complete_rule_as_message, complete_rule_instead,
                                   complete_without_rule],
        "gate": [gate_returns_text, gate_truthy, gate_asks_everything, gate_fails_open,
                 gate_in_place, gate_remembers_a_yes],
        "command_rules": [rules_at_the_start, rules_case_sensitive, rules_refuse_all_bash,
                          rules_for_the_tests_words]},
}
