"""ScriptedModel: a fake provider that replies from a script and checks requests like a strict one.

It behaves like a provider adapter, not like an SDK: a request it refuses comes back as a failed
assistant message (stop_reason "error", the reason in error_message), never as an exception. The
only exceptions are the lab's own brakes, ScriptError, for a script that has run out or a loop
that will not stop: those are mistakes in the cell, not events of the session. The characters
lessons put on the stage as script steps are in lab/stage/props.py (lab.summariser(), shared) and
in a lesson's own folder (lab/lessons/lesson14/props.py: gullible(), one lesson's).
"""

import copy
import hashlib
import json

from .display import _calls as _calls_in, _frame, count_tokens, render_request, validate
from .virtual_time import clock

DEFAULT_MAX_CALLS = 50
CACHED_RATE = 0.1  # what one cached input token costs, next to 1 for an uncached one


class ScriptError(Exception):
    """The script cannot answer: it has run out, or max_calls model calls have been made.

    Not a RuntimeError on purpose: harness code catches RuntimeError from a model call (a summary
    that failed), and a broken script must not be mistaken for a failed reply.
    """


class Forever:
    """A script step that answers this request and every later one with fn(request)."""

    def __init__(self, fn, name=None):
        if not callable(fn):
            raise TypeError(f"forever() takes a function of the request, not {fn!r}.")
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "function")

    def __repr__(self):
        return f"forever({self.name})"


def forever(fn):
    """A script step: from here on, every request is answered with fn(request).

    fn receives the request record (see Request) and returns an assistant message, made with
    say(), reply() or fail(). It must be the last step of a script.
    """
    return Forever(fn)


def fail(text, partial=None):
    """A script step: one failed reply, stop_reason "error", with `text` as its error_message.

    `partial` is the content the reply got out before it failed (blocks from text() and call()),
    [] if left out, as when a provider answers 503 before writing anything.
    """
    if not isinstance(text, str):
        raise TypeError(f"fail() takes the error text as a string, not {type(text).__name__}.")
    for block in partial or []:
        if not isinstance(block, dict) or block.get("type") not in ("text", "toolCall"):
            raise TypeError(f"fail() takes partial as blocks made by lab.text() or lab.call(), not {block!r}.")
    return {"role": "assistant", "content": list(partial or []), "stop_reason": "error",
            "error_message": text}


def _user_text(messages):
    parts = []
    for m in messages:
        if isinstance(m, dict) and m.get("role") == "user":
            content = m.get("content")
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts += [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
    return "\n".join(parts)


class Request:
    """One request the model received, as its script function sees it and as .calls keeps it.

    .number        1 for the model's first request, 2 for the next, ...
    .system, .messages, .tools   what was sent (copies: later changes by the caller do not show)
    .last_result   the newest toolResult message anywhere in .messages, or None if there is none
    .user_text     the text of every user message in .messages, joined with newlines
    .input         tokens of the whole request, the figure in usage["input"] and in the bill
    .cached        tokens of its prefix that an earlier answered request began with (see complete)
    .uncached      input - cached
    .reply         the assistant message the model returned
    .started, .ended   the virtual clock (lab.clock) when it came in and when its reply went back
    """

    def __init__(self, number, system, messages, tools):
        self.number = number
        self.system, self.messages, self.tools = system, messages, tools
        results = [m for m in messages if isinstance(m, dict) and m.get("role") == "toolResult"]
        self.last_result = results[-1] if results else None
        self.user_text = _user_text(messages)
        self.input = self.cached = 0
        self.reply = None
        self.started = self.ended = None

    @property
    def uncached(self):
        return self.input - self.cached

    def __repr__(self):
        return f"<request {self.number}: {len(self.messages)} messages, {self.input} tokens>"


_ATOMS = frozenset({str, int, float, bool, complex, bytes, type(None)})


def snapshot(value, memo=None):
    """A deep copy of `value`, the same as copy.deepcopy makes (what is shared within it stays
    shared), made quickly for the plain dicts, lists and atoms that messages are made of: every
    request copies the whole conversation so far, so a long run copies its early messages many
    times over. Anything else is left to copy.deepcopy."""
    if type(value) in _ATOMS:
        return value
    memo = {} if memo is None else memo
    if id(value) in memo:
        return memo[id(value)]
    if type(value) is dict:
        copied = memo[id(value)] = {}
        for key, item in value.items():
            copied[key if type(key) in _ATOMS else copy.deepcopy(key, memo)] = snapshot(item, memo)
        return copied
    if type(value) is list:
        copied = memo[id(value)] = []
        for item in value:
            copied.append(snapshot(item, memo))
        return copied
    return copy.deepcopy(value, memo)


class ScriptedModel:
    """A model that replies from `script` and checks every request as a strict provider would.

    ScriptedModel(script, context_window=None, max_calls=50, latency=None)

    script          a list of steps, used in order, one per answered request: an assistant message
                    (say(), reply(), fail()) is replied once; a function is called once with the
                    request; forever(fn) or summariser() answers every request from then on.
    context_window  the most tokens one request may hold (None: no limit).
    max_calls       the lab's brake: the call after this many raises ScriptError (None: no brake).
    latency         seconds each request takes on the lab's virtual clock, lab.clock: a number, or
                    a function of the request (see Request) that returns one; None, the default,
                    takes no time. Each Request records .started and .ended on that clock.

    .complete(system, messages, tools) returns an assistant message with "usage" added
    ({"input": tokens, "cache_read": cached tokens, "output": tokens}). .calls keeps one Request
    per request received, refused ones included. .bill is the input tokens of all of them summed,
    cached or not; .cached is the part of the bill that was a cache hit, .uncached the rest; .cost
    prices the two at different rates (a cached token at CACHED_RATE).
    """

    def __init__(self, script, context_window=None, max_calls=DEFAULT_MAX_CALLS, latency=None):
        if isinstance(script, (dict, Forever)) or not isinstance(script, (list, tuple)):
            raise TypeError("ScriptedModel() takes a list of script steps, e.g. [lab.say('Hi.')].")
        for n, step in enumerate(script):
            if isinstance(step, Forever):
                if n != len(script) - 1:
                    raise ValueError(f"Script step {n} is {step!r}, which answers every request, "
                                     "so the steps after it would never be used; make it the last.")
            elif isinstance(step, dict):
                if step.get("role") != "assistant" or not isinstance(step.get("content"), list):
                    raise TypeError(f"Script step {n} is not an assistant message; "
                                    "build it with lab.say(), lab.reply() or lab.fail().")
            elif not callable(step):
                raise TypeError(f"Script step {n} is {step!r}; a step is an assistant message, "
                                "a function of the request, or forever(fn).")
        for name, value in (("context_window", context_window), ("max_calls", max_calls)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ValueError(f"{name} must be a whole number 1 or more, or None, not {value!r}.")
        self.script = list(script)
        self.context_window, self.max_calls = context_window, max_calls
        self.latency = _checked_latency(latency)
        self.calls = []
        self._next_step = 0
        self._next_id = 0
        self._seen_prefixes = set()   # digests of every prefix of every answered request

    def __repr__(self):
        return f"ScriptedModel({len(self.script)} steps, {len(self.calls)} calls)"

    @property
    def bill(self):
        """Input tokens of every request received, summed: everything that was sent."""
        return sum(request.input for request in self.calls)

    @property
    def cached(self):
        """The part of the bill that repeated a prefix this model had already been sent."""
        return sum(request.cached for request in self.calls)

    @property
    def uncached(self):
        """The part of the bill that was new to this model: bill - cached."""
        return self.bill - self.cached

    @property
    def cost(self):
        """What the bill comes to, in full-price tokens: every uncached token at 1, every cached
        one at CACHED_RATE (a tenth), since a provider charges less for a prefix it has cached.
        A float with one decimal place."""
        return round(self.uncached + self.cached * CACHED_RATE, 1)

    def complete(self, system, messages, tools):
        """Answer one request: system prompt, messages, tool specs. Returns an assistant message.

        In order: past max_calls it raises ScriptError. An invalid request comes back failed with
        error_message "400 invalid_request: <first problem>" (see validate); one over
        context_window comes back failed with "prompt is too long: N tokens > W". Neither uses a
        script step. Otherwise the next step answers; a step's toolCalls without an id get this
        model's next automatic id, c1, c2, ...

        Every reply carries usage: "input" is count_tokens(render_request(...)), paid in full
        whether the request was answered or refused. "cache_read" is the part of it that repeats
        an earlier answered request: the longest run of leading units (the system prompt with the
        tool definitions, then whole messages) that some earlier request also began with. A
        request after a compaction therefore shares only the system prompt and tools.
        """
        number = len(self.calls) + 1
        if self.max_calls is not None and number > self.max_calls:
            raise ScriptError(f"Model call {number} goes past max_calls={self.max_calls}: the loop is "
                              "still going, so stop it, or pass a larger max_calls if it is meant "
                              "to run this long.")
        if tools is None:
            tools = []
        if isinstance(messages, dict) or not isinstance(messages, (list, tuple)):
            raise TypeError("complete() takes the messages as a list of message dicts.")
        if isinstance(tools, tuple):
            tools = list(tools)
        # Copies: what the caller does to its lists afterwards must not rewrite what was sent.
        request = Request(number, system, snapshot(list(messages)), snapshot(tools))
        problems = _request_problems(system, request.messages, request.tools)
        units = _units(system, request.messages, request.tools)
        request.input = count_tokens(_frame(units))
        if problems:
            message = _failed(f"400 invalid_request: {problems[0]}")
        elif self.context_window is not None and request.input > self.context_window:
            message = _failed(f"prompt is too long: {request.input} tokens > {self.context_window}")
        else:
            # Only a request the provider reads is cached, so a refused one neither hits nor fills it.
            request.cached = _cached_tokens(units, self._seen_prefixes)
            message = self._answer(request)
            digest = hashlib.sha256()
            for unit in units:
                digest.update(unit.encode() + b"\n")
                self._seen_prefixes.add(digest.copy().hexdigest())
        # Recorded only now: a call that raised (script used up, a broken step) was never answered.
        output = count_tokens(json.dumps(message["content"], default=str))
        message["usage"] = {"input": request.input, "cache_read": request.cached, "output": output}
        request.reply = message
        _take_time(self.latency, request)
        self.calls.append(request)
        return message

    def _answer(self, request):
        """The reply the script gives to `request`, as a fresh message with ids filled in."""
        if self._next_step >= len(self.script):
            raise ScriptError(f"Model call {request.number} has no reply: the script's "
                              f"{len(self.script)} steps are used up; add steps, or end the "
                              "script with lab.forever(...).")
        step = self.script[self._next_step]
        if isinstance(step, Forever):
            answer, made_by = step.fn(request), f"the function in {step!r}"
        elif isinstance(step, dict):
            self._next_step += 1
            answer, made_by = step, f"script step {self._next_step - 1}"
        else:
            self._next_step += 1
            answer, made_by = step(request), f"script step {self._next_step - 1}"
        if not isinstance(answer, dict) or answer.get("role") != "assistant" \
                or not isinstance(answer.get("content"), list):
            raise TypeError(f"{made_by} answered call {request.number} with {answer!r}; it must "
                            "return an assistant message, e.g. lab.say('...').")
        message = copy.deepcopy(answer)  # the script's own dicts stay as they were written
        for block in _calls_in(message):
            if block.get("id") is None:
                self._next_id += 1
                block["id"] = f"c{self._next_id}"
        if message.get("stop_reason") != "error":
            message["stop_reason"] = "toolUse" if _calls_in(message) else "stop"
        message.pop("usage", None)
        return message


def _checked_latency(latency):
    """ScriptedModel's `latency`, refused in a sentence unless it is None, a number of seconds
    (0 or more), or a function of the request that returns one."""
    if latency is None or callable(latency):
        return latency
    if isinstance(latency, bool) or not isinstance(latency, (int, float)) or latency < 0:
        raise ValueError(f"latency must be a number of seconds, 0 or more, a function of the request "
                         f"that returns one, or None, not {latency!r}.")
    return latency


def _take_time(latency, request):
    """Let `request` take its latency on the lab's virtual clock (lab.clock): .started is the
    clock when it came in, .ended when its reply went back. With no latency both are the same."""
    request.started = clock.now
    seconds = latency(request) if callable(latency) else latency
    if seconds is not None:
        clock.advance(seconds)
    request.ended = clock.now


def _failed(text):
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}


def _units(system, messages, tools):
    """The lines of render_request: what the cache compares, one unit at a time.

    Written leniently (anything not JSON as its repr), so that a request that must be refused can
    still be measured.
    """
    try:
        return render_request(system, messages, tools)[1:-1].split("\n")[:-1]
    except TypeError:
        lenient = [json.dumps({"system": system, "tools": tools}, default=repr)]
        for m in messages:
            if isinstance(m, dict) and m.get("role") == "assistant":
                m = {k: v for k, v in m.items() if k not in ("stop_reason", "usage")}
            lenient.append(json.dumps(m, default=repr))
        return lenient


def _request_problems(system, messages, tools):
    """Why a strict provider would refuse this request: the system prompt, the tools, the messages."""
    if not isinstance(system, str):
        return [f"system: must be a string, not {type(system).__name__}"]
    if not isinstance(tools, list):
        return [f"tools: must be a list, not {type(tools).__name__}"]
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            return [f"tools[{i}]: not a tool spec (a dict with a name)"]
        try:
            json.dumps(tool)
        except TypeError:
            return [f"tools[{i}]: {tool['name']} cannot be sent as JSON; send tool_specs(tools)"]
    for i, m in enumerate(messages):
        try:
            json.dumps(m)
        except TypeError:
            return [f"messages[{i}]: cannot be sent as JSON"]
    return validate(messages)


def _cached_tokens(units, seen):
    """Tokens of the longest leading run of `units` that an earlier answered request began with."""
    digest, shared = hashlib.sha256(), 0
    for n, unit in enumerate(units):
        digest.update(unit.encode() + b"\n")
        if digest.copy().hexdigest() not in seen:
            break
        shared = n + 1
    if shared == 0:
        return 0
    # The shared units as they stand at the front of render_request's text, without the closing "]".
    return count_tokens(_frame(units[:shared])[:-1])
