"""Region 7, adapters: one record, and a view of it in each provider's own format, made at the
edge (lesson 16)."""

import hashlib
import json
import re

from .messages import error_message, text_of, tool_calls

# == 7 adapters ==
# The record has one shape, the harness's. Each provider is told what happened in its own format,
# and that translation, both ways, is made here and nowhere else.

PORTABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # an id nearly every provider accepts as it is


def portable_id(call_id):
    """The id a provider is sent for the call id `call_id`. An id that PORTABLE_ID matches in full
    comes back unchanged; any other becomes "tc_" and the first 40 hex digits of the SHA-256 of
    its UTF-8 bytes. A pure function of the id: the same id always gives the same answer, in any
    request and any process, so a call and its result still pair after a resume, and two
    different ids never give one."""
    ### BEGIN SOLUTION
    if isinstance(call_id, str) and PORTABLE_ID.fullmatch(call_id):
        return call_id
    return "tc_" + hashlib.sha256(str(call_id).encode("utf-8")).hexdigest()[:40]
    ### END SOLUTION


def merge_runs(turns):
    """A new list of {"role", "content"} turns in which each run of consecutive turns of one role
    is a single turn, its texts joined by a blank line, in their order. Every turn is a new dict;
    `turns` and the dicts in it are left as they were, since they may be the record itself."""
    ### BEGIN SOLUTION
    merged = []
    for turn in turns:
        if merged and merged[-1]["role"] == turn["role"]:
            merged[-1]["content"] += "\n\n" + turn["content"]
        else:
            merged.append({"role": turn["role"], "content": turn["content"]})
    return merged
    ### END SOLUTION


def tool_call_line(call):
    """A tool call as a chat template writes it: one line, a JSON object between tags."""
    return "<tool_call>" + json.dumps({"name": call["name"], "arguments": call["arguments"]}) + "</tool_call>"


def tools_prompt(tools):
    """The tool specs as text for a system prompt, for a format that has no place for them."""
    lines = ["You may call these tools. To call one, write a line of its own:",
             tool_call_line({"name": "NAME", "arguments": {"ARGUMENT": "VALUE"}}),
             "The tools, as JSON schemas:"]
    return "\n".join(lines + [json.dumps(spec) for spec in tools])


def template_messages(system, messages, tools):
    """What a chat template is given for one request: a list of {"role", "content": text} turns
    with the roles "system", "user" and "assistant" only, alternating after the system turn.

    The system turn is `system`, then a blank line and tools_prompt(tools) when there are tools.
    A user message is its text. An assistant message is its text, then one tool_call_line per
    call, each on a line of its own. A toolResult is user text that opens with a label naming its
    call id and tool, "[result of call c1, read]", or "[error from call c1, read]" when is_error,
    then a new line and the result. Last, merge_runs, so that no two turns of one role meet.
    Nothing of the view is left out, and `messages` is only read."""
    ### BEGIN SOLUTION
    prompt = system + ("\n\n" + tools_prompt(tools) if tools else "")
    turns = [{"role": "system", "content": prompt}]
    for m in messages:
        if m["role"] == "toolResult":
            kind = "error from" if m.get("is_error") else "result of"
            label = f"[{kind} call {m['tool_call_id']}, {m['tool_name']}]"
            turns.append({"role": "user", "content": label + "\n" + m["content"]})
        elif m["role"] == "assistant":
            lines = [text_of(m)] if text_of(m) else []
            lines += [tool_call_line(call) for call in tool_calls(m)]
            turns.append({"role": "assistant", "content": "\n".join(lines)})
        else:
            turns.append({"role": m["role"], "content": m["content"]})
    return merge_runs(turns)
    ### END SOLUTION


def chat_request(system, messages, tools, model):
    """The body of a Chat Completions request (POST {base}/chat/completions) for `model`.

    "messages" opens with {"role": "system", "content": system}. A user message is {"role":
    "user", "content": text}. An assistant message is {"role": "assistant", "content": its text,
    or None when it only calls tools}, with, when it calls any, "tool_calls": [{"id", "type":
    "function", "function": {"name", "arguments": the arguments as a JSON string}}]. A toolResult
    is {"role": "tool", "tool_call_id", "content"}. Every id goes through portable_id. No merging:
    this format has a role for every message. "tools" is one {"type": "function", "function":
    spec} per tool spec, left out when there are none, and "stream" is False."""
    ### BEGIN SOLUTION
    sent = [{"role": "system", "content": system}]
    for m in messages:
        if m["role"] == "toolResult":
            sent.append({"role": "tool", "tool_call_id": portable_id(m["tool_call_id"]),
                         "content": m["content"]})
        elif m["role"] == "assistant":
            message = {"role": "assistant", "content": text_of(m) or None}
            calls = [{"id": portable_id(c["id"]), "type": "function",
                      "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                     for c in tool_calls(m)]
            if calls:
                message["tool_calls"] = calls
            sent.append(message)
        else:
            sent.append({"role": "user", "content": m["content"]})
    body = {"model": model, "messages": sent, "stream": False}
    if tools:
        body["tools"] = [{"type": "function", "function": dict(spec)} for spec in tools]
    return body
    ### END SOLUTION


# Phrases providers use when a request is longer than the model's context, whatever status they
# send with it (most send 400, some 413); matched in lower case. The status alone would also catch
# a malformed request, and compacting cannot cure that.
TOO_LONG = ("prompt is too long", "context length", "context_length_exceeded", "maximum context",
            "context window", "too many tokens", "request too large")
STOP_REASONS = {"stop": "stop", "tool_calls": "toolUse", "length": "length"}


def provider_error(body):
    """The provider's own message from an error body ({"error": {"message": ...}} or
    {"error": "..."} or {"message": ...}), or the body's text, cut to 200 characters."""
    try:
        data = json.loads(body)
    except ValueError:
        return " ".join(str(body).split())[:200]
    error = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(error, dict):
        error = error.get("message", error)
    return str(error)[:200]


def chat_reply(raw):
    """The assistant message, in the course's own shape, that a Chat Completions reply `raw` =
    (status, headers, body text) stands for. Never raises.

    On 200 with a readable body: the first choice's text as a text block (none when it is empty
    or null), then each of its tool calls as a toolCall block {"type", "id", "name", "arguments":
    the JSON string parsed}, in order; stop_reason from finish_reason ("tool_calls" -> "toolUse",
    "stop" -> "stop", "length" -> "length"; any other -> "toolUse" with calls, else "stop"); usage
    {"input": prompt_tokens, "cache_read": 0, "output": completion_tokens}.
    Otherwise a failed reply (error_message: stop_reason "error", empty content): when the
    provider's message says the prompt is too long, whatever the status, its error_message is
    "prompt is too long: " and that message; else "<status> from the provider: " and that
    message; a 200 that cannot be read says so."""
    ### BEGIN SOLUTION
    status, _headers, body = raw
    if status != 200:
        said = provider_error(body)
        if any(words in said.lower() for words in TOO_LONG):
            return error_message(f"prompt is too long: {said}")
        return error_message(f"{status} from the provider: {said}")
    try:
        data = json.loads(body)
        choice, content = data["choices"][0], []
        message = choice["message"]
        if message.get("content"):
            content.append({"type": "text", "text": message["content"]})
        for call in message.get("tool_calls") or []:
            arguments = json.loads(call["function"]["arguments"] or "{}")
            content.append({"type": "toolCall", "id": call["id"], "name": call["function"]["name"],
                            "arguments": arguments})
        usage = data.get("usage") or {}
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as error:
        return error_message(f"the provider's reply could not be read ({type(error).__name__}: {error})")
    calls = any(block["type"] == "toolCall" for block in content)
    stop_reason = STOP_REASONS.get(choice.get("finish_reason"), "toolUse" if calls else "stop")
    return {"role": "assistant", "content": content, "stop_reason": stop_reason,
            "usage": {"input": usage.get("prompt_tokens", 0), "cache_read": 0,
                      "output": usage.get("completion_tokens", 0)}}
    ### END SOLUTION


class ChatTemplate:
    """The adapter for a provider that renders a chat template over plain text turns and answers
    with text: the request is template_messages(...); the reply's tool-call lines become toolCall
    blocks, and the rest of its lines its text."""

    def to_request(self, system, messages, tools):
        """The turns the template is given (template_messages), remembered so that the ids of
        the reply's calls can be made from what was asked."""
        self._asked = json.dumps(template_messages(system, messages, tools))
        return json.loads(self._asked)

    def from_response(self, raw):
        """An assistant message from the generated text `raw`. A template's model writes no ids,
        so each call gets "tc_" and 12 hex digits of the SHA-256 of the request, the reply and
        the call's place in it: the same in every run, and different for every call of a
        session. A call line that is not JSON makes a failed reply."""
        content, words = [], []
        for line in str(raw).splitlines():
            found = re.fullmatch(r"\s*<tool_call>(.*)</tool_call>\s*", line)
            if not found:
                words.append(line)
                continue
            try:
                call = json.loads(found.group(1))
                name, arguments = call["name"], call.get("arguments", {})
            except (ValueError, KeyError, TypeError) as error:
                return error_message(f"the model wrote a tool call that cannot be read: {error}")
            seed = f"{getattr(self, '_asked', '')}\n{raw}\n{len(content)}".encode("utf-8")
            content.append({"type": "toolCall", "id": "tc_" + hashlib.sha256(seed).hexdigest()[:12],
                            "name": name, "arguments": arguments})
        stop_reason = "toolUse" if content else "stop"
        text = "\n".join(words).strip()
        if text:
            content.insert(0, {"type": "text", "text": text})
        return {"role": "assistant", "content": content, "stop_reason": stop_reason}


class ChatCompletions:
    """The adapter for an OpenAI-compatible Chat Completions server: chat_request out, chat_reply
    back, for the model named `model`."""

    def __init__(self, model):
        self.model = model

    def to_request(self, system, messages, tools):
        """The request's JSON body (chat_request)."""
        return chat_request(system, messages, tools, self.model)

    def from_response(self, raw):
        """The assistant message that (status, headers, body) stands for (chat_reply)."""
        return chat_reply(raw)


class AdapterModel:
    """The model the harness is handed, for any provider: `adapter` translates (to_request,
    from_response) and `send` carries, an async function from the provider's payload to its raw
    reply. The harness calls complete as it calls any model, and never learns which provider
    answered."""

    def __init__(self, adapter, send):
        self.adapter, self.send = adapter, send

    async def complete(self, system, messages, tools):
        """One request, awaited: to_request, send, from_response. Lesson 5's contract holds for a
        real provider too: what comes back is always an assistant message, and a request that
        got no reply at all (send raised ConnectionError or another OSError) is a failed reply
        saying no server answered. A cancellation is the caller's, and goes on up."""
        payload = self.adapter.to_request(system, messages, tools)
        try:
            raw = await self.send(payload)
        except OSError as error:  # ConnectionError is one; lab.stage.http.NoReply is one too
            return error_message(f"no server answered: {error or type(error).__name__}")
        return self.adapter.from_response(raw)
