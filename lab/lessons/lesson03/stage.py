"""Lesson 03's own stage: the harness as an earlier lesson left it, and a recorder that keeps, in
one list, the order in which a run called the model and ran its tools.

    h2 = at_lesson(2)          the learner's harness.py as lesson 2 leaves it, as a module
    h3 = harness_now()         as lesson 3 leaves it, with the learner's run_agent once the lab
                               passes (lab.check installs it), the reference's before
    rec = Recorder(model, tools)   rec.model and rec.tools stand in for the two; rec.events is
                               what happened, in order; rec.summary() says it in one line
    ran_on(cell_id)            the note under a demonstration: whose run_agent it ran on

The modules are made from the generated files themselves (lab.course.starters), so a cell that says
"lesson 2's harness" runs exactly the text `python -m lab end 2` prints.
"""

LESSON = 3


def at_lesson(lesson):
    """The harness.py that `python -m lab end <lesson>` prints, loaded as a module of its own."""
    from lab.runtime import lesson_harness
    return lesson_harness.fresh(lesson)


def whose():
    """"your run_agent" once lesson 3's lab has passed in this kernel, else "the reference
    run_agent"."""
    from lab.runtime import lesson_harness
    return lesson_harness.whose(LESSON, ["run_agent"])


def harness_now():
    """The harness as lesson 3 leaves it, the learner's run_agent in once the lab has passed."""
    from lab.runtime import lesson_harness
    return lesson_harness.harness_now(LESSON)


def ran_on(cell_id):
    """Display, as a note of its own, which run_agent the demonstration `cell_id` ran on."""
    from lab.runtime import lesson_harness
    lesson_harness.ran_on(LESSON, cell_id)


class Recorder:
    """A model and tools wrapped so that a single list keeps what a run did, in order.

    Recorder(model, tools): .model answers as `model` does and .tools run as `tools` do; each
    model call and each tool run adds one event to .events:
        {"kind": "model", "number": k, "sent": shape of the request, "reply": shape of the reply,
         "text": the reply's words, "refused": the error text if the model refused it, else ""}
        {"kind": "tool", "name": ..., "arguments": {...}, "output": what execute returned}
    A tool that raises is recorded with "output" set to the exception's text, then re-raised."""

    def __init__(self, model, tools):
        self.inner, self.events = model, []
        self.model = _RecordingModel(self)
        self.tools = [self._wrap(tool) for tool in tools]

    def _wrap(self, tool):
        run = tool["execute"]

        def execute(arguments):
            event = {"kind": "tool", "name": tool["name"], "arguments": dict(arguments), "output": None}
            self.events.append(event)
            try:
                event["output"] = run(arguments)
            except Exception as error:
                event["output"] = f"{type(error).__name__}: {error}"
                raise
            return event["output"]
        return dict(tool, execute=execute)

    def kinds(self):
        """"model, read, model, write, model": what ran, in order."""
        return ", ".join(e["name"] if e["kind"] == "tool" else "model" for e in self.events)

    def summary(self):
        """The run in one line: each model call with what it was sent, and each tool run."""
        parts = []
        for e in self.events:
            if e["kind"] == "model":
                parts.append(f"model call {e['number']} (sent {e['sent']})")
            else:
                target = e["arguments"].get("path", "")
                parts.append(f"{e['name']}({target})")
        return " -> ".join(parts) or "nothing"


class _RecordingModel:
    def __init__(self, recorder):
        self._recorder = recorder

    def complete(self, system, messages, tools):
        import harness
        import lab
        sent = lab.shape(list(messages))
        reply = self._recorder.inner.complete(system, messages, tools)
        failed = reply.get("stop_reason") == "error"
        self._recorder.events.append({
            "kind": "model", "number": 1 + sum(e["kind"] == "model" for e in self._recorder.events),
            "sent": sent, "reply": lab.shape([reply]), "text": "" if failed else harness.text_of(reply),
            "refused": reply.get("error_message", "") if failed else ""})
        return reply

    def __getattr__(self, name):  # .calls, .bill and the rest, as the wrapped model has them
        return getattr(self._recorder.inner, name)
