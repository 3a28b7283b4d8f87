"""The keyboard and the terminal: approvals asked y/N, lines typed during a run that steer it,
and Ctrl-C that cancels the run.

One thread reads standard input, a line at a time, with os.read (no buffered reader whose lock
could outlive the program). While nobody is being asked a question, each line goes to the event
loop, where it is a prompt (waiting at "> ") or, while a run is going on, words for h.steer (lesson
9: taken at the next safe point). An approval is asked from inside the run (lesson 14's gate calls
approve as a plain function), so it waits on a queue of its own, which the reader thread fills
while the question is open.

Ctrl-C is a signal handler of our own: during a run it cancels the task that drives the run
(lesson 15: the cancellation arrives at the await in progress, nothing half-made is recorded);
during an approval it cancels the run too; at the prompt it ends the session, as /exit does.
"""

import asyncio
import os
import queue
import signal
import sys
import threading

INTERRUPT = object()       # what line() returns when Ctrl-C was pressed at the prompt


class Cancelled(asyncio.CancelledError):
    """Ctrl-C during an approval: the run is cancelled from inside it."""


class Keyboard:
    """Lines from file descriptor `fd`; `interactive` says whether a person is there to ask."""

    def __init__(self, fd=0, interactive=None):
        self.fd = fd
        self.interactive = os.isatty(fd) if interactive is None else interactive
        self._lines = None
        self._loop = None
        self._asked = queue.Queue()
        self._asking = False
        self._lock = threading.Lock()
        self._run = None           # the task of the run going on, if any
        self._interrupted = False
        self._previous = None

    # -- reading -----------------------------------------------------------------------------

    def start(self, loop):
        self._loop, self._lines = loop, asyncio.Queue()
        threading.Thread(target=self._read, name="agent-keyboard", daemon=True).start()
        try:
            self._previous = signal.signal(signal.SIGINT, self._on_sigint)
        except ValueError:         # not the main thread (a test driving it): no Ctrl-C then
            self._previous = None

    def stop(self):
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                if buffer:
                    self._deliver(buffer.decode("utf-8", errors="replace"))
                self._deliver(None)
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                self._deliver(line.rstrip(b"\r").decode("utf-8", errors="replace"))

    def _deliver(self, line):
        with self._lock:
            if self._asking:
                self._asked.put(line)
                return
        try:
            self._loop.call_soon_threadsafe(self._lines.put_nowait, line)
        except RuntimeError:       # the loop is closed: the program is ending
            pass

    async def line(self):
        """The next line typed, None at the end of input, INTERRUPT after Ctrl-C at the prompt."""
        return await self._lines.get()

    def pending(self):
        """Lines already typed and not yet taken, taken now."""
        found = []
        while not self._lines.empty():
            found.append(self._lines.get_nowait())
        return found

    # -- a run, and Ctrl-C ---------------------------------------------------------------------

    def running(self, task):
        """`task` is the run now (None: no run)."""
        self._run = task

    def _on_sigint(self, signum, frame):
        if self._asking:
            self._interrupted = True           # the question's wait sees it and cancels the run
        elif self._run is not None and not self._run.done():
            self._loop.call_soon_threadsafe(self._run.cancel)
        elif self._loop is not None:
            self._loop.call_soon_threadsafe(self._lines.put_nowait, INTERRUPT)

    # -- asking ----------------------------------------------------------------------------------

    def ask(self, question):
        """Print `question` and wait for one line: the line, or None at the end of input. Ctrl-C
        meanwhile raises Cancelled, which cancels the run the question was asked from."""
        with self._lock:
            self._asking, self._interrupted = True, False
        try:
            sys.stderr.write(question)
            sys.stderr.flush()
            while True:
                if self._interrupted:
                    sys.stderr.write("\n")
                    raise Cancelled("Ctrl-C while asked")
                try:
                    return self._asked.get(timeout=0.05)
                except queue.Empty:
                    continue
        finally:
            with self._lock:
                self._asking = False
                while not self._asked.empty():     # typed just after the answer: for the loop
                    self._loop.call_soon_threadsafe(self._lines.put_nowait, self._asked.get_nowait())


def describe(call, lines=12):
    """The call as the person asked about it sees it: the tool and what it would do."""
    arguments = call.get("arguments") or {}
    if call["name"] == "bash":
        return f"bash wants to run:\n    {arguments.get('command')}"
    if call["name"] == "write":
        content = arguments.get("content")
        text = content if isinstance(content, str) else repr(content)
        shown = text.splitlines()[:lines]
        more = len(text.splitlines()) - len(shown)
        body = "\n".join("    | " + line for line in shown)
        if more > 0:
            body += f"\n    | ... ({more} more lines)"
        return f"write wants to write {arguments.get('path')} ({len(text.splitlines())} lines):\n{body}"
    import json
    return f"{call['name']} wants to run with {json.dumps(arguments)}"


def approver(keyboard):
    """The approve function for lesson 14's gate: the call shown, y/N asked on the terminal; True
    only for y or yes. With no terminal to ask (standard input is not a terminal), every call is
    denied, saying why."""
    def approve(call):
        if not keyboard.interactive:
            return "there is no terminal to ask, so nothing that writes or runs is allowed"
        answer = keyboard.ask(f"\n{describe(call)}\nAllow? [y/N] ")
        if answer is not None and answer.strip().lower() in ("y", "yes"):
            sys.stderr.write("(allowed)\n")
            sys.stderr.flush()
            return True
        return "the user said no"
    return approve
