"""The gaps of lesson 13: briefing (lab 1); session (lab 2).

Each text is the one place its words live: `python -m lab starter 13` puts it where the gap is,
and the notebook's solution cell shows its comment lines above the definition (gaps.comments).
Every gap ends in the same stub, so a lab not yet begun is "not started", never a wrong answer."""

GAPS = {}

GAPS["briefing"] = '''\
# --- your code ---
# briefing(tools, facts) -> str: the system prompt, written from the tools this session really
# has. The exact text, line by line (joined with "\\n", no newline at the very end):
#   SYSTEM
#   (an empty line)
#   Tools:
#   - <name>: <guideline>        one per tool, sorted by name; "(none)" alone if there are none
#   (an empty line)              } only when facts has something in it
#   Workspace:                   }
#   <key>: <value>               } one per fact, keys sorted
# A tool's guideline is tool["guideline"] when it has a non-empty one, otherwise its
# "description"; keep only the first line of it, trimmed.
# Read nothing but the two arguments: no clock, no files, no counter. Called twice with the same
# tools and facts, in whatever order they come, it must give back the very same string.
def briefing(tools, facts):
    # YOUR CODE HERE
    raise NotImplementedError()
# --- end ---
'''

GAPS["session"] = '''\
# --- your code ---
# session(model, tools, facts, messages=(), max_turns=None, *, now=None) -> Harness
# Make the briefing here, once, from the same `tools` the Harness gets, and hand the Harness
# that string as its system prompt. Never make it again for this session: not per prompt, not
# after a compaction, not when `facts` changes later.
# `now` is the one thing that differs between sessions. Keep it out of the system prompt
# entirely; if it is given (not None, not ""), the transcript the Harness starts with is
# `messages` followed by user_message(f"[Session started {now}]").
def session(model, tools, facts, messages=(), max_turns=None, *, now=None):
    # YOUR CODE HERE
    raise NotImplementedError()
# --- end ---
'''
