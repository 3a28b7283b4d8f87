"""What lesson 08's sample submissions must score in the grader (lab.grader.fixtures.samples).
One lab, so one pair of graded cells: lab1-tests (the visible tests) and lab1-hidden
(the edge cases), each worth a point a test."""

# With one lab, a gap that loops for ever or a cell that does not parse leaves the lesson with
# nothing: all three methods are graded in the same check cells.
SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 10, "lab1-hidden": 6},
    "loops-forever": (),
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: it hands run_agent `self._max_turns or None`,
# as if 0 meant "no limit". Lesson 5 settled that 0 means not one call; the visible tests use
# max_turns=1 and no limit, where the two agree, and the hidden max_turns=0 test does not.
HIDDEN_ONLY = {"Harness._run": '''\
def _run(self, text):
    record = self._messages
    run = run_agent(self._model, self._system, record, self._tools, text,
                    max_turns=self._max_turns or None)   # no limit unless one was given
    try:
        for event in run:
            yield event
    finally:
        run.close()
        self._running = False
'''}
