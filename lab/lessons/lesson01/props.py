"""Lesson 1's own prop: recall(), a scripted model that knows what the user told it only as far as
the request shows it. Its docstring states its rule in full."""

import re

from lab.stage.builders import say
from lab.stage.model import Forever


_NAME_GIVEN = re.compile(r"\bmy name is (\w+)", re.IGNORECASE)
_NAME_ASKED = re.compile(r"\bwhat(?: is|'s) my name\b|\bwho am i\b", re.IGNORECASE)


def recall():
    """A stage prop, as a script step: a model that knows what the user told it only as far as
    the request shows it, and that takes "who spoke" from each message's role.

    It reads the user-role messages of the request (string content) and nothing else: not the
    system prompt, not the assistant's own replies. For every request it follows one rule, in this
    order, on the newest user message:
    - No user message at all: "I can't tell: this request holds nothing you said."
    - It asks for the user's name ("what is my name", "what's my name", "who am I", any case):
      "Your name is <name>." for the last "my name is <name>" found in the user-role messages,
      read in order, or "I can't tell: nothing in this request says." if there is none.
    - It gives a name ("my name is <name>"): "Hello, <name>. My name is Tau."
    - Otherwise: "Noted."
    A history pasted into one user message is, to it, all the user's words, the assistant's
    "My name is Tau." included. It keeps no state: each answer depends on the request alone.
    """
    return Forever(_recall, name="recall")


def _recall(request):
    said = [m["content"] for m in request.messages
            if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), str)]
    if not said:
        return say("I can't tell: this request holds nothing you said.")
    newest = said[-1]
    if _NAME_ASKED.search(newest):
        names = [name for text in said for name in _NAME_GIVEN.findall(text)]
        return say(f"Your name is {names[-1]}." if names else "I can't tell: nothing in this request says.")
    given = _NAME_GIVEN.findall(newest)
    if given:
        return say(f"Hello, {given[-1]}. My name is Tau.")
    return say("Noted.")
