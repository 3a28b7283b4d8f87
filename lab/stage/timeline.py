"""Timing on the virtual clock, for lesson 15: when each session ran, and what it waited for.

    t = lab.timing()
    with t.session("A"):             # in a coroutine, or in plain code
        ...                          # the stage's async model and shell note each wait here
    print(t.summary())               # two sessions, side by side: done at t=20.0
    t.sessions, t.waits, t.marks     # what a figure draws

The stage's props (AsyncScriptedModel, AsyncShell, TimedShell, keyboard, cancel_at) record into
whatever session is current where they run: a context variable, so a task started inside a
session belongs to it, and two sessions running side by side keep their waits apart.
"""

import asyncio
import contextvars
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Optional

from .loop_outcome import at
from .virtual_time import clock

_current = contextvars.ContextVar("lab_timing_session", default=None)


# == what is recorded ==


@dataclass
class Session:
    """One session: its name, and the clock when it began and ended (None while it runs)."""
    name: str
    start: float
    end: Optional[float] = None


@dataclass
class Wait:
    """One wait inside a session: what it waited for ("model", "bash: pytest"), from start to
    end on the clock; `cancelled` when it was cut short by a cancellation."""
    session: Optional[str]
    what: str
    start: float
    end: Optional[float] = None
    cancelled: bool = False


@dataclass
class Mark:
    """A moment worth drawing: a key typed, a steer taken, a run cancelled. `wanted` is when it
    was meant to happen, if that differs (a keystroke typed at t=5.0 that reached steer() at 20)."""
    session: Optional[str]
    label: str
    at: float
    wanted: Optional[float] = None


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


# == the recorder ==


class Timing:
    """Start and end of each session and of each wait in it, on lab.clock. See the module."""

    def __init__(self):
        self.sessions, self.waits, self.marks = [], [], []

    def __repr__(self):
        return (f"<timing: {len(self.sessions)} sessions, {len(self.waits)} waits, "
                f"{len(self.marks)} marks>")

    @contextmanager
    def session(self, name):
        """Record the session `name` from entering to leaving; waits and marks made inside it
        (in this task, and in tasks it starts) are its own."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"session() takes a name, a non-empty string, not {name!r}.")
        if any(s.name == name for s in self.sessions):
            raise ValueError(f"There is already a session named {name!r} in this timing; give "
                             "each session its own name.")
        session = Session(name, clock.now)
        self.sessions.append(session)
        token = _current.set((self, name))
        try:
            yield session
        finally:
            _current.reset(token)
            session.end = clock.now

    @contextmanager
    def wait(self, what, session=None):
        """Record a wait for `what` from entering to leaving, in the current session (or the one
        named). A cancellation that goes through it marks the wait cancelled."""
        if session is None:
            here = _current.get()
            session = here[1] if here is not None and here[0] is self else None
        wait = Wait(session, what, clock.now)
        self.waits.append(wait)
        try:
            yield wait
        except asyncio.CancelledError:
            wait.cancelled = True
            raise
        finally:
            wait.end = clock.now

    def mark(self, label, wanted=None, session=None):
        """Note that `label` happened now, in the current session (or the one named)."""
        if session is None:
            here = _current.get()
            session = here[1] if here is not None and here[0] is self else None
        self.marks.append(Mark(session, label, clock.now, wanted))

    @property
    def done_at(self):
        """The clock when the last session ended (None before any has)."""
        ends = [s.end for s in self.sessions if s.end is not None]
        return max(ends) if ends else None

    def summary(self):
        """One line: how many sessions, whether they overlapped, and when the last one ended,
        e.g. "two sessions, one after the other: done at t=40.0"."""
        done = [s for s in self.sessions if s.end is not None]
        if not done:
            return "no sessions have ended"
        count = _NUMBERS[len(done)] if len(done) < len(_NUMBERS) else str(len(done))
        noun = "session" if len(done) == 1 else "sessions"
        line = f"{count} {noun}"
        if len(done) > 1:
            line += f", {_arrangement(done)}"
        line += f": done at t={at(self.done_at)}"
        running = [s.name for s in self.sessions if s.end is None]
        if running:
            line += f" ({', '.join(running)} still running)"
        return line

    def report(self):
        """The summary, then one line per session: when it ran, and what it waited for."""
        lines = [self.summary()]
        for s in self.sessions:
            mine = [w for w in self.waits if w.session == s.name]
            end = "still running" if s.end is None else f"t={at(s.end)}"
            waits = "; ".join(_wait_text(w) for w in mine) or "no waits"
            lines.append(f"  {s.name}: t={at(s.start)} to {end}; {waits}")
        return "\n".join(lines)

    def __str__(self):
        return self.report()


def _arrangement(sessions):
    """"one after the other" when no two overlap, "side by side" when every two do."""
    pairs = [(a, b) for i, a in enumerate(sessions) for b in sessions[i + 1:]]
    overlapping = [max(a.start, b.start) < min(a.end, b.end) for a, b in pairs]
    if not any(overlapping):
        return "one after the other"
    return "side by side" if all(overlapping) else "partly side by side"


def _wait_text(wait):
    if wait.end is None:
        return f"{wait.what} from t={at(wait.start)}, still waiting"
    how = "cancelled at" if wait.cancelled else "to"
    return f"{wait.what} t={at(wait.start)} {how} t={at(wait.end)}"


# == for the props: record where they run ==


@contextmanager
def waiting(what):
    """A wait for `what`, recorded in the current session's timing if there is one."""
    here = _current.get()
    if here is None:
        yield None
        return
    with here[0].wait(what, session=here[1]) as wait:
        yield wait


def mark(label, wanted=None):
    """A mark in the current session's timing, if there is one."""
    here = _current.get()
    if here is not None:
        here[0].mark(label, wanted, session=here[1])


def timing():
    """A new, empty Timing."""
    return Timing()
