"""Region 4, harness: the Harness, which owns the transcript (lessons 8, 9, 11, 12 and 13)."""

from collections import deque

from .loop import run_agent
from .messages import user_message
from .tools import briefing

# == 4 harness ==
# One transcript, one writer at a time. The loop does the work and keeps nothing; this keeps the list.


class Harness:
    """Keeper of the single transcript and of the settings every run shares; it lets only one
    run at a time write to the transcript.

    Harness(model, system, tools, messages=(), max_turns=None) takes its own copy of `messages`.
    Each method's docstring says what it promises."""

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._running = False
        self._steering, self._follow_ups = deque(), deque()
        self._listeners = []

    @property
    def messages(self):
        """A tuple: a snapshot, so code outside cannot append to the transcript or pop from it.
        (It holds the same message dicts, not copies.)"""
        ### BEGIN SOLUTION
        return tuple(self._messages)
        ### END SOLUTION

    @property
    def is_running(self):
        """True from the call of prompt() until its run is used up, closed, or dead."""
        return self._running

    def prompt(self, text):
        """The run: run_agent's events over the harness's own list. If a run is already going,
        raises RuntimeError("already running; use steer() or follow_up()") right on the caller's
        line, which is why prompt is a plain function and the generator lives in _run."""
        ### BEGIN SOLUTION
        if self._running:  # checked here, on the caller's line, not at the first next()
            raise RuntimeError("already running; use steer() or follow_up()")
        self._running = True
        return self._run(text)
        ### END SOLUTION

    def steer(self, text):
        """Queue a user message for the next pause between turns ("use spaces"). Anybody may call
        it whenever they like; the words join the history only when the loop asks, one message
        per ask, and the queue lasts from one run to the next."""
        ### BEGIN SOLUTION
        self._steering.append(user_message(text))
        ### END SOLUTION

    def follow_up(self, text):
        """Queue a user message for the moment the run would stop ("now run the tests"). Taken
        as steer's are: only when the loop asks, one per ask; the queue outlasts the run."""
        ### BEGIN SOLUTION
        self._follow_ups.append(user_message(text))
        ### END SOLUTION

    def subscribe(self, listener):
        """Make listener(event) hear each event of each run, once the record has changed and
        before whoever consumes the run gets it. Returns the function that cancels it. If a
        listener raises, the run ends: listeners are trusted, and a saver that fails to save must
        not do so in silence."""
        self._listeners.append(listener)

        def unsubscribe():
            if listener in self._listeners:  # so that undoing twice does no harm
                self._listeners.remove(listener)
        return unsubscribe

    def _notify(self, event):
        """Tell every listener about `event`, in the order they subscribed."""
        for listener in list(self._listeners):  # a copy, as a listener may unsubscribe itself
            listener(event)

    def replace_messages(self, messages):
        """Install a complete new transcript, for code that rebuilt one from the log. It is the
        only way in, and it is shut while a run is active: RuntimeError."""
        if self._running:
            raise RuntimeError("cannot replace messages during a run")
        self._messages = list(messages)

    def _drain(self, queue):
        """What the loop gets when it asks: the oldest queued message, one at a time."""
        ### BEGIN SOLUTION
        return [queue.popleft()] if queue else []
        ### END SOLUTION

    def _run(self, text):
        """Every event of run_agent over the harness's own list and settings, each told to the
        listeners before the consumer gets it. However the run ends (used up, closed by its
        consumer, or raising), the inner run is closed and the harness is no longer running."""
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._drain(self._steering),
                        get_follow_ups=lambda: self._drain(self._follow_ups))
        try:
            for event in run:
                self._notify(event)  # before the consumer: should it walk away from the run,
                yield event          # the listeners have heard this event all the same
        finally:                     # however the run ends: exhausted, closed, or raising
            run.close()
            self._running = False


def session(model, tools, facts, messages=(), max_turns=None, *, now=None):
    """A Harness for one working session, briefed: its system prompt is briefing(tools, facts),
    made here, once, from the very tools the Harness is given, and kept as that string. The
    Harness gets those tools sorted by name, the order the briefing lists them in (the caller's
    list itself is left as it was), since a provider caches the system prompt and the tool
    definitions as one unit: the same tools in any order open a session, or its resume, alike.
    Every request of the session therefore opens with the same bytes, after a compaction as
    before it, whatever becomes of `facts` later. `now` (the moment as text)
    differs from one session to the next, so it never enters the system prompt: when given (not
    None, not ""), it goes after everything stable, as user_message(f"[Session started {now}]")
    after `messages`, in a new list: the caller's `messages` is only read. `max_turns` reaches
    the Harness as it is."""
    ### BEGIN SOLUTION
    tools = sorted(tools, key=lambda tool: tool["name"])
    system = briefing(tools, facts)
    opening = list(messages) + ([user_message(f"[Session started {now}]")] if now else [])
    return Harness(model, system, tools, opening, max_turns)
    ### END SOLUTION
