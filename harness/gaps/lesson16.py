"""The gaps of lesson 16, two labs: lab 1 a view for a chat template (portable_id, merge_runs,
template_messages), lab 2 a view for a Chat Completions server and the way back from its replies
(chat_request, chat_reply).

Each text stands where the reference's solution part is, and the notebook's solution cell shows its
comment lines above the definition. Every gap ends in the same stub, so a lab not yet begun is "not
started" in the notebook and on the command line alike, never a wrong answer."""

GAPS = {}

GAPS["portable_id"] = '''\
# --- your code ---
# Two cases. An id that PORTABLE_ID matches from its first character to its last goes out as
# it is. Any other is hashed: "tc_" followed by the first 40 hex digits of hashlib.sha256 over
# the id's UTF-8 bytes. Nothing here may depend on a counter, the clock or the request.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["merge_runs"] = '''\
# --- your code ---
# Walk the turns once, building a new list. A turn whose role is the role of the last turn
# you kept is added to that one (a blank line between the texts); any other starts a new dict
# of its own. Never write into a dict you were handed: copy before you join.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["template_messages"] = '''\
# --- your code ---
# First the system turn (with tools_prompt(tools) under a blank line when there are tools),
# then one plain-text turn per message of the view:
#   user        -> its text, as a user turn;
#   assistant   -> its text (if any) and tool_call_line(call) for each call, one per line;
#   toolResult  -> a user turn: the label "[result of call ID, NAME]" ("[error from call ID,
#                  NAME]" when is_error), a newline, then the result's text.
# Last, hand the list to merge_runs, so that the roles alternate. Drop nothing.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["chat_request"] = '''\
# --- your code ---
# The system prompt is the first message, with role "system". Then one message per message of
# the view, in order, with no merging: this format has a role for each of them.
#   user        -> {"role": "user", "content": text}
#   assistant   -> {"role": "assistant", "content": text or None}, plus "tool_calls" when it
#                  calls tools: {"id", "type": "function", "function": {"name", "arguments"}},
#                  the arguments written with json.dumps
#   toolResult  -> {"role": "tool", "tool_call_id": ..., "content": ...}
# Every id, of a call and of a result alike, goes through portable_id. Then the body: "model",
# "messages", "stream": False, and "tools" (one {"type": "function", "function": spec} each)
# only when there are tools.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''

GAPS["chat_reply"] = '''\
# --- your code ---
# raw is (status, headers, body text). Nothing in here may raise.
#   Not 200: take the provider's own words with provider_error(body). If any phrase of
#     TOO_LONG is in them (lower case), the failed reply says "prompt is too long: " and the
#     words; otherwise "<status> from the provider: " and the words. error_message makes both.
#   200: parse the body and take choices[0]. Its message's text (when there is some) is a text
#     block; each tool call is a toolCall block with its id, name and json.loads'd arguments.
#     stop_reason from STOP_REASONS by finish_reason; usage from prompt_tokens and
#     completion_tokens. Anything missing or unreadable on the way is a failed reply that says
#     the reply could not be read.
# YOUR CODE HERE
raise NotImplementedError()
# --- end ---
'''
