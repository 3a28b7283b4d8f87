"""Wrong answers to lesson 05's gap, run_agent version 5. Each is a design one of the lesson's
questions argues against, and its docstring names that question (its id in RUNGS). A visible lab
test must catch every one, in a sentence that names run_agent (tests/lessons/test_checks.py).

They use the harness's own helpers, as a learner's harness.py would; the notebook's question
cells run several of them, so that the learner watches the argument happen on the same code the
tests reject."""

from harness.messages import error_message, tool_calls, user_message
from harness.tools import run_tool, tool_specs


def _limit(max_turns):
    return f"Agent stopped after max_turns={max_turns}"


def run_agent_checks_after(model, system, messages, tools, prompt, *, max_turns=None):
    """Counts the call first and tests the limit afterwards, so the call that breaks the limit
    has already been made and paid for: one model call too many (limit-3, before-after)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        if max_turns is not None and turns > max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_stops_after_reply(model, system, messages, tools, prompt, *, max_turns=None):
    """Tests the limit right after appending a reply, before its calls are run: the call count
    is right, but the last reply's calls never get results, and a reply that was the answer
    still gets a stop after it (before-after)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_raises_at_limit(model, system, messages, tools, prompt, *, max_turns=None):
    """Stops at the right moment, the Pythonic way: an exception, and nothing in the record says
    why the run ended (limit-3)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            raise RuntimeError(_limit(max_turns))
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_raises_without_recording(model, system, messages, tools, prompt, *, max_turns=None):
    """Raises a failed reply before it reaches the record, so the caller decides what it means
    and the list ends on the last good message, with no word of why (record-or-raise)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        if reply["stop_reason"] == "error":
            raise RuntimeError(f"model call failed: {reply['error_message']}")
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_raises_on_failure(model, system, messages, tools, prompt, *, max_turns=None):
    """Records the failed reply and then raises it, as an SDK would, so the caller decides
    (record-or-raise, who-sees-it)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            raise RuntimeError(f"model call failed: {reply['error_message']}")
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_retries_failure(model, system, messages, tools, prompt, *, max_turns=None):
    """Resilience: a failed reply is recorded and the model is asked again at once, until one
    works. A provider that stays down makes this a runaway of its own (retry)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            continue
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_drops_failure(model, system, messages, tools, prompt, *, max_turns=None):
    """Keeps the record clean: a failed reply is left out of `messages` and the run ends, so the
    list says nothing about what happened (retry)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        if reply["stop_reason"] == "error":
            return reply
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_acts_on_failure(model, system, messages, tools, prompt, *, max_turns=None):
    """Runs the calls a failed reply got out, since they look complete, and only then ends the
    run (half-a-reply)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
        if reply["stop_reason"] == "error" or not tool_calls(reply):
            return reply


def run_agent_counts_tool_calls(model, system, messages, tools, prompt, *, max_turns=None):
    """Counts a turn for every tool call run instead of every model call, so a reply that asks
    for two reads spends two turns (what-a-turn-is)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))
            turns += 1


def run_agent_none_is_zero(model, system, messages, tools, prompt, *, max_turns=None):
    """Reads a missing limit as a limit of nothing, `max_turns or 0`: with the default every run
    stops before its first model call (no-limit)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if turns >= (max_turns or 0):
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_zero_is_no_limit(model, system, messages, tools, prompt, *, max_turns=None):
    """Tests the limit by truth, `if max_turns and ...`, so a limit of 0 is read as no limit at
    all and the run goes on for as long as the model asks (no-limit)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_catches_model_errors(model, system, messages, tools, prompt, *, max_turns=None):
    """Puts a try around model.complete and turns any exception into a failed reply of its own
    making, so the loop now knows every provider's exceptions (adapter)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        try:
            reply = model.complete(system, messages, tool_specs(tools))
        except Exception as error:
            reply = error_message(f"{type(error).__name__}: {error}")
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_numbers_results(model, system, messages, tools, prompt, *, max_turns=None):
    """Pairs results with calls by position: each result is given the id "c1", "c2", ... from a
    counter of results, which is right only while the provider happens to number its calls so."""
    messages.append(user_message(prompt))
    turns = answered = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            answered += 1
            messages.append(dict(run_tool(tools, call), tool_call_id=f"c{answered}"))


def run_agent_last_call_first(model, system, messages, tools, prompt, *, max_turns=None):
    """Runs a reply's calls from the last to the first, each result still under its own id, so
    a read that was asked after a write runs before it."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in reversed(calls):
            messages.append(run_tool(tools, call))


def run_agent_one_turn_late(model, system, messages, tools, prompt, *, max_turns=None):
    """Tests the limit before the call, but with `>` where `>=` belongs, so max_turns=3 makes a
    fourth call (limit-3)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns > max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools))
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_tools_once(model, system, messages, tools, prompt, *, max_turns=None):
    """Offers the tools on the first request only, as if the provider kept them from one call
    to the next. Caught by a hidden test: every request carries tool_specs(tools)."""
    messages.append(user_message(prompt))
    turns = 0
    while True:
        if max_turns is not None and turns >= max_turns:
            stop = error_message(_limit(max_turns))
            messages.append(stop)
            return stop
        reply = model.complete(system, messages, tool_specs(tools) if turns == 0 else [])
        turns += 1
        messages.append(reply)
        if reply["stop_reason"] == "error":
            return reply
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


WRONG = {1: {"run_agent": [run_agent_checks_after, run_agent_stops_after_reply,
                           run_agent_raises_at_limit, run_agent_raises_without_recording,
                           run_agent_raises_on_failure,
                           run_agent_retries_failure, run_agent_drops_failure,
                           run_agent_acts_on_failure, run_agent_counts_tool_calls,
                           run_agent_none_is_zero, run_agent_zero_is_no_limit,
                           run_agent_catches_model_errors, run_agent_numbers_results,
                           run_agent_last_call_first, run_agent_one_turn_late]}}

# Wrong answers that only a hidden test catches: a clause of the contract that no question of the
# lesson argues about (tests/lessons/lesson05 shows each caught, in a sentence naming run_agent).
HIDDEN_WRONG = {1: {"run_agent": [run_agent_tools_once]}}
