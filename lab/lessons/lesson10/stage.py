"""Lesson 10's own stage: a job of two writes that the user breaks off, a model that says what
its request showed it, and a Harness that runs any run_agent.

    W1, W2                       the two write calls of the job, ids w1 and w2
    JOB                          the prompt that asks for them
    NOTE                         a call that appends a line to CHANGES.md, also id w2
    onlooker(request)            a model step: what the request showed about w2, in one sentence
    make_append_tool(ws)         an `append` tool: adds text to the end of a file
    ctrl_c_after(tool, path)     the tool, but Ctrl-C arrives just after it has done its work
    job(module)                  (harness, workspace, model) for the job, built from `module` (a
                                 harness as some lesson leaves it: lab.harness_at(9), harness)
    break_at(h, text, kind, id)  run h.prompt(text) and walk away at the first event of `kind`
                                 (about the call `id`, when given); returns the events seen
    harness_on(run_agent)        a Harness class whose runs go through `run_agent`
    ran_on(cell_id)              the note under a demonstration: whose code it ran on
"""

import types

import harness
import lab

LESSON = 10

W1 = lab.call("write", {"path": "a.py", "content": "A = 1\n"}, id="w1")
W2 = lab.call("write", {"path": "b.py", "content": "B = 2\n"}, id="w2")
JOB = "Write a.py, then b.py."


def onlooker(request):
    """A scripted model's answer that says what the request showed it about the call w2, so a
    cell's output shows what each view tells the model. It never asks for a tool."""
    asked = [block for m in request.messages if m.get("role") == "assistant"
             for block in m.get("content", []) if block.get("id") == "w2"]
    answers = [m for m in request.messages if m.get("role") == "toolResult" and m.get("tool_call_id") == "w2"]
    if not asked:
        return lab.say("I see no call w2.")
    what = f"{asked[0]['name']} {asked[0]['arguments'].get('path')}"
    if not answers:
        return lab.say(f"I asked for w2 ({what}) and see no answer.")
    if answers[0].get("is_error"):
        return lab.say(f"w2 ({what}) was interrupted; I will look before doing it again.")
    return lab.say(f"w2 ({what}) is done: {answers[0]['content']}")


def make_append_tool(ws):
    """The `append` tool, over the workspace `ws`: add `content` to the end of the file `path`.
    Run twice, it adds the text twice."""
    def execute(arguments):
        path, content = harness.str_arg(arguments, "path"), harness.str_arg(arguments, "content")
        ws.append_text(path, content)
        return f"Appended {len(content)} characters to {path}."
    return {"name": "append", "description": "Add text to the end of a file.",
            "parameters": {"type": "object",
                           "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                           "required": ["path", "content"]},
            "execute": execute}


def ctrl_c_after(tool, path=None):
    """`tool` as it is, except that the user's Ctrl-C arrives the moment its work is done, before
    it can return: KeyboardInterrupt, which run_tool does not catch (it is no Exception). With
    `path`, only a call on that path is interrupted."""
    def execute(arguments):
        done = tool["execute"](arguments)
        if path is None or arguments.get("path") == path:
            raise KeyboardInterrupt
        return done
    return dict(tool, execute=execute)


NOTE = lab.call("append", {"path": "CHANGES.md", "content": "- a.py written\n"}, id="w2")


def job(module, script=None):
    """(h, ws, model): a Harness of `module` with a write tool over a new workspace, and a model
    that asks for W1, then W2, then answers every later request with onlooker()."""
    ws = lab.Workspace()
    model = lab.ScriptedModel(script or [lab.reply(W1), lab.reply(W2), lab.forever(onlooker)])
    h = module.Harness(model, module.SYSTEM, [module.make_write_tool(ws)])
    return h, ws, model


def break_at(h, text, kind, call_id=None):
    """Run h.prompt(text) and stop reading at the first event of type `kind` (for the call
    `call_id`, if given), as a consumer does when the user presses Ctrl-C. The events seen, the
    last one included."""
    seen = []
    for event in h.prompt(text):
        seen.append(event)
        if event["type"] == kind and (call_id is None or event.get("call", {}).get("id") == call_id):
            break
    return seen


def harness_on(run_agent):
    """A Harness class like harness.Harness whose runs go through `run_agent`: the class's own
    _run, with that one name bound differently."""
    base = harness.Harness._run
    scope = dict(base.__globals__, run_agent=run_agent)
    run = types.FunctionType(base.__code__, scope, base.__name__, base.__defaults__, base.__closure__)
    return type("Harness", (harness.Harness,), {"_run": run, "__module__": harness.Harness.__module__})


def ran_on(cell_id):
    """Display, as a note of its own, whose code the demonstration `cell_id` ran on."""
    from lab.runtime import lesson_harness
    lesson_harness.ran_on(LESSON, cell_id)
