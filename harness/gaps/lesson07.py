"""The gaps of lesson 07, one lab: run_agent, version 7, the loop as a generator of events, and the
three methods of FinalTextRenderer, the frontend that prints only the answer.

Each text stands where the reference's ### BEGIN SOLUTION ... ### END SOLUTION part is, under the
docstring; the notebook's solution cell shows its comment lines above the definition. Each ends in
the same stub as every gap, so a lab not yet begun reads "not started", never as a wrong answer."""

GAPS = {}

GAPS["run_agent"] = '''\
# --- your code ---
# Lesson 5's loop, the same decisions in the same order, but it now YIELDS events (plain dicts
# with a "type") instead of returning the last message. It prints nothing.
#   - Define, inside, record(message): append it to `messages` and to a list of this run's own
#     messages, and only then return the "message_end" event that carries it (key "message").
#     Every message of the run goes in through `yield record(...)`.
#   - {"type": "agent_start"} first. Each turn is one model call, or the max_turns stop in
#     its place: {"type": "turn_start"}, its messages, {"type": "turn_end", "message": reply}.
#   - The prompt's user message is recorded inside the first turn, before the model call.
#   - For each call of a reply: {"type": "tool_execution_start", "call": call}, then run it
#     with run_tool and record its result at once, nothing yielded in between; only after that
#     {"type": "tool_execution_end", "call": call, "result": <that result>}.
#   - The stop, a failed reply, a reply with no calls: each still closes its turn with
#     turn_end, and the run with {"type": "agent_end", "messages": <this run's messages>}.
#     One way out of the loop makes that easy.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["FinalTextRenderer.__init__"] = '''\
# --- your code ---
# Start with no assistant message seen: remember None somewhere on self. Print nothing.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["FinalTextRenderer.render"] = '''\
# --- your code ---
# Print nothing here, ever. If the event is a "message_end" and its "message" has role
# "assistant", keep that message on self in place of the one kept before. Ignore the rest:
# a toolResult or the user's prompt is never the answer.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["FinalTextRenderer.finish"] = '''\
# --- your code ---
# No assistant message kept: return False (print nothing).
# The kept message failed (stop_reason "error"): print f"Error: {its error_message}" and
# return False, even if it carries some text.
# Otherwise print text_of(it) and return True.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
