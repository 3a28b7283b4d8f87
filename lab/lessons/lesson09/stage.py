"""Lesson 09's own stage: a six-file job whose model listens to the user, a tool that runs the
tests of what is written, and a record of when the user spoke and when the words were taken.

    at_lesson(8)          the learner's harness.py as lesson 8 leaves it, as a module
    six_files()           a script step: a model that writes a.py ... f.py, one per turn,
                          indented with tabs unless a user message in the request says "spaces",
                          with a docstring once one asks for a "docstring", and that runs the
                          tests when the newest user message asks for them
    make_test_tool(ws)    the `test` tool: "collected N modules" for the .py files in ws
    tabbed(ws)            how many of the six files are indented with tabs
    Timeline()            what happened in a run, in order: events, and the moments the user
                          spoke (timeline.spoke("steer", "Use spaces.")), for Figure 9.1
"""

import lab

FILES = ("a.py", "b.py", "c.py", "d.py", "e.py", "f.py")


def at_lesson(lesson):
    """The harness.py that `python -m lab end <lesson>` prints, loaded as a module of its own."""
    from lab.runtime import lesson_harness
    return lesson_harness.fresh(lesson)


def _newest_user(messages):
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    return (users[-1], messages[users[-1]]["content"]) if users else (-1, "")


def source(path, spaces=False, docstring=False):
    """The text the model writes into `path`: a one-line function, indented as it was told."""
    stem = path.rsplit(".", 1)[0]
    indent = "    " if spaces else "\t"
    top = f'"""The {stem} module."""\n\n' if docstring else ""
    return f"{top}def {stem}():\n{indent}return {FILES.index(path) + 1}\n"


def _answer(request):
    messages = request.messages
    at, newest = _newest_user(messages)
    since = messages[at + 1:]
    tested = [m for m in since if m.get("role") == "toolResult" and m.get("tool_name") == "test"]
    if "test" in newest.lower() and not tested:
        return lab.reply(lab.call("test", {}))
    written = [m for m in messages if m.get("role") == "toolResult" and m.get("tool_name") == "write"]
    if len(written) < len(FILES):
        path = FILES[len(written)]
        told = request.user_text.lower()
        return lab.reply(lab.call("write", {"path": path, "content": source(
            path, spaces="spaces" in told, docstring="docstring" in told)}))
    if tested:
        return lab.say("The tests ran: " + tested[-1]["content"].splitlines()[-1] + ".")
    return lab.say("All six files are written.")


def six_files():
    """A script step that answers every request of the six-file job (see the module's doc).
    It keeps nothing between requests: each answer is read off the request alone."""
    return lab.forever(_answer)


def make_test_tool(ws):
    """The `test` tool, over `ws`: which modules there are, and that each one passed."""
    def execute(arguments):
        found = [name for name in ws.listdir() if name.endswith(".py")]
        return f"collected {len(found)} modules: {', '.join(found) or 'none'}\n{len(found)} passed"
    return {"name": "test", "description": "Run the tests of every .py file in the workspace.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}


def tabbed(ws):
    """How many of the six files exist and are indented with a tab."""
    return sum(1 for path in FILES if ws.exists(path) and "\t" in ws.read_text(path))


class Timeline:
    """What happened during runs, in order. watch(run) passes the run's events through and keeps
    each one; spoke(kind, text) marks the moment the user said something (kind "steer",
    "follow_up" or "prompt"). .items is [(kind, detail)]: an event's type and the event, or
    ("spoke", (kind, text))."""

    def __init__(self):
        self.items = []

    def watch(self, run):
        for event in run:
            self.items.append((event["type"], event))
            yield event

    def spoke(self, kind, text):
        self.items.append(("spoke", (kind, text)))
