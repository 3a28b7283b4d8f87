"""The gaps of lesson 09, one lab: run_agent version 9, and the Harness's prompt, steer,
follow_up, _drain and _run.

Each text stands where the reference's ### BEGIN SOLUTION ... ### END SOLUTION part is; the
notebook's solution cell shows its comment lines above the definition. Every gap ends in the same
stub, so a lab not yet begun reads "not started", never as a wrong answer."""

GAPS = {}

GAPS["run_agent"] = '''\
# --- your code ---
# Lesson 7's loop (record, the events, max_turns, the failed reply) with two new sources of
# user messages. Both are optional functions of no arguments that return a list, often [].
#   - Write ask(get): get() as a list, or [] when get is None.
#   - The first turn opens with user_message(prompt) and then whatever ask(get_steering)
#     holds: words sent while no run was going on go in now, after the prompt.
#   - Every user message is recorded at the top of a turn, after turn_start and before the
#     model is called. Never anywhere else: between a call and its result is a 400.
#   - A failed reply ends the run as before, and neither function is called after it.
#   - Otherwise, once the whole batch of calls has its results and turn_end is out, the next
#     turn's openers are ask(get_steering). If there were no calls and no steering, try
#     ask(get_follow_ups) instead. The run goes on while there are calls or openers.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["Harness.prompt"] = '''\
# --- your code ---
# Lesson 8's prompt, with a longer refusal: the RuntimeError now says where the words can go
# instead, "already running; use steer() or follow_up()". Still checked on the caller's line.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["Harness.steer"] = '''\
# --- your code ---
# Put user_message(text) at the back of self._steering. Nothing else: the transcript is the
# loop's to write, and it will ask for this message at the next gap between turns.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["Harness.follow_up"] = '''\
# --- your code ---
# The same as steer, into the other queue, self._follow_ups.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["Harness._drain"] = '''\
# --- your code ---
# `queue` is a deque. Take the oldest message off its front and return it in a list of one;
# return [] when it is empty. One per ask, however many are waiting.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["Harness._run"] = '''\
# --- your code ---
# Lesson 8's _run, with the two queues wired in. Pass run_agent two more keywords:
#   get_steering   a function of no arguments that drains self._steering with self._drain
#   get_follow_ups the same for self._follow_ups
# The queues belong to the harness and outlive the run; the loop only ever sees the functions.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
