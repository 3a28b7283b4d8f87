"""--demo: the agent against the course's own scripted server (lab.ChatServer on 127.0.0.1), so
that a learner without a key sees it work: a small task over a directory, read, write, answer.

The server answers from a script, not a model: whatever is asked, it reads notes.txt, writes
todo.md (the gate asks you first), and says what it did; later prompts get a line saying so.
"""

import os
import tempfile

from lab.stage.builders import call, reply, say
from lab.stage.chat_server import ChatServer

MODEL = "course-model"
PROMPT = "Read notes.txt and write its tasks to todo.md as a checklist."
NOTES = ("Things to do before Friday\n"
         "- answer the two questions of lesson 14\n"
         "- run the tests of lesson 16\n"
         "- point the agent at a real model\n")
TODO = ("# To do\n\n"
        "- [ ] answer the two questions of lesson 14\n"
        "- [ ] run the tests of lesson 16\n"
        "- [ ] point the agent at a real model\n")
LATER = ("This is the course's scripted server, not a model: its task is done, and it has "
         "nothing more to say. Point --base-url and --model at a real server to go on.")


def script():
    return [reply(call("read", {"path": "notes.txt"}, id="call_read")),
            reply(call("write", {"path": "todo.md", "content": TODO}, id="call_write")),
            say("I read notes.txt and asked to write its three tasks to todo.md as a checklist. "
                "If you said no, todo.md is not there: this scripted server says the same whatever "
                "happened, where a model would read the tool's result.")] \
        + [say(LATER) for _ in range(50)]


def directory(given=None):
    """The demo's directory: `given`, or a new temporary one. notes.txt is put there when it is
    missing, and never over a file of that name."""
    folder = given or tempfile.mkdtemp(prefix="agent-demo-")
    os.makedirs(folder, exist_ok=True)
    notes = os.path.join(folder, "notes.txt")
    if not os.path.exists(notes):
        with open(notes, "w", encoding="utf-8") as out:
            out.write(NOTES)
    return folder


def server():
    return ChatServer(script(), model=MODEL)
