"""The gaps of lesson 10, one lab: repair_tool_history, context_for_model, and the one line of
run_agent that sends what context_for_model makes instead of the record.

Each text stands where the reference's solution part is, and the notebook's solution cell shows its
comment lines above the definition. Every gap ends in the same stub, so a lab not yet begun is "not
started" in the notebook and on the command line alike, never a wrong answer."""

GAPS = {}

GAPS["repair_tool_history"] = '''\
# --- your code ---
# Two passes over `messages`, and no change to any of them.
#   1. Find each call's recorded result: for every toolResult, remember it under its
#      tool_call_id, unless that id already has one (the earliest result is the one kept).
#   2. Build a new list. Copy every message that is not a toolResult, in order. Right after
#      an assistant message, add one result per call of tool_calls(message), in call order:
#      the remembered result if there is one, else a new toolResult message with
#      tool_call_id and tool_name from the call, content INTERRUPTED, is_error True.
# Results are only ever placed by step 2, so one whose call never appears is left out, and a
# result recorded in the wrong place lands where it belongs. Return the new list.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["context_for_model"] = '''\
# --- your code ---
# Keep every message except an assistant message that failed (stop_reason "error") AND has
# empty content: a failed reply that got some text or a call out stays. Give what is kept to
# repair_tool_history and return its answer. Build new lists; `messages` is the record and
# leaves this function exactly as it came in.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["run_agent"] = '''\
# --- your code ---
# One line: the model call, in the else branch inside the loop. Lesson 9 had
#     reply = model.complete(system, messages, tool_specs(tools))
# there, which sends the record itself. Send the view instead, what
# context_for_model makes of `messages`. Everything else is lesson 9's, and
# `messages` stays the record: nothing here writes the view into it.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
