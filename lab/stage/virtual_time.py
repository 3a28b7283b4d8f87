"""Virtual time for the stage: a clock that only moves when the stage says so.

    lab.clock.now              seconds since the clock was last reset (a float)
    lab.clock.advance(4.5)     move it on; a model with latency does this for each request
    lab.clock.reset()          back to 0.0, at the start of a cell that measures time

A real model takes seconds to answer. `ScriptedModel(script, latency=...)` makes each request it
answers take that long on this clock, so that a cell can show what a screen would look like at
second 40 of a run without anyone waiting 40 seconds. Nothing here reads the machine's clock,
so every time printed from it is the same on every run.
"""


class Clock:
    """A clock that stands still until advance() moves it. .now is in seconds."""

    def __init__(self):
        self.now = 0.0

    def advance(self, seconds):
        """Move the clock on by `seconds` (a number, 0 or more) and return the new time."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
            raise ValueError(f"advance() takes a number of seconds, 0 or more, not {seconds!r}.")
        self.now = round(self.now + seconds, 6)  # no float dust in what a cell prints
        return self.now

    def reset(self):
        """Set the clock back to 0.0."""
        self.now = 0.0

    def __repr__(self):
        return f"<lab clock at {self.now:g}s>"


clock = Clock()
