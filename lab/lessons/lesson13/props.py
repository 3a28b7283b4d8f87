"""Lesson 13's own prop: briefed(), a scripted model that takes its system prompt's word for which
tools exist. Its docstring states its rule in full, since the lesson prints it."""

import re

from lab.stage.builders import call, reply, say
from lab.stage.model import Forever, _calls_in
from lab.stage.props import FILE_NAME


_BRIEFED_LINE = re.compile(r"^- ([\w.-]+): (.*)$")


def briefed():
    """A stage prop, as a script step: a model that takes its system prompt's word for which tools
    exist and what each is for.

    The tools it believes in are the lines of the system prompt shaped "- <name>: <guideline>",
    in the order written; if the prompt has no such line, it goes by the request's tool
    definitions, their descriptions standing for guidelines. The job is the newest user message.
    For every request it follows one rule, in this order:
    - No believed tool shares a word of four letters or more with the job (in its name or its
      guideline, any case): "I have no tool for that. My briefing lists: <names>." ("nothing"
      when it lists none).
    - A tool result came back after the job and is not an error: "Done: <tool> said: <the first
      line of the result>".
    - Otherwise it calls the next tool that fits, in the briefing's order, after the one it
      called last for this job, starting again from the first when it runs out: it trusts its
      briefing, so to it "Tool write not found" is a passing hitch, never news. The arguments:
      for a tool the request defines, each required parameter gets the file the job names if
      it is "path", else the job's text; for a tool it only heard of, {"path": <that file>}.
    It keeps no state: each answer depends on the request alone.
    """
    return Forever(_briefed, name="briefed")


def _words(text):
    return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}


def _briefed(request):
    system = request.system if isinstance(request.system, str) else ""
    believed = [m.groups() for m in map(_BRIEFED_LINE.match, system.splitlines()) if m]
    if not believed:
        believed = [(t.get("name"), str(t.get("description", ""))) for t in request.tools
                    if isinstance(t, dict)]
    users = [i for i, m in enumerate(request.messages) if m.get("role") == "user"]
    job = request.messages[users[-1]].get("content") if users else ""
    job = job if isinstance(job, str) else ""
    wanted = _words(job)
    fit = [name for name, guideline in believed if _words(f"{name} {guideline}") & wanted]
    if not fit:
        listed = ", ".join(name for name, _ in believed) or "nothing"
        return say(f"I have no tool for that. My briefing lists: {listed}.")
    since = request.messages[users[-1] + 1:] if users else request.messages
    results = [m for m in since if m.get("role") == "toolResult"]
    if results and not results[-1].get("is_error"):
        first = (str(results[-1].get("content", "")).splitlines() or [""])[0]
        return say(f"Done: {results[-1].get('tool_name')} said: {first}")
    tried = [c.get("name") for m in since if m.get("role") == "assistant" for c in _calls_in(m)]
    after = fit.index(tried[-1]) + 1 if tried and tried[-1] in fit else 0
    name = fit[after % len(fit)]
    named = FILE_NAME.search(job)
    path = named.group(0) if named else "."
    spec = next((t for t in request.tools if isinstance(t, dict) and t.get("name") == name), None)
    if spec is None:
        return reply(call(name, {"path": path}))
    required = (spec.get("parameters") or {}).get("required") or []
    return reply(call(name, {p: (path if p == "path" else job) for p in required}))
