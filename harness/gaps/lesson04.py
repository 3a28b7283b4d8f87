"""The gap of lesson 04, one lab: run_tool, version 2, an answer on every path.

The text stands where the reference's ### BEGIN SOLUTION ... ### END SOLUTION part is, under the
docstring; the notebook's solution cell shows its comment lines above the definition. It ends in
the same stub as every gap, so a lab not yet begun reads "not started", never as a wrong answer."""

GAPS = {}

GAPS["run_tool"] = '''\
# --- your code ---
# Lesson 2's run_tool let a failure go up as an exception, and the run died with it. This one
# answers the call whatever happens. Every path ends in the same kind of message, a dict of
# five keys: "role" is "toolResult"; "tool_call_id" and "tool_name" are the call's "id" and
# "name", on every path; "content" and "is_error" say how it went:
#   1. No tool in `tools` has the name call["name"]: content "Tool <name> not found",
#      is_error True. Nothing runs.
#   2. The tool's execute(call["arguments"]) raises an Exception of any kind: content is
#      str() of that exception, word for word, and is_error True.
#   3. execute returns: content is what it returned, as it returned it, and is_error False.
# Return that one message: not a list, not None, never two. Catch Exception and nothing wider,
# so that KeyboardInterrupt and SystemExit still stop the program.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
