"""What lesson 07's sample submissions must score in the grader (lab.grader.fixtures.samples).
One lab, so one pair of graded cells: lab1-tests (the visible tests) and lab1-hidden
(the edge cases), each worth a point a test."""

# The lab's first gap (run_agent) loops for ever, or its last gap (FinalTextRenderer.finish)
# does not parse: with one lab, either leaves the lesson with nothing.
SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 13, "lab1-hidden": 7},
    "loops-forever": (),
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: it decides that a reply failed by its empty
# content instead of its stop_reason. Every failure the visible tests show is a 503 with nothing
# written yet, where the two agree; the hidden renderer meets a reply that failed after writing
# "B is", and prints those words as if they were the answer, returning True.
HIDDEN_ONLY = {"FinalTextRenderer.finish": '''\
def finish(self):
    if self.last is None:
        return False
    if not self.last["content"]:   # a failed reply has nothing in it
        print(f"Error: {self.last['error_message']}")
        return False
    print(text_of(self.last))
    return True
'''}
