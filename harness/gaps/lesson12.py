"""The gaps of lesson 12: summarize (lab 1); the snap forward of find_cut, SessionLog.rows and
compact (lab 2).

Each text is the one place its words live: `python -m lab starter 12` puts it where the gap is,
and the notebook's solution cell shows its comment lines above the definition (gaps.comments), so
that what nbgrader leaves of the cell, "# YOUR CODE HERE" and "raise NotImplementedError()", sits
under the same words. Every gap ends in that same stub, so a lab not yet begun is "not started"
in the notebook and on the command line alike, never a wrong answer."""

GAPS = {}

GAPS["summarize"] = '''\
# --- your code ---
# summarize(model, messages) -> str: one call of model.complete, made outside any transcript,
# whose reply is the summary. Leave the model no other move:
#   - system prompt: SUMMARY_SYSTEM (the agent's SYSTEM would make it act as the agent)
#   - messages: a list of one user message, whose text is three lines joined by newlines:
#     "<conversation>", render(messages), "</conversation>"
#   - tools: the empty list [], spelled out
# Hand back text_of(reply) with the white space trimmed off both ends. A reply whose stop_reason
# is "error", or whose trimmed text is empty, is no summary: raise RuntimeError and say why.
# One try only, and `messages` is read, never appended to.
def summarize(model, messages):
    # YOUR CODE HERE
    raise NotImplementedError()
# --- end ---
'''

GAPS["SessionLog.rows"] = '''\
# --- your code ---
# Lesson 11's version was a single list comprehension: each "message" entry gave the row
# (its id, its message), and nothing else was looked at. append_compaction writes a second kind:
#     {"id": "e9", "type": "compaction", "summary": "...", "first_kept_id": "e6"}
# Walk self.entries() in order, building a list of (id, message) rows. A message entry adds its
# row. A compaction entry rebuilds the list: first a row of its own, (the compaction's id,
# user_message(SUMMARY_PREFIX + its summary)), then the rows already built from the one whose id
# is first_kept_id to the end; if no row carries that id, nothing follows the summary row. Look
# the id up among the rows' ids: after an earlier compaction, "e6" is not the sixth row.
# Return a list; replay() reads it as it is.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["find_cut"] = '''\
# --- your code ---
# Once the given walk back stops, rows[cut:] holds roughly keep_recent_tokens, but rows[cut] can be
# a reply, a tool result, anything. Your half only ever slides the cut towards the end, since
# sliding back would make the kept tail bigger than its budget:
#   1. Look from rows[cut] (it counts) to the last row for a message whose role is "user";
#      the first one found is the answer.
#   2. Only if there is none: slide the cut past every "toolResult" row it sits on.
# The result may be len(rows), a tail of nothing; compact treats that as "cannot compact".
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["compact"] = '''\
# --- your code ---
# compact(log, model, *, keep_recent_tokens) -> bool: compact the session that `log` (a
# SessionLog) holds, with `model` writing the summary.
#   - The plan: the rows from log.rows(), and the cut find_cut gives for keep_recent_tokens.
#   - A cut of 0 leaves nothing to summarise and a cut of len(rows) nothing to keep: return
#     False before asking the model anything.
#   - summary = summarize(model, the messages of rows[:cut]). If that raises RuntimeError, return
#     False with the log untouched: the user's prompt must still go out.
#   - Append one entry, log.append_compaction(summary, first_kept_id), naming the row at the cut
#     by the id it carries, and return True. Nothing else is written; maybe_compact, further
#     down, is what hands the harness the new view.
def compact(log, model, *, keep_recent_tokens):
    # YOUR CODE HERE
    raise NotImplementedError()
# --- end ---
'''
