"""Wrong answers to lesson 10's gaps. Each is a design that a question of the lesson argues against
(its docstring names the question), and the lab tests must catch every one with a sentence that
names the function at fault."""

import copy

from harness import INTERRUPTED, context_for_model, error_message, tool_calls, user_message
from harness.tools import run_tool, tool_specs


def _stand_in(call, content=INTERRUPTED, is_error=True):
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}


def _results(messages, keep_last=False):
    found = {}
    for m in messages:
        if m["role"] == "toolResult" and (keep_last or m["tool_call_id"] not in found):
            found[m["tool_call_id"]] = m
    return found


# -- repair_tool_history -------------------------------------------------------------------------

def repair_dropping_the_call(messages):
    """Leaves out every call that has no result, and an assistant message left with nothing: clean,
    and it hides that b.py may be half written (what-for-w2)."""
    answered = _results(messages)
    out = []
    for m in messages:
        if m["role"] == "toolResult":
            continue
        if m["role"] == "assistant":
            content = [b for b in m["content"] if b["type"] != "toolCall" or b["id"] in answered]
            if not content:
                continue
            m = dict(m, content=content)
        out.append(m)
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            out.append(answered[call["id"]])
    return out


def repair_faking_success(messages):
    """Answers a call with no result as if the tool had worked: the model carries on smoothly, on a
    lie (what-for-w2)."""
    answered = _results(messages)
    out = []
    for m in (m for m in messages if m["role"] != "toolResult"):
        out.append(m)
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            out.append(answered.get(call["id"]) or _stand_in(call, "Done.", is_error=False))
    return out


def repair_in_place(messages):
    """Inserts the stand-ins into the list it is given and returns it: one list is simpler, and
    the record no longer says what happened (record-or-view)."""
    answered = _results(messages)
    i = 0
    while i < len(messages):
        m = messages[i]
        if m["role"] == "assistant":
            for n, call in enumerate(tool_calls(m), start=1):
                if call["id"] not in answered:
                    messages.insert(i + n, _stand_in(call))
        i += 1
    return messages


def repair_keeping_orphans(messages):
    """Pairs the calls but leaves a result whose call is nowhere where it stands (orphan)."""
    answered = _results(messages)
    calls = {c["id"] for m in messages if m["role"] == "assistant" for c in tool_calls(m)}
    out = []
    for m in messages:
        if m["role"] == "toolResult":
            if m["tool_call_id"] not in calls:
                out.append(m)
            continue
        out.append(m)
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            out.append(answered.get(call["id"]) or _stand_in(call))
    return out


def repair_inventing_calls(messages):
    """Gives an orphan result a call of its own, made up, with no arguments: nobody knows what
    they were (orphan)."""
    answered = _results(messages)
    calls = {c["id"] for m in messages if m["role"] == "assistant" for c in tool_calls(m)}
    out = []
    for m in messages:
        if m["role"] == "toolResult":
            if m["tool_call_id"] not in calls:
                made_up = {"type": "toolCall", "id": m["tool_call_id"], "name": m["tool_name"], "arguments": {}}
                out += [{"role": "assistant", "content": [made_up], "stop_reason": "toolUse"}, m]
            continue
        out.append(m)
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            out.append(answered.get(call["id"]) or _stand_in(call))
    return out


def repair_last_result_wins(messages):
    """Of two results for one call keeps the newest: the model's past changes under it
    (two-results)."""
    answered = _results(messages, keep_last=True)
    out = []
    for m in (m for m in messages if m["role"] != "toolResult"):
        out.append(m)
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            out.append(answered.get(call["id"]) or _stand_in(call))
    return out


def repair_keeping_both_results(messages):
    """Puts every result of a call after it, two for one call included: a 400 (two-results)."""
    out = []
    for m in (m for m in messages if m["role"] != "toolResult"):
        out.append(m)
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            mine = [r for r in messages if r["role"] == "toolResult" and r["tool_call_id"] == call["id"]]
            out += mine or [_stand_in(call)]
    return out


def repair_leaving_results_where_they_are(messages):
    """Only adds a stand-in where a call's result is missing, and leaves a result recorded out of
    place where it is: still a 400 (the lab's spec: results go right after their call)."""
    answered = _results(messages)
    out = []
    for m in messages:
        out.append(m)
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            if call["id"] not in answered:
                out.append(_stand_in(call))
    return out


def repair_copying_every_message(messages):
    """Returns deep copies of the messages: safe-looking, but the view no longer holds the record's
    own messages (record-or-view)."""
    answered = _results(messages)
    out = []
    for m in (m for m in messages if m["role"] != "toolResult"):
        out.append(copy.deepcopy(m))
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            out.append(copy.deepcopy(answered.get(call["id"])) or _stand_in(call))
    return out


def repair_pairing_by_position(messages):
    """Gives the k-th call the k-th recorded result, with the call's id written over the result's:
    the ids a scripted model counts out (c1, c2, ...) line up with places, so this looks right
    until a result comes back out of order (what-for-w2: a result belongs to the call it names)."""
    results = [m for m in messages if m["role"] == "toolResult"]
    out, k = [], 0
    for m in (m for m in messages if m["role"] != "toolResult"):
        out.append(m)
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            if k < len(results):
                out.append(dict(results[k], tool_call_id=call["id"], tool_name=call["name"]))
            else:
                out.append(_stand_in(call))
            k += 1
    return out


def repair_renumbering_ids(messages):
    """Renumbers every call c1, c2, ... in the order the calls appear, and each result after the
    call it names, so the ids look tidy: the model's own ids are what its next reply refers to,
    and a resumed record holds ids no counter makes (what-for-w2)."""
    names, out = {}, []
    for m in messages:
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            names.setdefault(call["id"], f"c{len(names) + 1}")
    for m in _repair(messages):
        if m["role"] == "assistant" and tool_calls(m):
            m = dict(m, content=[dict(b, id=names[b["id"]]) if b["type"] == "toolCall" else b
                                 for b in m["content"]])
        elif m["role"] == "toolResult":
            m = dict(m, tool_call_id=names[m["tool_call_id"]])
        out.append(m)
    return out


# -- context_for_model ---------------------------------------------------------------------------

def _repair(messages):
    from harness import repair_tool_history
    return repair_tool_history(messages)


def context_dropping_every_failed_reply(messages):
    """Leaves out every failed reply, the one that said something too (failed-replies)."""
    return _repair([m for m in messages if m.get("stop_reason") != "error"])


def context_keeping_empty_failed_replies(messages):
    """Pairs the calls and keeps every failed reply, empty ones too: the 503's empty reply is a 400
    (failed-replies)."""
    return _repair(list(messages))


def context_patching_the_record(messages):
    """Writes the view into the record and returns it (record-or-view)."""
    messages[:] = _repair([m for m in messages
                           if not (m["role"] == "assistant" and not m["content"] and m.get("stop_reason") == "error")])
    return messages


def context_without_repair(messages):
    """Leaves out the empty failed replies and stops there: the dangling call still goes out
    (what-for-w2)."""
    return [m for m in messages
            if not (m["role"] == "assistant" and not m["content"] and m.get("stop_reason") == "error")]


# -- run_agent -----------------------------------------------------------------------------------

def _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups, send,
          first=None):
    """Lesson 9's loop with `send(messages)` as what goes to the model, and `first(messages)` run
    once before the first turn."""
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    def ask(get):
        return list(get()) if get else []

    yield {"type": "agent_start"}
    if first:
        for message in first(messages, tools):
            yield record(message)
    turn, calls = 0, []
    waiting = [user_message(prompt)] + ask(get_steering)
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, send(messages), tool_specs(tools))
        yield record(reply)
        if reply["stop_reason"] == "error":
            yield {"type": "turn_end", "message": reply}
            break
        calls = tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = ask(get_steering)
        if not calls and not waiting:
            waiting = ask(get_follow_ups)
    yield {"type": "agent_end", "messages": new}


def run_agent_sending_the_record(model, system, messages, tools, prompt, *, max_turns=None,
                                 get_steering=None, get_follow_ups=None):
    """Lesson 9's loop unchanged: it sends the record itself, hole and all (the wall)."""
    yield from _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                     send=lambda m: m)


def run_agent_repairing_the_record(model, system, messages, tools, prompt, *, max_turns=None,
                                   get_steering=None, get_follow_ups=None):
    """Makes the view and writes it over the record before each call: one list, and the record no
    longer says what happened (record-or-view)."""
    def send(m):
        m[:] = context_for_model(m)
        return m
    yield from _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                     send=send)


def run_agent_rerunning_interrupted_calls(model, system, messages, tools, prompt, *, max_turns=None,
                                          get_steering=None, get_follow_ups=None):
    """Runs each call that has no result again before the next prompt: it may have run already,
    so that is two writes, or two payments (what-for-w2)."""
    def rerun(m, tools):
        done = {r["tool_call_id"] for r in m if r["role"] == "toolResult"}
        return [run_tool(tools, c) for a in list(m) if a["role"] == "assistant"
                for c in tool_calls(a) if c["id"] not in done]
    yield from _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                     send=context_for_model, first=rerun)


WRONG = {1: {
    "repair_tool_history": [repair_dropping_the_call, repair_faking_success, repair_in_place,
                            repair_keeping_orphans, repair_inventing_calls, repair_last_result_wins,
                            repair_keeping_both_results, repair_leaving_results_where_they_are,
                            repair_copying_every_message, repair_pairing_by_position,
                            repair_renumbering_ids],
    "context_for_model": [context_dropping_every_failed_reply, context_keeping_empty_failed_replies,
                          context_patching_the_record, context_without_repair],
    "run_agent": [run_agent_sending_the_record, run_agent_repairing_the_record,
                  run_agent_rerunning_interrupted_calls],
}}
