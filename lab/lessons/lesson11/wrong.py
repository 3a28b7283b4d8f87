"""Wrong answers to lesson 11's gaps. Each is a design that a rung of the lesson argues against (its
docstring names the rung), and the lab tests must catch every one with a sentence that names the
function at fault. Methods take `self`, as the learner's own `def entries(self):` does."""

import json


# -- SessionLog.entries -------------------------------------------------------------------------

def entries_skipping_torn_lines(self):
    """Skips a line that is not JSON and reads on: one message lost, it seems. The torn-line rung
    (torn-line) shows the next append glued onto it, and both lost."""
    if not self.ws.exists(self.path):
        return []
    found = []
    for line in self.ws.read_text(self.path).splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:
            continue
    return found


def entries_stopping_quietly(self):
    """Stops at the first torn line and returns what came before it, as if the session ended
    there: the torn-line rung's quiet variant."""
    if not self.ws.exists(self.path):
        return []
    found = []
    for line in self.ws.read_text(self.path).splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:
            break
    return found


def entries_without_the_line_number(self):
    """Raises, but says only that the log is bad: nobody can find the line to look at (torn-line)."""
    if not self.ws.exists(self.path):
        return []
    try:
        return [json.loads(line) for line in self.ws.read_text(self.path).splitlines()]
    except ValueError:
        raise ValueError("the session log is corrupt") from None


def entries_of_a_missing_file_raise(self):
    """Reads the file without asking whether it is there: a new session cannot start (the wall's
    recall, where-is-the-record: a new session starts from no file)."""
    return [json.loads(line) for line in self.ws.read_text(self.path).splitlines()]


# -- SessionLog.append_message --------------------------------------------------------------------

def append_by_rewriting(self, message):
    """Saves by writing the whole file again with the new line on the end: the rewrite rung
    (rewrite-cut) and the wall's crash window, in one line."""
    kept = "" if not self.ws.exists(self.path) else self.ws.read_text(self.path)
    entry_id = "e" + str(kept.count("\n") + 1)
    line = json.dumps({"id": entry_id, "type": "message", "message": message})
    self.ws.write_text(self.path, kept + line + "\n")
    return entry_id


def append_with_a_counter(self, message):
    """Numbers entries with a counter kept in the object: quick, and two logs over one file hand
    out the same id (the two-logs rung, two-windows)."""
    self._appended = getattr(self, "_appended", 0) + 1
    entry_id = "e" + str(self._appended)
    self.ws.append_text(self.path, json.dumps({"id": entry_id, "type": "message",
                                               "message": message}) + "\n")
    return entry_id


def append_counting_from_the_first_append(self, message):
    """Counts the file's lines once, at this object's first append, and adds one per append after
    that: right for one log, and two logs open at once still clash (two-windows)."""
    if not hasattr(self, "_next"):
        self._next = len(self.entries()) + 1
    entry_id, self._next = "e" + str(self._next), self._next + 1
    self.ws.append_text(self.path, json.dumps({"id": entry_id, "type": "message",
                                               "message": message}) + "\n")
    return entry_id


def append_without_newline(self, message):
    """Leaves the line open: the next entry is glued onto it, which is a torn line made on
    purpose (torn-line)."""
    entry_id = "e" + str(len(self.entries()) + 1)
    self.ws.append_text(self.path, json.dumps({"id": entry_id, "type": "message", "message": message}))
    return entry_id


def append_pretty_printed(self, message):
    """Writes the entry as indented JSON, across many lines: readable, and no longer one line per
    entry, so replay is no longer a rule for reading lines (torn-line)."""
    entry_id = "e" + str(len(self.entries()) + 1)
    text = json.dumps({"id": entry_id, "type": "message", "message": message}, indent=2)
    self.ws.append_text(self.path, text + "\n")
    return entry_id


def append_counting_from_zero(self, message):
    """Uses the number of lines already there as the id: e0 for the first line (two-windows)."""
    entry_id = "e" + str(len(self.entries()))
    self.ws.append_text(self.path, json.dumps({"id": entry_id, "type": "message",
                                               "message": message}) + "\n")
    return entry_id


# -- persist_to ---------------------------------------------------------------------------------------

def persist_at_agent_end(log):
    """One write per run, at agent_end: the when-to-save rung's tempting answer (when-to-save).
    A cut mid-run, or a consumer that walks away, loses the whole run."""
    def listener(event):
        if event["type"] == "agent_end":
            for message in event["messages"]:
                log.append_message(message)
    return listener


def persist_after_the_consumer(log):
    """Saves a message only when the next event comes, that is after the consumer has handled
    it: the timing of a save in the frontend's for loop (who-saves). A consumer that breaks out
    leaves the last message unsaved."""
    waiting = []

    def listener(event):
        while waiting:
            log.append_message(waiting.pop(0))
        if event["type"] == "message_end":
            waiting.append(event["message"])
    return listener


def persist_per_turn(log):
    """Collects a turn's messages and saves them at turn_end: fewer writes, and a run broken off
    mid-turn loses the turn (when-to-save)."""
    pending = []

    def listener(event):
        if event["type"] == "message_end":
            pending.append(event["message"])
        elif event["type"] == "turn_end":
            while pending:
                log.append_message(pending.pop(0))
    return listener


def persist_quietly(log):
    """Swallows the disk's OSError so that the user can keep working: the full-disk rung's
    tempting answer (full-disk). The session on disk stops without a word."""
    def listener(event):
        if event["type"] == "message_end":
            try:
                log.append_message(event["message"])
            except OSError:
                pass
    return listener


def persist_with_a_warning(log):
    """Prints a warning instead of raising: the user may miss it, and the run carries on with a
    log that stopped (full-disk)."""
    def listener(event):
        if event["type"] == "message_end":
            try:
                log.append_message(event["message"])
            except Exception as error:
                print("warning: could not save:", error)
    return listener


def persist_every_message_it_sees(log):
    """Saves the message of every event that carries one: turn_end repeats the reply, so each
    reply is saved twice and replay shows it twice (when-to-save)."""
    def listener(event):
        if "message" in event:
            log.append_message(event["message"])
    return listener


WRONG = {1: {
    "SessionLog.entries": [entries_skipping_torn_lines, entries_stopping_quietly,
                           entries_without_the_line_number, entries_of_a_missing_file_raise],
    "SessionLog.append_message": [append_by_rewriting, append_with_a_counter,
                                  append_counting_from_the_first_append, append_without_newline,
                                  append_pretty_printed, append_counting_from_zero],
    "persist_to": [persist_at_agent_end, persist_after_the_consumer, persist_per_turn,
                   persist_quietly, persist_with_a_warning, persist_every_message_it_sees],
}}
