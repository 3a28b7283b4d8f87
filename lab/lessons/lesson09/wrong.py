"""Wrong answers to lesson 09's gaps. Each is an idea that a question of the lesson argues against
(its docstring names the question), and the lab tests must catch every one with a sentence that
names the function at fault. Methods take `self`, as the learner's own `def steer(self, text):`
does."""

from harness.loop import run_agent
from harness.messages import error_message, tool_calls, user_message
from harness.tools import run_tool, tool_specs


def _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups, *,
          idle=True, at_once=False, before_results=False, until_empty=False, after_failure=False,
          follow_ups_every_gap=False, follow_up_ends=False, check_none=True, renumber=False,
          bare_events=False):
    """Lesson 9's loop with one wrong turn switched on by a keyword: the variants below."""
    new = []

    def record(message):
        messages.append(message)
        new.append(message)
        return {"type": "message_end", "message": message}

    def ask(get):
        if not check_none:
            return list(get())
        if not get:
            return []
        got = list(get())
        if until_empty and got:
            more = list(get())
            while more:
                got += more
                more = list(get())
        return got

    yield {"type": "agent_start"}
    turn, calls = 0, []
    waiting = [user_message(prompt)] + (ask(get_steering) if idle else [])
    while waiting or calls:
        turn += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield record(message)
        if max_turns is not None and turn > max_turns:
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, messages, tool_specs(tools))
        yield record(reply)
        if reply["stop_reason"] == "error":
            yield {"type": "turn_end", "message": reply}
            if after_failure:
                waiting, calls = ask(get_steering) + ask(get_follow_ups), []
                continue
            break
        calls = tool_calls(reply)
        if before_results:
            for message in ask(get_steering):
                yield record(message)
        for call in calls:
            yield {"type": "tool_execution_start"} if bare_events else {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            if renumber:
                result = dict(result, tool_call_id=f"c{sum(m.get('role') == 'toolResult' for m in new) + 1}")
            yield record(result)
            yield {"type": "tool_execution_end"} if bare_events else \
                {"type": "tool_execution_end", "call": call, "result": result}
            if at_once:
                for message in ask(get_steering):
                    yield record(message)
        yield {"type": "turn_end"} if bare_events else {"type": "turn_end", "message": reply}
        waiting = [] if (at_once or before_results) else ask(get_steering)
        if follow_ups_every_gap:
            waiting += ask(get_follow_ups)
        elif not calls and not waiting:
            if follow_up_ends:
                for message in ask(get_follow_ups):
                    yield record(message)
            else:
                waiting = ask(get_follow_ups)
    yield {"type": "agent_end", "messages": new}


def run_agent_bare_events(model, system, messages, tools, prompt, *, max_turns=None,
                          get_steering=None, get_follow_ups=None):
    """Yields tool_execution_start, tool_execution_end and turn_end with their type alone (the
    contract keeps lesson 7's events: a frontend that shows a call, or its result, finds nothing)."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 bare_events=True)


# -- run_agent --------------------------------------------------------------------------------

def run_agent_steers_after_each_result(model, system, messages, tools, prompt, *, max_turns=None,
                                       get_steering=None, get_follow_ups=None):
    """Takes steering the moment a tool returns, inside the batch: urgent words go in at once,
    between one call's result and the next (where-steering)."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 at_once=True)


def run_agent_steers_before_the_results(model, system, messages, tools, prompt, *, max_turns=None,
                                        get_steering=None, get_follow_ups=None):
    """Takes steering as soon as the reply is in, before its calls run: the splice of the wall,
    between a call and its result (where-steering)."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 before_results=True)


def run_agent_takes_all_steering(model, system, messages, tools, prompt, *, max_turns=None,
                                 get_steering=None, get_follow_ups=None):
    """Asks get_steering again and again at one gap until it is empty: both steers in at once
    (two-steers)."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 until_empty=True)


def run_agent_forgets_idle_steering(model, system, messages, tools, prompt, *, max_turns=None,
                                    get_steering=None, get_follow_ups=None):
    """Starts with the prompt alone: steering sent while idle waits a whole turn (idle-steering)."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 idle=False)


def run_agent_retries_with_the_queue(model, system, messages, tools, prompt, *, max_turns=None,
                                     get_steering=None, get_follow_ups=None):
    """After a failed reply, takes what is queued and asks the model again: a retry nobody asked
    for (failed-reply)."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 after_failure=True)


def run_agent_follow_ups_at_every_gap(model, system, messages, tools, prompt, *, max_turns=None,
                                      get_steering=None, get_follow_ups=None):
    """Asks for follow-ups at every gap, like steering: "now run the tests" cuts into the work
    (steer-or-follow)."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 follow_ups_every_gap=True)


def run_agent_follow_up_without_a_turn(model, system, messages, tools, prompt, *, max_turns=None,
                                       get_steering=None, get_follow_ups=None):
    """Records the follow-up at the end and stops: the words are in, and nobody answers them
    (steer-or-follow)."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 follow_up_ends=True)


def run_agent_always_asks(model, system, messages, tools, prompt, *, max_turns=None,
                          get_steering=None, get_follow_ups=None):
    """Calls the getters without asking whether they were passed: lesson 8's callers break."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 check_none=False)


def run_agent_numbers_results(model, system, messages, tools, prompt, *, max_turns=None,
                              get_steering=None, get_follow_ups=None):
    """Records each result under "c1", "c2", ... from a counter of this run's results: pairing by
    position, right only while the provider numbers its calls so."""
    return _loop(model, system, messages, tools, prompt, max_turns, get_steering, get_follow_ups,
                 renumber=True)


# -- Harness.prompt ---------------------------------------------------------------------------

def prompt_as_in_lesson_8(self, text):
    """Refuses with lesson 8's words, which do not say where the user's words can go (recall)."""
    if self._running:
        raise RuntimeError("already running")
    self._running = True
    return self._run(text)


def prompt_steers_instead(self, text):
    """Quietly turns a prompt during a run into steering: helpful, and the caller never learns
    that their prompt started nothing (steer-or-follow)."""
    if self._running:
        self._steering.append(user_message(text))
        return iter(())
    self._running = True
    return self._run(text)


# -- Harness.steer and Harness.follow_up --------------------------------------------------------

def steer_at_once(self, text):
    """Puts the words straight into the transcript: urgent, so now (where-steering)."""
    self._messages.append(user_message(text))


def steer_into_follow_ups(self, text):
    """Queues steering for the end of the run: too late to change how the files are written
    (where-steering)."""
    self._follow_ups.append(user_message(text))


def follow_up_into_steering(self, text):
    """Queues a follow-up as steering: "now run the tests" cuts into the work (steer-or-follow)."""
    self._steering.append(user_message(text))


def follow_up_at_once(self, text):
    """Puts the follow-up straight into the transcript (where-steering)."""
    self._messages.append(user_message(text))


# -- Harness._drain -----------------------------------------------------------------------------

def drain_everything(self, queue):
    """Hands over the whole queue at one ask: both steers at one gap (two-steers)."""
    taken = list(queue)
    queue.clear()
    return taken


def drain_newest_first(self, queue):
    """Takes from the back: the latest word wins, and the first waits (two-steers)."""
    return [queue.pop()] if queue else []


def drain_without_taking(self, queue):
    """Looks at the oldest and leaves it in the queue: the same words every gap (two-steers)."""
    return [queue[0]] if queue else []


# -- Harness._run -------------------------------------------------------------------------------

def run_as_in_lesson_8(self, text):
    """Lesson 8's _run: the queues fill, and no loop ever asks for them (idle-steering)."""
    run = run_agent(self._model, self._system, self._messages, self._tools, text,
                    max_turns=self._max_turns)
    try:
        yield from run
    finally:
        run.close()
        self._running = False


def run_with_the_queues_swapped(self, text):
    """Hands the loop the follow-up queue as steering and the other way round (steer-or-follow)."""
    run = run_agent(self._model, self._system, self._messages, self._tools, text,
                    max_turns=self._max_turns,
                    get_steering=lambda: self._drain(self._follow_ups),
                    get_follow_ups=lambda: self._drain(self._steering))
    try:
        yield from run
    finally:
        run.close()
        self._running = False


def run_clearing_the_queues(self, text):
    """Empties both queues when a run ends, so that stale words cannot leak into the next run:
    the steering queued as a reply failed is lost (failed-reply)."""
    run = run_agent(self._model, self._system, self._messages, self._tools, text,
                    max_turns=self._max_turns,
                    get_steering=lambda: self._drain(self._steering),
                    get_follow_ups=lambda: self._drain(self._follow_ups))
    try:
        yield from run
    finally:
        run.close()
        self._steering.clear()
        self._follow_ups.clear()
        self._running = False


# -- misreadings no question names ---------------------------------------------------------------

def steer_queues_the_bare_text(self, text):
    """Queues the words as they came, a str, not as a user message: the loop then records a
    string where a message belongs."""
    self._steering.append(text)


def follow_up_queues_the_bare_text(self, text):
    """Queues the follow-up as a str, not as a user message."""
    self._follow_ups.append(text)


def run_clearing_after_the_loop(self, text):
    """Clears the flag after the loop, not in a finally: a consumer that stops early leaves the
    harness running for good (lesson 8's when-cleared, again)."""
    run = run_agent(self._model, self._system, self._messages, self._tools, text,
                    max_turns=self._max_turns,
                    get_steering=lambda: self._drain(self._steering),
                    get_follow_ups=lambda: self._drain(self._follow_ups))
    yield from run
    self._running = False


WRONG = {1: {
    "run_agent": [run_agent_steers_after_each_result, run_agent_steers_before_the_results,
                  run_agent_takes_all_steering, run_agent_forgets_idle_steering,
                  run_agent_retries_with_the_queue, run_agent_follow_ups_at_every_gap,
                  run_agent_follow_up_without_a_turn, run_agent_always_asks,
                  run_agent_numbers_results, run_agent_bare_events],
    "Harness.prompt": [prompt_as_in_lesson_8, prompt_steers_instead],
    "Harness.steer": [steer_at_once, steer_into_follow_ups, steer_queues_the_bare_text],
    "Harness.follow_up": [follow_up_into_steering, follow_up_at_once, follow_up_queues_the_bare_text],
    "Harness._drain": [drain_everything, drain_newest_first, drain_without_taking],
    "Harness._run": [run_as_in_lesson_8, run_with_the_queues_swapped, run_clearing_the_queues],
}}

# Wrong answers that only a hidden test catches: clauses no question of this lesson argues about
# (tests/lessons/lesson09 shows each caught, in a sentence naming the function).
HIDDEN_WRONG = {1: {"Harness._run": [run_clearing_after_the_loop]}}
