"""ChatServer: an OpenAI-style Chat Completions server on this machine, answering from a script.

    with lab.ChatServer([lab.reply(lab.call("read", {"path": "a.txt"})), lab.say("Done.")]) as server:
        status, headers, body = await lab.stage.http.post_json(server.url + "/chat/completions", payload)
    server.problems   # [] when every request was well formed

The contract:

- It listens on 127.0.0.1, on a free port the system picks; `server.url` is
  "http://127.0.0.1:PORT/v1". It answers POST {url}/chat/completions; any other method or path
  gets 404 with the error OpenAI gives for one, "Invalid URL (GET /v1/models)" [general].
- Each request is judged in this order, and the first verdict answers it: with `keys`, an
  Authorization header "Bearer K" for a K in keys, else 401; a body that is JSON, not a stream,
  and a valid `CompletionCreateParamsNonStreaming` of the `openai` package, with no key that type
  does not know, and every tool message answering a call of the assistant message just before
  it, as OpenAI requires [general], else 400; the server's model name, else 404 "The model `X`
  does not exist or you do not have access to it." (OpenAI's words [general]). Only then is a
  script step used.
- The script is a list of steps, one used per request that got that far, in order. A course
  assistant message (lab.say, lab.reply(...)) is answered 200 with a ChatCompletion body, built
  through the `openai` package's response model so that the shape is the package's: the text as
  `content` (null when the reply only calls tools, as OpenAI sends it [general]), each call as a
  tool call of type "function" whose `arguments` are a JSON string, a call without an id given
  "call_1", "call_2", ... counted per server; `finish_reason` "tool_calls" or "stop"; `usage`
  counted as the lab counts tokens (count_tokens: four characters a token) over the request's
  JSON and over the reply's content. A status step, lab.answer_status(...), is answered with its
  status, headers and body. A request after the last step is answered 500, saying the script ran
  out.
- Every error body the server writes is {"error": {"message", "type", "param", "code"}}, the
  shape OpenAI's errors have [general]; a status step may give a raw body instead.
- `server.problems` holds one sentence for each request the server had to refuse because of how
  the client built it (400, 404 for a path) or because the script ran out (500): a test asserts
  `server.problems == []`. A 401 under `keys` and a 404 for an unknown model are answers the test
  set up, not problems, so they are in the exchanges only.
- `server.exchanges` keeps an Exchange(request, status, headers, body) per request, in the order
  they arrived: the request body as parsed JSON (its text when it was not JSON), the status, the
  response's headers with lower-case names (content-length and connection left out, as HTTP's
  own), the response body as parsed JSON (a status step's raw body as its text). `server.requests` is the request bodies alone.
- Deterministic, so a notebook's saved output is the same every run: ids "chatcmpl-1", ... per
  server, `created` fixed at CREATED, no Date or Server header.
- It prints nothing (no access log on stderr), and `stop()` (or leaving the `with`) shuts it down
  and joins its thread: no thread is left running and the port is free again.

Our simplification: replies are whole, never streamed; a request with "stream": true is refused
400. Real Chat Completions clients usually stream, as server-sent events [general], but streaming
changes how a reply arrives, not what an adapter translates.

Our simplification: one request at a time, in the order they arrive; a real provider answers
many at once.
"""

import json
import socketserver
import sys
import threading
from collections import namedtuple
from http.server import BaseHTTPRequestHandler, HTTPServer

from .chat_requests import oracle, request_problem
from .display import count_tokens

CREATED = 1767225600   # 2026-01-01 00:00:00 UTC: a fixed `created`, so saved outputs never change
PATH = "/v1/chat/completions"

Exchange = namedtuple("Exchange", "request status headers body")


class StatusStep:
    """A ChatServer script step made by answer_status(): the status, headers and body to send."""

    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def __repr__(self):
        return f"answer_status({self.status})"


def answer_status(code, message=None, *, headers=None, body=None, error_type=None, error_code=None):
    """A ChatServer script step: answer the request that uses it with the HTTP status `code`.

    The body is OpenAI's error shape, {"error": {"message": message, "type": ..., "param": None,
    "code": ...}}; the type is `error_type`, or by default "requests" for 429 (with code
    "rate_limit_exceeded"), "server_error" for a 5xx and "invalid_request_error" for the rest,
    as OpenAI's are [general]. `body` (a string) is sent instead, as it is, for the replies that
    are not that shape: a proxy's HTML page, a 200 that is not JSON. `headers` are sent as given,
    e.g. {"retry-after": "2"}; content-type is added unless there is one.

        lab.answer_status(429, "Rate limit reached.", headers={"retry-after": "2"})
        lab.answer_status(400, "This model's maximum context length is 128000 tokens ...",
                          error_code="context_length_exceeded")
        lab.answer_status(200, body="<html>Bad gateway</html>")
    """
    if isinstance(code, bool) or not isinstance(code, int) or not 200 <= code <= 599:
        raise ValueError(f"answer_status() takes an HTTP status from 200 to 599, not {code!r}.")
    if headers is not None and not isinstance(headers, dict):
        raise TypeError(f"answer_status() takes the headers as a dict of name to value, not {headers!r}.")
    sent = {str(name).lower(): str(value) for name, value in (headers or {}).items()}
    if body is not None:
        if not isinstance(body, str):
            raise TypeError(f"answer_status() takes the raw body as a string, not {type(body).__name__}.")
        sent.setdefault("content-type", "text/plain; charset=utf-8")
        return StatusStep(code, sent, body)
    if code == 200:
        raise ValueError("answer_status(200) needs body=...: a well-formed 200 is a script step "
                         "of its own, an assistant message such as lab.say('...').")
    if not isinstance(message, str):
        raise TypeError(f"answer_status({code}) takes the error's message as a string, not {message!r}.")
    default_type, default_code = _error_kind(code)
    sent.setdefault("content-type", "application/json")
    return StatusStep(code, sent, _error(message, error_type or default_type,
                                         error_code if error_code is not None else default_code))


def _error_kind(status):
    """The error type and code OpenAI gives a status by default [general]."""
    if status == 429:
        return "requests", "rate_limit_exceeded"
    if status >= 500:
        return "server_error", None
    return "invalid_request_error", None


def _error(message, type="invalid_request_error", code=None, param=None):
    return {"error": {"message": message, "type": type, "param": param, "code": code}}


def _checked_script(script):
    """The script as a list, each step refused in a sentence unless the server can send it."""
    if isinstance(script, dict) or not isinstance(script, (list, tuple)):
        raise TypeError("ChatServer() takes a list of script steps, e.g. [lab.say('Hi.')].")
    for n, step in enumerate(script):
        if isinstance(step, StatusStep):
            continue
        if not isinstance(step, dict) or step.get("role") != "assistant" \
                or not isinstance(step.get("content"), list):
            raise TypeError(f"Script step {n} is {step!r}; a ChatServer step is an assistant "
                            "message (lab.say(), lab.reply()) or lab.answer_status(...).")
        if step.get("stop_reason") == "error":
            # On the wire a failed reply is a status, never a 200 that says it failed.
            raise ValueError(f"Script step {n} is a failed reply; over HTTP a failure is a status: "
                             "write it as lab.answer_status(503, '...') or the like.")
    return list(script)


class ChatServer:
    """An OpenAI-style Chat Completions server on 127.0.0.1 that answers from `script`.

    ChatServer(script, model="course-model", keys=None)

    script   a list of steps, one per accepted request: an assistant message (lab.say(),
             lab.reply(...)) is answered 200 with a ChatCompletion; lab.answer_status(...) with
             that status.
    model    the one model name the server knows; any other gets 404.
    keys     None (no key asked for), or the API keys it accepts as "Authorization: Bearer K".

    Use it as `with ChatServer(...) as server:` or call start() and stop(). .url is the base URL,
    "http://127.0.0.1:PORT/v1"; .exchanges, .requests and .problems are described in the module's
    docstring. The server is not streaming (Our simplification: see the module).
    """

    def __init__(self, script, model="course-model", keys=None):
        if not isinstance(model, str) or not model:
            raise TypeError(f"ChatServer() takes the model's name as a non-empty string, not {model!r}.")
        if isinstance(keys, str):
            raise TypeError("ChatServer() takes keys as a list of strings; wrap the one key in [ ].")
        if keys is not None and not all(isinstance(k, str) and k for k in keys):
            raise TypeError(f"ChatServer() takes keys as a list of non-empty strings, not {keys!r}.")
        self.script = _checked_script(script)
        self.model = model
        self.keys = None if keys is None else list(keys)
        self.exchanges = []
        self.problems = []
        self._next_step = 0
        self._replies = 0
        self._calls = 0
        self._httpd = self._thread = None

    def __repr__(self):
        where = self.url if self._httpd else "stopped"
        return f"ChatServer({len(self.script)} steps, {len(self.exchanges)} requests, {where})"

    @property
    def url(self):
        if self._httpd is None:
            raise RuntimeError("The ChatServer is not running: start it first (with ... as server:).")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def requests(self):
        """The request bodies alone, in the order they arrived."""
        return [exchange.request for exchange in self.exchanges]

    def start(self):
        """Listen on a free port of 127.0.0.1 and answer in a thread of its own. Returns self."""
        if self._httpd is not None:
            raise RuntimeError("This ChatServer is already running.")
        oracle()   # the openai package loads now, not inside the first request
        self._httpd = _Listener(("127.0.0.1", 0), _Handler, self)
        # stop() waits for the thread to look up from its poll: a test that starts and stops a
        # server each time would otherwise wait some 25 ms a server, doing nothing
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="lab.ChatServer",
                                        kwargs={"poll_interval": 0.005}, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        """Stop answering, close the port and join the thread. Stopping twice is harmless."""
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()
        self._httpd = self._thread = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def answer(self, method, path, headers, raw):
        """The (status, headers, body) for one request, recorded in .exchanges and, when the
        client is at fault or the script ran out, in .problems."""
        request = _parsed(raw)
        status, body, problem = self._verdict(method, path, headers, raw, request)
        if problem:
            self.problems.append(problem)
        if isinstance(body, StatusStep):
            sent_headers, sent_body, status = dict(body.headers), body.body, body.status
        else:
            sent_headers, sent_body = {"content-type": "application/json"}, body
        self.exchanges.append(Exchange(request, status, sent_headers, sent_body))
        text = sent_body if isinstance(sent_body, str) else json.dumps(sent_body)
        return status, sent_headers, text

    def _verdict(self, method, path, headers, raw, request):
        """(status, body or StatusStep, problem sentence or None) for one request."""
        if method != "POST" or path.split("?")[0] != PATH:
            message = f"Invalid URL ({method} {path})"
            return 404, _error(message), f"A request went to {method} {path}; the server answers only POST {PATH}."
        refused = self._unauthorized(headers.get("authorization"))
        if refused:
            return 401, refused, None
        problem = request_problem(raw, request)
        if problem:
            return 400, _error(problem), problem
        if request["model"] != self.model:
            return 404, _error(f"The model `{request['model']}` does not exist or you do not have "
                               "access to it.", code="model_not_found"), None
        if self._next_step >= len(self.script):
            problem = (f"The ChatServer's script ran out: request {len(self.exchanges) + 1} came after "
                       f"its {len(self.script)} steps were used; add steps to the script.")
            return 500, _error(problem, "server_error"), problem
        step = self.script[self._next_step]
        self._next_step += 1
        if isinstance(step, StatusStep):
            return step.status, step, None
        return 200, self._completion(request, step), None

    def _unauthorized(self, authorization):
        """The 401 body for a missing or wrong key, or None when the key is right or none is asked."""
        if self.keys is None:
            return None
        if not authorization or not authorization.startswith("Bearer "):
            return _error("You didn't provide an API key. You need to provide your API key in an "
                          "Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).")
        key = authorization[len("Bearer "):].strip()
        if key not in self.keys:
            shown = key[:3] + "*" * max(0, len(key) - 7) + key[-4:] if len(key) > 8 else "*" * len(key)
            return _error(f"Incorrect API key provided: {shown}.", code="invalid_api_key")
        return None

    def _completion(self, request, step):
        """The ChatCompletion body answering `request` with the course assistant message `step`."""
        self._replies += 1
        message = self._message(step)
        content = json.dumps([message.get("content"), message.get("tool_calls")])
        prompt, completion = count_tokens(json.dumps(request)), count_tokens(content)
        return oracle().completion({
            "id": f"chatcmpl-{self._replies}", "object": "chat.completion", "created": CREATED,
            "model": self.model,
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": "tool_calls" if "tool_calls" in message else "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion},
        })

    def _message(self, step):
        """The Chat Completions message for a course assistant message: text, then its calls."""
        text = "".join(b["text"] for b in step["content"] if b.get("type") == "text")
        calls = []
        for block in step["content"]:
            if block.get("type") != "toolCall":
                continue
            if block.get("id") is None:
                self._calls += 1
            call_id = block.get("id") or f"call_{self._calls}"
            calls.append({"id": call_id, "type": "function",
                          "function": {"name": block["name"], "arguments": json.dumps(block["arguments"])}})
        message = {"role": "assistant", "content": text if text or not calls else None,
                   "refusal": None, "annotations": []}
        if calls:
            message["tool_calls"] = calls
        return message


def _parsed(raw):
    """The request body as JSON, or its text when it is not JSON."""
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


class _Listener(HTTPServer):
    """The HTTP server of one ChatServer: it knows its ChatServer and writes nothing to stderr."""

    def __init__(self, address, handler, chat):
        self.chat = chat
        super().__init__(address, handler)

    def server_bind(self):
        # HTTPServer's own asks the resolver for this host's full name, which can take seconds on
        # a machine with a slow DNS; the name is never used here.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address):
        # socketserver would print the traceback on stderr; a broken exchange is a problem instead.
        error = sys.exc_info()[1]
        self.chat.problems.append(f"The server failed while answering a request: {error!r}.")


class _Handler(BaseHTTPRequestHandler):
    """Reads one request, asks the ChatServer for the answer, and writes it."""

    timeout = 10   # seconds; one client that connects and sends nothing must not hold the server for ever

    def _serve(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {name.lower(): value for name, value in self.headers.items()}
        status, sent, text = self.server.chat.answer(self.command, self.path, headers, raw)
        data = text.encode()
        # send_response_only: no Date or Server header, so the saved exchanges never change.
        self.send_response_only(status)
        for name, value in sent.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(data)

    do_POST = do_GET = do_PUT = do_PATCH = do_DELETE = _serve

    def log_message(self, *args):
        pass   # an access log on stderr would end up in every cell's output
