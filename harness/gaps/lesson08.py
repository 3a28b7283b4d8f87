"""The gaps of lesson 08, one lab: Harness.messages, Harness.prompt and Harness._run, the harness
that holds the one pen.

Each text stands where the reference's ### BEGIN SOLUTION ... ### END SOLUTION part is, under the
docstring; the notebook's solution cell shows its comment lines above the definition. Every gap
ends in the same stub, so a lab not yet begun reads "not started", never as a wrong answer."""

GAPS = {}

GAPS["Harness.messages"] = '''\
# --- your code ---
# self._messages is the harness's own list, the one every run writes to. Hand out
# something nobody can append to or pop from, that does not change when the list
# does later: a tuple made from it. Copy the list, not the message dicts inside.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["Harness.prompt"] = '''\
# --- your code ---
# A plain function, not a generator: no yield anywhere in it, so its lines run at
# the moment it is called.
#   1. If self._running is True, a run already holds the list: raise
#      RuntimeError("already running"). Nothing else happens.
#   2. Otherwise set self._running to True, now, before anyone asks for an event.
#   3. Return self._run(text), the generator, without taking a single event from it.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["Harness._run"] = '''\
# --- your code ---
# The generator prompt hands out. Make lesson 7's run from the harness's own state:
# run_agent with self._model, self._system, self._messages (the list itself, never
# a copy), self._tools and text, plus the keyword max_turns set to self._max_turns.
# Yield each of its events. Put the loop in a try whose finally closes that inner
# run and sets self._running back to False: the finally runs whether the run was
# used up, closed by a consumer that stopped early, or died of an error.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
