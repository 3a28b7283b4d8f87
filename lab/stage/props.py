"""The stage's characters that more than one lesson puts on the stage: scripted models with a
rule of their own, each a script step (forever(...)) that answers every request by that rule:
lab.summariser() (lessons 12-14) and lab.guesser() (1, 2). Each docstring states its rule in full,
since the lessons print it for the learner. A prop only one lesson uses lives in that lesson's
folder (lab/lessons/lessonNN/props.py); the scripted model itself is lab/stage/model.py.
"""

import re

from .builders import call, reply, say
from .model import Forever, _calls_in


SUMMARY_TAG, SUMMARY_END = "<conversation>", "</conversation>"


def summariser():
    """A stage prop, as a script step: a model that summarises only when nothing else is left to do.

    For every request it follows one rule, in this order:
    - The system prompt contains "summar" (any case), the last message is a user message that
      starts with "<conversation>", and no tools are offered: it replies "Summary of N lines.
      It began: <first line> It ended: <last line>", the lines being those between the
      <conversation> and </conversation> tags (blank ones not counted).
    - Otherwise it carries on as an assistant. If a line of the request's user text contains "?",
      it answers the last such line: "You asked: <line> My answer: yes. (Not a summary.)".
    - Failing that, if tools are offered and it has not called one since the newest user message,
      it calls the first tool offered, with arguments {}.
    - Failing that, it says "Done. (Not a summary.)".
    It keeps no state: each answer depends on the request alone.
    """
    return Forever(_summarise, name="summariser")


def summary_lines(request):
    """The non-blank lines a summary request asks to have summarised, or None if `request` is not
    one: a request is one when its system prompt speaks of summarising, it offers no tools, and its
    last message is the user's, opening with SUMMARY_TAG (SUMMARY_END, if there, closes it)."""
    last = request.messages[-1] if request.messages else {}
    content = last.get("content") if last.get("role") == "user" else None
    if not ("summar" in str(request.system).lower() and not request.tools
            and isinstance(content, str) and content.startswith(SUMMARY_TAG)):
        return None
    body = content[len(SUMMARY_TAG):]
    if SUMMARY_END in body:
        body = body[:body.rindex(SUMMARY_END)]
    return [line.strip() for line in body.splitlines() if line.strip()]


def _summarise(request):
    lines = summary_lines(request)
    if lines is not None:
        if not lines:
            return say("Summary of 0 lines.")
        return say(f"Summary of {len(lines)} lines. It began: {lines[0]} It ended: {lines[-1]}")
    questions = [line.strip() for line in request.user_text.splitlines() if "?" in line]
    if questions:
        return say(f"You asked: {questions[-1]} My answer: yes. (Not a summary.)")
    users = [i for i, m in enumerate(request.messages) if m.get("role") == "user"]
    since = request.messages[users[-1] + 1:] if users else request.messages
    called = any(m.get("role") == "assistant" and _calls_in(m) for m in since)
    if request.tools and not called:
        return reply(call(request.tools[0]["name"], {}))
    return say("Done. (Not a summary.)")


# The guesser's stock of likely answers, by a word the question uses: what settings files most
# often say. A likely answer is plausible because it is common, which is all it has going for it.
LIKELY = {"port": "PORT = 8080", "host": "HOST = '0.0.0.0'", "debug": "DEBUG = True",
          "timeout": "TIMEOUT = 30", "version": "VERSION = '1.0.0'"}


def guesser():
    """A stage prop, as a script step: a model that answers questions about files and never says
    it cannot see one.

    For every request it follows one rule, in this order:
    - The newest user message has to name a file: the first word with a dot inside it, such as
      config.py (a full stop or question mark after it is not part of the name). If none does,
      it replies "Which file do you mean?".
    - If a toolResult came back after that user message, it answers from one: the newest result
      whose tool_call_id is the id of a call that asked for that path, or else the newest result.
      It says "<path> says: <line>", the line being the first of the result's content that holds
      a word of the question (four letters or more, any case), or else its first line; "<path> is
      empty." for empty content; "I could not read <path>: <content>" for a result marked
      is_error. It trusts the pairing it is shown, right or wrong.
    - Otherwise, if a tool named "read" is offered, it calls it: read with {"path": <path>}.
    - Otherwise it writes a likely answer in the same confident voice: "<path> says: <setting>"
      for the first word of the question that LIKELY knows ("port" gives PORT = 8080), or
      "<path> says: the usual settings for a project like this" if none.
    It keeps no state: each answer depends on the request alone.
    """
    return Forever(_guess, name="guesser")


# A file's name in a question: the first word with a dot inside it (lesson 13's and 14's props
# find it this way too).
FILE_NAME = re.compile(r"[\w/-]+(?:\.[\w-]+)+")


def _guess(request):
    users = [i for i, m in enumerate(request.messages) if m.get("role") == "user"]
    question = request.messages[users[-1]].get("content") if users else ""
    question = question if isinstance(question, str) else ""
    named = FILE_NAME.search(question)
    if named is None:
        return say("Which file do you mean?")
    path = named.group(0)
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", question)]
    results = [m for m in request.messages[users[-1] + 1:] if m.get("role") == "toolResult"]
    if results:
        asked_for = {c.get("id") for m in request.messages[users[-1] + 1:] for c in _calls_in(m)
                     if isinstance(c.get("arguments"), dict) and c["arguments"].get("path") == path}
        newest = ([m for m in results if m.get("tool_call_id") in asked_for] or results)[-1]
        content = str(newest.get("content", ""))
        if newest.get("is_error"):
            return say(f"I could not read {path}: {content}")
        if not content:
            return say(f"{path} is empty.")
        lines = content.splitlines()
        asked = [w for w in words if len(w) >= 4]
        line = next((l for l in lines if any(w in l.lower() for w in asked)), lines[0])
        return say(f"{path} says: {line.strip()}")
    if any(isinstance(t, dict) and t.get("name") == "read" for t in request.tools):
        return reply(call("read", {"path": path}))
    likely = next((LIKELY[w] for w in words if w in LIKELY), None)
    return say(f"{path} says: {likely or 'the usual settings for a project like this'}")
