"""Definitions as lesson 8 leaves them, for those that lesson 9 rewrites: the harness with one
writer, before it took the user's words during a run."""

from harness.earlier.lesson07 import run_agent


class Harness:

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._running = False

    def prompt(self, text):
        """The run: run_agent's events over the harness's own list. If a run is already going,
        raises RuntimeError("already running") right on the caller's line, which is why prompt is
        a plain function and the generator lives in _run."""
        ### BEGIN SOLUTION
        if self._running:  # checked here, on the caller's line, not at the first next()
            raise RuntimeError("already running")
        self._running = True
        return self._run(text)
        ### END SOLUTION

    def _run(self, text):
        """Every event of run_agent over the harness's own list and settings. However the run
        ends (used up, closed by its consumer, or raising), the inner run is closed and the
        harness is no longer running."""
        ### BEGIN SOLUTION
        record = self._messages  # the harness's own list, never a copy: the run writes here
        run = run_agent(self._model, self._system, record, self._tools, text,
                        max_turns=self._max_turns)
        try:
            for event in run:
                yield event
        finally:
            run.close()
            self._running = False
        ### END SOLUTION
