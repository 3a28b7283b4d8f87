"""The gaps of lesson 1: user_message (the warm-up, spec only) and run_agent, version 1.

Each text is the one place its words live: `python -m lab starter 1` puts it where the gap is, and
the notebook's solution cell shows its comment lines above the definition. Every gap ends in the
same stub, so a lab not yet begun reads "not started", never as a wrong answer."""

GAPS = {}

GAPS["user_message"] = '''\
# --- your code ---
# user_message(text) -> dict: the message a person sends, as the provider wants it. Two keys:
#   "role":    the string "user", which says who is speaking
#   "content": `text` itself, one plain string (a reply's content is a list; a user's is not)
# Nothing else goes in it: no name, no time, no copy of SYSTEM.
def user_message(text):
    # YOUR CODE HERE
    raise NotImplementedError()
# --- end ---
'''

GAPS["run_agent"] = '''\
# --- your code ---
# Four steps, in this order, and nothing else:
#   1. append user_message(prompt) to `messages`, the caller's own list (never a copy of it)
#   2. ask the model once, with model.complete: `system` in its own argument, never in the
#      list; the whole of `messages` every time; the empty list [] as the tools, since none
#      are offered yet
#   3. append the reply to `messages`, exactly as it came back, even when it failed
#   4. return that reply
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
