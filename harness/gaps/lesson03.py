"""The gap of lesson 03, one lab: run_agent, version 3, the loop.

The text stands where the reference's ### BEGIN SOLUTION ... ### END SOLUTION part is, under the
docstring; the notebook's solution cell shows its comment lines above the definition. It ends in
the same stub as every gap, so a lab not yet begun reads "not started", never as a wrong answer."""

GAPS = {}

GAPS["run_agent"] = '''\
# --- your code ---
# Lesson 2's run_agent asked the model at most twice: once, then once more after a
# single round of tool results. This one asks for as long as the model asks for tools.
#   1. Append user_message(prompt) to `messages`, once, before anything else.
#   2. Then, round after round: send the whole list with `system` and
#      tool_specs(tools), and append the reply the model gives.
#   3. If tool_calls(reply) is empty, the model has finished: return that reply.
#      Only the calls decide this; what its text says does not, and neither does how
#      many rounds have gone by.
#   4. Otherwise run each call with run_tool, in the order tool_calls lists them, and
#      append each result the moment you have it. Ask the model again only once the
#      last call's result is in the list.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
