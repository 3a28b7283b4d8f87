"""The gaps of lesson 11, one lab: SessionLog.entries, SessionLog.append_message and persist_to."""

GAPS = {}

GAPS["SessionLog.entries"] = '''\
# --- your code ---
# No file at self.path in self.ws yet: the session is empty, so [].
# Otherwise decode the file line by line with json.loads, numbering the lines
# from 1. The moment a line will not decode, raise ValueError with a message
# that names the file and that number, such as
#     "session.jsonl, line 3: not a complete log entry"
# and do not go on to the lines after it.
raise NotImplementedError("SessionLog.entries is lesson 11's lab: write it here")
# --- end ---
'''

GAPS["SessionLog.append_message"] = '''\
# --- your code ---
# The entry is {"id": ..., "type": "message", "message": message}, written as
# json.dumps(entry) plus "\\n" with self.ws.append_text: one line, added at the
# end, nothing before it touched. The id is "e" and the number this line will
# have, and that number comes from the file as it is now, not from a counter
# kept in this object: another SessionLog may be writing to the same file.
raise NotImplementedError("SessionLog.append_message is lesson 11's lab: write it here")
# --- end ---
'''

GAPS["persist_to"] = '''\
# --- your code ---
# Return a function of one event. For a "message_end" event it appends
# event["message"] to `log`; every other event it ignores. Let whatever the
# append raises go up: a full disk has to end the run, not pass unnoticed.
raise NotImplementedError("persist_to is lesson 11's lab: write it here")
# --- end ---
'''
