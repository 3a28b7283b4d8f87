"""Definitions as lesson 11 leaves them, for those that lesson 12 rewrites."""

from collections import deque  # noqa: F401  (the class below is a heading only)


class Harness:
    """Keeper of the single transcript and of the settings every run shares; it lets only one
    run at a time write to the transcript.

    Harness(model, system, tools, messages=(), max_turns=None) takes its own copy of `messages`.
    .messages     a tuple: a snapshot, so code outside cannot append to the transcript or pop
                  from it. (It holds the same message dicts, not copies.)
    .is_running   True from the call of prompt() until its run is used up, closed, or dead.
    .prompt(text) gives back the run, which is run_agent's events over the harness's own list.
                  If a run is already going, it raises RuntimeError("already running; use
                  steer() or follow_up()") right on the caller's line, which is why prompt is a
                  plain function and the generator lives in _run.
    .steer(text), .follow_up(text) put a user message in a queue: steer's for the next pause
                  between turns ("use spaces"), follow_up's for the moment the run would stop
                  ("now run the tests"). Anybody may call them whenever they like. Queued words
                  join the history only when the loop asks, one message per ask; queues last
                  from one run to the next.
    .subscribe(listener) makes listener(event) hear each event of each run, once the record has
                  changed and before whoever consumes the run gets it. It returns the function
                  that cancels it. If a listener raises, the run ends: listeners are trusted, and
                  a saver that fails to save must not do so in silence."""


class SessionLog:

    def rows(self):
        """(entry id, message) for each message of the transcript, in order."""
        return [(entry["id"], entry["message"]) for entry in self.entries()
                if entry["type"] == "message"]
