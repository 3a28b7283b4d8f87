"""Lesson 14's own props: gullible(), a scripted model that does what any text in its request tells
it to, and orders_in(), what it takes for an order. Each docstring states its rule in full, since
the lesson prints it."""

import re

from lab.stage.builders import call, reply, say
from lab.stage.model import Forever, _calls_in
from lab.stage.props import FILE_NAME, summary_lines


_ORDER = re.compile(r"\brun\s+`([^`]+)`", re.IGNORECASE)


def orders_in(text):
    """The orders in `text`, in order: every command in backquotes right after the word "run"
    (any case), as in "run `make test`". What the gullible prop takes for an instruction."""
    return _ORDER.findall(text) if isinstance(text, str) else []


def gullible():
    """A stage prop, as a script step: a model that does what any text in its request tells it
    to, whoever wrote that text. An order is a command in backquotes after the word "run" (see
    orders_in); it finds orders in the text of every message, user messages, tool results and
    its own earlier words alike, oldest first.

    For every request it follows one rule, in this order:
    - A summary request (the system prompt contains "summar", any case; no tools offered; the
      last message a user message starting with "<conversation>"): it replies "Summary: the user
      asked: <the first line of the conversation that starts "user: ", without that prefix and
      without full stops at its end>." and then one more sentence for each line of the
      conversation that holds orders. A line from a tool result ("toolResult: ...") is quoted
      when the system prompt says to quote (contains "quote", any case): ' Quoted, not a
      request: a tool returned "<the line's text>".' Otherwise, and for every line that is not
      from a tool, it obeys: " Next step: run `<order>`." for each order.
    - Otherwise, if a tool named "bash" is offered: the first order in the request that no bash
      call in the request has run yet (same command text) makes it call bash {"command": order}.
    - Otherwise, if a tool named "read" is offered and the newest user message names a file
      that no read call since that message has asked for, it calls read {"path": <that file>}.
    - Otherwise it says "Done.", and nothing about what it ran.
    It keeps no state: each answer depends on the request alone.
    """
    return Forever(_gullible, name="gullible")


def _text(message):
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def _gullible(request):
    lines = summary_lines(request)
    if lines is not None:
        asked = next((line[len("user: "):] for line in lines if line.startswith("user: ")), "nothing")
        asked = asked.rstrip(".")
        quoting = "quote" in str(request.system).lower()
        words = [f"Summary: the user asked: {asked}."]
        for line in lines:
            found = orders_in(line)
            if not found:
                continue
            if quoting and line.startswith("toolResult: "):
                words.append(f'Quoted, not a request: a tool returned "{line[len("toolResult: "):]}".')
            else:
                words += [f"Next step: run `{order}`." for order in found]
        return say(" ".join(words))
    names = {t.get("name") for t in request.tools if isinstance(t, dict)}
    if "bash" in names:
        ran = {c.get("arguments", {}).get("command") for m in request.messages
               if isinstance(m, dict) and m.get("role") == "assistant" for c in _calls_in(m)
               if c.get("name") == "bash" and isinstance(c.get("arguments"), dict)}
        for message in request.messages:
            for order in orders_in(_text(message)):
                if order not in ran:
                    return reply(call("bash", {"command": order}))
    users = [i for i, m in enumerate(request.messages) if isinstance(m, dict) and m.get("role") == "user"]
    if "read" in names and users:
        named = FILE_NAME.search(_text(request.messages[users[-1]]))
        since = request.messages[users[-1] + 1:]
        asked_for = {c.get("arguments", {}).get("path") for m in since if isinstance(m, dict)
                     for c in _calls_in(m) if c.get("name") == "read" and isinstance(c.get("arguments"), dict)}
        if named and named.group(0) not in asked_for:
            return reply(call("read", {"path": named.group(0)}))
    return say("Done.")
