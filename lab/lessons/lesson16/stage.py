"""Lesson 16's props: a small project, a compacted session, the first clients anyone writes for a
template model and for an HTTP server, and the wire the lab's adapter is given.

Everything here is the stage's, not the learner's: the wall's clients are the ones the lesson
argues against, written out so that the cells can run them."""

import json

import httpx

import harness
import lab
from lab.stage import http

NOTES = "Buy milk.\nCall the bank.\n"
SUMMARY = "The user asked what notes.txt holds; it holds two errands, read out to them."


def disk():
    """The project: one file of notes."""
    ws = lab.Workspace()
    ws.write_text("notes.txt", NOTES)
    return ws


def tools(ws):
    """read and write over `ws`, as lessons 2 and 3 made them."""
    return [harness.make_read_tool(ws), harness.make_write_tool(ws)]


def task_script():
    """The scripted task: read the notes, write a copy, say so."""
    return [lab.reply(lab.text("I will read them first."), lab.call("read", {"path": "notes.txt"})),
            lab.reply(lab.call("write", {"path": "todo.txt", "content": NOTES})),
            lab.say("Copied the notes to todo.txt.")]


def session_log():
    """A session of two prompts in a real SessionLog, compacted once (lesson 12): the first prompt
    and its turn summarised, the second prompt kept. Its ids come from two providers: "call_0"
    and "toolu_01.w", which has a dot no Chat Completions server takes."""
    log = harness.SessionLog(lab.Workspace(), "session.jsonl")
    read = lab.call("read", {"path": "notes.txt"}, id="call_0")
    write = lab.call("write", {"path": "todo.txt", "content": NOTES}, id="toolu_01.w")
    for message in [lab.user("What is in notes.txt?"), lab.reply(read), lab.tool_result(read, NOTES),
                    lab.say("Two errands: milk and the bank.")]:
        log.append_message(message)
    kept = log.append_message(lab.user("Copy them to todo.txt, please."))
    for message in [lab.reply(write), lab.tool_result(write, "Wrote 2 lines to todo.txt"), lab.say("Done.")]:
        log.append_message(message)
    log.append_compaction(SUMMARY, kept)
    return log


def compacted():
    """The record the compacted session replays: the summary as a user message, then the kept
    prompt, also a user message, and the turn that answered it."""
    return session_log().replay()


def compacted_whole():
    """The same session as it was before the compaction: every message the log holds."""
    return [entry["message"] for entry in session_log().entries() if entry["type"] == "message"]


def roles(messages):
    """The roles of `messages` in one line, as lesson 10 abbreviates them."""
    short = {"user": "U", "assistant": "A", "toolResult": "T", "system": "S"}
    return " ".join(short[m["role"]] for m in messages)


class PlainTemplate:
    """The first client anyone writes for a template model: the system prompt, then each message
    with its role and its words, handed to the template as they are. Its generate() raises what
    the template raises."""

    def __init__(self, model):
        self.model = model

    async def complete(self, system, messages, tools):
        turns = [{"role": "system", "content": system}]
        for m in messages:
            words = m["content"] if isinstance(m["content"], str) else harness.text_of(m)
            turns.append({"role": m["role"], "content": words})
        text = await self.model.generate(turns)
        return harness.ChatTemplate().from_response(text)


class RaisingClient:
    """The first client anyone writes for an HTTP API, in the manner of most SDKs: post the
    request and call raise_for_status(), so a status of 400 or more is an exception."""

    def __init__(self, url, model="course-model"):
        self.url, self.model = url, model

    async def complete(self, system, messages, tools):
        body = {"model": self.model, "stream": False,
                "messages": [{"role": "system", "content": system}]
                + [{"role": m["role"], "content": m["content"]} for m in messages if m["role"] == "user"]}
        async with httpx.AsyncClient(trust_env=False) as client:
            response = await client.post(self.url + "/chat/completions", json=body)
        response.raise_for_status()
        return harness.chat_reply((response.status_code, dict(response.headers), response.text))


def sender(url, key=None):
    """The `send` an AdapterModel needs for a Chat Completions server at the base URL `url`: one
    POST of the payload, the raw (status, headers, body) back. With `key`, it goes as a bearer
    token."""
    headers = {"authorization": f"Bearer {key}"} if key else {}

    async def send(payload):
        return await http.post_json(url + "/chat/completions", payload, headers)
    return send


def free_port_url():
    """A base URL on this machine where nothing listens: a server started and stopped at once."""
    with lab.ChatServer([]) as server:
        url = server.url
    return url


def wire(payload):
    """A payload as the wire carries it: compact JSON, for a figure or a count."""
    return json.dumps(payload)
