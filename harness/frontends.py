"""Region 5, frontends: what the user sees of a run (lesson 7)."""

import json

from .messages import text_of

# == 5 frontends ==
# A frontend takes a run's events one by one, render(event), and then finish() reports whether
# the run went well. How events end up looking is no business of the loop's.


class JsonRenderer:
    """Each event printed as one JSON line, for programs rather than people."""

    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event))
        message = event.get("message") if event["type"] == "message_end" else None
        self.failed = self.failed or (message is not None and message.get("stop_reason") == "error")

    def finish(self):
        return not self.failed


class FinalTextRenderer:
    """The answer alone, fit for `> answer.txt`: silent while the run lasts. finish() prints the
    words of the final assistant message and returns True, or, if that message failed
    (stop_reason "error"), prints "Error: <its error_message>" and returns False."""

    def __init__(self):
        ### BEGIN SOLUTION
        self.last = None  # the latest assistant message seen
        ### END SOLUTION

    def render(self, event):
        ### BEGIN SOLUTION
        message = event.get("message") if event["type"] == "message_end" else None
        if message is not None and message["role"] == "assistant":
            self.last = message
        ### END SOLUTION

    def finish(self):
        ### BEGIN SOLUTION
        if self.last is None:
            return False
        failed = self.last["stop_reason"] == "error"
        print(f"Error: {self.last['error_message']}" if failed else text_of(self.last))
        return not failed
        ### END SOLUTION
