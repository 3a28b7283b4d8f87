"""What the course's ChatServer accepts: a Chat Completions request, judged by the official `openai`
package's own types, and the reply built through its response model.

    request_problem(raw, request)   why an endpoint would refuse this body, in one sentence, or None
    oracle().completion(fields)     a ChatCompletion body in the package's shape

The package is a test-time oracle of shapes only: the course never uses it as a client, and it is
imported on first use (it takes most of a second), when a server starts, not on `import lab`.
pydantic's TypeAdapter validates Iterable fields lazily and drops keys a TypedDict does not know in
silence, so every iterable is read out and the validated value compared with the input."""

import json

def request_problem(raw, request):
    """Why a Chat Completions endpoint would refuse this request body, in one sentence, or None.

    `raw` is the body as bytes and `request` as parsed (see _parsed). Checked against the openai
    package's CompletionCreateParamsNonStreaming, then the pairing of tool calls and tool
    messages that OpenAI checks on its side [general].
    """
    if not _is_json(raw):
        return ("We could not parse the JSON body of your request: the Chat Completions endpoint "
                "expects a JSON object.")
    if not isinstance(request, dict):
        return f"The request body must be a JSON object, not {_json_type(request)}."
    if request.get("stream") is True:
        return ("The course's ChatServer does not stream: send \"stream\": false, or leave "
                "\"stream\" out.")
    for name in ("messages", "tools"):
        # pydantic reads a string as an Iterable of characters; say plainly it is not an array.
        if name in request and not isinstance(request[name], list):
            return f"Invalid type for '{name}': expected an array, but got {_json_type(request[name])}."
    problem = oracle().params_problem(request)
    return problem or _pairing_problem(request["messages"])


def _is_json(raw):
    try:
        json.loads(raw)
    except ValueError:
        return False
    return True


def _json_type(value):
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _pairing_problem(messages):
    """OpenAI's two sentences for tool calls and tool messages that do not pair up [general]."""
    waiting = []   # ids of the latest assistant message's calls that no tool message answered yet
    for n, message in enumerate(messages):
        role = message.get("role")
        if role == "tool":
            if message.get("tool_call_id") not in waiting:
                return (f"Invalid parameter: messages[{n}]: messages with role 'tool' must be a "
                        "response to a preceding message with 'tool_calls'.")
            waiting.remove(message["tool_call_id"])
            continue
        if waiting:
            return _unanswered(waiting, n)
        if role == "assistant":
            waiting = [call.get("id") for call in message.get("tool_calls") or []]
    return _unanswered(waiting, len(messages)) if waiting else None


def _unanswered(waiting, n):
    return ("An assistant message with 'tool_calls' must be followed by tool messages responding "
            f"to each 'tool_call_id'. The following tool_call_ids did not have response messages "
            f"(at messages[{n}]): {', '.join(map(str, waiting))}.")


class _Oracle:
    """The openai package's request type and response model: the judge of every shape."""

    def __init__(self):
        from openai.types.chat import ChatCompletion
        from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
        from pydantic import TypeAdapter
        self.params = TypeAdapter(CompletionCreateParamsNonStreaming)
        self.ChatCompletion = ChatCompletion

    def completion(self, fields):
        """`fields` read by ChatCompletion and written back as JSON: the package's shape, with
        only the fields set here (exclude_unset), as a provider leaves out what it does not use."""
        return self.ChatCompletion.model_validate(fields).model_dump(mode="json", exclude_unset=True)

    def params_problem(self, request):
        """One sentence saying where `request` is not a CompletionCreateParamsNonStreaming, or None."""
        from pydantic import ValidationError
        try:
            # pydantic checks an Iterable field only as it is consumed: _consumed reads them all.
            checked = _consumed(self.params.validate_python(request))
        except ValidationError as error:
            return _sentence(error.errors())
        except _LateErrors as late:
            return _sentence(late.errors)
        # A TypedDict drops keys it does not know without a word; the difference names them.
        return _first_difference(request, checked, "")


class _LateErrors(Exception):
    """The errors pydantic found while an iterable was read, with locs from the request's top."""

    def __init__(self, errors):
        super().__init__(errors)
        self.errors = errors


def _consumed(value, path=()):
    """`value` with every lazily validated iterable read into a list, recursively."""
    from pydantic import ValidationError
    if isinstance(value, dict):
        return {k: _consumed(v, path + (k,)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_consumed(v, path + (i,)) for i, v in enumerate(value)]
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        return value
    try:
        items = list(value)
    except ValidationError as error:
        raise _LateErrors([{**e, "loc": path + tuple(e["loc"])} for e in error.errors()]) from None
    return [_consumed(v, path + (i,)) for i, v in enumerate(items)]


_ROLES = ("developer", "system", "user", "assistant", "tool", "function")


def _sentence(errors):
    """One sentence from pydantic's errors: the error of the union member the input meant (the
    one whose `role` or `type` matched), with its path written messages[2].tool_call_id."""
    missed = {_member(e["loc"]) for e in errors
              if e["type"] == "literal_error" and e["loc"][-1] in ("role", "type")}
    meant = [e for e in errors if _member(e["loc"]) not in missed] or errors
    first = meant[0]
    path = _path(first["loc"])
    if first["type"] == "missing":
        return f"Missing required parameter: '{path}'."
    if first["type"] == "literal_error" and first["loc"][-1] == "role":
        return f"Invalid value for '{path}': {first['input']!r} is none of {', '.join(_ROLES)}."
    return f"Invalid value for '{path}': {first['msg'][0].lower()}{first['msg'][1:]}."


def _member(loc):
    """The part of a pydantic loc up to the union member it names (a class name), or the loc."""
    for n, part in enumerate(loc):
        if isinstance(part, str) and part[:1].isupper():
            return tuple(loc[:n + 1])
    return tuple(loc)


def _path(loc):
    """A pydantic loc as a path a person reads: messages[2].tool_call_id, without member names."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif not _is_type_name(part):
            text += ("." if text else "") + part
    return text


def _is_type_name(part):
    """True for the parts of a loc that name a union member or a validator, not a field: a class
    (ChatCompletionToolMessageParam), a type (str), a tagged form (list[...], function-after[...])."""
    return part[:1].isupper() or part in ("str", "int", "float", "bool", "none") \
        or "[" in part or "-" in part


def _first_difference(given, checked, path):
    """A sentence naming the first key of `given` that `checked` lacks or reads differently."""
    if isinstance(given, dict) and isinstance(checked, dict):
        for key, value in given.items():
            where = f"{path}.{key}" if path else key
            if key not in checked:
                return f"Unrecognized request argument supplied: {where}."
            found = _first_difference(value, checked[key], where)
            if found:
                return found
        return None
    if isinstance(given, list) and isinstance(checked, list) and len(given) == len(checked):
        for n, (a, b) in enumerate(zip(given, checked)):
            found = _first_difference(a, b, f"{path}[{n}]")
            if found:
                return found
        return None
    if given != checked or type(given) is not type(checked) and not _same_number(given, checked):
        return f"Invalid value for '{path}': {given!r} is not of the type the request allows."
    return None


def _same_number(a, b):
    # JSON has one number type: 1 where the type reads a float is 1.0, and that is the same value.
    return isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
        and not isinstance(b, bool) and a == b


_oracle_made = []


def oracle():
    """The one _Oracle, made on first use: importing the openai package takes most of a second,
    which only a cell or test that starts a server should pay, not every `import lab`."""
    if not _oracle_made:
        _oracle_made.append(_Oracle())
    return _oracle_made[0]
