"""The gaps of lesson 2, one lab: run_tool (version 1) and run_agent (version 2, one round of tools).

Each text is the one place its words live: `python -m lab starter 2` puts it where the gap is, and
the notebook's solution cell shows its comment lines above the definition (gaps.comments). Every
gap ends in the same stub, so a lab not yet begun is "not started", never a wrong answer."""

GAPS = {}

GAPS["run_tool"] = '''\
# --- your code ---
# Find the tool in `tools` whose "name" is call["name"], and call its "execute" with
# call["arguments"], the dict the model sent. Return a new message, not the bare string:
#     {"role": "toolResult", "tool_call_id": <the call's "id">, "tool_name": <the call's "name">,
#      "content": <what execute returned>, "is_error": False}
# The id is the only thing that ties this result to its call: not its place in the list, not
# the tool's name. If the tool raises, or no tool has that name, let the exception go up as it
# is; never make a result that says a failed tool worked. (Lesson 4 does better.)
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["run_agent"] = '''\
# --- your code ---
# Lesson 1's three steps, with tools this time:
#   1. Append user_message(prompt) to `messages`, call
#      model.complete(system, messages, tool_specs(tools)), and append the reply as it came.
#   2. The calls are tool_calls(reply): worked out from the reply's content, kept nowhere
#      else. No calls: return the reply. (Words such as "I'll READ it" are not a call.)
#   3. For every call, in order: append run_tool(tools, call) to `messages`. Then ask the model
#      once more, with the whole list and tool_specs(tools) again, append that reply, return it.
# One round only: if the second reply asks for tools too, return it without running them.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
