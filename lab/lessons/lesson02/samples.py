"""What lesson 2's sample submissions must score (lab.grader.fixtures.samples makes them). One lab:
9 points for its visible tests, 3 for its hidden ones."""

ALL_CHECKS = ("lab1-tests", "lab1-hidden")

SCORES = {
    "unchanged": (),
    "correct": (12, ALL_CHECKS),
    "hidden-only": ("lab1-tests",),
    "loops-forever": (),
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: a call of a tool it does not have is answered
# with an empty success instead of failing, so the model would take "no such tool" for "nothing
# there". (Its run_agent cell is left as the master has it.)
HIDDEN_ONLY = {"run_tool": '''\
def run_tool(tools, call):
    matching = [tool for tool in tools if tool["name"] == call["name"]]
    content = matching[0]["execute"](call["arguments"]) if matching else ""
    result = {"role": "toolResult", "content": content, "is_error": False}
    result.update(tool_call_id=call["id"], tool_name=call["name"])
    return result
'''}
