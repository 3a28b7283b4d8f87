"""Lesson 15's stage: props that take time on the virtual clock, awaited or blocking.

    model = lab.AsyncScriptedModel(script, latency=20)   # await model.complete(...): 20 s, awaited
    shell = lab.AsyncShell({"pytest": "3 passed\\n"}, durations={"pytest": 8, "serve": None})
    slow = lab.TimedShell(..., durations=...)             # the same durations, blocking
    kb = lab.keyboard(h, [(5.0, "steer", "Use spaces.")]) # a task that types at t=5.0
    async for event in lab.cancel_at(h.prompt("go"), "tool_execution_start"): ...
    t = lab.timing()                                      # sessions and waits, for the figure

Everything runs on lab.clock, inside lab.meanwhile (lab/stage/virtual_loop.py), which this module
also hands on, so that lab/__init__.py needs one line for the whole stage.
"""

import asyncio
import re
from dataclasses import dataclass

from .model import DEFAULT_MAX_CALLS, ScriptError, ScriptedModel, _checked_latency
from .shell import Shell
from .timeline import Timing, mark, timing, waiting  # noqa: F401 (handed on)
from .loop_outcome import Deadlock, OutOfTime, Unheard, at  # noqa: F401 (handed on)
from .virtual_loop import meanwhile  # noqa: F401 (handed on)
from .virtual_time import clock

# == the model, awaited ==


class AsyncScriptedModel:
    """ScriptedModel's replies, checks and bill, with `complete` a coroutine that awaits the
    latency on the virtual loop, where a ScriptedModel's blocks the whole program for it.

    AsyncScriptedModel(script, context_window=None, max_calls=50, latency=None) takes the
    arguments of ScriptedModel and means the same by them. A request is answered (or refused)
    by a ScriptedModel as it comes in; the reply is handed back once the latency has passed.

    A request cancelled while the model thinks has been sent: it stays in .calls and the bill,
    its .ended is None, and it has used its script step, as the reply a provider had started on
    is lost with the connection. Our simplification: the stage bills a cancelled request in
    full, as sent, whatever a real provider would charge for it."""

    def __init__(self, script, context_window=None, max_calls=DEFAULT_MAX_CALLS, latency=None):
        self.latency = _checked_latency(latency)
        self._provider = ScriptedModel(script, context_window, max_calls)  # answers, checks, bills

    def __repr__(self):
        return f"AsyncScriptedModel({len(self.script)} steps, {len(self.calls)} calls)"

    script = property(lambda self: self._provider.script, doc="The steps, as ScriptedModel's.")
    calls = property(lambda self: self._provider.calls, doc="One Request per request received.")
    bill = property(lambda self: self._provider.bill, doc="Input tokens of every request.")
    cached = property(lambda self: self._provider.cached, doc="The bill's cache hits.")
    uncached = property(lambda self: self._provider.uncached, doc="bill - cached.")
    cost = property(lambda self: self._provider.cost, doc="The bill in full-price tokens.")

    async def complete(self, system, messages, tools):
        """ScriptedModel.complete's answer to the request, returned after `latency` virtual
        seconds awaited (at least one turn of the loop, as a network reply always takes).
        Raises ScriptError at once, as ScriptedModel does, taking no time."""
        message = self._provider.complete(system, messages, tools)
        request = self._provider.calls[-1]
        seconds = self.latency(request) if callable(self.latency) else self.latency
        with waiting("model"):
            try:
                await asyncio.sleep(seconds or 0)
            except asyncio.CancelledError:
                request.ended = None   # the reply never went back
                raise
        request.ended = clock.now
        return message


# == the shell, with durations ==


_SLEEP = re.compile(r"sleep\s+(\d+(?:\.\d+)?)")


def _checked_durations(durations):
    """`durations` as a dict, refused in a sentence unless each key is a command line (or its
    first word) and each value seconds (0 or more), None for a command that never ends, or a
    function of the command line that returns one of those."""
    if durations is None:
        return {}
    if not isinstance(durations, dict):
        raise TypeError("durations takes a dict of seconds by command, e.g. {'pytest': 8}.")
    for command, seconds in durations.items():
        if not isinstance(command, str):
            raise TypeError(f"A command in durations must be a string, not {command!r}.")
        _checked_seconds(command, seconds, allow_function=True)
    return dict(durations)


def _checked_seconds(command, seconds, allow_function=False):
    if seconds is None or (allow_function and callable(seconds)):
        return seconds
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
        raise ValueError(f"The duration of {command!r} must be a number of seconds, 0 or more, "
                         f"or None for a command that never finishes, not {seconds!r}.")
    return seconds


class TimedShell(Shell):
    """A Shell whose commands take time on lab.clock, and block while they do, as a call to
    subprocess.run would: nothing else in the program runs meanwhile.

    TimedShell(outputs=None, online=(), durations=None). `durations` maps a command line, or its
    first word, to seconds: {"pytest": 8} makes "pytest" and "pytest -q" take 8 s. A value may be
    None, a command that never finishes on its own, or a function of the command line. A command
    with no duration takes none, except "sleep N", which takes N seconds and prints nothing
    unless it is scripted otherwise."""

    def __init__(self, outputs=None, online=(), durations=None):
        super().__init__(outputs, online)
        self.durations = _checked_durations(durations)

    def __repr__(self):
        return f"{type(self).__name__}({len(self._answers)} scripted commands, {len(self.history)} run)"

    def duration(self, command):
        """Seconds `command` takes (None: it never finishes), by the rules of the class."""
        words = command.split()
        for key in (command, words[0] if words else None):
            if key in self.durations:
                seconds = self.durations[key]
                seconds = seconds(command) if callable(seconds) else seconds
                return _checked_seconds(command, seconds)
        sleeping = _SLEEP.fullmatch(command.strip())
        return float(sleeping.group(1)) if sleeping else 0

    def answer(self, command):
        """Shell.run's (output, exit_code) for `command`, recorded in .history, taking no time;
        "sleep N" that is not scripted answers ("", 0)."""
        output = Shell.run(self, command)
        if _SLEEP.fullmatch(command.strip()) and command not in self._answers:
            return "", 0
        return output

    def run(self, command):
        """Run `command`: its answer, after its duration has passed on lab.clock."""
        output = self.answer(command)
        seconds = self.duration(command)
        if seconds is None:
            raise ScriptError(f"{command!r} never finishes, and a blocking call cannot be "
                              "stopped from outside: this program would hang for ever. Give it "
                              "a duration, or run it in an AsyncShell, where it can be cancelled.")
        with waiting(f"bash: {command}"):
            clock.advance(seconds)
        return output


class AsyncShell(TimedShell):
    """A TimedShell whose `run` is a coroutine: the command's duration is awaited on the virtual
    loop, so other tasks run meanwhile, and a cancellation can cut it short. A command whose
    duration is None waits for ever, until it is cancelled."""

    async def run(self, command):
        """Run `command`: its answer, once its duration has been awaited."""
        output = self.answer(command)
        seconds = self.duration(command)
        with waiting(f"bash: {command}"):
            if seconds is None:
                await asyncio.get_running_loop().create_future()   # nothing will ever set it
            else:
                await asyncio.sleep(seconds)
        return output


# == the keyboard ==


@dataclass
class Keystroke:
    """What the keyboard typed: `wanted` is the time it was meant for, `at` when the harness's
    method was actually called (later, if the program was busy), `action` and `text`."""
    wanted: float
    at: float
    action: str
    text: str


_ACTIONS = ("steer", "follow_up")


def keyboard(harness, keys):
    """Start a task, named "keyboard", that types each of `keys`, a list of (time, action, text):
    at that time on lab.clock it calls harness.steer(text) or harness.follow_up(text), as
    `action` says. Times must not go backwards. A key whose time has passed is typed as soon as
    the task gets a turn. The task's result is the list of Keystrokes, in order. Call it inside a
    coroutine on lab.meanwhile."""
    keys = list(keys)
    last = None
    for n, key in enumerate(keys):
        if not (isinstance(key, tuple) and len(key) == 3):
            raise TypeError(f"Key {n} is {key!r}; each key is (time, action, text), e.g. "
                            "(5.0, 'steer', 'Use spaces.').")
        when, action, text = key
        if isinstance(when, bool) or not isinstance(when, (int, float)) or when < 0:
            raise ValueError(f"Key {n} has the time {when!r}; a time is seconds on lab.clock, 0 or more.")
        if last is not None and when < last:
            raise ValueError(f"Key {n} at t={at(when)} comes before key {n - 1} at t={at(last)}; "
                             "list the keys in the order they are typed.")
        if action not in _ACTIONS:
            raise ValueError(f"Key {n} has the action {action!r}; it must be 'steer' or 'follow_up'.")
        if not callable(getattr(harness, action, None)):
            raise TypeError(f"keyboard() types into a harness with a {action}() method, not {harness!r}.")
        if not isinstance(text, str):
            raise TypeError(f"Key {n} has the text {text!r}; the words typed must be a string.")
        last = when
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        raise RuntimeError("keyboard() starts a task, so it must be called inside a coroutine "
                           "running on lab.meanwhile.") from None
    return loop.create_task(_type(harness, keys), name="keyboard")


async def _type(harness, keys):
    typed = []
    for when, action, text in keys:
        if when > clock.now:
            await asyncio.sleep(when - clock.now)
        getattr(harness, action)(text)
        mark(f"{action}: {text}", wanted=when)
        typed.append(Keystroke(when, clock.now, action, text))
    return typed


# == cancelling a run at an event ==


class cancel_at:
    """Cancel the task that consumes a run, when it has been handed the n-th event of the type
    `event_type` ("tool_execution_start", "message_end", ...).

        cancel_at(run, event_type, n=1)    run is an async iterator of events: iterate over what
                                           comes back instead, and the task doing so is cancelled
                                           once it holds that event
        cancel_at(task, event_type, n=1)   task is an asyncio.Task: what comes back is a listener,
                                           listener(event), that cancels `task` at that event
                                           (h.subscribe(lab.cancel_at(task, ...)))

    The cancellation lands at the consumer's next await, so it holds the event first. .at is
    the clock when it fired (None until then), .event the event it fired at."""

    def __init__(self, target, event_type, n=1):
        if not isinstance(event_type, str):
            raise TypeError(f"cancel_at() takes an event type as a string, such as "
                            f"'tool_execution_start', not {event_type!r}.")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"cancel_at(n=...) counts events from 1, not {n!r}.")
        if isinstance(target, asyncio.Task):
            self._task, self._run = target, None
        elif hasattr(target, "__anext__"):
            self._task, self._run = None, target
        elif hasattr(target, "__next__"):
            raise TypeError("cancel_at() takes an async run (async for) or a task; a "
                            "synchronous run cannot be cancelled from outside while it works.")
        else:
            raise TypeError(f"cancel_at() takes an async run of events or an asyncio.Task, not {target!r}.")
        self.event_type, self.n = event_type, n
        self.seen, self.at, self.event = 0, None, None

    def __repr__(self):
        state = f"fired at t={at(self.at)}" if self.at is not None else f"{self.seen} seen"
        return f"<cancel_at {self.event_type!r} #{self.n}: {state}>"

    def _count(self, event, task):
        if isinstance(event, dict) and event.get("type") == self.event_type and self.at is None:
            self.seen += 1
            if self.seen == self.n:
                self.at, self.event = clock.now, event
                mark(f"cancelled at {self.event_type}")
                task.cancel()

    def __call__(self, event):
        """As a listener: count `event`, and cancel the task at the n-th of the type."""
        if self._task is None:
            raise TypeError("This cancel_at wraps a run: iterate over it with async for.")
        self._count(event, self._task)

    def __aiter__(self):
        if self._run is None:
            raise TypeError("This cancel_at holds a task: subscribe it as a listener instead.")
        return self

    async def __anext__(self):
        event = await self._run.__anext__()
        self._count(event, asyncio.current_task())
        return event

    async def aclose(self):
        """Close the run it wraps, as closing the run itself would."""
        if hasattr(self._run, "aclose"):
            await self._run.aclose()
