"""What lesson 15's sample submissions must score in the grader (lab.grader.fixtures.samples).
Two labs, each with a visible and a hidden check cell, each test worth a point."""

SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden", "lab2-tests", "lab2-hidden"),
    "lab1-only": ("lab1-tests", "lab1-hidden"),
    # lab 2's _run calls the notebook's own run_agent, which in this sample is still lab 1's stub
    "lab2-only": (),
    # every visible test passes; the hidden test of a listener that unsubscribes itself fails
    "hidden-only": {"lab1-tests": 6, "lab1-hidden": 3, "lab2-tests": 5, "lab2-hidden": 2},
    # lab 1 passes; every test of lab 2 awaits _notify, which loops, so the first is stopped and
    # the rest are not run
    "loops-forever": ("lab1-tests", "lab1-hidden"),
    "does-not-parse": ("lab1-tests", "lab1-hidden"),
}

# Passes every visible test and fails a hidden one: _notify walks the listeners' own list, so a
# listener that unsubscribes itself makes the next one miss the event.
HIDDEN_ONLY = {"Harness._notify": '''\
async def _notify(self, event):
    for listener in self._listeners:
        heard = listener(event)
        if inspect.isawaitable(heard):
            await heard
'''}
