"""Lesson 16's plumbing, given to the learner: one JSON POST over HTTP, awaited.

    status, headers, body = await lab.stage.http.post_json(url, payload, {"authorization": "Bearer k"})

The function never judges a reply: a 429 or a 503 comes back as a status like a 200 does, so
the adapter decides what each status means. The one exception it lets out is NoReply, for a
request that got no answer at all (no server at the URL, a connection cut, a time-out), since then
there is no status to read. NoReply is both an httpx.TransportError and a ConnectionError, so an
adapter catches it as `except ConnectionError:` without importing httpx.
"""

import functools
import ipaddress
import json
from urllib.parse import urlsplit

import httpx

DEFAULT_TIMEOUT = 60.0   # seconds; a long reply from a real model can take most of a minute


class NoReply(httpx.TransportError, ConnectionError):
    """No reply came back from the URL: no server there, a connection cut, a time-out. The
    httpx error it stands for is its __cause__."""


async def post_json(url, payload, headers=None, timeout=DEFAULT_TIMEOUT):
    """POST `payload` as JSON to `url` and return (status, headers, body_text).

    status is the int status code, headers a dict with lower-case names, body_text the reply's
    body decoded as text, whatever it holds (JSON, an HTML error page, nothing). `headers` are
    sent as given, with content-type application/json added unless one is there. Raises NoReply
    (an httpx.TransportError and a ConnectionError) when no reply came back, and TypeError,
    before anything is sent, for a payload that cannot be written as JSON.
    """
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise ValueError(f"post_json() takes a URL that starts with http:// or https://, not {url!r}.")
    if headers is not None and not isinstance(headers, dict):
        raise TypeError(f"post_json() takes the headers as a dict of name to value, not {headers!r}.")
    try:
        body = json.dumps(payload)
    except (TypeError, ValueError) as error:
        raise TypeError(f"post_json() sends JSON, and this payload cannot be written as JSON: {error}.") from None
    sent = {name.lower(): value for name, value in (headers or {}).items()}
    sent.setdefault("content-type", "application/json")
    # One client per call: nothing outlives the request, so a cell or a test leaves no open
    # connection behind; the course sends a request every few seconds at most, not hundreds.
    try:
        trust = not _is_loopback(url)
        async with httpx.AsyncClient(timeout=timeout, trust_env=trust, verify=_tls(trust)) as client:
            response = await client.post(url, content=body.encode(), headers=sent)
    except httpx.TransportError as error:
        raise NoReply(f"No reply came from {url}: {_why(error, timeout)}.") from error
    return response.status_code, {k.lower(): v for k, v in response.headers.items()}, response.text


@functools.cache
def _tls(trust_env):
    """httpx's own default TLS context, made once a process: each new one reads every certificate
    authority from disk (some 30 ms), which a client per call would pay every call."""
    return httpx.create_ssl_context(trust_env=trust_env)


def _why(error, timeout):
    """What became of a request that got no reply, in a few words."""
    if isinstance(error, httpx.TimeoutException):
        within = f"within {timeout:g} seconds" if isinstance(timeout, (int, float)) else "in time"
        return f"nothing came back {within}"
    if isinstance(error, httpx.ConnectError):
        return f"no server took the connection ({error or 'refused'})"
    return f"the connection broke off ({type(error).__name__}: {error or 'no detail'})"


def _is_loopback(url):
    """True for a URL on this machine (localhost, 127.0.0.0/8, ::1). Such a request skips the
    HTTP_PROXY of the environment: a proxy elsewhere cannot reach a server on this machine."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
