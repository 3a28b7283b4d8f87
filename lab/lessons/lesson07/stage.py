"""Lesson 07's own stage: the harness as an earlier lesson left it, a slow six-read task on the
virtual clock, the wall's print-in-the-loop fix, and ways to see when things reached a screen.

    h6 = at_lesson(6)              the learner's harness.py as lesson 6 leaves it, as a module
    h = harness_now()              as lesson 7 leaves it, with the learner's run_agent and
                                   FinalTextRenderer methods once the lab passes
    slow_model()                   the six-read task's model, each request taking virtual time:
                                   4 s for a reply that asks for a read, 16 s for the answer
    printing_run_agent(h)          lesson 6's run_agent with the obvious fix: a print per tool call
    screen(captured)               print what a terminal showed, and when, from lab.capture_stdout()
    timed(events)                  [(virtual seconds, event)] as a consumer receives them
    ran_on(cell_id)                the note under a demonstration: whose code it ran on
    FILES, TASK, ANSWER            the little project every run of the lesson works on

The modules are made from the generated files themselves (lab.course.starters), so a cell that says
"lesson 6's harness" runs exactly the text `python -m lab end 6` prints.
"""

import types

import lab

LESSON = 7

# Six settings modules; the user wants to know which one sets the timeout, so the model reads
# them all, one per model call, and then answers.
PATHS = ("app.py", "db.py", "cache.py", "mail.py", "queue.py", "net.py")
FILES = {path: f"# {path[:-3]} settings\nRETRIES = 3\n" for path in PATHS}
FILES["net.py"] = "# net settings\nRETRIES = 3\nTIMEOUT = 30\n"
TASK = "Which settings module sets TIMEOUT, and to what?"
ANSWER = "net.py sets TIMEOUT = 30; the other five modules do not set it."

READ_SECONDS, ANSWER_SECONDS = 4.0, 16.0


def at_lesson(lesson):
    """The harness.py that `python -m lab end <lesson>` prints, loaded as a module of its own."""
    from lab.runtime import lesson_harness
    return lesson_harness.fresh(lesson)


def harness_now():
    """The harness as lesson 7 leaves it, with the learner's code in once the lab has passed."""
    from lab.runtime import lesson_harness
    return lesson_harness.harness_now(LESSON)


def ran_on(cell_id):
    """Display, as a note of its own, whose code the demonstration `cell_id` ran on."""
    from lab.runtime import lesson_harness
    lesson_harness.ran_on(LESSON, cell_id)


def thinking_time(request):
    """A request's latency: a reply that asks for a read is quick, writing the answer is slow."""
    asks = request.reply is not None and any(
        block.get("type") == "toolCall" for block in request.reply.get("content", []))
    return READ_SECONDS if asks else ANSWER_SECONDS


def script():
    """The six-read task: one read per reply, in PATHS order, then the answer."""
    return [lab.reply(lab.call("read", {"path": path})) for path in PATHS] + [lab.say(ANSWER)]


def slow_model(steps=None, **kwargs):
    """A ScriptedModel for the six-read task (or `steps`), on the virtual clock: 6 x 4 s of reads
    and 16 s of answer, 40 s in all. The clock is reset here, so a run starts at 0.0 s."""
    lab.clock.reset()
    return lab.ScriptedModel(script() if steps is None else steps, latency=thinking_time, **kwargs)


def tools(h):
    """The read tool of harness module `h`, over a fresh copy of FILES."""
    return [h.make_read_tool(lab.Workspace(dict(FILES)))]


def printing_run_agent(h):
    """Lesson 6's run_agent with the fix everyone writes first: `print(f"calling {name}...")`
    inside the loop, before each tool runs. The same code as `h.run_agent` otherwise, so the
    loop still returns only the final message."""
    def run_tool(tools, call):
        print(f"calling {call['name']}({call['arguments'].get('path', '')})...")
        return h.run_tool(tools, call)

    scope = dict(h.run_agent.__globals__, run_tool=run_tool)
    fn = types.FunctionType(h.run_agent.__code__, scope, "run_agent", h.run_agent.__defaults__,
                            h.run_agent.__closure__)
    fn.__kwdefaults__ = h.run_agent.__kwdefaults__
    return fn


def screen(captured, until=None):
    """Print, from a lab.capture_stdout() capture, what a terminal showed and when: each line
    with the virtual second it appeared, and every stretch of ten seconds or more in which
    nothing appeared, up to `until` (the clock now, if not given)."""
    until = lab.clock.now if until is None else until
    shown, last = [], 0.0
    for at, line in captured.timed:
        if at - last >= 10:
            shown.append(f"{last:5.1f}s to {at:4.1f}s   (nothing on the screen)")
        shown.append(f"{at:5.1f}s             {line}")
        last = at
    if until - last >= 10:
        shown.append(f"{last:5.1f}s to {until:4.1f}s   (nothing on the screen)")
    for line in shown:
        print(line)


def timed(events):
    """[(virtual seconds, event)] for each event of `events`, taken as a consumer receives it."""
    return [(lab.clock.now, event) for event in events]
