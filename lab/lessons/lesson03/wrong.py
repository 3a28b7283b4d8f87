"""Wrong answers to lesson 03's gap, run_agent version 3. Each is a design one of the lesson's
questions argues against, and its docstring names that question (its id in RUNGS). A visible lab
test must catch every one, in a sentence that names run_agent (tests/lessons/test_checks.py).

The notebook's question cells run some of them too, so that the learner watches the argument
happen on the same code the tests reject."""

from harness import run_tool, text_of, tool_calls, tool_specs, user_message


def run_agent_one_round(model, system, messages, tools, prompt):
    """Lesson 2's version, unchanged: one round of tools, then whatever the second reply is
    (lesson2-calls)."""
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, tool_specs(tools))
    messages.append(reply)
    if not tool_calls(reply):
        return reply
    for call in tool_calls(reply):
        messages.append(run_tool(tools, call))
    reply = model.complete(system, messages, tool_specs(tools))
    messages.append(reply)
    return reply


def run_agent_stops_on_done(model, system, messages, tools, prompt):
    """Ends the run when the reply's text says "done", calls or not (who-ends: prose is not
    protocol)."""
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        if "done" in text_of(reply).lower() or not tool_calls(reply):
            return reply
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))


def run_agent_until_it_says_done(model, system, messages, tools, prompt):
    """Keeps asking until a reply's text says "done", whether or not it asks for tools
    (who-ends)."""
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
        if "done" in text_of(reply).lower():
            return reply


def run_agent_three_rounds(model, system, messages, tools, prompt):
    """A fixed number of model calls, three, enough for read, write, answer (who-ends: a count is
    a brake, not the plan)."""
    messages.append(user_message(prompt))
    for _ in range(3):
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        if not tool_calls(reply):
            break
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
    return reply


def run_agent_first_call_only(model, system, messages, tools, prompt):
    """Runs only the first call of each reply, one thing at a time (next-call)."""
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            return reply
        messages.append(run_tool(tools, calls[0]))


def run_agent_asks_after_each_result(model, system, messages, tools, prompt):
    """Asks the model again as soon as each result is in, for quicker feedback (next-call)."""
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, tool_specs(tools))
    messages.append(reply)
    while tool_calls(reply):
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
            reply = model.complete(system, messages, tool_specs(tools))
            messages.append(reply)
    return reply


def run_agent_last_call_first(model, system, messages, tools, prompt):
    """Runs a reply's calls from the last to the first: the ids pair the results up anyway
    (order)."""
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in reversed(calls):
            messages.append(run_tool(tools, call))


def run_agent_any_order(model, system, messages, tools, prompt):
    """Runs a reply's calls in an order of its own, here alphabetical by tool name, since the ids
    pair the results up whatever the order (order, option a)."""
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in sorted(calls, key=lambda call: call["name"]):
            messages.append(run_tool(tools, call))


def run_agent_results_reversed(model, system, messages, tools, prompt):
    """Runs the calls in order but appends the results newest first (order)."""
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            return reply
        results = [run_tool(tools, call) for call in calls]
        messages.extend(reversed(results))


def run_agent_nudges_when_unfinished(model, system, messages, tools, prompt):
    """When a reply with no call sounds unfinished ("I will ..."), says "Continue." for the user
    and goes on (unfinished)."""
    messages.append(user_message(prompt))
    nudged = False
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            if "i will" in text_of(reply).lower() and not nudged:
                nudged = True
                messages.append(user_message("Continue."))
                continue
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_sends_only_the_news(model, system, messages, tools, prompt):
    """Sends only what is new since the model's last reply: it saw the rest already
    (lesson2-calls, and lesson 1's rule that every call sends all of it)."""
    messages.append(user_message(prompt))
    start = 0
    while True:
        reply = model.complete(system, messages[start:], tool_specs(tools))
        messages.append(reply)
        start = len(messages)
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


def run_agent_tools_offered_once(model, system, messages, tools, prompt):
    """Offers the tools in the first request only: they do not change (who-ends' demonstration,
    and lesson 2's rule that tool definitions ride in every request)."""
    messages.append(user_message(prompt))
    offered = tool_specs(tools)
    while True:
        reply = model.complete(system, messages, offered)
        offered = []
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))


WRONG = {1: {"run_agent": [
    run_agent_one_round,
    run_agent_stops_on_done,
    run_agent_until_it_says_done,
    run_agent_three_rounds,
    run_agent_first_call_only,
    run_agent_asks_after_each_result,
    run_agent_last_call_first,
    run_agent_any_order,
    run_agent_results_reversed,
    run_agent_nudges_when_unfinished,
    run_agent_sends_only_the_news,
    run_agent_tools_offered_once,
]}}
