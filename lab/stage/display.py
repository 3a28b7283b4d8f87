"""Ways to look at a transcript: a shorthand, a readable dump, a strict provider's verdict, and
the lab's token arithmetic.

The token rule is the lab provider's own, so a cell can predict exactly what a request will cost:
count_tokens(text) is len(text) // 4, and a request is counted over render_request(...).
"""

import functools
import json
from datetime import datetime, timedelta

from .virtual_time import clock

CLIP = 80  # show() prints at most this many characters of any one text


def _check_list(messages, who):
    if isinstance(messages, dict):
        raise TypeError(f"{who}() takes a list of messages, not one message; wrap it in [ ].")
    if not isinstance(messages, (list, tuple)):
        raise TypeError(f"{who}() takes a list of messages, not {type(messages).__name__}.")


def _calls(message):
    content = message.get("content")
    if not isinstance(content, list):
        return []
    return [b for b in content if isinstance(b, dict) and b.get("type") == "toolCall"]


def _id(block_or_id):
    return "?" if block_or_id is None else str(block_or_id)


def shape(messages):
    """The transcript in shorthand, one token per message: "U A[c1,c2] R(c1) R(c2) A".

    U is a user message, A an assistant message (with the ids of the calls it makes, if any; "A!"
    if it failed), R(id) a tool result and the id of the call it answers, ? anything else.
    """
    _check_list(messages, "shape")
    marks = []
    for m in messages:
        role = m.get("role") if isinstance(m, dict) else None
        if role == "user":
            marks.append("U")
        elif role == "assistant":
            ids = [_id(c.get("id")) for c in _calls(m)]
            mark = "A!" if m.get("stop_reason") == "error" else "A"
            marks.append(mark + (f"[{','.join(ids)}]" if ids else ""))
        elif role == "toolResult":
            marks.append(f"R({_id(m.get('tool_call_id'))})")
        else:
            marks.append("?")
    return " ".join(marks)


def _quote(text, clip):
    """`text` in double quotes with escapes shown ("\\n"), cut after `clip` characters of the original.

    A cut text ends "... (N characters)" inside the quotes, N being the length before the cut.
    """
    if clip is not None and len(text) > clip:
        return '"' + json.dumps(text[:clip], ensure_ascii=False)[1:-1] + f'... ({len(text)} characters)"'
    return json.dumps(text, ensure_ascii=False)


def _block(block, clip):
    if not isinstance(block, dict):
        return repr(block)
    if block.get("type") == "text":
        return _quote(str(block.get("text")), clip)
    if block.get("type") == "toolCall":
        arguments = json.dumps(block.get("arguments"), ensure_ascii=False)
        if clip is not None and len(arguments) > clip:
            arguments = arguments[:clip] + f"... ({len(arguments)} characters)"
        return f"toolCall {_id(block.get('id'))} {block.get('name')}({arguments})"
    return f"{block.get('type')} block"


def _words(content, clip):
    if isinstance(content, str):
        return _quote(content, clip)
    if isinstance(content, list):
        return " + ".join(_block(b, clip) for b in content) or "(nothing)"
    return repr(content)


def show(messages, clip=CLIP):
    """The transcript as readable text, one line per message, for print().

        user -> "Now run the tests."
        assistant -> toolCall c3 bash({"command": "pytest"})
        toolResult c3 -> "3 passed\\n"  [is_error]

    Texts are shown with escapes, so a newline is visible as \\n, and cut after `clip` characters
    (None: never cut). A failed assistant message ends with [error: its error_message].
    """
    _check_list(messages, "show")
    if not messages:
        return "(no messages)"
    lines = []
    for m in messages:
        if not isinstance(m, dict):
            lines.append(f"not a message: {m!r}")
            continue
        role = m.get("role")
        if role == "toolResult":
            line = f"toolResult {_id(m.get('tool_call_id'))} -> {_words(m.get('content'), clip)}"
            if m.get("is_error"):
                line += "  [is_error]"
        else:
            line = f"{role} -> {_words(m.get('content'), clip)}"
            if m.get("stop_reason") == "error":
                line += f"  [error: {m.get('error_message')}]"
        lines.append(line)
    return "\n".join(lines)


def validate(messages):
    """What a strict provider would refuse in `messages`: a list of problems, [] if it accepts them.

    Each problem names the message it is about, as "messages[i]: ...", in the order of i; the lab's
    ScriptedModel answers an invalid request with "400 invalid_request: " and the first of them.
    The rules: every message is a dict with a known role; user content is a string; an assistant
    message has a non-empty list of text and toolCall blocks; every toolCall is answered by
    exactly one toolResult among the messages right after its assistant message; and a toolResult
    answers a call of the assistant message just before its run of results.
    """
    _check_list(messages, "validate")
    if not messages:
        return ["messages: the list is empty; a request needs at least one message"]
    problems = []                 # (index, text), sorted by index at the end
    waiting = {}                  # call id -> index of the assistant message that made it
    answered = set()              # ids answered since that assistant message
    seen_calls = set()            # every call id met so far, to word a misplaced result well

    def close_turn():
        for call_id, at in waiting.items():
            problems.append((at, f"messages[{at}]: toolCall {call_id} has no toolResult after it"))
        waiting.clear()
        answered.clear()

    for i, m in enumerate(messages):
        role = m.get("role") if isinstance(m, dict) else None
        if role != "toolResult":
            close_turn()
        if role is None:
            problems.append((i, f"messages[{i}]: not a message (a dict with a role)"))
        elif role == "user":
            if not isinstance(m.get("content"), str):
                problems.append((i, f"messages[{i}]: user content must be a string"))
        elif role == "assistant":
            content = m.get("content")
            if not isinstance(content, list):
                problems.append((i, f"messages[{i}]: assistant content must be a list of blocks"))
                continue
            if not content:
                problems.append((i, f"messages[{i}]: assistant message is empty"))
            for block in content:
                kind = block.get("type") if isinstance(block, dict) else None
                if kind == "text":
                    if not isinstance(block.get("text"), str):
                        problems.append((i, f"messages[{i}]: text block must hold a string"))
                elif kind == "toolCall":
                    call_id = block.get("id")
                    if not isinstance(call_id, str) or not call_id:
                        problems.append((i, f"messages[{i}]: toolCall {block.get('name')} has no id"))
                    elif not isinstance(block.get("name"), str) or not isinstance(block.get("arguments"), dict):
                        problems.append((i, f"messages[{i}]: toolCall {call_id} needs a name and a dict of arguments"))
                    else:
                        waiting[call_id] = i
                        seen_calls.add(call_id)
                else:
                    problems.append((i, f"messages[{i}]: unknown block type {kind!r}"))
        elif role == "toolResult":
            call_id = m.get("tool_call_id")
            if not isinstance(m.get("content"), str):
                problems.append((i, f"messages[{i}]: toolResult content must be a string"))
            if call_id in waiting:
                del waiting[call_id]
                answered.add(call_id)
            elif call_id in answered:
                problems.append((i, f"messages[{i}]: toolResult {call_id} answers a toolCall that already has a result"))
            elif call_id in seen_calls:
                problems.append((i, f"messages[{i}]: toolResult {call_id} is not right after its toolCall"))
            else:
                problems.append((i, f"messages[{i}]: toolResult {call_id} has no toolCall before it"))
        else:
            problems.append((i, f"messages[{i}]: unknown role {role!r}"))
    close_turn()
    problems.sort(key=lambda problem: problem[0])  # stable: problems of one message keep their order
    return [text for _, text in problems]


def count_tokens(text):
    """The lab's token count of `text`: one token per four characters, rounded down."""
    if not isinstance(text, str):
        raise TypeError(f"count_tokens() takes a string, not {type(text).__name__}.")
    return len(text) // 4


def _as_sent(message):
    """A message as the provider reads it: an assistant message's stop_reason and usage are
    bookkeeping of an earlier reply, not part of what is sent."""
    if isinstance(message, dict) and message.get("role") == "assistant":
        return {k: v for k, v in message.items() if k not in ("stop_reason", "usage")}
    return message


def render_request(system, messages, tools):
    """The text of one request exactly as the lab's provider counts it.

    A first line holding {"system": ..., "tools": ...} as JSON, then one line of JSON per message
    (each line ending in a newline), the whole framed by "[" and "]". Its cost is count_tokens()
    of this text. Raises TypeError if something in the request cannot be written as JSON (a
    tool's function, say).
    """
    _check_list(messages, "render_request")
    try:
        lines = [json.dumps({"system": system, "tools": tools})]
        lines += [json.dumps(_as_sent(m)) for m in messages]
    except TypeError as error:
        raise TypeError(f"This request cannot be sent as JSON ({error}); "
                        "send tool_specs(tools), not the tools themselves.") from None
    return _frame(lines)


def _frame(lines):
    """The request text made of its lines: the header line, then one line per message."""
    return "[" + "".join(line + "\n" for line in lines) + "]"


_LOG_START = datetime(2024, 1, 1)


def big_log(lines=40_000):
    """The text of a large, dull log file: `lines` lines of exactly 28 characters each.

    Each line is a timestamp one second after the last and a short status. The same text every
    time, so every size measured from it is the same on every run.
    """
    if not isinstance(lines, int) or isinstance(lines, bool) or lines < 0:
        raise ValueError(f"big_log() takes lines as a whole number 0 or more, not {lines!r}.")
    return _big_log(lines)


@functools.lru_cache(maxsize=8)
def _big_log(lines):
    # Kept: a lesson builds forty logs of one size, and each of 40,000 lines costs a strftime.
    out = []
    for n in range(lines):
        stamp = (_LOG_START + timedelta(seconds=n)).strftime("%Y-%m-%d %H:%M:%S")
        status = "ERR 503" if n % 97 == 96 else "INFO ok"  # an occasional line worth finding
        out.append(f"{stamp} {status}\n")
    return "".join(out)


class Captured:
    """What a program printed while capture_stdout() held its stdout.

    .text    everything printed, exactly: what `python run.py > answer.txt` would leave in the file
    .lines   .text cut into lines, without their newlines
    .timed   [(seconds, line)]: each line with the virtual clock (lab.clock) at the moment its
             newline was printed; a last line with no newline gets the clock when capture ended
    """

    # Under the grader, what the learner's code prints in its own process is written here too
    # (lab/grader/wire.py, TAKES_PRINTED), so a test that captures sees it as in one process.
    takes_learner_output = True

    def __init__(self):
        self.text = ""
        self.timed = []
        self._open = ""

    @property
    def lines(self):
        return self.text.splitlines()

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() takes a string, not {type(text).__name__}")
        self.text += text
        self._open += text
        *done, self._open = self._open.split("\n")
        self.timed += [(clock.now, line) for line in done]
        return len(text)

    def flush(self):
        pass

    def _close(self):
        if self._open:
            self.timed.append((clock.now, self._open))
            self._open = ""

    def __repr__(self):
        return f"<captured: {len(self.lines)} lines, {len(self.text)} characters>"


class capture_stdout:
    """A context manager that takes whatever is printed inside it, as a redirect to a file would:

        with lab.capture_stdout() as answer_txt:
            print("hello")
        answer_txt.text        # "hello\\n", and nothing reached the screen

    The captured object is a Captured (see there): .text, .lines, and .timed, each line with the
    virtual time it was printed at. Only stdout is taken; stderr goes where it went."""

    def __enter__(self):
        import sys
        self.captured, self._saved = Captured(), sys.stdout
        sys.stdout = self.captured
        return self.captured

    def __exit__(self, *exc):
        import sys
        sys.stdout = self._saved
        self.captured._close()
        return False


def event_types(events):
    """The types of `events` (dicts with a "type", from a list or a generator, which this runs to
    its end), in order. A message_end names its message's role as well, so that a run reads at a
    glance: ["agent_start", "turn_start", "message_end(user)", "message_end(assistant)", ...]."""
    out = []
    for event in events:
        if not isinstance(event, dict) or "type" not in event:
            raise TypeError(f"event_types() takes events, dicts with a \"type\", not {event!r}")
        message = event.get("message")
        if event["type"] == "message_end" and isinstance(message, dict):
            out.append(f"message_end({message.get('role')})")
        else:
            out.append(event["type"])
    return out
