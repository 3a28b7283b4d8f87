"""Wrong answers to lesson 16's gaps: each is a design one of the lesson's rungs argues against,
and its docstring names that rung (its id in RUNGS). The lab tests must catch every one with a
visible test, in a sentence that names the function at fault (tests/lessons/test_checks.py).

Each differs from the reference only where its docstring says; the rest is the reference's,
taken from the package."""

import json
import re

from harness import (PORTABLE_ID, chat_reply, error_message, merge_runs, text_of, tool_call_line,
                     tool_calls, tools_prompt)
from harness.adapters import provider_error

_COUNTER = [0]


# -- portable_id ----------------------------------------------------------------------------------

def portable_id_counts(call_id):
    """Invents a fresh id for every id that does not fit (ids: the same call gets a new id in the
    next request, so a resumed session no longer pairs its calls with their results)."""
    if PORTABLE_ID.fullmatch(call_id):
        return call_id
    _COUNTER[0] += 1
    return f"tc_{_COUNTER[0]}"


def portable_id_underscores(call_id):
    """Replaces each refused character with "_" (ids: "a.b" and "a_b" become one id)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", call_id)[:64] or "_"


# -- merge_runs -----------------------------------------------------------------------------------

def merge_runs_in_place(turns):
    """Joins each run into its first turn's own dict (where-merge: the merge lands in the dicts
    it was handed, which may be the record's)."""
    merged = []
    for turn in turns:
        if merged and merged[-1]["role"] == turn["role"]:
            merged[-1]["content"] += "\n\n" + turn["content"]
        else:
            merged.append(turn)
    return merged


# -- template_messages ----------------------------------------------------------------------------

def _turn(m, results=True):
    if m["role"] == "toolResult":
        kind = "error from" if m.get("is_error") else "result of"
        return {"role": "user", "content": f"[{kind} call {m['tool_call_id']}, {m['tool_name']}]\n{m['content']}"}
    if m["role"] == "assistant":
        lines = ([text_of(m)] if text_of(m) else []) + [tool_call_line(c) for c in tool_calls(m)]
        return {"role": "assistant", "content": "\n".join(lines)}
    return {"role": m["role"], "content": m["content"]}


def _system(system, tools):
    return {"role": "system", "content": system + ("\n\n" + tools_prompt(tools) if tools else "")}


def template_messages_merges_record(system, messages, tools):
    """Merges the runs in the record itself, so the fix is made once (where-merge: the record no
    longer says what happened, and the log replays a history that never was)."""
    i = 1
    while i < len(messages):
        if messages[i]["role"] == "user" and messages[i - 1]["role"] == "user":
            messages[i - 1] = {"role": "user", "content": messages[i - 1]["content"] + "\n\n" + messages[i]["content"]}
            del messages[i]
        else:
            i += 1
    return merge_runs([_system(system, tools)] + [_turn(m) for m in messages])


def template_messages_drops_results(system, messages, tools):
    """Leaves the tool results out, since the template has no role for them (no-tool-role: the
    model sees its call unanswered and asks again)."""
    return merge_runs([_system(system, tools)] + [_turn(m) for m in messages if m["role"] != "toolResult"])


def template_messages_bare_results(system, messages, tools):
    """Sends each result's bare text as a user turn (no-tool-role: nothing says which call it
    answers, nor that a tool, not the user, is speaking)."""
    turns = [_system(system, tools)]
    for m in messages:
        turns.append({"role": "user", "content": m["content"]} if m["role"] == "toolResult" else _turn(m))
    return merge_runs(turns)


# -- chat_request ---------------------------------------------------------------------------------

def chat_request_numbers_ids(system, messages, tools, model):
    """Numbers the calls of each request afresh, call_1, call_2, ... (ids: once a compaction drops
    the early calls, the same call has another number, and a resumed request pairs wrongly)."""
    sent, numbers = [{"role": "system", "content": system}], {}

    def number(call_id):
        return numbers.setdefault(call_id, f"call_{len(numbers) + 1}")
    for m in messages:
        if m["role"] == "toolResult":
            sent.append({"role": "tool", "tool_call_id": number(m["tool_call_id"]), "content": m["content"]})
        elif m["role"] == "assistant":
            message = {"role": "assistant", "content": text_of(m) or None}
            calls = [{"id": number(c["id"]), "type": "function",
                      "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                     for c in tool_calls(m)]
            if calls:
                message["tool_calls"] = calls
            sent.append(message)
        else:
            sent.append({"role": "user", "content": m["content"]})
    body = {"model": model, "messages": sent, "stream": False}
    if tools:
        body["tools"] = [{"type": "function", "function": dict(spec)} for spec in tools]
    return body


def chat_request_raw_ids(system, messages, tools, model):
    """Sends every id exactly as the record has it (ids: "toolu_01.w" is not an id every provider
    takes, and a result must carry the same id its call went out with)."""
    body = chat_request_numbers_ids(system, messages, tools, model)
    ids = iter([c["id"] for m in messages if m["role"] == "assistant" for c in tool_calls(m)])
    results = iter([m["tool_call_id"] for m in messages if m["role"] == "toolResult"])
    for m in body["messages"]:
        for c in m.get("tool_calls") or []:
            c["id"] = next(ids)
        if m["role"] == "tool":
            m["tool_call_id"] = next(results)
    return body


# -- chat_reply -----------------------------------------------------------------------------------

def chat_reply_raises(raw):
    """Raises on any status but 200, so that the loop can catch it and try again (retry-where:
    the loop is no place for a retry, and lesson 5's contract breaks: the run dies)."""
    status, _, body = raw
    if status != 200:
        raise RuntimeError(f"HTTP {status}: {provider_error(body)}")
    return chat_reply(raw)


def chat_reply_too_long_by_status(raw):
    """Takes every 400 for "prompt is too long" (too-long: a bad tool schema is a 400 too, and a
    compaction would throw away history to fix a bug; a 413 is missed)."""
    status, _, body = raw
    if status == 400:
        return error_message(f"prompt is too long: {provider_error(body)}")
    if status != 200:
        return error_message(f"{status} from the provider: {provider_error(body)}")
    return chat_reply(raw)


WRONG = {
    1: {"portable_id": [portable_id_counts, portable_id_underscores],
        "merge_runs": [merge_runs_in_place],
        "template_messages": [template_messages_merges_record, template_messages_drops_results,
                              template_messages_bare_results]},
    2: {"chat_request": [chat_request_numbers_ids, chat_request_raw_ids],
        "chat_reply": [chat_reply_raises, chat_reply_too_long_by_status]},
}
