"""What a failed reply means for the person at the keyboard, in one sentence they can act on.

The harness records a failure as a failed reply (lesson 5: stop_reason "error", the reason in
error_message) and the run ends; nothing is raised and nothing of the session is lost. Here the
reason, and the last status the transport saw, become a sentence naming what to change: the URL,
the key's variable, the model's name.
"""

import json


def provider_message(body):
    try:
        data = json.loads(body)
    except (TypeError, ValueError):
        return " ".join(str(body).split())[:200]
    error = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(error, dict):
        error = error.get("message", error)
    return str(error)[:200]


def explain(reply, last, *, url, model, key_env, has_key):
    """(sentence, fatal): what the failed reply `reply` means, and whether going on is pointless
    (no server, a refused key, an unknown model: every next prompt would fail the same way)."""
    said = reply.get("error_message", "") or "the reply failed"
    status = None
    if said.startswith("no server answered"):
        return (f"No server answered at {url}: is it running, and is --base-url right? It is the "
                "address before /chat/completions, such as http://localhost:11434/v1 "
                f"({said.split(':', 1)[1].strip().rstrip('.')}).", True)
    if last is not None and said.split(" ", 1)[0].isdigit():
        status = last[0]
    message = provider_message(last[2]) if status else said
    if status in (401, 403):
        if has_key:
            return (f"The server refused the key in ${key_env} ({status}): check that it holds a "
                    "key for this provider, or name another variable with --api-key-env.", True)
        return (f"The server wants a key ({status}) and ${key_env} is not set: export it, or "
                "name the variable that holds your key with --api-key-env.", True)
    if status == 404:
        if "model" in message.lower():
            return (f"The server does not know the model {model!r} (404: {message.rstrip('.')}): "
                    "pass a name it lists with --model.", True)
        return (f"Nothing answers Chat Completions at {url} (404: {message.rstrip('.')}): check "
                "--base-url; it usually ends in /v1.", True)
    if status in (429,):
        return (f"The server is still limiting requests after several tries (429: "
                f"{message.rstrip('.')}): wait a while, then ask again.", False)
    if status is not None and status >= 500:
        return (f"The server failed ({status}: {message.rstrip('.')}) after several tries; "
                "the session is saved, so ask again later.", False)
    if said.startswith("the provider's reply could not be read"):
        return (f"The reply from {url} is not a Chat Completions reply the adapter can read "
                f"({said.split('(', 1)[-1].rstrip(')')}): is --base-url a Chat Completions "
                "server?", False)
    if said.startswith("prompt is too long"):
        return (f"The conversation is longer than the model's context ({said}): lower "
                "--context-window so compaction starts sooner, or start a new session.", False)
    if said.startswith("Agent stopped after max_turns"):
        return (f"The run stopped after --max-turns model calls ({said}); ask again to go on.", False)
    return (f"The run failed: {said.rstrip('.')}.", False)
