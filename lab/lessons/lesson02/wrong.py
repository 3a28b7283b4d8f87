"""Wrong answers to lesson 2's gaps: each is a design one of the lesson's questions argues against,
and its docstring names that question (its id in RUNGS). The lab tests must catch every one with
a visible test, in a sentence that names the function at fault (tests/lessons/test_checks.py)."""

import json
import re

import lab
from harness import tool_calls, tool_specs, user_message
from harness import run_tool as _total_run_tool


def _tool(tools, name):
    return {tool["name"]: tool for tool in tools}[name]


def _result(call, content, **changes):
    return dict(lab.tool_result(call, content), **changes)


# -- run_tool -------------------------------------------------------------------------------------

def run_tool_returns_the_text(tools, call):
    """Returns what execute returned and no message: nothing ties it to its call
    (pair-by, who-reads)."""
    return _tool(tools, call["name"])["execute"](call["arguments"])


def run_tool_pairs_by_name(tools, call):
    """Ties the result to the tool's name instead of the call's id (pair-by)."""
    content = _tool(tools, call["name"])["execute"](call["arguments"])
    return _result(call, content, tool_call_id=call["name"])


def run_tool_as_another_provider(tools, call):
    """A message of some other shape: role "tool" and an "id" key, no tool_call_id
    (pair-by: a result that is not a toolResult tied to its call)."""
    content = _tool(tools, call["name"])["execute"](call["arguments"])
    return {"role": "tool", "id": call["id"], "content": content}


def run_tool_runs_the_first_tool(tools, call):
    """Runs whatever tool comes first, whatever the call asked for (who-reads)."""
    return _result(call, tools[0]["execute"](call["arguments"]))


def run_tool_swallows_the_failure(tools, call):
    """Turns a tool that raised into an empty success, so the run goes on (failed-tool)."""
    try:
        content = _tool(tools, call["name"])["execute"](call["arguments"])
    except Exception:
        content = ""
    return _result(call, content)


def run_tool_raises_its_own_error(tools, call):
    """Replaces the tool's exception with one of its own, losing what went wrong (failed-tool)."""
    try:
        content = _tool(tools, call["name"])["execute"](call["arguments"])
    except Exception:
        raise RuntimeError("the tool failed") from None
    return _result(call, content)


def run_tool_none_for_an_unknown_tool(tools, call):
    """Answers a call of a tool it does not have with None, "nothing to say": no exception goes
    up, so the run carries on as if the call had been dealt with (failed-tool)."""
    tool = {tool["name"]: tool for tool in tools}.get(call["name"])
    if tool is None:
        return None
    return _result(call, tool["execute"](call["arguments"]))


def run_tool_strips_the_text(tools, call):
    """Tidies the tool's text with strip() before handing it on, "the model does not need the
    blank lines": the content is no longer what the tool returned (who-reads)."""
    return _result(call, _tool(tools, call["name"])["execute"](call["arguments"]).strip())


def run_tool_ignores_case(tools, call):
    """Finds the tool whatever the case of the name, "Read" for "read", to be forgiving: a name
    the model got wrong is run as if it were right, and the visible tests never say "Read"."""
    by_name = {tool["name"].lower(): tool for tool in tools}
    return _result(call, by_name[call["name"].lower()]["execute"](call["arguments"]))


# -- run_agent ------------------------------------------------------------------------------------

def _first(model, system, messages, tools, prompt, offered=None):
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, tool_specs(tools) if offered is None else offered)
    messages.append(reply)
    return reply


def _second(model, system, messages, tools, offered=None):
    reply = model.complete(system, messages, tool_specs(tools) if offered is None else offered)
    messages.append(reply)
    return reply


def run_agent_runs_only_the_first_call(model, system, messages, tools, prompt):
    """One call at a time: runs the first call and trusts the model to ask again
    (after-two-calls)."""
    reply = _first(model, system, messages, tools, prompt)
    calls = tool_calls(reply)
    if not calls:
        return reply
    messages.append(_total_run_tool(tools, calls[0]))
    return _second(model, system, messages, tools)


def run_agent_pairs_by_position(model, system, messages, tools, prompt):
    """Numbers the results by their place in the batch instead of copying each call's id
    (pair-by)."""
    reply = _first(model, system, messages, tools, prompt)
    calls = tool_calls(reply)
    if not calls:
        return reply
    for n, call in enumerate(calls, start=1):
        messages.append(dict(_total_run_tool(tools, call), tool_call_id=f"c{n}"))
    return _second(model, system, messages, tools)


def run_agent_runs_from_a_calls_field(model, system, messages, tools, prompt):
    """Trusts a `calls` field on the reply when there is one, a second copy of what content says
    (second-copy)."""
    reply = _first(model, system, messages, tools, prompt)
    calls = reply.get("calls") or tool_calls(reply)
    if not calls:
        return reply
    for call in calls:
        messages.append(_total_run_tool(tools, call))
    return _second(model, system, messages, tools)


def run_agent_stores_the_calls_on_the_reply(model, system, messages, tools, prompt):
    """Keeps the calls on the reply as a field of their own, to read them from there
    (second-copy, why-blocks)."""
    reply = _first(model, system, messages, tools, prompt)
    reply["calls"] = tool_calls(reply)
    if not reply["calls"]:
        return reply
    for call in reply["calls"]:
        messages.append(_total_run_tool(tools, call))
    return _second(model, system, messages, tools)


def run_agent_offers_tools_once(model, system, messages, tools, prompt):
    """Offers the tools on the first request only: the model has seen them already
    (definitions-count, after-two-calls)."""
    reply = _first(model, system, messages, tools, prompt)
    calls = tool_calls(reply)
    if not calls:
        return reply
    for call in calls:
        messages.append(_total_run_tool(tools, call))
    return _second(model, system, messages, tools, offered=[])


def run_agent_sends_the_tools_themselves(model, system, messages, tools, prompt):
    """Offers the tool dicts as they are, execute and all (who-reads: the model is told of the
    tools, it does not get them)."""
    reply = _first(model, system, messages, tools, prompt, offered=tools)
    calls = tool_calls(reply)
    if not calls:
        return reply
    for call in calls:
        messages.append(_total_run_tool(tools, call))
    return _second(model, system, messages, tools, offered=tools)


def run_agent_reads_prose(model, system, messages, tools, prompt):
    """Looks for READ <path> in the reply's words as well as for blocks (regex-count,
    prose-or-protocol)."""
    reply = _first(model, system, messages, tools, prompt)
    calls = tool_calls(reply)
    words = "".join(b.get("text", "") for b in reply["content"] if b["type"] == "text")
    found = re.search(r"READ (\S+)", words)
    if found and not calls:
        made = {"type": "toolCall", "id": "prose1", "name": "read", "arguments": {"path": found.group(1)}}
        try:
            _total_run_tool(tools, made)
        except Exception:
            pass
        return _second(model, system, messages, tools)
    if not calls:
        return reply
    for call in calls:
        messages.append(_total_run_tool(tools, call))
    return _second(model, system, messages, tools)


def run_agent_reads_json_in_the_text(model, system, messages, tools, prompt):
    """Takes a JSON object in the reply's words for a request (prose-or-protocol: JSON on the text
    channel is still text)."""
    reply = _first(model, system, messages, tools, prompt)
    calls = list(tool_calls(reply))
    words = "".join(b.get("text", "") for b in reply["content"] if b["type"] == "text")
    found = re.search(r"\{.*\}", words)
    if found and not calls:
        try:
            asked = json.loads(found.group(0))
            calls = [{"type": "toolCall", "id": "json1", "name": asked["name"], "arguments": asked["arguments"]}]
        except (ValueError, KeyError, TypeError):
            pass
    if not calls:
        return reply
    for call in calls:
        messages.append(_total_run_tool(tools, call))
    return _second(model, system, messages, tools)


def run_agent_trims_the_results(model, system, messages, tools, prompt):
    """Trims each result's text on its way into the record, to save the model some tokens: the
    record no longer holds what the tools returned (who-reads)."""
    reply = _first(model, system, messages, tools, prompt)
    calls = tool_calls(reply)
    if not calls:
        return reply
    for call in calls:
        result = _total_run_tool(tools, call)
        messages.append(dict(result, content=result["content"].strip()))
    return _second(model, system, messages, tools)


def run_agent_asks_again_before_the_results(model, system, messages, tools, prompt):
    """Asks the model again first and appends the results after its answer (after-two-calls:
    each result goes straight after the reply)."""
    reply = _first(model, system, messages, tools, prompt)
    calls = tool_calls(reply)
    if not calls:
        return reply
    results = [_total_run_tool(tools, call) for call in calls]
    answer = _second(model, system, messages, tools)
    messages.extend(results)
    return answer


WRONG = {1: {
    "run_tool": [run_tool_returns_the_text, run_tool_pairs_by_name, run_tool_as_another_provider,
                 run_tool_runs_the_first_tool, run_tool_swallows_the_failure,
                 run_tool_raises_its_own_error, run_tool_none_for_an_unknown_tool,
                 run_tool_strips_the_text],
    "run_agent": [run_agent_trims_the_results, run_agent_runs_only_the_first_call, run_agent_pairs_by_position,
                  run_agent_runs_from_a_calls_field, run_agent_stores_the_calls_on_the_reply,
                  run_agent_offers_tools_once, run_agent_sends_the_tools_themselves,
                  run_agent_reads_prose, run_agent_reads_json_in_the_text,
                  run_agent_asks_again_before_the_results],
}}

# Wrong answers that pass every visible test: a hidden test must catch each, in a sentence that
# names the function (tests/lessons/lesson01/test_hidden_cheats.py).
HIDDEN_CAUGHT = {1: {"run_tool": [run_tool_ignores_case]}}
