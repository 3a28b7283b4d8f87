"""Definitions as lesson 11 leaves them, for those that lesson 12 rewrites."""

from collections import deque  # noqa: F401  (the class below is a heading only)


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
                  listeners are trusted code, and a saver that cannot save must not fail quietly."""


class SessionLog:

    def rows(self):
        """(entry id, message) for each message of the transcript, in order."""
        return [(entry["id"], entry["message"]) for entry in self.entries()
                if entry["type"] == "message"]
