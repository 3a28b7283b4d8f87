"""The run's events as they happen (lesson 7): as text for a person, or, with --json, one JSON
object a line, through the harness's own JsonRenderer.

Text: the assistant's words as each reply is recorded, a line when a tool starts ("-> read
notes.txt") and its result's first lines when it ends, an error result marked. A failed reply is
said by the command (failures.py), not here.
"""

import json
import sys

SHOWN_LINES = 6


def short(call):
    arguments = call.get("arguments") or {}
    if call["name"] == "bash":
        return f"bash: {arguments.get('command')}"
    if call["name"] in ("read", "write") and "path" in arguments:
        return f"{call['name']} {arguments['path']}"
    return f"{call['name']} {json.dumps(arguments)}"


class TextRenderer:
    """Events as lines for a person, written to `out` as they come."""

    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.last = None

    def write(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def render(self, event):
        kind = event["type"]
        if kind == "message_end":
            message = event["message"]
            if message["role"] == "assistant":
                self.last = message
                words = "".join(b["text"] for b in message["content"] if b["type"] == "text").strip()
                if words:
                    self.write(words)
        elif kind == "tool_execution_start":
            self.write(f"-> {short(event['call'])}")
        elif kind == "tool_execution_end":
            result = event["result"]
            lines = str(result["content"]).splitlines()
            mark = "   error: " if result.get("is_error") else "   "
            shown = lines[:SHOWN_LINES] or [""]
            for n, line in enumerate(shown):
                self.write((mark if n == 0 else "   ") + line)
            if len(lines) > SHOWN_LINES:
                self.write(f"   ... ({len(lines) - SHOWN_LINES} more lines)")

    def finish(self):
        return not (self.last and self.last.get("stop_reason") == "error")


class JsonLines:
    """--json: the harness's JsonRenderer (one json.dumps(event) a line), flushed a line at a time."""

    def __init__(self, renderer_class):
        self.inner = renderer_class()

    def render(self, event):
        self.inner.render(event)
        sys.stdout.flush()

    def finish(self):
        return self.inner.finish()
