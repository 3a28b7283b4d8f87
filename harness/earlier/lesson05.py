"""Definitions as lesson 5 leaves them, for those that a later lesson rewrites: the loop with its
brakes, before it reported events."""

from harness.messages import error_message, tool_calls, user_message
from harness.tools import run_tool, tool_specs


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Put `prompt` to the model and carry out the tool calls it asks for, round after round.
    Three things end the run: a reply that asks for no tools; a reply marked as failed, with
    stop_reason "error"; and the limit, once this run has made `max_turns` model calls (None
    sets no limit). Returns the message that ended the run, and never raises for any of them.
    An exception raised by model.complete is none of the three: there is no try around the
    call, so the exception goes up unchanged, the record as it stood before the call (turning a
    provider's exceptions into failed replies is the work of an adapter in front of the model).

    `messages` is the caller's list, i.e. the record: the user message for `prompt` goes on it
    first, then the whole list is sent with `system` and tool_specs(tools) in every request, and
    each reply is appended exactly as it came back. The calls of a reply are run by run_tool in
    the order asked, each result appended straight away with the id of the call it answers, and
    the model is asked again only once every call has its result.

    A turn is one model call. The limit is tested before a call, never after one: when the
    next call would be number max_turns + 1, error_message("Agent stopped after
    max_turns=<max_turns>") is appended in its place and returned, so the run never pays for a
    reply it will not act on. A failed reply is appended as it came, whatever it holds, and ends
    the run: none of its calls is run, and the model is not asked again."""
    ### BEGIN SOLUTION
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:  # before the call, never after
            stop = error_message(f"Agent stopped after max_turns={max_turns}")
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply  # recorded as it came; nothing in it is carried out
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))
    ### END SOLUTION
