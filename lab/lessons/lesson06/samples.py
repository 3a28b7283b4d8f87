"""What lesson 06's sample submissions must score in the grader (lab.grader.fixtures.samples).
One lab, so one pair of graded cells: lab1-tests (the visible tests) and lab1-hidden
(the edge cases), each worth a point a test."""

# The last lab's first gap loops for ever, or its last gap does not parse: with one lab, either
# leaves the lesson with nothing, since both gaps are graded in the same check cells.
SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 9, "lab1-hidden": 7},
    "loops-forever": (),
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: it checks the line limit after taking a line
# instead of before, so a limit of 0 lines still lets the first line through. Every visible test
# uses a limit of 2 or more, where the two orders agree.
HIDDEN_ONLY = {"truncate_head": '''\
def truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    chosen, used = [], 0
    for piece in text.splitlines(True):
        used = used + len(piece.encode("utf-8"))
        if used > max_bytes:
            break
        chosen.append(piece)
        if len(chosen) >= max_lines:   # counted after taking: a limit of 0 still takes one
            break
    return "".join(chosen), len(chosen)
'''}
