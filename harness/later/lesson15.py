"""Definitions as lesson 15 leaves them: the loop awaits the model and each tool, the Harness
awaits its listeners, and the helpers that call the model await it too. Everything else of the
harness is as lesson 14 left it."""

import inspect

from harness.compaction import SUMMARY_SYSTEM, estimate_tokens, find_cut
from harness.loop import context_for_model
from harness.messages import error_message, render, text_of, tool_calls, user_message
from harness.tools import MAX_BYTES, MAX_LINES, str_arg, tool_specs, truncate_tail


async def run_tool(tools, call):
    """Carry out one tool call and return the toolResult message that answers it: one call in,
    exactly one result out, whatever happens. A tool's execute may be a plain function or a
    coroutine function; a result that can be awaited is awaited here. Tools are free to raise;
    this is the only place a failure becomes a result the model can read, with is_error True
    when the tool could not do its job. No Exception escapes from here, and nothing else is
    caught: a cancellation (asyncio.CancelledError, a BaseException) is the caller giving up,
    not the tool failing, so it goes on up untouched and no result is made for the call."""
    ### BEGIN SOLUTION
    tools_by_name = {tool["name"]: tool for tool in tools}
    tool = tools_by_name.get(call["name"])
    if tool is None:
        content, is_error = f"Tool {call['name']} not found", True
    else:
        try:
            content = tool["execute"](call["arguments"])
            if inspect.isawaitable(content):
                content = await content  # the wait where other tasks get their turn
            is_error = False
        except Exception as exc:  # a tool's failure is news; a cancellation is no Exception
            content, is_error = str(exc), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}
    ### END SOLUTION


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `bash` tool: one command line run in `shell`, answered with what it printed. A command
    that exits non-zero did run, and its exit code is something the model should know, so it is
    an ordinary result ending in a status line, not a tool error. A shell whose run() is a
    coroutine is awaited, so a long command leaves the rest of the program free to go on."""
    async def execute(arguments):
        ran = shell.run(str_arg(arguments, "command"))
        output, code = await ran if inspect.isawaitable(ran) else ran
        total = len(output.splitlines())
        output, shown = truncate_tail(output, max_lines, max_bytes)
        if shown < total:
            output += f"\n[Showing the last {shown} of {total} lines. Narrow the command for more.]"
        if code != 0:
            output += f"\nCommand exited with code {code}"
        return output

    return {
        "name": "bash",
        "description": "Run a shell command and return its output (stdout and stderr together). "
                       f"Only the last {max_lines} lines or {max_bytes} bytes come back.",
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string", "description": "The command line."}},
            "required": ["command"],
        },
        "execute": execute,
    }


async def run_agent(model, system, messages, tools, prompt, *, max_turns=None, get_steering=None,
                    get_follow_ups=None):
    """Give `prompt` to the model, and keep at it until the model wants no more tools, a reply
    fails (stop_reason "error"), or `max_turns` model calls are spent (None means no limit).

    An async generator: it awaits model.complete(...) and each call's run_tool, and while it
    waits the rest of the program runs. Its events are lesson 10's, in lesson 10's order, and
    pair up however the run ends. Mutate first, announce second: a message joins `messages`
    (the record) before the message_end that reports it. The calls of one reply run one after
    another, in the order the model gave them, each result recorded as soon as it comes back.

    `get_steering` and `get_follow_ups` are as in lesson 9. If the task consuming the run is
    cancelled, the cancellation arrives at the await in progress and goes on up to the caller:
    nothing more is recorded, so a call whose tool was cut off has no result in the record, and
    the next request's view (context_for_model) pairs it with INTERRUPTED."""
    new = []  # what this run added, handed over with agent_end

    def record(message):
        """Put `message` in the record, then return the event that tells of it."""
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    def ask(get):
        """Whatever user messages `get` is holding: [] if none, or if it was never passed."""
        return list(get()) if get else []

    yield {"type": "agent_start"}
    ### BEGIN SOLUTION
    turn, calls = 0, []
    # The user messages that open the next turn. Steering queued before the run joins the prompt.
    waiting = [user_message(prompt)] + ask(get_steering)
    while waiting or calls:             # one pass, one turn; calls still unanswered force another
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:         # a user may only speak here, where a turn begins
            yield record(message)
        if max_turns is not None and turn > max_turns:  # tested before calling, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = await model.complete(system, context_for_model(messages), tool_specs(tools))
        yield record(reply)
        if reply["stop_reason"] == "error":
            # A failed reply ends the run: none of it is carried out, nobody is asked for more.
            yield {"type": "turn_end", "message": reply}
            break
        calls = tool_calls(reply)
        for call in calls:              # in the model's order: one at a time, never together
            yield {"type": "tool_execution_start", "call": call}
            result = await run_tool(tools, call)
            yield record(result)        # nothing may come between the tool returning and this
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = ask(get_steering)     # safe now: every call of the turn has its result
        if not calls and not waiting:
            waiting = ask(get_follow_ups)   # the run was about to end; anything more to do?
    ### END SOLUTION
    yield {"type": "agent_end", "messages": new}  # the single way out keeps every exit balanced


class Harness:

    async def _notify(self, event):
        """Tell every listener about `event`, in the order they subscribed. A listener may be a
        plain function or a coroutine function: a result that can be awaited is awaited before
        the next listener is called, so when this returns, every listener has finished with
        the event (a line written to disk is on disk)."""
        ### BEGIN SOLUTION
        for listener in list(self._listeners):  # a copy, as a listener may unsubscribe itself
            heard = listener(event)
            if inspect.isawaitable(heard):
                await heard
        ### END SOLUTION

    async def _run(self, text):
        """Every event of run_agent over the harness's own list and settings, each told to the
        listeners, and awaited there, before the consumer gets it. However the run ends (used
        up, closed by its consumer, raising, or cancelled), the inner run is closed and the
        harness is no longer running."""
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._drain(self._steering),
                        get_follow_ups=lambda: self._drain(self._follow_ups))
        try:
            async for event in run:
                ### BEGIN SOLUTION
                await self._notify(event)  # before the consumer: a save is done, not started
                ### END SOLUTION
                yield event
        finally:                           # however the run ends, cancelled included
            await run.aclose()
            self._running = False


async def summarize(model, messages):
    """A summary of `messages`, got from a single model call, awaited, that belongs to no
    transcript: the call has its own system prompt, SUMMARY_SYSTEM; one user message, the
    rendered conversation between <conversation> tags on lines of their own; and no tools.
    Returns the reply's text, stripped. Raises RuntimeError when the reply failed or holds no
    text. `messages` is only read."""
    document = user_message("\n".join(["<conversation>", render(messages), "</conversation>"]))
    reply = await model.complete(SUMMARY_SYSTEM, [document], [])
    summary = text_of(reply).strip()
    if reply["stop_reason"] == "error" or not summary:
        raise RuntimeError(f"no summary: {reply.get('error_message', 'the reply was empty')}")
    return summary


async def compact(log, model, *, keep_recent_tokens):
    """One compaction of the session in `log` (a SessionLog), its summary written by `model`
    and awaited. As lesson 12's: log.rows() and find_cut make the plan, summarize condenses the
    rows in front of the cut, then one entry, log.append_compaction(summary, the id of the row
    at the cut), goes on the end of the log. True when it compacted; False, with the log as it
    was, for a cut of 0 or len(rows) (no model asked) or when summarize raises RuntimeError."""
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    if cut in (0, len(rows)):
        return False
    try:
        summary = await summarize(model, [message for _, message in rows[:cut]])
    except RuntimeError:
        return False  # a failed housekeeping call must not cost the user their prompt
    log.append_compaction(summary, rows[cut][0])  # the row's own id: ids and positions differ
    return True


async def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
    """If the transcript is within `reserve` tokens of the context `window`, compact (awaited),
    and give the harness whatever the log now replays. Meant for whoever drives the harness,
    between one prompt and the next; refused while a run is active. True when it compacted."""
    if harness.is_running:
        raise RuntimeError("cannot compact during a run")
    near_the_wall = estimate_tokens(harness.messages) > window - reserve
    if not (near_the_wall and await compact(log, model, keep_recent_tokens=keep_recent_tokens)):
        return False
    harness.replace_messages(log.replay())  # the same rule a resume would follow
    return True
