"""The gap of lesson 05, one lab: run_agent, version 5, the loop with brakes.

The text stands where the reference's ### BEGIN SOLUTION ... ### END SOLUTION part is, under the
docstring; the notebook's solution cell shows its comment lines above the definition. It ends in
the same stub as every gap, so a lab not yet begun reads "not started", never as a wrong answer."""

GAPS = {}

GAPS["run_agent"] = '''\
# --- your code ---
# Lesson 3's loop, with two more ways out. Each of them is written into `messages` and
# returned; neither is raised.
#   1. Append user_message(prompt), once. Keep a count of the model calls this run has made.
#   2. At the top of every round, BEFORE calling the model: if max_turns is not None and
#      the count has reached max_turns, append
#      error_message(f"Agent stopped after max_turns={max_turns}") and return it.
#      None means no limit at all; 0 means not one call.
#   3. Call the model, add one to the count, and append the reply exactly as it came.
#   4. If reply["stop_reason"] == "error", the reply failed: return it. Run none of its
#      calls, and do not ask the model again, however complete they look.
#   5. Otherwise as in lesson 3: no calls means the run is done (return the reply); else
#      run each call with run_tool, append its result, and go round again.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
