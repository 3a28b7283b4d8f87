"""Wrong answers to lesson 04's gap, run_tool version 2. Each is a design one of the lesson's
questions argues against, and its docstring names that question (its id in RUNGS). A visible lab
test must catch every one, in a sentence that names run_tool (tests/lessons/test_checks.py).

The notebook's question cells run several of them, so that the learner watches the argument
happen on the same code the tests reject."""


def _result(call, content, is_error):
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}


def _find(tools, name):
    return next((tool for tool in tools if tool["name"] == name), None)


def run_tool_trusts_its_tools(tools, call):
    """Lessons 2 and 3's version, unchanged: an unknown name is a KeyError and a failing tool's
    exception goes up, so the run dies and the model is told nothing (lesson3-sees)."""
    by_name = {tool["name"]: tool for tool in tools}
    return _result(call, by_name[call["name"]]["execute"](call["arguments"]), False)


def run_tool_loud(tools, call):
    """Answers an unknown tool, but lets a failing tool's error go up, reworded, because a loud
    failure is a good failure (what-to-show)."""
    tool = _find(tools, call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except Exception as exc:
        raise RuntimeError(f"tool {call['name']} failed: {exc}") from exc


def run_tool_empty_success(tools, call):
    """Keeps the run going with a quiet, valid result: a failure becomes empty content and
    is_error False (what-to-show)."""
    tool = _find(tools, call["name"])
    try:
        content = tool["execute"](call["arguments"]) if tool else ""
    except Exception:
        content = ""
    return _result(call, content, False)


def run_tool_says_tool_failed(tools, call):
    """Marks every failure as one, but with a fixed sentence instead of the error's own words
    (what-to-show)."""
    tool = _find(tools, call["name"])
    if tool is None:
        return _result(call, "Tool failed.", True)
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except Exception:
        return _result(call, "Tool failed.", True)


def run_tool_flag_stays_false(tools, call):
    """Puts the error's text in the content and leaves is_error False: the words already say it
    failed (honest-results)."""
    tool = _find(tools, call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", False)
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except Exception as exc:
        return _result(call, str(exc), False)


def run_tool_skips_unknown(tools, call):
    """Gives no result for a tool it does not have, since there is nothing to run (grep)."""
    tool = _find(tools, call["name"])
    if tool is None:
        return None
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except Exception as exc:
        return _result(call, str(exc), True)


def run_tool_answers_twice(tools, call):
    """For a tool it does not have, two results: the error, and a second one that lists the tools
    it does have, to be helpful (grep)."""
    tool = _find(tools, call["name"])
    if tool is None:
        names = ", ".join(t["name"] for t in tools)
        return [_result(call, f"Tool {call['name']} not found", True),
                _result(call, f"The tools you have: {names}", True)]
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except Exception as exc:
        return _result(call, str(exc), True)


def run_tool_raises_on_unknown(tools, call):
    """Turns a failing tool into a result but raises for a tool it does not have: a name the
    model made up is a bug, not news (grep)."""
    tool = _find(tools, call["name"])
    if tool is None:
        raise LookupError(f"the model asked for {call['name']}, which is not a tool")
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except Exception as exc:
        return _result(call, str(exc), True)


def run_tool_error_without_its_call(tools, call):
    """Builds its error results from the error alone, without the call's id and name: an error is
    an error (results-count: a result is tied to its call by id)."""
    tool = _find(tools, call["name"])
    if tool is None:
        return {"role": "toolResult", "tool_call_id": None, "tool_name": None,
                "content": f"Tool {call['name']} not found", "is_error": True}
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except Exception as exc:
        return {"role": "toolResult", "tool_call_id": None, "tool_name": None,
                "content": str(exc), "is_error": True}


def run_tool_exit_code_is_error(tools, call):
    """Marks a command that exited non-zero as is_error True: it failed (exit-code)."""
    tool = _find(tools, call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        content = tool["execute"](call["arguments"])
    except Exception as exc:
        return _result(call, str(exc), True)
    return _result(call, content, "Command exited with code" in str(content))


def run_tool_reads_error_in_words(tools, call):
    """Takes the flag from the words: a result whose text holds "error" is marked is_error True,
    which is how a person skimming the output would read it (exit-code, option b)."""
    tool = _find(tools, call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        content = tool["execute"](call["arguments"])
    except Exception as exc:
        return _result(call, str(exc), True)
    return _result(call, content, "error" in str(content).lower())


def run_tool_catches_the_expected(tools, call):
    """Catches only the errors a tool is expected to raise, so that a real bug still shows
    (catch-what)."""
    tool = _find(tools, call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return _result(call, str(exc), True)


def run_tool_catches_everything(tools, call):
    """A bare except, because the harness must never die (catch-what)."""
    tool = _find(tools, call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except BaseException as exc:
        return _result(call, str(exc) or type(exc).__name__, True)


WRONG = {1: {"run_tool": [
    run_tool_trusts_its_tools,
    run_tool_loud,
    run_tool_empty_success,
    run_tool_says_tool_failed,
    run_tool_flag_stays_false,
    run_tool_skips_unknown,
    run_tool_answers_twice,
    run_tool_raises_on_unknown,
    run_tool_error_without_its_call,
    run_tool_exit_code_is_error,
    run_tool_reads_error_in_words,
    run_tool_catches_the_expected,
    run_tool_catches_everything,
]}}
