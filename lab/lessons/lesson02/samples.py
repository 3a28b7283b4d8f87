"""What lesson 2's sample submissions must score (lab.grader.fixtures.samples makes them). One lab:
a point for each visible test, and one for each hidden one."""

ALL_CHECKS = ("lab1-tests", "lab1-hidden")

SCORES = {
    "unchanged": (),
    "correct": ALL_CHECKS,
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 9, "lab1-hidden": 7},
    "loops-forever": (),
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: it looks the tool up whatever the case of its
# name, so a call of "Read" runs read as if the model had named it right. (Its run_agent cell is
# left as the master has it.) An unknown name is answered as a success no longer: the visible
# tests refuse that since run_tool's None and empty results for an unknown tool were caught.
HIDDEN_ONLY = {"run_tool": '''\
def run_tool(tools, call):
    by_name = {tool["name"].lower(): tool for tool in tools}
    content = by_name[call["name"].lower()]["execute"](call["arguments"])
    result = {"role": "toolResult", "content": content, "is_error": False}
    result.update(tool_call_id=call["id"], tool_name=call["name"])
    return result
'''}
