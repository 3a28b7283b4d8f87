"""What lesson 05's sample submissions must score in the grader (lab.grader.fixtures.samples).
One lab, so one pair of graded cells: lab1-tests (the visible tests) and lab1-hidden
(the edge cases), each worth a point a test."""

# The last lab's first gap loops for ever, or its last gap does not parse: with one lab and one
# gap, both leave the lesson with nothing.
SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 12, "lab1-hidden": 6},
    "loops-forever": (),
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: it counts the turns from the record, every
# assistant message in `messages`, instead of this run's own model calls. Every visible test starts
# from an empty list, where the two agree; the hidden one hands over a list that already holds five
# replies, and this loop stops before it has asked the model anything.
HIDDEN_ONLY = {"run_agent": '''\
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    messages.append(user_message(prompt))
    while True:
        turns = sum(1 for m in messages if m["role"] == "assistant")
        if max_turns is not None and turns >= max_turns:
            stop = error_message(f"Agent stopped after max_turns={max_turns}")
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
'''}
