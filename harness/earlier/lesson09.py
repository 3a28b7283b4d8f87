"""Definitions as lesson 9 leaves them, for those that lesson 11 rewrites: the harness before it
had listeners."""

from collections import deque

from harness.loop import run_agent


class Harness:

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._running = False
        self._steering, self._follow_ups = deque(), deque()

    def _run(self, text):
        ### BEGIN SOLUTION
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._drain(self._steering),
                        get_follow_ups=lambda: self._drain(self._follow_ups))
        try:
            for event in run:
                yield event
        finally:  # however the run ends: exhausted, closed by its consumer, or raising
            run.close()
            self._running = False
        ### END SOLUTION
