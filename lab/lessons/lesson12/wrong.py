"""Wrong answers to lesson 12's gaps: each is a design one of the lesson's rungs argues against,
and its docstring names that rung (its id in RUNGS, or the lab's hint ladder). The lab tests must
catch every one with a visible test, in a sentence that names the function at fault
(tests/lessons/test_checks.py)."""

import harness
from harness import SUMMARY_PREFIX, SUMMARY_SYSTEM, find_cut, render, summarize, text_of, user_message


def _ask(model, system, messages, tools):
    reply = model.complete(system, messages, tools)
    failed, words = reply["stop_reason"] == "error", text_of(reply).strip()
    if words and not failed:
        return words
    raise RuntimeError("the summary call gave nothing usable")


def _wrapped(messages):
    return user_message(f"<conversation>\n{render(messages)}\n</conversation>")


# -- summarize --------------------------------------------------------------------------------

def summarize_with_agents_system_prompt(model, messages):
    """Asks in the agent's voice: the summariser carries on the conversation (summary-request)."""
    return _ask(model, harness.SYSTEM, [_wrapped(messages)], [])


def summarize_offering_tools(model, messages):
    """Offers the agent's tools: the summariser has something to do besides summarising
    (summary-request, and lab 1's hint ladder)."""
    tools = harness.tool_specs([harness.make_read_tool(None)])
    return _ask(model, SUMMARY_SYSTEM, [_wrapped(messages)], tools)


def summarize_appended_to_messages(model, messages):
    """Appends the request to the transcript, as if it were a prompt of the session
    (summary-request)."""
    messages.append(user_message("Summarise the conversation so far."))
    return _ask(model, SUMMARY_SYSTEM, list(messages), [])


def summarize_returns_empty(model, messages):
    """Takes nothing for a summary when the call fails (compaction-fails: "some summary is better
    than none")."""
    reply = model.complete(SUMMARY_SYSTEM, [_wrapped(messages)], [])
    return text_of(reply).strip()


def summarize_as_conversation(model, messages):
    """Sends the transcript itself and a request at the end, instead of one quoted document
    (summary-request)."""
    return _ask(model, SUMMARY_SYSTEM, list(messages) + [user_message("Summarise the conversation.")], [])


def summarize_unstripped(model, messages):
    """Returns the reply as it came, white space and all (lab 1's hint ladder, step 3)."""
    reply = model.complete(SUMMARY_SYSTEM, [_wrapped(messages)], [])
    if reply["stop_reason"] == "error" or not text_of(reply).strip():
        raise RuntimeError("no summary")
    return text_of(reply)


def summarize_tools_none(model, messages):
    """Says "no tools" with None instead of the empty list [] (summary-request: the call offers
    no tools, and says so)."""
    return _ask(model, SUMMARY_SYSTEM, [_wrapped(messages)], None)


# -- find_cut ---------------------------------------------------------------------------------

def _walk_back(rows, budget):
    """(where the given walk back stops, what it added up)."""
    position, spent = len(rows), 0
    for position in reversed(range(len(rows))):
        spent += harness.estimate_tokens([rows[position][1]])
        if spent >= budget:
            break
    return (position if rows else 0), spent


def find_cut_moves_backwards(rows, keep_recent_tokens):
    """Keeps the call with its results by stepping back to the previous user message (tail-start:
    the tail would outgrow its budget)."""
    cut, kept = _walk_back(rows, keep_recent_tokens)
    if kept < keep_recent_tokens:
        return 0
    while cut > 0 and rows[cut][1]["role"] != "user":
        cut -= 1
    return cut


def find_cut_stays_put(rows, keep_recent_tokens):
    """Wherever the walk back stopped, tool result or not (strict-cut)."""
    cut, kept = _walk_back(rows, keep_recent_tokens)
    return 0 if kept < keep_recent_tokens else cut


def find_cut_skips_results_only(rows, keep_recent_tokens):
    """Steps past tool results but never looks for the next user message (tail-start: a tail
    that opens mid-reply splits a prompt from its work)."""
    cut, kept = _walk_back(rows, keep_recent_tokens)
    if kept < keep_recent_tokens:
        return 0
    while cut < len(rows) and rows[cut][1]["role"] == "toolResult":
        cut += 1
    return cut


def find_cut_without_fallback(rows, keep_recent_tokens):
    """Looks for the next user message and, finding none, stays where the walk stopped, on a tool
    result if that is where it was (strict-cut)."""
    cut, kept = _walk_back(rows, keep_recent_tokens)
    if kept < keep_recent_tokens:
        return 0
    users = [i for i in range(cut, len(rows)) if rows[i][1]["role"] == "user"]
    return users[0] if users else cut


# -- SessionLog.rows --------------------------------------------------------------------------

def rows_by_position(self):
    """Reads "e6" as the sixth row: right until ids and positions part company (live-list: the
    hand edit that read "e10" as a position)."""
    rows = []
    for entry in self.entries():
        if entry["type"] == "message":
            rows.append((entry["id"], entry["message"]))
        elif entry["type"] == "compaction":
            start = int(entry["first_kept_id"][1:]) - 1
            rows = [(entry["id"], user_message(SUMMARY_PREFIX + entry["summary"]))] + rows[start:]
    return rows


def rows_summary_appended(self):
    """Adds the summary as one more message and drops nothing (what-to-append: "add the summary
    as one more user message")."""
    rows = []
    for entry in self.entries():
        if entry["type"] == "message":
            rows.append((entry["id"], entry["message"]))
        else:
            rows.append((entry["id"], user_message(SUMMARY_PREFIX + entry["summary"])))
    return rows


def rows_as_generator(self):
    """Right answer, wrong kind: a generator can be read only once (lab 2's hint ladder: "hand
    back a real list")."""
    yield from harness.SessionLog.rows(self)


def rows_without_prefix(self):
    """Puts the bare summary in the user's voice, without SUMMARY_PREFIX (replay-count: the
    summary is read out as a message that says what it is)."""
    rows = []
    for entry in self.entries():
        if entry["type"] == "message":
            rows.append((entry["id"], entry["message"]))
        elif entry["type"] == "compaction":
            found = next((k for k, (row_id, _) in enumerate(rows) if row_id == entry["first_kept_id"]), None)
            tail = [] if found is None else rows[found:]
            rows = [(entry["id"], user_message(entry["summary"]))] + tail
    return rows


# -- compact ----------------------------------------------------------------------------------

def compact_id_by_position(log, model, *, keep_recent_tokens):
    """Names the row at the cut as f"e{cut + 1}", a position (live-list, and lab 2's hint
    ladder)."""
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    if cut in (0, len(rows)):
        return False
    try:
        summary = summarize(model, [m for _, m in rows[:cut]])
    except RuntimeError:
        return False
    log.append_compaction(summary, f"e{cut + 1}")
    return True


def compact_without_refusals(log, model, *, keep_recent_tokens):
    """Asks for a summary whatever the cut says, even when there is nothing to summarise or keep
    (no-entry)."""
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    try:
        summary = summarize(model, [m for _, m in rows[:cut]])
    except RuntimeError:
        return False
    log.append_compaction(summary, rows[cut][0] if cut < len(rows) else "none")
    return True


def compact_writes_after_503(log, model, *, keep_recent_tokens):
    """Writes the entry anyway when the summary call fails, "some summary is better than none"
    (compaction-fails)."""
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    if cut in (0, len(rows)):
        return False
    try:
        summary = summarize(model, [m for _, m in rows[:cut]])
    except RuntimeError:
        summary = ""
    log.append_compaction(summary, rows[cut][0])
    return True


def compact_raises_on_503(log, model, *, keep_recent_tokens):
    """Lets the failed summary call escape, and with it the user's prompt (compaction-fails:
    "raise")."""
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    if cut in (0, len(rows)):
        return False
    log.append_compaction(summarize(model, [m for _, m in rows[:cut]]), rows[cut][0])
    return True


def compact_sends_everything(log, model, *, keep_recent_tokens):
    """Summarises the whole session, the kept tail included (throw-away: the tail is kept word for
    word, so summarising it pays twice)."""
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    if cut in (0, len(rows)):
        return False
    try:
        summary = summarize(model, [m for _, m in rows])
    except RuntimeError:
        return False
    log.append_compaction(summary, rows[cut][0])
    return True


WRONG = {
    1: {"summarize": [summarize_with_agents_system_prompt, summarize_offering_tools,
                      summarize_appended_to_messages, summarize_returns_empty,
                      summarize_as_conversation, summarize_unstripped, summarize_tools_none]},
    2: {"find_cut": [find_cut_moves_backwards, find_cut_stays_put, find_cut_skips_results_only,
                     find_cut_without_fallback],
        "SessionLog.rows": [rows_by_position, rows_summary_appended, rows_as_generator,
                            rows_without_prefix],
        "compact": [compact_id_by_position, compact_without_refusals, compact_writes_after_503,
                    compact_raises_on_503, compact_sends_everything]},
}
