"""Region 5, frontends: what the user sees of a run (lesson 7)."""

import json

from .messages import text_of

# == 5 frontends ==
# A frontend folds the events of one run: render(event) for each, then finish(), which says whether
# the run ended well. The loop never knows what its events are made to look like.


class JsonRenderer:
    """Prints every event as a line of JSON, for another program to read."""

    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event))
        if event["type"] == "message_end" and event["message"].get("stop_reason") == "error":
            self.failed = True

    def finish(self):
        return not self.failed


class FinalTextRenderer:
    """Prints only the answer, for `> answer.txt`: nothing while the run is going on. finish()
    prints the text of the last assistant message and returns True; when that message failed
    (stop_reason "error") it prints "Error: <its error_message>" and returns False."""

    def __init__(self):
        self.last = None  # the newest assistant message so far

    def render(self, event):
        if event["type"] == "message_end" and event["message"]["role"] == "assistant":
            self.last = event["message"]

    def finish(self):
        if self.last is None:
            return False
        if self.last["stop_reason"] == "error":
            print(f"Error: {self.last['error_message']}")
            return False
        print(text_of(self.last))
        return True
