"""Region 6, environment: the session log on disk and its replay (lessons 11 and 12)."""

import json

from .messages import user_message

# == 6 environment ==
# What a session needs around the harness, beginning with a disk. Regions 3 and 4 know none of it.


class SessionLog:
    """A session kept on disk: the file `path` in the workspace `ws`, one JSON object per line and
    one line per message, {"id": "e1", "type": "message", "message": {...}}. Lines are appended,
    never edited. The log is the truth and the transcript is what replay() reads out of it, so a
    session resumes as Harness(..., messages=log.replay()). Keeps no state but `ws` and `path`."""

    def __init__(self, ws, path):
        self.ws, self.path = ws, path

    def entries(self):
        """Every entry, oldest first; [] when the file does not exist yet. A line that is not JSON
        (a write torn part-way) raises ValueError naming its line number. It is never passed
        over: the next append would be glued onto it and both entries would be lost."""
        text = self.ws.read_text(self.path) if self.ws.exists(self.path) else ""
        entries = []
        for number, line in enumerate(text.splitlines(), 1):
            try:
                entries.append(json.loads(line))
            except ValueError:
                raise ValueError(f"{self.path}, line {number}: not a complete log entry") from None
        return entries

    def append_message(self, message):
        """Append `message` as one line and return its entry id: "e" and its line number. The
        number comes from reading the file again, so two logs over one file always agree."""
        entry = {"id": f"e{len(self.entries()) + 1}", "type": "message", "message": message}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
        return entry["id"]

    def append_compaction(self, summary, first_kept_id):
        """Append a compaction entry and return its id. From here on, the entries before
        `first_kept_id` are read as `summary`. Nothing is removed."""
        entry = {"id": f"e{len(self.entries()) + 1}", "type": "compaction",
                 "summary": summary, "first_kept_id": first_kept_id}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
        return entry["id"]

    def rows(self):
        """(entry id, message) for each message of the transcript, in order. A compaction entry
        is a rule for reading what stands before it: the rows before its first_kept_id become one
        row, (the entry's own id, its summary as a user message), and the rows from first_kept_id
        on stay as they are."""
        ### BEGIN SOLUTION
        rows = []
        for entry in self.entries():
            if entry["type"] == "compaction":
                ids = [row_id for row_id, _ in rows]
                first = entry["first_kept_id"]
                start = ids.index(first) if first in ids else len(rows)  # unknown id: keep none
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
                rows = [(entry["id"], summary)] + rows[start:]
            elif entry["type"] == "message":
                rows.append((entry["id"], entry["message"]))
        return rows
        ### END SOLUTION

    def replay(self):
        """The transcript. State is worked out from what happened; it is never saved."""
        return [message for _, message in self.rows()]


def persist_to(log):
    """A listener for Harness.subscribe that appends each message to `log` the moment it is
    complete. Saving is this listener's job alone, whoever is consuming the run."""
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
    return listener
