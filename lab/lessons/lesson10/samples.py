"""What lesson 10's sample submissions must score in the grader (lab.grader.fixtures.samples).
One lab, so one pair of graded cells: lab1-tests (the visible tests) and lab1-hidden
(the edge cases), each worth a point a test."""

# With one lab, a gap that loops for ever or does not parse leaves the lesson with nothing: all
# three gaps are graded in the same check cells.
SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 10, "lab1-hidden": 4},
    # the tests that ran before the loop was stopped, and did not call the looping gap, pass
    "loops-forever": {"lab1-tests": 7},
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: when nothing needed leaving out or pairing,
# it hands back the record itself rather than a new list, so a caller that appends to the view
# appends to the record. Every visible test that gives it a valid record only reads the answer.
HIDDEN_ONLY = {"context_for_model": '''\
def context_for_model(messages):
    view = repair_tool_history([m for m in messages if m["role"] != "assistant" or m["content"]
                                or m.get("stop_reason") != "error"])
    return messages if view == messages else view
'''}
