"""The `send` that lesson 16's AdapterModel is handed: one Chat Completions request over HTTP,
tried again when the provider says "not now".

    send = Transport(base_url, key, notify=print)
    status, headers, body = await send(payload)

It posts to {base_url}/chat/completions with "Authorization: Bearer <key>" (no such header when
there is no key: a local server usually wants none). A 408, 409, 425, 429 or any 5xx is tried
again, up to `tries` requests in all, after the wait the reply's retry-after (or retry-after-ms)
header asks for, else a doubling pause; the last answer is returned as it came, so the adapter
makes it a failed reply. No reply at all (lab.stage.http.NoReply, a ConnectionError) is not retried:
it goes on up, and the adapter says no server answered. The key is never in what comes back:
wherever a reply quotes it, it is cut out.
"""

import asyncio
import email.utils
import time

from lab.stage import http

RETRIED = {408, 409, 425, 429}        # and every 5xx
TRIES = 4                             # requests in all, the first included
LONGEST_WAIT = 60.0                   # seconds: a retry-after longer than this is cut to it
FIRST_PAUSE = 1.0                     # seconds before the second try when no retry-after is given


def endpoint(base_url):
    """The Chat Completions URL of `base_url` ("http://host/v1" -> "http://host/v1/chat/completions").
    A base URL that already ends in /chat/completions is taken as the endpoint itself."""
    base = base_url.rstrip("/")
    if base.endswith("/chat/completions"):
        return base
    return base + "/chat/completions"


def retry_after(headers, now=None):
    """Seconds the reply asks the client to wait, from retry-after-ms or retry-after (seconds or
    an HTTP date), or None when it asks nothing readable."""
    headers = {str(k).lower(): v for k, v in (headers or {}).items()}
    try:
        if "retry-after-ms" in headers:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
    except ValueError:
        pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class Transport:
    """An async send(payload) -> (status, headers, body) for AdapterModel; see the module.

    .last is the last (status, headers, body) received (None before any), .tries_used how many
    requests the last send made."""

    def __init__(self, base_url, key=None, *, tries=TRIES, timeout=http.DEFAULT_TIMEOUT, notify=None,
                 sleep=asyncio.sleep):
        self.url = endpoint(base_url)
        self._key = key or None
        self.tries, self.timeout = tries, timeout
        self.notify = notify or (lambda text: None)
        self.sleep = sleep
        self.last, self.tries_used = None, 0

    def __repr__(self):                      # never the key
        return f"Transport({self.url!r}, key={'set' if self._key else 'none'})"

    def headers(self):
        return {"authorization": f"Bearer {self._key}"} if self._key else {}

    def scrub(self, text):
        """`text` with the key cut out wherever it appears."""
        if self._key and isinstance(text, str):
            return text.replace(self._key, "[the key]")
        return text

    async def __call__(self, payload):
        pause = FIRST_PAUSE
        for attempt in range(1, self.tries + 1):
            self.tries_used = attempt
            status, headers, body = await http.post_json(self.url, payload, self.headers(), self.timeout)
            headers = {name: self.scrub(value) for name, value in headers.items()}
            self.last = (status, headers, self.scrub(body))
            if not (status in RETRIED or 500 <= status <= 599) or attempt == self.tries:
                return self.last
            asked = retry_after(headers)
            wait = min(LONGEST_WAIT, pause if asked is None else asked)
            pause *= 2
            self.notify(f"The server answered {status}; trying again in {wait:g} s "
                        f"(request {attempt + 1} of {self.tries}).")
            await self.sleep(wait)
        return self.last
