"""Lesson 04's own stage: the harness as an earlier lesson left it, and a scripted model that acts
on the newest tool result it is shown.

    h3 = at_lesson(3)              the learner's harness.py as lesson 3 leaves it, as a module
    h = harness_now()              as lesson 4 leaves it, with the learner's run_tool once the lab
                                   passes (lab.check installs it), the reference's before
    recovering(first, looking_for) a script step: the model that reads its errors
    ran_on(cell_id)                the note under a demonstration: whose run_tool it ran on

The modules are made from the generated files themselves (lab.course.starters), so a cell that says
"lesson 3's harness" runs exactly the text `python -m lab end 3` prints.
"""

import difflib
import re

import lab

LESSON = 4


def at_lesson(lesson):
    """The harness.py that `python -m lab end <lesson>` prints, loaded as a module of its own."""
    from lab.runtime import lesson_harness
    return lesson_harness.fresh(lesson)


def harness_now():
    """The harness as lesson 4 leaves it, with the learner's code in once the lab passed."""
    from lab.runtime import lesson_harness
    return lesson_harness.harness_now(LESSON)


def ran_on(cell_id):
    """Display, as a note of its own, whose code the demonstration `cell_id` ran on."""
    from lab.runtime import lesson_harness
    lesson_harness.ran_on(LESSON, cell_id)


# -- the model that reads its errors ----------------------------------------------------------

_LISTING = re.compile(r"Files here: (.*)$")
_NO_TOOL = re.compile(r"^Tool (\S+) not found$")
GIVE_UP_AFTER = 3


def recovering(first, looking_for=None):
    """A stage prop, as a script step: a model that opens with the call `first` (made by
    lab.call) and then acts on the newest tool result it is shown, request.last_result, and on
    nothing else it has not been sent.

    For every request, after the newest user message:
    - No tool result yet: it asks for `first`.
    - The newest result is marked is_error, and it is the third such result: it gives up,
      "I gave up on <path>: <content>".
    - The newest result is marked is_error and ends in "Files here: a, b, c": it reads the listed
      name closest to the path it asked for (difflib's close match), if one is close enough.
    - The newest result is marked is_error and says "Tool <name> not found": if a tool named
      "read" is offered and the failed call had a "path", it reads that path instead.
    - Any other result marked is_error: "I could not <tool> <path>: <content>".
    - A result not marked is_error is taken for what it claims to be: "<path> is empty." for empty
      content, else "<path> says: <line>", the line being the first that holds `looking_for`
      (the first line if none does, or if `looking_for` is None).
    It keeps no state: each answer depends on the request alone. It trusts the flag, never the
    words: a failure passed off as a success is quoted as the file's text.
    """
    if not isinstance(first, dict) or first.get("type") != "toolCall":
        raise TypeError("recovering() takes its first call as a block made by lab.call(...).")

    def answer(request):
        users = [i for i, m in enumerate(request.messages) if m.get("role") == "user"]
        since = request.messages[users[-1] + 1:] if users else request.messages
        results = [m for m in since if m.get("role") == "toolResult"]
        if not results:
            return lab.reply(dict(first, id=None))
        last = request.last_result
        asked = _call_of(since, last.get("tool_call_id")) or first
        path = asked.get("arguments", {}).get("path", "") if isinstance(asked.get("arguments"), dict) else ""
        content = last.get("content")
        text = content if isinstance(content, str) else str(content)
        if last.get("is_error"):
            if sum(bool(m.get("is_error")) for m in results) >= GIVE_UP_AFTER:
                return lab.say(f"I gave up on {path}: {text}")
            listing = _LISTING.search(text)
            if listing and isinstance(path, str):
                names = [name.strip() for name in listing.group(1).split(",") if name.strip()]
                close = difflib.get_close_matches(path, names, n=1)
                if close:
                    return lab.reply(lab.call("read", {"path": close[0]}))
            missing = _NO_TOOL.match(text)
            offered = {t.get("name") for t in request.tools if isinstance(t, dict)}
            if missing and "read" in offered and isinstance(path, str) and path:
                return lab.reply(lab.call("read", {"path": path}))
            return lab.say(f"I could not {asked.get('name', 'use')} {path}: {text}".replace("  ", " "))
        if not text:
            return lab.say(f"{path} is empty.")
        lines = text.splitlines()
        line = next((l for l in lines if looking_for and looking_for in l), lines[0])
        return lab.say(f"{path} says: {line.strip()}")

    return lab.forever(answer)


def _call_of(messages, call_id):
    """The toolCall block among `messages` whose id is `call_id`, or None."""
    for m in messages:
        if m.get("role") == "assistant" and isinstance(m.get("content"), list):
            for block in m["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall" and block.get("id") == call_id:
                    return block
    return None
