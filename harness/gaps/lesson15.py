"""The gaps of lesson 15, two labs: lab 1 the loop that awaits (run_tool and run_agent), lab 2 the
Harness that awaits its listeners (_notify, and the one line of _run that calls it).

Each text stands where the reference's solution part is, and the notebook's solution cell shows its
comment lines above the definition. Every gap ends in the same stub, so a lab not yet begun is "not
started" in the notebook and on the command line alike, never a wrong answer."""

GAPS = {}

GAPS["run_tool"] = '''\
# --- your code ---
# Lesson 4's run_tool, every path of it, with one change: a tool's execute may now be a
# coroutine function, so what it returns may have to be awaited (inspect.isawaitable tells
# you) before it is the result's content. Keep the try around both the call and the await:
# a tool that fails while it waits has failed all the same. Catch Exception and nothing
# wider. A cancellation is no Exception; let it pass, and make no result for the call.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["run_agent"] = '''\
# --- your code ---
# Lesson 10's loop, line for line, from the turn counter to the follow-ups, with two waits:
#   - the model's reply is awaited: model.complete(...) is a coroutine now;
#   - each call's result is awaited: run_tool is a coroutine now.
# The calls of one reply still run one after another, in the model's order, and each result
# is recorded the moment it comes back. No try around anything: if the consumer is cancelled,
# the cancellation arrives at the await in progress, and it must go on up.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["Harness._notify"] = '''\
# --- your code ---
# Call each listener with `event`, in subscription order, over a copy of the list (a listener
# may unsubscribe itself). A listener may be a plain function or a coroutine function: when
# what it returns can be awaited, await it before you call the next one.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["Harness._run"] = '''\
# --- your code ---
# One line: let every listener finish with the event before the consumer gets it.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
