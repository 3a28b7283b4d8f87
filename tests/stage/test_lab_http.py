"""lab.stage.http.post_json against a real server on 127.0.0.1 that this file starts and stops: every
status comes back as a status, and only a missing server raises (httpx.TransportError)."""

import asyncio
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import httpx
import pytest

from lab.stage.http import NoReply, _is_loopback, post_json


class Answers(BaseHTTPRequestHandler):
    """Answers a POST with the status, headers and body named by the request's path."""

    replies = {
        "/ok": (200, {"content-type": "application/json"}, '{"ok": true}'),
        "/busy": (429, {"retry-after": "2", "content-type": "application/json"},
                  '{"error": {"message": "slow down"}}'),
        "/down": (503, {}, "overloaded"),
        "/html": (200, {"content-type": "text/html"}, "<html>not json</html>"),
    }
    seen = []

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        Answers.seen.append((self.path, dict(self.headers.items()), self.rfile.read(length).decode()))
        status, headers, body = self.replies[self.path]
        data = body.encode()
        self.send_response_only(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass   # a passing run prints nothing on stderr


@pytest.fixture
def server():
    httpd = HTTPServer(("127.0.0.1", 0), Answers)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Answers.seen = []
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def post(*args, **kwargs):
    return asyncio.run(post_json(*args, **kwargs))


def test_a_200_comes_back_with_its_headers_and_body_and_the_payload_arrives_as_json(server):
    status, headers, body = post(server + "/ok", {"model": "m", "n": 1}, {"Authorization": "Bearer k"})
    assert (status, json.loads(body)) == (200, {"ok": True})
    assert headers["content-type"] == "application/json"
    path, sent, text = Answers.seen[0]
    assert json.loads(text) == {"model": "m", "n": 1}
    assert {k.lower(): v for k, v in sent.items()}["authorization"] == "Bearer k"
    assert {k.lower(): v for k, v in sent.items()}["content-type"] == "application/json"


@pytest.mark.parametrize("path, status", [("/busy", 429), ("/down", 503)])
def test_an_error_status_is_returned_not_raised(server, path, status):
    got, headers, body = post(server + path, {})
    assert got == status
    if status == 429:
        assert headers["retry-after"] == "2" and "slow down" in body


def test_a_body_that_is_not_json_comes_back_as_text(server):
    assert post(server + "/html", {})[::2] == (200, "<html>not json</html>")


def test_no_server_raises_a_transport_error():
    with socket.socket() as s:   # a port that was free a moment ago and has no listener
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(httpx.TransportError):
        post(f"http://127.0.0.1:{port}/ok", {})


def test_no_server_is_a_no_reply_an_adapter_catches_as_a_connection_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1/chat/completions"
    with pytest.raises(ConnectionError) as raised:   # no httpx needed to catch it
        post(url, {})
    assert isinstance(raised.value, NoReply) and isinstance(raised.value, httpx.TransportError)
    assert isinstance(raised.value, OSError) and isinstance(raised.value.__cause__, httpx.ConnectError)
    message = str(raised.value)
    assert message.startswith(f"No reply came from {url}: ") and message.endswith(".")
    assert message.count(". ") == 0   # one sentence


def test_bad_arguments_are_refused_in_a_sentence_before_anything_is_sent():
    with pytest.raises(ValueError, match="http:// or https://"):
        post("127.0.0.1:1/ok", {})
    with pytest.raises(TypeError, match="cannot be written as JSON"):
        post("http://127.0.0.1:1/ok", {"x": object()})
    with pytest.raises(TypeError, match="headers as a dict"):
        post("http://127.0.0.1:1/ok", {}, [("a", "b")])


def test_only_this_machine_skips_the_environment_proxy():
    assert _is_loopback("http://127.0.0.1:8000/v1") and _is_loopback("http://localhost/v1")
    assert _is_loopback("http://[::1]:80/")
    assert not _is_loopback("https://api.example.com/v1")
