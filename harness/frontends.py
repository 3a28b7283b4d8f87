"""Region 5, frontends: what the user sees of a run (lesson 7)."""

import json

from .messages import text_of

# == 5 frontends ==
# A frontend takes a run's events one by one, render(event), and then finish() reports whether
# the run went well. How events end up looking is no business of the loop's.


class JsonRenderer:
    """Each event printed as one JSON line, for programs rather than people."""

    def __init__(self):
        """A renderer that has printed nothing and seen no failure yet. It keeps one flag, and no
        event: every line goes out the moment its event comes in."""
        self.failed = False

    def render(self, event):
        """Print `event` at once as one line of JSON (json.dumps, so one parseable object per
        line for the program reading stdout), whatever its type. An assistant message that failed,
        seen in a message_end, is noted for finish(); nothing else is kept."""
        print(json.dumps(event))
        message = event.get("message") if event["type"] == "message_end" else None
        self.failed = self.failed or (message is not None and message.get("stop_reason") == "error")

    def finish(self):
        """Print nothing more, and say how the run went: False if a failed assistant message
        (stop_reason "error") went by in a message_end, True otherwise. The caller turns it into
        the program's exit status."""
        return not self.failed


class FinalTextRenderer:
    """The answer alone, fit for `> answer.txt`: silent while the run lasts. finish() prints the
    words of the final assistant message and returns True, or, if that message failed
    (stop_reason "error"), prints "Error: <its error_message>" and returns False."""

    def __init__(self):
        """A renderer that has seen no assistant message yet and has printed nothing. Making one
        prints nothing either: the output of `> answer.txt` is decided by finish() alone."""
        ### BEGIN SOLUTION
        self.last = None  # the latest assistant message seen
        ### END SOLUTION

    def render(self, event):
        """Take in one event and print nothing. Only a message_end whose message is an assistant
        message matters: that message becomes the newest one seen, in place of any before it
        (a tool result or a user message is never the answer). Every other event is passed over."""
        ### BEGIN SOLUTION
        announced = event["message"] if event["type"] == "message_end" else None
        if announced is not None and announced["role"] == "assistant":
            self.last = announced  # newer than any kept before
        ### END SOLUTION

    def finish(self):
        """Called once, after the last event: print the answer and say whether the run went well.
        The newest assistant message seen decides. If it failed (stop_reason "error"), print
        "Error: " and its error_message and return False, whatever text it carries. Otherwise print
        its text (text_of) and return True. If no assistant message came at all, print nothing
        and return False."""
        ### BEGIN SOLUTION
        answer = self.last
        if answer is None:
            return False
        failed = answer["stop_reason"] == "error"
        print(f"Error: {answer['error_message']}" if failed else text_of(answer))
        return not failed
        ### END SOLUTION
