"""What lesson 16's sample submissions must score in the grader (lab.grader.fixtures.samples).
Two labs, each with a visible and a hidden check cell, each test worth a point."""

SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden", "lab2-tests", "lab2-hidden"),
    "lab1-only": ("lab1-tests", "lab1-hidden"),
    # lab 2's chat_request calls the notebook's own portable_id, still lab 1's stub in this sample:
    # the three visible tests whose requests hold no tool call pass (failures, too long, two calls)
    "lab2-only": {"lab2-tests": 3},
    # every visible test passes; the hidden test of odd ids (65 characters) fails
    "hidden-only": {"lab1-tests": 5, "lab1-hidden": 2, "lab2-tests": 6, "lab2-hidden": 3},
    # lab 1 passes; every test of lab 2 but the one on replies alone calls chat_request, which
    # loops, so the first is stopped and the rest are not run
    "loops-forever": ("lab1-tests", "lab1-hidden"),
    "does-not-parse": ("lab1-tests", "lab1-hidden"),
}

# Passes every visible test and fails a hidden one: an id too long for PORTABLE_ID is cut to 64
# characters instead of hashed, so two long ids that share their first 64 characters become one.
HIDDEN_ONLY = {"portable_id": '''\
def portable_id(call_id):
    if PORTABLE_ID.fullmatch(call_id):
        return call_id
    if len(call_id) > 64 and PORTABLE_ID.fullmatch(call_id[:64]):
        return call_id[:64]
    return "tc_" + hashlib.sha256(call_id.encode("utf-8")).hexdigest()[:40]
'''}
