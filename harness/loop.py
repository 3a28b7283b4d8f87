"""Region 3, loop: the code that talks to the model (lessons 1-3, 5, 7, 9 and 10)."""

from .messages import error_message, tool_calls, user_message
from .tools import run_tool, tool_specs

# == 3 loop ==
# Everything that talks to the model. Between two calls the model holds nothing at all.


def run_agent(model, system, messages, tools, prompt, *, max_turns=None, get_steering=None,
              get_follow_ups=None):
    """Send `prompt` to the model and go on until it asks for no more tools, a reply comes back
    failed (stop_reason "error"), or `max_turns` model calls have been made (None: no limit).

    A generator of events, plain dicts with a "type" that report what happened and draw nothing.
    They always come in balanced pairs, whichever way the run ends: agent_start ... agent_end
    around the run and turn_start ... turn_end around each turn. The single ordering rule is
    mutate, then announce: a message is appended to `messages` (the caller's list, which is the
    record) before its message_end is yielded. The last message of agent_end's "messages" is the
    final one.

    The user may speak while a run is going on, and the loop asks for their words only at points
    where a user message keeps the transcript valid. `get_steering` and `get_follow_ups` take no
    arguments and return a list of user messages, usually empty: steering is asked for once every
    call of a turn has its result, follow-ups only when the run would otherwise be over. The loop
    never sees a queue."""
    new = []  # the messages of this run, for agent_end

    def record(message):
        """Append `message` to the record first, then return the event that announces it."""
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    def ask(get):
        """The user messages `get` has waiting: [] when it has none or was not given."""
        return list(get()) if get else []

    yield {"type": "agent_start"}
    turn, calls, failed = 0, [], False
    # What opens the next turn. Steering queued while nothing ran goes in with the prompt.
    pending = [user_message(prompt)] + ask(get_steering)
    while pending:                      # outer loop: the prompt, then each follow-up
        while calls or pending:         # inner loop: each pass is one turn
            turn += 1
            yield {"type": "turn_start"}
            for message in pending:     # the top of a turn is the only place a user may speak
                yield record(message)
            pending = []
            if max_turns is not None and turn > max_turns:  # checked before a call, not after
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            else:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            yield record(reply)
            # Nothing in a failed reply is acted on, and nobody is asked for more.
            failed = reply["stop_reason"] == "error"
            calls = [] if failed else tool_calls(reply)
            for call in calls:
                yield {"type": "tool_execution_start", "call": call}
                result = run_tool(tools, call)
                yield record(result)    # nothing may come between the tool returning and this
                yield {"type": "tool_execution_end", "call": call, "result": result}
            yield {"type": "turn_end", "message": reply}
            if not failed:
                pending = ask(get_steering)     # every call of the turn is answered by now
        if not failed:
            pending = ask(get_follow_ups)       # no calls and no steering: the run would end
    yield {"type": "agent_end", "messages": new}  # the only exit, so every exit is balanced


def context_for_model(messages):
    """What the model is sent, which is not the record: the record keeps what happened, and this
    builds from it, for every request, a transcript a provider will accept. Failed assistant
    messages with nothing in them are dropped (a failed reply that said something stays), then
    every call is paired with a result. Returns a new list and leaves the record alone."""
    kept = [m for m in messages
            if not (m["role"] == "assistant" and not m["content"]
                    and m.get("stop_reason") == "error")]
    return repair_tool_history(kept)


INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")


def repair_tool_history(messages):
    """A copy of `messages` in which each tool call is followed straight away by exactly one
    result, in the order of the calls. A recorded result is kept and moved to its place; when a
    call has two, the first wins; a result whose call appears nowhere is dropped (its call's
    arguments are unknown, so no call can be made up for it); a call without a result is given
    INTERRUPTED, marked is_error. Pure and idempotent: returns a new list of the same message
    objects, equal to the input when the input was already valid. Call ids are assumed unique."""
    recorded = {}  # call id -> the first result recorded for it
    for m in messages:
        if m["role"] == "toolResult":
            recorded.setdefault(m["tool_call_id"], m)
    repaired = []
    for m in messages:
        if m["role"] == "toolResult":
            continue  # every result is put back below, straight after its call
        repaired.append(m)
        if m["role"] == "assistant":
            for call in tool_calls(m):
                repaired.append(recorded.get(call["id"]) or {
                    "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                    "content": INTERRUPTED, "is_error": True})
    return repaired
