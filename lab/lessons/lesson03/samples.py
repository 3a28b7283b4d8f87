"""What lesson 03's sample submissions must score in the grader (lab.grader.fixtures.samples).
One lab, so one pair of graded cells: lab1-tests (the visible tests) and lab1-hidden
(the edge cases), each worth a point a test."""

# The last lab's first gap loops for ever, or its last gap does not parse: with one lab and one
# gap, both leave the lesson with nothing.
SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 8, "lab1-hidden": 5},
    "loops-forever": (),
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: a brake dressed up as the plan. Sixty rounds
# cover every task the visible tests set (forty-one calls at most), and the 120-read chain is cut off.
HIDDEN_ONLY = {"run_agent": '''\
def run_agent(model, system, messages, tools, prompt):
    messages.append(user_message(prompt))
    for _ in range(60):
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            break
        for call in calls:
            messages.append(run_tool(tools, call))
    return reply
'''}
