"""Region 4, harness: the Harness, which owns the transcript (lessons 8, 9, 11 and 12)."""

from collections import deque

from .loop import run_agent
from .messages import user_message

# == 4 harness ==
# One transcript, one writer at a time. The loop does the work and keeps nothing; this keeps the list.


class Harness:
    """Holds the one transcript and the settings that do not change from run to run, and lets a
    single run at a time write to the transcript.

    Harness(model, system, tools, messages=(), max_turns=None) keeps its own copy of `messages`.
    .messages     a tuple, a snapshot of the transcript: nobody outside can append to it or pop
                  from it. (The message dicts are shared, not copied.)
    .is_running   True from the moment prompt() is called until that run is used up, closed or
                  dies.
    .prompt(text) returns the run: run_agent's events over the harness's own list. While another
                  run is going on it raises RuntimeError("already running; use steer() or
                  follow_up()"), on the caller's own line: that is why prompt is a plain def and
                  the generator is _run.
    .steer(text), .follow_up(text) queue a user message: steer for the next pause between turns
                  ("use spaces"), follow_up for when the run would otherwise finish ("now run the
                  tests"). Anyone may call them at any time. A queued message becomes history
                  only when the loop asks for it, one message per ask, and queues outlive runs.
    .subscribe(listener) has listener(event) called for every event of every run, after the
                  record has changed and before the run's consumer receives the event. Returns
                  the function that undoes the subscription. A listener that raises ends the run:
                  listeners are trusted code, and a saver that cannot save must not fail quietly.
    .replace_messages(messages) puts in a whole new transcript, for whoever rebuilt it from the
                  log. It is the one way in, and it is closed while a run is going on:
                  RuntimeError."""

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._running = False
        self._steering, self._follow_ups = deque(), deque()
        self._listeners = []

    @property
    def messages(self):
        return tuple(self._messages)

    @property
    def is_running(self):
        return self._running

    def prompt(self, text):
        if self._running:  # checked here, on the caller's line, not at the first next()
            raise RuntimeError("already running; use steer() or follow_up()")
        self._running = True
        return self._run(text)

    def steer(self, text):
        self._steering.append(user_message(text))

    def follow_up(self, text):
        self._follow_ups.append(user_message(text))

    def subscribe(self, listener):
        self._listeners.append(listener)

        def unsubscribe():
            if listener in self._listeners:  # so that undoing twice does no harm
                self._listeners.remove(listener)
        return unsubscribe

    def _notify(self, event):
        for listener in list(self._listeners):  # a copy, as a listener may unsubscribe itself
            listener(event)

    def replace_messages(self, messages):
        if self._running:
            raise RuntimeError("cannot replace messages during a run")
        self._messages = list(messages)

    def _drain(self, queue):
        """What the loop gets when it asks: the oldest queued message, one at a time."""
        return [queue.popleft()] if queue else []

    def _run(self, text):
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._drain(self._steering),
                        get_follow_ups=lambda: self._drain(self._follow_ups))
        try:
            for event in run:
                self._notify(event)  # listeners first: if the consumer stops listening to the
                yield event          # run, they have heard this event already
        finally:                     # used up, closed by the consumer, or dead
            run.close()
            self._running = False
