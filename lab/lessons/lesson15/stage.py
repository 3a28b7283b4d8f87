"""Lesson 15's own props, on top of the course's async stage (lab/stage/async_stage.py): tools that
take a set time on the virtual clock, a spinner, and the scripts the lesson's cells and checks
share. Everything here runs inside lab.meanwhile, on lab.clock."""

import asyncio

import lab

TASK = "Fix the failing test in shop.py."


def timed_tool(name, seconds, answer=None, *, log=None, fails=None):
    """A tool whose execute is a coroutine that takes `seconds` on the virtual clock (None: it
    never finishes) and then returns `answer` (its name and arguments if None), or raises
    `fails` (an exception) if given. `log`, a list, gets ("start"|"end", name, time) entries."""
    async def execute(arguments):
        if log is not None:
            log.append(("start", name, lab.clock.now))
        if seconds is None:
            await asyncio.get_running_loop().create_future()   # nothing will ever set it
        await asyncio.sleep(seconds)
        if log is not None:
            log.append(("end", name, lab.clock.now))
        if fails is not None:
            raise fails
        return answer if answer is not None else f"{name} {arguments}"
    return {"name": name, "description": f"The {name} tool, {seconds} s a call.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}


def plain_tool(name, answer):
    """A tool whose execute is a plain function: no wait, nothing to await."""
    return {"name": name, "description": f"The {name} tool.",
            "parameters": {"type": "object", "properties": {}}, "execute": lambda arguments: answer}


class Spinner:
    """A task that ticks once a virtual second, as a frontend's spinner would, until stopped.
    .ticks holds the clock at each tick."""

    def __init__(self, every=1.0):
        self.every, self.ticks, self._task = every, [], None

    def start(self):
        self._task = asyncio.get_running_loop().create_task(self._spin(), name="spinner")
        return self

    async def _spin(self):
        while True:
            await asyncio.sleep(self.every)
            self.ticks.append(lab.clock.now)

    async def stop(self):
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass


def fix_script():
    """The job the wall and the figure run: think, run the tests (8 s), think, answer."""
    return [lab.reply(lab.call("bash", {"command": "pytest"})), lab.say("The test passes now.")]


def fix_shell(cls=None):
    """The project's shell: pytest takes 8 s, and "sleep 600" hangs for ten minutes."""
    cls = cls or lab.AsyncShell
    return cls({"pytest": "1 passed\n"}, durations={"pytest": 8})


class BlockingModel(lab.ScriptedModel):
    """A ScriptedModel whose latency blocks (as every model before this lesson did), and whose
    waits are noted in the current lab.timing() session, as the async model's are, so that the
    figure can draw both."""

    def complete(self, system, messages, tools):
        from lab.stage.timeline import waiting
        with waiting("model"):
            return super().complete(system, messages, tools)
