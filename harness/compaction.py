"""Region 6, environment, continued: compaction, so a session outlasts the context window
(lesson 12)."""

from .messages import render, text_of, user_message


def estimate_tokens(messages):
    """Roughly how many tokens `messages` cost, at four characters a token. Needs no tokenizer and
    gives the same answer every time; it counts low, so leave room."""
    return len(render(messages)) // 4


SUMMARY_SYSTEM = ("You summarise a conversation between a user and a coding agent. Do NOT continue "
                  "the conversation and do NOT answer any question in it. Reply with the summary "
                  "only: the goal, what is done, what comes next, exact file paths and errors.")


def summarize(model, messages):
    """A summary of `messages`, got from a single model call that belongs to no transcript: the
    call has its own system prompt, SUMMARY_SYSTEM; one user message, the rendered conversation
    between <conversation> tags on lines of their own; and no tools, so summarising is the only
    thing left to do. Returns the reply's text, stripped. Raises RuntimeError when the reply
    failed or holds no text. `messages` is only read."""
    ### BEGIN SOLUTION
    document = user_message("\n".join(["<conversation>", render(messages), "</conversation>"]))
    reply = model.complete(SUMMARY_SYSTEM, [document], [])
    summary = text_of(reply).strip()
    if reply["stop_reason"] == "error" or not summary:
        raise RuntimeError(f"no summary: {reply.get('error_message', 'the reply was empty')}")
    return summary
    ### END SOLUTION


def find_cut(rows, keep_recent_tokens):
    """Where to cut `rows` (as SessionLog.rows() returns them) for a compaction: the index of the
    first row to keep; the rows before it are summarised. 0 means everything fits in
    `keep_recent_tokens`. The cut lands on a turn boundary, a user message, and where there is
    none, at least never on a tool result: a kept tail opening on a result whose call was
    summarised away earns a 400. The answer may be len(rows): nothing can be kept."""
    cut, kept = len(rows), 0
    while cut > 0 and kept < keep_recent_tokens:  # walk back from the newest row
        cut -= 1
        kept += estimate_tokens([rows[cut][1]])
    if kept < keep_recent_tokens:
        return 0
    ### BEGIN SOLUTION
    # Only ever forward, so the tail never grows past the budget.
    users = [i for i in range(cut, len(rows)) if rows[i][1]["role"] == "user"]
    if users:
        return users[0]
    while cut < len(rows) and rows[cut][1]["role"] == "toolResult":
        cut += 1
    return cut
    ### END SOLUTION


def compact(log, model, *, keep_recent_tokens):
    """Compact the session in `log` (a SessionLog), with `model` writing the summary. The plan
    comes from log.rows() and find_cut: the rows before the cut are summarised with summarize,
    then exactly one entry is appended, log.append_compaction(summary, id of the row at the
    cut). Nothing else is written and no harness is touched (maybe_compact does that). Returns
    True when it compacted. Returns False, having appended nothing and asked the model nothing,
    when the cut is 0 (nothing to summarise) or len(rows) (nothing to keep); and False, having
    appended nothing, when summarize raises RuntimeError: the session goes on uncompacted and
    the user's prompt is still answered."""
    ### BEGIN SOLUTION
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    if cut in (0, len(rows)):
        return False
    try:
        summary = summarize(model, [message for _, message in rows[:cut]])
    except RuntimeError:
        return False  # a failed housekeeping call must not cost the user their prompt
    log.append_compaction(summary, rows[cut][0])  # the row's own id: ids and positions differ
    return True
    ### END SOLUTION


def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
    """Compact when the transcript has come within `reserve` tokens of the context `window`, then
    hand the harness what the log replays now. For the code around the harness to call before
    each prompt, never while a run is going on. Returns True when it compacted."""
    if harness.is_running:
        raise RuntimeError("cannot compact during a run")
    if estimate_tokens(harness.messages) <= window - reserve:
        return False
    if not compact(log, model, keep_recent_tokens=keep_recent_tokens):
        return False
    harness.replace_messages(log.replay())
    return True
