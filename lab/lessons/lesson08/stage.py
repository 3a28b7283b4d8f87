"""Lesson 08's own stage: two writers on one list, a tool that calls back into the program, a
model that dies, and a clock that notes who wrote where.

    at_lesson(7)                the harness.py that `python -m lab end 7` prints, as a module
    harness_now()               lesson 8's harness, with the learner's Harness methods once the
                                lab has passed in this kernel, the reference's before
    notes()                     a model that reads the file a prompt names and says what it holds
    tool(name, execute)         a tool dict whose execute(arguments) is any function of the
                                program: the tool calls back into the code that runs it
    Dying(model, at, error)     answers like `model` until its `at`-th request, which raises
    Timeline(messages)          .watch(writer, run) passes a run's events on, and notes for
                                each message_end which writer put which message where, and when
    ran_on(cell_id)             the note under a demonstration: whose Harness it ran on

The modules are made from the generated files themselves (lab.course.starters), so "lesson 7's harness"
is exactly the text the learner's own file holds at the end of lesson 7.
"""

import re
from typing import NamedTuple

import lab

LESSON = 8


def at_lesson(lesson):
    """The harness.py that `python -m lab end <lesson>` prints, loaded as a module of its own."""
    from lab.runtime import lesson_harness
    return lesson_harness.fresh(lesson)


def harness_now():
    """The harness as lesson 8 leaves it, the learner's messages, prompt and _run in once the lab
    has passed in this kernel."""
    from lab.runtime import lesson_harness
    return lesson_harness.harness_now(LESSON)


def ran_on(cell_id):
    """Display, as a note of its own, whose Harness methods the demonstration `cell_id` ran on."""
    from lab.runtime import lesson_harness
    lesson_harness.ran_on(LESSON, cell_id)


# -- the model --------------------------------------------------------------------------------

_READ = re.compile(r"\bRead (\S+?)\.?$")


def _notes(request):
    newest = max(i for i, m in enumerate(request.messages) if m.get("role") == "user")
    asked = request.messages[newest]["content"]
    since = request.messages[newest + 1:]
    results = [m for m in since if m.get("role") == "toolResult"]
    if results:
        return lab.say(f"It says: {results[-1]['content'].strip()}")
    wanted = _READ.search(asked)
    if wanted and request.tools:
        name = request.tools[0]["name"]
        arguments = {"path": wanted.group(1)} if name == "read" else {}
        return lab.reply(lab.call(name, arguments))
    if "hello" in asked.lower():
        return lab.say("Hello!")
    return lab.say("Noted.")


def notes():
    """A script step (forever): for a prompt "Read <path>." it calls the first tool offered (with
    {"path": <path>} if that tool is read), then says "It says: <the result>" once the result is in;
    "Say hello." gets "Hello!", and anything else "Noted.". It keeps no state: each answer depends
    on the request alone. Its calls get the model's automatic ids, c1, c2, ..."""
    return lab.forever(_notes)


# -- a tool that calls back --------------------------------------------------------------------

def tool(name, execute, description=""):
    """A tool dict, as the harness's own are, whose execute(arguments) is whatever function the
    program hands it: a tool that reaches back into the program that is running it."""
    if not callable(execute):
        raise TypeError(f"tool() takes a function of the arguments as execute, not {execute!r}")
    return {"name": name, "description": description,
            "parameters": {"type": "object", "properties": {}}, "execute": execute}


# -- a model that dies -------------------------------------------------------------------------

class Dying:
    """A model that answers like `model` until its `at`-th request, which raises `error` instead
    of answering: the connection dropped, the process was interrupted. Not a failed reply, which
    the loop records; an exception, which nobody records. .calls and .requests as the model's."""

    def __init__(self, model, at, error=None):
        if not isinstance(at, int) or at < 1:
            raise ValueError(f"Dying() takes the number of the request that raises, 1 or more, not {at!r}")
        self.model, self.at = model, at
        self.error = error if error is not None else ConnectionResetError("connection reset by peer")
        self.requests = 0

    @property
    def calls(self):
        return self.model.calls

    def complete(self, system, messages, tools):
        self.requests += 1
        if self.requests == self.at:
            raise self.error
        return self.model.complete(system, messages, tools)


# -- who wrote where, and when ------------------------------------------------------------------

class Write(NamedTuple):
    tick: int        # the number of events handed out so far, by any watched run
    writer: str      # the name given to watch()
    position: int    # where the message stands in the list when it is announced
    label: str       # lab.shape of the message: U, A[c1], A!, R(c1)
    refused: str     # the error_message of a failed reply, else ""


class Timeline:
    """Watches runs that write to `messages`. Each run's events pass through .watch unchanged; at
    every message_end it notes a Write. .tick counts events across all watched runs, so two runs
    interleaved in one program get one clock. .refusals notes a prompt that was refused."""

    def __init__(self, messages=None):
        self.messages = messages
        self.tick = 0
        self.writes = []
        self.refusals = []   # [(tick, writer, the error's text)]

    def watch(self, writer, run, messages=None):
        """Pass on every event of `run`, noting who wrote what. `messages` is the list the run
        writes to (a callable giving it, for a harness's snapshot); default: the one given at
        the start."""
        for event in run:
            self.tick += 1
            if event["type"] == "message_end":
                here = self._list(messages)
                message = event["message"]
                position = next((i for i, m in enumerate(here) if m is message), -1)
                refused = message.get("error_message", "") if message.get("stop_reason") == "error" else ""
                self.writes.append(Write(self.tick, writer, position, lab.shape([message]), refused))
            yield event

    def refused(self, writer, error):
        """Note that `writer` was refused now, with `error`."""
        self.tick += 1
        self.refusals.append((self.tick, writer, str(error)))

    def _list(self, messages):
        chosen = messages if messages is not None else self.messages
        return list(chosen() if callable(chosen) else chosen)


# -- the learner's three methods, put together --------------------------------------------------

def assemble(messages, prompt, run):
    """A Harness class as lesson 8 leaves it, with the three methods given in place of its own:
    for a try-it cell, before the check has passed. `messages` may be a property or a plain
    function of self."""
    base = at_lesson(LESSON).Harness
    getter = messages if isinstance(messages, property) else property(messages)
    return type("Harness", (base,), {"messages": getter, "prompt": prompt, "_run": run})
