"""What lesson 04's sample submissions must score in the grader (lab.grader.fixtures.samples).
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

# Passes every visible test and fails a hidden one: it keeps error results short, cutting a
# message to 500 characters without a word about it. Every error the visible tests raise is
# shorter than that; the hidden test's 200,000-character message is not, and the model would be
# shown a different error from the one the tool raised.
HIDDEN_ONLY = {"run_tool": '''\
def run_tool(tools, call):
    found = [tool for tool in tools if tool["name"] == call["name"]]
    if not found:
        content, is_error = "Tool " + call["name"] + " not found", True
    else:
        try:
            content, is_error = found[0]["execute"](call["arguments"]), False
        except Exception as error:
            content, is_error = str(error)[:500], True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}
'''}
