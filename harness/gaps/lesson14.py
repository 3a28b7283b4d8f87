"""The gaps of lesson 14: QuotingWriter.complete, gate and command_rules (one lab).

Each text is the one place its words live: `python -m lab starter 14` puts it where the gap is,
and the notebook's solution cell shows its comment lines above the definition (gaps.comments).
Every gap ends in the same stub, so a lab not yet begun is "not started", never a wrong answer."""

GAPS = {}

GAPS["QuotingWriter.complete"] = '''\
# --- your code ---
# compact()'s summary call comes through here. Pass it on to self.model, one call,
# with the system prompt it came with, a blank line, then DATA_RULE:
#     system + "\\n\\n" + DATA_RULE
# messages and tools go on exactly as given (the same lists: not copied, not
# changed), and the reply comes back as the model gave it. Keep nothing on self.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["gate"] = '''\
# --- your code ---
# gate(tools, approve, consequential=CONSEQUENTIAL) -> a new list of tools
# A tool whose name is not in `consequential` comes back as a copy, dict(tool). Each of the
# others comes back as a copy whose "execute" asks first:
#     answer = approve({"name": <the tool's name>, "arguments": <a copy of the arguments>})
#   - answer is True (True itself, not just something truthy): run the real execute and return
#     what it returns;
#   - anything else: raise PermissionError(f"{name} was not run: {reason}"), where reason is the
#     answer if it is a non-empty string, else "not approved". The real execute is not called;
#   - approve raised: that is a denial too, its exception's text as the reason.
# Raise, do not return text: run_tool already turns a raising tool into an is_error result, and
# it should stay the only place that does. Leave `tools` and its dicts as they were.
def gate(tools, approve, consequential=CONSEQUENTIAL):
    # YOUR CODE HERE
    raise NotImplementedError()
# --- end ---
'''

GAPS["command_rules"] = '''\
# --- your code ---
# command_rules(call) -> True, or the reason the call is refused (a string)
# An approve function for gate(), deciding bash calls by the command line alone:
#   - a call to any tool but "bash": True;
#   - call["arguments"]["command"] missing or not a string: "no command line to check";
#   - otherwise try each (pattern, why) of COMMAND_RULES in order with
#     re.search(pattern, command, re.IGNORECASE); the first match answers
#     f"{why}: {match.group(0)}";
#   - no pattern matches: True.
def command_rules(call):
    # YOUR CODE HERE
    raise NotImplementedError()
# --- end ---
'''
