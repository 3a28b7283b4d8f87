"""Definitions as lesson 7 leaves them, for those that a later lesson rewrites: the loop as a
generator of events, before the user could speak during a run."""

from harness.messages import error_message, tool_calls, user_message
from harness.tools import run_tool, tool_specs


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Give `prompt` to the model, and keep at it until the model wants no more tools, a reply
    fails (stop_reason "error"), or `max_turns` model calls are spent (None means no limit).

    Yields events: plain dicts with a "type", which report and never draw. However the run ends
    they pair up, agent_start with agent_end for the run, turn_start with turn_end for each
    turn, a turn being one model call or the stop written in its place. Mutate first, announce
    second: a message joins `messages` (the caller's list, i.e. the record) before the
    message_end that reports it, and a tool's result is recorded the moment run_tool returns.
    agent_end's "messages" are the ones this run added, ending on the final one."""
    ### BEGIN SOLUTION
    new = []  # what this run added, handed over with agent_end

    def record(message):
        """Put `message` in the record, then return the event that tells of it."""
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    turn, calls, waiting = 0, [], [user_message(prompt)]
    while waiting or calls:             # one pass, one turn; calls still unanswered force another
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:  # tested before calling, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, messages, tool_specs(tools))
        yield record(reply)
        if reply["stop_reason"] == "error":
            yield {"type": "turn_end", "message": reply}  # a failed reply ends the run
            break
        calls = tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)        # nothing may come between the tool returning and this
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": new}  # the single way out keeps every exit balanced
    ### END SOLUTION
