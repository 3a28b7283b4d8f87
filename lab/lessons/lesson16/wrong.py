"""Wrong answers to lesson 16's gaps: each is a design one of the lesson's rungs argues against,
and its docstring names that rung (its id in RUNGS), or a clause of the gap's contract that a
test holds it to. The lab tests must catch every one in WRONG with a visible test, in a sentence
that names the function at fault (tests/lessons/test_checks.py).

Each differs from the reference only where its docstring says; the rest is the reference's,
taken from the package, or, for chat_request and chat_reply, written out here (_request,
_chat_reply): graded, a wrong answer goes into the gap's own name, so it cannot call that name
for the reference (tests/grading/test_wrong_answers.py grades each one)."""

import json
import re

from harness import (PORTABLE_ID, STOP_REASONS, TOO_LONG, chat_reply, error_message, merge_runs,
                     portable_id, text_of, tool_call_line, tool_calls, tools_prompt)
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


def template_messages_result_on_the_label_line(system, messages, tools):
    """Writes a result on its label's own line, "[result of call c1, read] A." (the contract puts
    it on the next line: the label stands alone, and a result that opens with a bracket cannot
    be read as part of it)."""
    turns = [_system(system, tools)]
    for m in messages:
        turn = _turn(m)
        if m["role"] == "toolResult":
            turn["content"] = turn["content"].replace("]\n", "] ", 1)
        turns.append(turn)
    return merge_runs(turns)


# -- chat_request ---------------------------------------------------------------------------------

def _request(system, messages, tools, model, call_id, with_tools=True):
    """The reference's chat_request, written out here (graded, the name chat_request is the wrong
    answer itself), with each id made by `call_id` and the tools sent only `with_tools`."""
    sent = [{"role": "system", "content": system}]
    for m in messages:
        if m["role"] == "toolResult":
            sent.append({"role": "tool", "tool_call_id": call_id(m["tool_call_id"]), "content": m["content"]})
        elif m["role"] == "assistant":
            message = {"role": "assistant", "content": text_of(m) or None}
            calls = [{"id": call_id(c["id"]), "type": "function",
                      "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                     for c in tool_calls(m)]
            if calls:
                message["tool_calls"] = calls
            sent.append(message)
        else:
            sent.append({"role": "user", "content": m["content"]})
    body = {"model": model, "messages": sent, "stream": False}
    if tools and with_tools:
        body["tools"] = [{"type": "function", "function": dict(spec)} for spec in tools]
    return body


def chat_request_numbers_ids(system, messages, tools, model):
    """Numbers the calls of each request afresh, call_1, call_2, ... (ids: once a compaction drops
    the early calls, the same call has another number, and a resumed request pairs wrongly)."""
    numbers = {}
    return _request(system, messages, tools, model,
                    lambda call_id: numbers.setdefault(call_id, f"call_{len(numbers) + 1}"))


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


def chat_request_without_tools(system, messages, tools, model):
    """Leaves the tools out of the body (three-things: what the provider is told beyond the
    record includes the tool specs, in the field this format has for them; a model sent none can
    call none, though a scripted server calls them anyway)."""
    return _request(system, messages, tools, model, portable_id, with_tools=False)


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


def _chat_reply(raw, *, words="{status} from the provider: {said}", cache_read=True,
                unknown="toolUse if calls"):
    """The reference's chat_reply, written out here (a wrong answer cannot call the gap it stands
    for: graded, that name is the wrong answer itself), with three of its clauses as arguments."""
    status, _headers, body = raw
    if status != 200:
        said = provider_error(body)
        if any(w in said.lower() for w in TOO_LONG):
            return error_message(f"prompt is too long: {said}")
        return error_message(words.format(status=status, said=said))
    try:
        data = json.loads(body)
        choice, content = data["choices"][0], []
        message = choice["message"]
        if message.get("content"):
            content.append({"type": "text", "text": message["content"]})
        for call in message.get("tool_calls") or []:
            content.append({"type": "toolCall", "id": call["id"], "name": call["function"]["name"],
                            "arguments": json.loads(call["function"]["arguments"] or "{}")})
        usage = data.get("usage") or {}
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as error:
        return error_message(f"the provider's reply could not be read ({type(error).__name__}: {error})")
    calls = any(block["type"] == "toolCall" for block in content)
    fallback = "toolUse" if calls or unknown == "toolUse" else "stop"
    usage = {"input": usage.get("prompt_tokens", 0), "cache_read": 0,
             "output": usage.get("completion_tokens", 0)}
    if not cache_read:
        del usage["cache_read"]
    return {"role": "assistant", "content": content,
            "stop_reason": STOP_REASONS.get(choice.get("finish_reason"), fallback), "usage": usage}


def chat_reply_own_words(raw):
    """Words a failed reply its own way, "HTTP 429: ..." (failed-reply: the contract's "<status>
    from the provider: " and the provider's message is what the record keeps and the learner's
    later lessons read)."""
    return _chat_reply(raw, words="HTTP {status}: {said}")


def chat_reply_without_cache_read(raw):
    """Gives usage its input and output alone (the record's usage always holds cache_read, 0 where
    the format reports none, as the other adapters' replies do)."""
    return _chat_reply(raw, cache_read=False)


def chat_reply_unknown_finish_is_tool_use(raw):
    """Takes any finish_reason it does not know for "toolUse" (a reply stopped by a content filter,
    with text and no calls, would send the loop looking for calls that are not there)."""
    return _chat_reply(raw, unknown="toolUse")


WRONG = {
    1: {"portable_id": [portable_id_counts, portable_id_underscores],
        "merge_runs": [merge_runs_in_place],
        "template_messages": [template_messages_merges_record, template_messages_drops_results,
                              template_messages_bare_results, template_messages_result_on_the_label_line]},
    2: {"chat_request": [chat_request_numbers_ids, chat_request_raw_ids, chat_request_without_tools],
        "chat_reply": [chat_reply_raises, chat_reply_too_long_by_status, chat_reply_own_words,
                       chat_reply_without_cache_read]},
}

# A wrong answer only a hidden test catches (tests/lessons/test_hidden_wrong.py).
HIDDEN_WRONG = {2: {"chat_reply": [chat_reply_unknown_finish_is_tool_use]}}
