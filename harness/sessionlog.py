"""Region 6, environment: the session log on disk and its replay (lessons 11 and 12)."""

import json

from .messages import user_message

# == 6 environment ==
# What a session needs around the harness, starting with a disk. Regions 3 and 4 never see it.

SUMMARY_PREFIX = "Previous conversation summary:\n"  # how a summary reads when replayed as a message


class SessionLog:
    """A session on disk, in the file `path` of the workspace `ws`: a JSON object on each line, a
    line for each message, {"id": "e1", "type": "message", "message": {...}}. Lines get added at
    the end and are never altered. What the file says is the truth; the transcript is computed
    from it by replay(), so resuming a session is Harness(..., messages=log.replay()). Holds
    nothing besides `ws` and `path`."""

    def __init__(self, ws, path):
        self.ws, self.path = ws, path

    def entries(self):
        """All entries, the oldest first, or [] while there is no file. A line that is not valid
        JSON (a write cut off half-way) raises ValueError with its line number. Skipping it is
        not an option: the following append would stick to its end and spoil both entries."""
        ### BEGIN SOLUTION
        if not self.ws.exists(self.path):
            return []
        entries = []
        for number, line in enumerate(self.ws.read_text(self.path).splitlines(), start=1):
            try:
                entries.append(json.loads(line))
            except ValueError:  # named and raised, never skipped: see above
                raise ValueError(f"{self.path}, line {number}: not a complete log entry") from None
        return entries
        ### END SOLUTION

    def append_message(self, message):
        """Append `message` as one line and return its entry id: "e" and its line number. The
        number comes from reading the file again, so two logs over one file always agree."""
        ### BEGIN SOLUTION
        entry = {"id": f"e{len(self.entries()) + 1}", "type": "message", "message": message}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
        return entry["id"]
        ### END SOLUTION

    def append_compaction(self, summary, first_kept_id):
        """Add a compaction entry at the end and return its id. Readers of the log will take
        every entry ahead of `first_kept_id` as `summary` from now on. Nothing is deleted."""
        entry = {"id": f"e{len(self.entries()) + 1}", "type": "compaction",
                 "summary": summary, "first_kept_id": first_kept_id}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
        return entry["id"]

    def rows(self):
        """The transcript's messages in order, each as (entry id, message). A compaction entry
        says how to read the entries above it: every row ahead of its first_kept_id turns into a
        single row, (the compaction's own id, its summary as a user message), and the row named
        by first_kept_id and those after it are kept as they were."""
        ### BEGIN SOLUTION
        rows = []
        for entry in self.entries():
            if entry["type"] == "compaction":
                ids = [row_id for row_id, _ in rows]
                first = entry["first_kept_id"]
                start = ids.index(first) if first in ids else len(rows)  # unknown id: keep none
                summary = user_message(SUMMARY_PREFIX + entry["summary"])
                rows = [(entry["id"], summary)] + rows[start:]
            elif entry["type"] == "message":
                rows.append((entry["id"], entry["message"]))
        return rows
        ### END SOLUTION

    def replay(self):
        """The transcript. State is worked out from what happened; it is never saved."""
        return [message for _, message in self.rows()]


def persist_to(log):
    """A listener, for Harness.subscribe, that writes each message to `log` as soon as it is
    finished. Only this listener saves, so saving does not depend on who reads the run."""
    ### BEGIN SOLUTION
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
    return listener
    ### END SOLUTION
