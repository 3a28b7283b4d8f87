"""Definitions as lesson 9 leaves them, for those that a later lesson rewrites: the loop that takes
the user's words at safe points, before it sent a view of the record (lesson 10), and the harness
before it had listeners (lesson 11)."""

from collections import deque

from harness.messages import error_message, tool_calls, user_message
from harness.tools import run_tool, tool_specs


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
    ### BEGIN SOLUTION
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
            reply = model.complete(system, messages, tool_specs(tools))
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
    ### END SOLUTION


class Harness:

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._running = False
        self._steering, self._follow_ups = deque(), deque()

    def _run(self, text):
        """Every event of run_agent over the harness's own list and settings, the loop asking
        the two queues through _drain. However the run ends (used up, closed by its consumer, or
        raising), the inner run is closed and the harness is no longer running."""
        ### BEGIN SOLUTION
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._drain(self._steering),
                        get_follow_ups=lambda: self._drain(self._follow_ups))
        try:
            for event in run:
                yield event
        finally:  # however the run ends: exhausted, closed by its consumer, or raising
            run.close()
            self._running = False
        ### END SOLUTION
