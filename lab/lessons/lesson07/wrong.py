"""Wrong answers to lesson 07's gaps: run_agent, version 7, and FinalTextRenderer's three methods.
Each is a design one of the lesson's questions argues against, and its docstring names that
question (its id in RUNGS). A visible lab test must catch every one, in a sentence that names the
function at fault (tests/lessons/test_checks.py). Methods take `self`, as the learner's own
`def render(self, event):` does.

They use the harness's own helpers, as a learner's harness.py would; the notebook's question
cells run several of them, so that the learner watches the argument happen on the same code the
tests reject."""

from harness.messages import error_message, text_of, tool_calls, user_message
from harness.tools import run_tool, tool_specs


def _stop(max_turns):
    return error_message(f"Agent stopped after max_turns={max_turns}")


# -- run_agent --------------------------------------------------------------------------------------

def run_agent_announces_first(model, system, messages, tools, prompt, *, max_turns=None):
    """Announces each message and only then appends it, so the screen can show it a moment
    sooner (when-announced). A consumer that stops at a message_end leaves that message out of
    the record."""
    new = []

    def announce_then_record(message):
        yield {"type": "message_end", "message": message}
        messages.append(message)
        new.append(message)

    yield {"type": "agent_start"}
    turn, calls, waiting = 0, [], [user_message(prompt)]
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield from announce_then_record(message)
        if max_turns is not None and turn > max_turns:
            reply = _stop(max_turns)
        else:
            reply = model.complete(system, messages, tool_specs(tools))
        yield from announce_then_record(reply)
        if reply["stop_reason"] == "error":
            yield {"type": "turn_end", "message": reply}
            break
        calls = tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield from announce_then_record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": new}


def run_agent_silent_stop(model, system, messages, tools, prompt, *, max_turns=None):
    """Treats the max_turns stop as no ending at all: the stop goes into the record and the
    generator simply returns, with no message_end, turn_end or agent_end (max-turns-events)."""
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    turn, calls, waiting = 0, [], [user_message(prompt)]
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            messages.append(_stop(max_turns))
            return
        reply = model.complete(system, messages, tool_specs(tools))
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
        waiting = []
    yield {"type": "agent_end", "messages": new}


def run_agent_failure_leaves_open(model, system, messages, tools, prompt, *, max_turns=None):
    """Returns the moment a failed reply is recorded, as lesson 5's loop did: the turn and the
    run are never closed (max-turns-events: pairs balance on every exit)."""
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    turn, calls, waiting = 0, [], [user_message(prompt)]
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            reply = _stop(max_turns)
        else:
            reply = model.complete(system, messages, tool_specs(tools))
        yield record(reply)
        if reply["stop_reason"] == "error":
            return
        calls = tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": new}


def run_agent_tool_end_first(model, system, messages, tools, prompt, *, max_turns=None):
    """Reports tool_execution_end as soon as the tool returns, which is true by the clock, and
    records the result after it (result-first). A consumer that stops at tool_execution_end
    leaves a call that ran with no result."""
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    turn, calls, waiting = 0, [], [user_message(prompt)]
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            reply = _stop(max_turns)
        else:
            reply = model.complete(system, messages, tool_specs(tools))
        yield record(reply)
        if reply["stop_reason"] == "error":
            yield {"type": "turn_end", "message": reply}
            break
        calls = tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield {"type": "tool_execution_end", "call": call, "result": result}
            yield record(result)
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": new}


def run_agent_turn_per_prompt(model, system, messages, tools, prompt, *, max_turns=None):
    """Counts a turn the way people talk: the user spoke once, so the whole run is one turn,
    turn_start after agent_start and turn_end before agent_end (how-many-turns)."""
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    yield {"type": "turn_start"}
    yield record(user_message(prompt))
    calls, reply, made = None, None, 0
    while calls is None or calls:
        if max_turns is not None and made >= max_turns:
            reply = _stop(max_turns)
        else:
            reply = model.complete(system, messages, tool_specs(tools))
            made += 1
        yield record(reply)
        if reply["stop_reason"] == "error":
            break
        calls = tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
    yield {"type": "turn_end", "message": reply}
    yield {"type": "agent_end", "messages": new}


def run_agent_prints_progress(model, system, messages, tools, prompt, *, max_turns=None):
    """Yields the right events and keeps the wall's fix as well: a progress line printed before
    each tool runs (while-it-runs, print-in-the-loop)."""
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    turn, calls, waiting = 0, [], [user_message(prompt)]
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            reply = _stop(max_turns)
        else:
            reply = model.complete(system, messages, tool_specs(tools))
        yield record(reply)
        if reply["stop_reason"] == "error":
            yield {"type": "turn_end", "message": reply}
            break
        calls = tool_calls(reply)
        for call in calls:
            print(f"calling {call['name']}...")
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": new}


def run_agent_all_at_once(model, system, messages, tools, prompt, *, max_turns=None):
    """Runs the whole task first and hands back the list of its events at the end: the same
    events, but a frontend sees none of them until the silence is over (while-it-runs)."""
    events, new = [], []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    events.append({"type": "agent_start"})
    turn, calls, waiting = 0, [], [user_message(prompt)]
    while waiting or calls:
        turn += 1
        events.append({"type": "turn_start"})
        for message in waiting:
            events.append(record(message))
        if max_turns is not None and turn > max_turns:
            reply = _stop(max_turns)
        else:
            reply = model.complete(system, messages, tool_specs(tools))
        events.append(record(reply))
        if reply["stop_reason"] == "error":
            events.append({"type": "turn_end", "message": reply})
            break
        calls = tool_calls(reply)
        for call in calls:
            events.append({"type": "tool_execution_start", "call": call})
            result = run_tool(tools, call)
            events.append(record(result))
            events.append({"type": "tool_execution_end", "call": call, "result": result})
        events.append({"type": "turn_end", "message": reply})
        waiting = []
    events.append({"type": "agent_end", "messages": new})
    return events


def run_agent_hands_over_everything(model, system, messages, tools, prompt, *, max_turns=None):
    """Gives agent_end the caller's whole list, "so the frontend has the full picture": earlier
    runs' messages and all, so the final message is no longer this run's to find (agent_end's
    contract)."""
    def record(message):
        messages.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    turn, calls, waiting = 0, [], [user_message(prompt)]
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            reply = _stop(max_turns)
        else:
            reply = model.complete(system, messages, tool_specs(tools))
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
        waiting = []
    yield {"type": "agent_end", "messages": list(messages)}


# -- FinalTextRenderer ------------------------------------------------------------------------------

def init_prints_a_banner(self):
    """Tells the user it has started, as a friendly program would: a line that now opens every
    answer.txt (print-in-the-loop)."""
    self.last = None
    print("Working on it...")


def init_assumes_success(self):
    """Starts from an empty, successful answer so that finish() never meets None: a run that
    produced no assistant message then looks like one that went well (failed-answer)."""
    self.last = {"role": "assistant", "content": [], "stop_reason": "stop"}


def render_prints_as_it_goes(self, event):
    """Prints each assistant message's words the moment it arrives, to show progress: the
    renderer that was meant for `> answer.txt` fills it with progress (print-in-the-loop)."""
    message = event.get("message") if event["type"] == "message_end" else None
    if message is not None and message["role"] == "assistant":
        self.last = message
        print(text_of(message))


def render_keeps_the_first(self, event):
    """Keeps the first assistant message and ignores later ones, taking the first reply for the
    answer: it is often "Reading b.py." (failed-answer)."""
    message = event.get("message") if event["type"] == "message_end" else None
    if message is not None and message["role"] == "assistant" and self.last is None:
        self.last = message


def render_keeps_any_message(self, event):
    """Keeps the message of every message_end, whoever wrote it: the user's prompt or a tool
    result can then stand where the answer belongs (failed-answer)."""
    if event["type"] == "message_end":
        self.last = event["message"]


def finish_silent_on_failure(self):
    """Keeps answer.txt clean: a failed run prints nothing and returns False (failed-answer)."""
    if self.last is None or self.last["stop_reason"] == "error":
        return False
    print(text_of(self.last))
    return True


def finish_prints_the_empty_text(self):
    """Prints the words of the last message whatever happened; after a 503 they are the empty
    text, and it still says the run went well only if it did (failed-answer)."""
    if self.last is None:
        return False
    print(text_of(self.last))
    return self.last["stop_reason"] != "error"


def finish_reports_success_anyway(self):
    """Prints the error where the answer would be, and returns True all the same: the program
    exits 0 and a script goes on as if it had an answer (failed-answer)."""
    if self.last is None:
        return False
    if self.last["stop_reason"] == "error":
        print(f"Error: {self.last['error_message']}")
    else:
        print(text_of(self.last))
    return True


def finish_assumes_a_message(self):
    """Forgets the run that never got as far as a reply: with nothing kept it reads None and
    raises (failed-answer)."""
    if self.last["stop_reason"] == "error":
        print(f"Error: {self.last['error_message']}")
        return False
    print(text_of(self.last))
    return True


def _loop(model, system, messages, tools, prompt, max_turns, before_tool=None, result_id=None,
          bare_ends=False):
    """The right loop, with one of three mistakes put in: `before_tool(call)` runs before each
    tool, `result_id(result)`, if given, is the id a result is recorded under, and `bare_ends`
    leaves the reply out of turn_end."""
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    turn, calls, waiting = 0, [], [user_message(prompt)]
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            reply = _stop(max_turns)
        else:
            reply = model.complete(system, messages, tool_specs(tools))
        yield record(reply)
        end = {"type": "turn_end"} if bare_ends else {"type": "turn_end", "message": reply}
        if reply["stop_reason"] == "error":
            yield end
            break
        calls = tool_calls(reply)
        for call in calls:
            if before_tool:
                before_tool(call)
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            if result_id:
                result = dict(result, tool_call_id=result_id(result))
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield end
        waiting = []
    yield {"type": "agent_end", "messages": new}


def run_agent_progress_on_stderr(model, system, messages, tools, prompt, *, max_turns=None):
    """Keeps answer.txt clean by printing its progress line to sys.stderr instead of stdout: the
    loop still draws (print-in-the-loop, "print to stderr instead")."""
    import sys
    return _loop(model, system, messages, tools, prompt, max_turns,
                 before_tool=lambda call: print(f"calling {call['name']}...", file=sys.stderr))


def run_agent_numbers_results(model, system, messages, tools, prompt, *, max_turns=None):
    """Records each result under "c1", "c2", ... from a counter of results, pairing by position:
    right only while the provider happens to number its calls the same way."""
    count = []

    def numbered(result):
        count.append(result)
        return f"c{len(count)}"
    return _loop(model, system, messages, tools, prompt, max_turns, result_id=numbered)


def run_agent_bare_turn_end(model, system, messages, tools, prompt, *, max_turns=None):
    """Yields {"type": "turn_end"} alone: the pairs still balance, but a listener that sums up a
    turn from its end (the gap's contract: {"type": "turn_end", "message": reply}) gets nothing."""
    return _loop(model, system, messages, tools, prompt, max_turns, bare_ends=True)


WRONG = {1: {
    "run_agent": [run_agent_bare_turn_end, run_agent_announces_first, run_agent_silent_stop,
                  run_agent_failure_leaves_open, run_agent_tool_end_first, run_agent_turn_per_prompt,
                  run_agent_prints_progress, run_agent_all_at_once, run_agent_hands_over_everything,
                  run_agent_progress_on_stderr, run_agent_numbers_results],
    "FinalTextRenderer.__init__": [init_prints_a_banner, init_assumes_success],
    "FinalTextRenderer.render": [render_prints_as_it_goes, render_keeps_the_first,
                                 render_keeps_any_message],
    "FinalTextRenderer.finish": [finish_silent_on_failure, finish_prints_the_empty_text,
                                 finish_reports_success_anyway, finish_assumes_a_message],
}}
