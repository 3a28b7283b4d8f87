"""Wrong answers to lesson 15's gaps: each is a design one of the lesson's rungs argues against,
and its docstring names that rung (its id in RUNGS). The lab tests must catch every one with a
visible test, in a sentence that names the function at fault (tests/lessons/test_checks.py).

The loops here take the helpers they share with the reference from lesson 15's harness, looked
up when they run, so that a wrong answer differs from the reference only where its docstring says."""

import asyncio
import inspect

import lab
from harness import context_for_model, error_message, tool_calls, tool_specs, user_message


def _ref():
    return lab.harness_at(15)


def _result(call, content, is_error):
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}


# -- run_tool -------------------------------------------------------------------------------------

async def run_tool_catches_everything(tools, call):
    """Catches BaseException "to be safe" (swallowed-cancel: the user's cancel becomes an error
    result and the run carries on)."""
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        content = tool["execute"](call["arguments"])
        if inspect.isawaitable(content):
            content = await content
        return _result(call, content, False)
    except BaseException as exc:
        return _result(call, str(exc), True)


async def run_tool_never_awaits(tools, call):
    """Calls execute and records what comes back, coroutine or not (where-the-time-goes: a
    coroutine is a promise of a result, not the result)."""
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except Exception as exc:
        return _result(call, str(exc), True)


async def run_tool_awaits_everything(tools, call):
    """Awaits whatever execute returns (where-the-time-goes: a plain tool's string is not
    awaitable, and the read tool now fails every time)."""
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        return _result(call, await tool["execute"](call["arguments"]), False)
    except Exception as exc:
        return _result(call, str(exc), True)


def run_tool_still_plain(tools, call):
    """Lesson 4's run_tool, left a plain function (sync-inside: the loop cannot await it, and a
    coroutine tool's result is never waited for)."""
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        return _result(call, tool["execute"](call["arguments"]), False)
    except Exception as exc:
        return _result(call, str(exc), True)


# -- run_agent ------------------------------------------------------------------------------------

async def _loop(model, system, messages, tools, prompt, run_calls, *, max_turns=None,
                get_steering=None, get_follow_ups=None, complete=None, failure_ends=True,
                follow_ups_early=False):
    """Lesson 15's loop, with the calls of a reply carried out by `run_calls(calls, record)`, an
    async generator of events, and the model asked through `complete` when given; a failed reply
    goes on like any other unless `failure_ends`, and `follow_ups_early` asks for follow-ups after
    any turn no steering came in, calls or not."""
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    def ask(get):
        return list(get()) if get else []

    yield {"type": "agent_start"}
    turn, calls = 0, []
    waiting = [user_message(prompt)] + ask(get_steering)
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        elif complete is not None:
            reply = complete(model, system, context_for_model(messages), tool_specs(tools))
        else:
            reply = await model.complete(system, context_for_model(messages), tool_specs(tools))
        yield record(reply)
        if reply["stop_reason"] == "error" and failure_ends:
            yield {"type": "turn_end", "message": reply}
            break
        calls = tool_calls(reply)
        async for event in run_calls(tools, calls, record):
            yield event
        yield {"type": "turn_end", "message": reply}
        waiting = ask(get_steering)
        if not waiting and (follow_ups_early or not calls):
            waiting = ask(get_follow_ups)
    yield {"type": "agent_end", "messages": new}


async def _gathered(tools, calls, record, in_call_order):
    for call in calls:
        yield {"type": "tool_execution_start", "call": call}
    arrived = []

    async def one(call):
        result = await _ref().run_tool(tools, call)
        arrived.append((call, result))
        return result

    results = await asyncio.gather(*(one(call) for call in calls))
    pairs = list(zip(calls, results)) if in_call_order else arrived
    for call, result in pairs:
        yield record(result)
        yield {"type": "tool_execution_end", "call": call, "result": result}


def run_agent_gathers_as_they_come(model, system, messages, tools, prompt, *, max_turns=None,
                                   get_steering=None, get_follow_ups=None):
    """Runs a reply's calls at once with asyncio.gather and records each result as it arrives
    (gather-calls: the record's order is then the order the tools finished in)."""
    return _loop(model, system, messages, tools, prompt,
                 lambda tools, calls, record: _gathered(tools, calls, record, False),
                 max_turns=max_turns, get_steering=get_steering, get_follow_ups=get_follow_ups)


def run_agent_gathers_in_call_order(model, system, messages, tools, prompt, *, max_turns=None,
                                    get_steering=None, get_follow_ups=None):
    """Runs a reply's calls at once and records the results in call order once all are back
    (gather-calls: a write and a read of the same file now race)."""
    return _loop(model, system, messages, tools, prompt,
                 lambda tools, calls, record: _gathered(tools, calls, record, True),
                 max_turns=max_turns, get_steering=get_steering, get_follow_ups=get_follow_ups)


def run_agent_records_after_the_batch(model, system, messages, tools, prompt, *, max_turns=None,
                                      get_steering=None, get_follow_ups=None):
    """Runs the calls one after another but records their results only when the last is back
    (gather-calls: lesson 7's record-then-announce is broken for every result but the last)."""
    async def calls_then_record(tools, calls, record):
        done = []
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            done.append((call, await _ref().run_tool(tools, call)))
        for call, result in done:
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
    return _loop(model, system, messages, tools, prompt, calls_then_record, max_turns=max_turns,
                 get_steering=get_steering, get_follow_ups=get_follow_ups)


def run_agent_records_interrupted(model, system, messages, tools, prompt, *, max_turns=None,
                                  get_steering=None, get_follow_ups=None):
    """Catches the cancellation at the tool, records an INTERRUPTED result for the call, and
    re-raises (cut-off-call: the record then claims to know what became of a call nobody saw end)."""
    async def careful(tools, calls, record):
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            try:
                result = await _ref().run_tool(tools, call)
            except asyncio.CancelledError:
                record(_result(call, _ref().INTERRUPTED, True))
                raise
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
    return _loop(model, system, messages, tools, prompt, careful, max_turns=max_turns,
                 get_steering=get_steering, get_follow_ups=get_follow_ups)


async def run_agent_ends_on_cancel(model, system, messages, tools, prompt, *, max_turns=None,
                                   get_steering=None, get_follow_ups=None):
    """Catches the cancellation and ends the run politely with agent_end (swallowed-cancel: the
    caller asked to stop, and hears that the run simply finished)."""
    run = _ref().run_agent(model, system, messages, tools, prompt, max_turns=max_turns,
                           get_steering=get_steering, get_follow_ups=get_follow_ups)
    try:
        async for event in run:
            yield event
    except asyncio.CancelledError:
        yield {"type": "agent_end", "messages": []}


def _run_until_complete(model, system, messages, tools):
    coro = model.complete(system, messages, tools)
    try:
        return asyncio.run(coro)
    finally:
        coro.close()   # asyncio.run refused it; closed, it warns nobody


def run_agent_asyncio_run(model, system, messages, tools, prompt, *, max_turns=None,
                          get_steering=None, get_follow_ups=None):
    """Waits for the model with asyncio.run inside the loop (sync-inside: refused on a running
    loop, and where it works it blocks everything else)."""
    return _loop(model, system, messages, tools, prompt,
                 lambda tools, calls, record: _sequential(tools, calls, record),
                 max_turns=max_turns, get_steering=get_steering, get_follow_ups=get_follow_ups,
                 complete=lambda model, *request: _run_until_complete(model, *request))


async def _sequential(tools, calls, record):
    """The calls of a reply one after another, as the reference runs them: through the learner's
    own run_tool where one is in reach (a notebook's namespace, or the grader's worker, where
    lab.harness_at is not served), else lesson 15's."""
    run_tool = globals().get("run_tool") or _ref().run_tool
    for call in calls:
        yield {"type": "tool_execution_start", "call": call}
        result = await run_tool(tools, call)
        yield record(result)
        yield {"type": "tool_execution_end", "call": call, "result": result}


# -- Harness._notify ------------------------------------------------------------------------------

async def _notify_as_tasks(self, event):
    """Starts each listener as a task and returns at once, to keep the consumer quick
    (save-as-task: the screen shows a message the disk does not hold yet)."""
    for listener in list(self._listeners):
        heard = listener(event)
        if inspect.iscoroutine(heard):
            asyncio.get_running_loop().create_task(heard)


async def _notify_ignores_awaitables(self, event):
    """Calls each listener and drops what it returns (save-as-task: an async listener's write is
    never waited for, and never happens)."""
    for listener in list(self._listeners):
        heard = listener(event)
        if inspect.iscoroutine(heard):
            heard.close()   # dropped: the write never runs


async def _notify_together(self, event):
    """Awaits all listeners at once with asyncio.gather (save-as-task: the index is written
    before the save it indexes is done)."""
    pending = [heard for heard in (listener(event) for listener in list(self._listeners))
               if inspect.isawaitable(heard)]
    await asyncio.gather(*pending)


def _notify_still_plain(self, event):
    """Lesson 11's _notify, left a plain function (save-as-task: _run cannot await it, and an
    async listener's result is dropped)."""
    for listener in list(self._listeners):
        listener(event)


# -- Harness._run ---------------------------------------------------------------------------------

def _inner(self, text, steering=True):
    return _ref().run_agent(self._model, self._system, self._messages, self._tools, text,
                            max_turns=self._max_turns,
                            get_steering=(lambda: self._drain(self._steering)) if steering else None,
                            get_follow_ups=lambda: self._drain(self._follow_ups))


async def _run_yields_first(self, text):
    """Yields each event, then tells the listeners (save-as-task: the consumer has message_end
    before the line is on disk, lesson 11's crash window)."""
    run = _inner(self, text)
    try:
        async for event in run:
            yield event
            await self._notify(event)
    finally:
        await run.aclose()
        self._running = False


async def _run_notifies_in_a_task(self, text):
    """Hands each event to the listeners in a task of its own and yields at once (save-as-task:
    the consumer may hold the event before any listener has heard it)."""
    run = _inner(self, text)
    try:
        async for event in run:
            asyncio.get_running_loop().create_task(self._notify(event))
            yield event
    finally:
        await run.aclose()
        self._running = False


async def _run_forgets_the_await(self, text):
    """Calls self._notify(event) without awaiting it (save-as-task: the coroutine it makes never
    runs, so no listener hears anything, and Python only warns)."""
    run = _inner(self, text)
    try:
        async for event in run:
            self._notify(event).close()   # what an unawaited coroutine comes to, minus the warning
            yield event
    finally:
        await run.aclose()
        self._running = False


async def _run_one_harness_at_a_time(self, text):
    """Holds one lock for every Harness while a run goes (two-sessions: lesson 8's pen is one per
    transcript, and a lock for all of them puts the second session behind the first)."""
    lock = _run_one_harness_at_a_time.__dict__.setdefault("lock", {})
    loop = asyncio.get_running_loop()
    if lock.get("loop") is not loop:
        lock.update(loop=loop, lock=asyncio.Lock())
    async with lock["lock"]:
        run = _inner(self, text)
        try:
            async for event in run:
                await self._notify(event)
                yield event
        finally:
            await run.aclose()
            self._running = False


async def _run_without_steering(self, text):
    """Leaves the steering queue out of the run (who-may-act: the words typed while the model
    thinks wait for the next prompt)."""
    run = _inner(self, text, steering=False)
    try:
        async for event in run:
            await self._notify(event)
            yield event
    finally:
        await run.aclose()
        self._running = False


WRONG = {
    1: {"run_tool": [run_tool_catches_everything, run_tool_never_awaits, run_tool_awaits_everything,
                     run_tool_still_plain],
        "run_agent": [run_agent_gathers_as_they_come, run_agent_gathers_in_call_order,
                      run_agent_records_after_the_batch, run_agent_records_interrupted,
                      run_agent_ends_on_cancel, run_agent_asyncio_run]},
    2: {"Harness._notify": [_notify_as_tasks, _notify_ignores_awaitables, _notify_together,
                            _notify_still_plain],
        "Harness._run": [_run_yields_first, _run_notifies_in_a_task, _run_forgets_the_await,
                         _run_one_harness_at_a_time,
                         _run_without_steering]},
}


# -- caught only by a hidden test (tests/lessons/test_hidden_wrong.py) ------------------------------

async def _notify_over_the_live_list(self, event):
    """Walks the listeners' own list, not a copy (a listener that unsubscribes itself makes the
    next one miss the event)."""
    for listener in self._listeners:
        heard = listener(event)
        if inspect.isawaitable(heard):
            await heard


async def run_tool_awaits_only_coroutines(tools, call):
    """Awaits what execute returns only when it is a coroutine (a future, or any other awaitable,
    becomes the content as it is)."""
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        return _result(call, f"Tool {call['name']} not found", True)
    try:
        content = tool["execute"](call["arguments"])
        if inspect.iscoroutine(content):
            content = await content
        return _result(call, content, False)
    except Exception as exc:
        return _result(call, str(exc), True)


def run_agent_goes_on_after_a_failure(model, system, messages, tools, prompt, *, max_turns=None,
                                      get_steering=None, get_follow_ups=None):
    """Treats a failed reply as one that calls no tools, so the run asks for follow-ups and goes
    on (the contract, lesson 10's: a failed reply ends the run, and nobody is asked for more)."""
    return _loop(model, system, messages, tools, prompt, _sequential, max_turns=max_turns,
                 get_steering=get_steering, get_follow_ups=get_follow_ups, failure_ends=False)


def run_agent_asks_for_follow_ups_early(model, system, messages, tools, prompt, *, max_turns=None,
                                        get_steering=None, get_follow_ups=None):
    """Asks for follow-ups after every turn that brought no steering, tool calls or not (the
    contract, lesson 9's: a follow-up is for a run about to end; taken while the model still
    calls tools, it cuts in before the model has answered the results)."""
    return _loop(model, system, messages, tools, prompt, _sequential, max_turns=max_turns,
                 get_steering=get_steering, get_follow_ups=get_follow_ups, follow_ups_early=True)


HIDDEN_WRONG = {
    1: {"run_tool": [run_tool_awaits_only_coroutines],
        "run_agent": [run_agent_goes_on_after_a_failure, run_agent_asks_for_follow_ups_early]},
    2: {"Harness._notify": [_notify_over_the_live_list]},
}
