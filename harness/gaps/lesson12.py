"""The gaps of lesson 12: summarize (lab 1); the snap forward of find_cut, SessionLog.rows and
compact (lab 2)."""

GAPS = {}

GAPS["summarize"] = '''\
# --- your code ---
# Spec only: the tests import a single name, summarize.
#
# summarize(model, messages) -> str. Summarise `messages` with ONE call of model.complete, a call
# that belongs to no transcript. Build it so that summarising is all the model can do:
#   - its system prompt is SUMMARY_SYSTEM, never the agent's own
#   - it gets exactly one message, from the user: a line <conversation>, then render(messages),
#     then a line </conversation>
#   - it is offered no tools: []
# Return the reply's text with the white space stripped. If the reply failed (stop_reason
# "error") or has no text in it, raise RuntimeError: nobody who calls this may ever take nothing
# for a summary. Only read `messages`; never change it.
def summarize(model, messages):
    raise NotImplementedError("summarize is lesson 12's lab 1: write it here")
# --- end ---
'''

GAPS["SessionLog.rows"] = '''\
# --- your code ---
# What follows is lesson 11's body. It must become a loop over self.entries(),
# because the log now has a second kind of entry, the one append_compaction writes:
#     {"id": "e9", "type": "compaction", "summary": "...", "first_kept_id": "e6"}
# On meeting one, the rows collected so far are replaced by a single row, (the
# entry's own id, user_message("Previous conversation summary:\\n" + the summary)),
# followed by those rows so far that start at the row whose id is first_kept_id.
# When no row has that id, the summary row stands alone. Entries after the
# compaction are added as before. replay() stays as it is: it reads rows().
return [(entry["id"], entry["message"]) for entry in self.entries()
        if entry["type"] == "message"]
# --- end ---
'''

GAPS["find_cut"] = '''\
# --- your code ---
# Here rows[cut:] is about keep_recent_tokens' worth, and rows[cut] may be any kind
# of message. Move the cut FORWARD (keeping a little less, never more) to the next
# row that is a user message, counting rows[cut] itself. If no user message follows,
# move it forward past any toolResult rows instead. The answer may be len(rows):
# then nothing can be kept, and compact will say no.
return cut
# --- end ---
'''

GAPS["compact"] = '''\
# --- your code ---
# Spec only: the tests import a single name, compact.
#
# compact(log, model, *, keep_recent_tokens) -> bool. `log` is a SessionLog and `model` is what
# writes the summary. Plan from log.rows() and find_cut. Summarise the rows before the cut with
# summarize, then append ONE entry, log.append_compaction(summary, first_kept_id), where
# first_kept_id is the id of the row at the cut. Write nothing else, and leave the harness
# alone: maybe_compact, below, deals with it.
# Return True when it compacted. Return False, having appended nothing and asked the model
# nothing, when the cut leaves nothing to summarise (0) or nothing to keep (len(rows)).
# Return False, having appended nothing, when summarize raises RuntimeError: the session goes on
# uncompacted, and the user's prompt still gets its answer.
def compact(log, model, *, keep_recent_tokens):
    raise NotImplementedError("compact is lesson 12's lab 2: write it here")
# --- end ---
'''
