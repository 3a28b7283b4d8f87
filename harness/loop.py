"""Region 3, loop: the code that talks to the model (lessons 1-3, 5, 7, 9 and 10)."""

from .messages import error_message, tool_calls, user_message
from .tools import run_tool, tool_specs

# == 3 loop ==
# Everything that talks to the model. Between two calls the model holds nothing at all.


def run_agent(model, system, messages, tools, prompt, *, max_turns=None, get_steering=None,
              get_follow_ups=None):
    """Give `prompt` to the model, and keep at it until the model wants no more tools, a reply
    fails (stop_reason "error"), or `max_turns` model calls are spent (None means no limit).

    Yields events: plain dicts with a "type", which report and never draw. However the run ends
    they pair up, agent_start with agent_end for the run, turn_start with turn_end for each
    turn. Mutate first, announce second: a message joins `messages` (the caller's list, i.e. the
    record) before the message_end that reports it. agent_end's "messages" ends on the final one.

    A user can talk during a run; their words are fetched only at moments when one more user
    message leaves the transcript valid. `get_steering` and `get_follow_ups` are called with no
    arguments and return a (usually empty) list of user messages. Steering is fetched once each
    call of a turn is answered; follow-ups only when the run has nothing left to do. No queue is
    ever visible to the loop."""
    new = []  # what this run added, handed over with agent_end

    def record(message):
        """Put `message` in the record, then return the event that tells of it."""
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    def ask(get):
        """Whatever user messages `get` is holding: [] if none, or if it was never passed."""
        return list(get()) if get else []

    yield {"type": "agent_start"}
    turn, calls = 0, []
    # The user messages that open the next turn. Steering queued before the run joins the prompt.
    waiting = [user_message(prompt)] + ask(get_steering)
    while waiting or calls:             # one pass, one turn; calls still unanswered force another
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:         # a user may only speak here, where a turn begins
            yield record(message)
        if max_turns is not None and turn > max_turns:  # tested before calling, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            ### BEGIN SOLUTION
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            ### END SOLUTION
        yield record(reply)
        if reply["stop_reason"] == "error":
            # A failed reply ends the run: none of it is carried out, nobody is asked for more.
            yield {"type": "turn_end", "message": reply}
            break
        calls = tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)        # nothing may come between the tool returning and this
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = ask(get_steering)     # safe now: every call of the turn has its result
        if not calls and not waiting:
            waiting = ask(get_follow_ups)   # the run was about to end; anything more to do?
    yield {"type": "agent_end", "messages": new}  # the single way out keeps every exit balanced


def context_for_model(messages):
    """The view the model gets, as opposed to the record. The record holds what happened; from
    it, before each request, this makes a transcript that a provider takes: failed assistant
    messages with empty content go (one that failed after saying something stays), then calls
    and results are paired. A new list comes back; the record is not touched."""
    ### BEGIN SOLUTION
    return repair_tool_history([
        m for m in messages
        if m["role"] != "assistant" or m["content"] or m.get("stop_reason") != "error"])
    ### END SOLUTION


INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")


def repair_tool_history(messages):
    """A copy of `messages` in which each tool call is followed straight away by exactly one
    result, in the order of the calls. A recorded result is kept and moved to its place; when a
    call has two, the first wins; a result whose call appears nowhere is dropped (its call's
    arguments are unknown, so no call can be made up for it); a call without a result is given
    INTERRUPTED, marked is_error. Pure and idempotent: returns a new list of the same message
    objects, equal to the input when the input was already valid. Call ids are assumed unique."""
    ### BEGIN SOLUTION
    first_result = {}
    for m in messages:
        if m["role"] == "toolResult" and m["tool_call_id"] not in first_result:
            first_result[m["tool_call_id"]] = m
    out = []
    for m in (m for m in messages if m["role"] != "toolResult"):  # results return below
        out.append(m)
        for call in tool_calls(m) if m["role"] == "assistant" else []:
            out.append(first_result.get(call["id"]) or {
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": INTERRUPTED, "is_error": True})
    return out
    ### END SOLUTION
