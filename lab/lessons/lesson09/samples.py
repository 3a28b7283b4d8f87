"""What lesson 09's sample submissions must score in the grader (lab.grader.fixtures.samples).
One lab, so one pair of graded cells: lab1-tests (the visible tests) and lab1-hidden
(the edge cases), each worth a point a test."""

# With one lab, a gap that loops for ever or does not parse leaves the lesson with nothing.
SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 13, "lab1-hidden": 6},
    "loops-forever": (),
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: once a reply has no calls it asks only for
# follow-ups, never for steering, as if steering were only for runs with work left. Steering that
# arrives during the last tool run of a job then waits for the next prompt. Every visible test
# steers while calls are still coming, where the two agree.
HIDDEN_ONLY = {"run_agent": '''\
def run_agent(model, system, messages, tools, prompt, *, max_turns=None, get_steering=None,
              get_follow_ups=None):
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    def ask(get):
        return list(get()) if get else []

    yield {"type": "agent_start"}
    turn, calls = 0, []
    waiting = [user_message(prompt)] + ask(get_steering)
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
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
        waiting = ask(get_steering) if calls else ask(get_follow_ups)  # steering only mid-job
    yield {"type": "agent_end", "messages": new}
'''}
