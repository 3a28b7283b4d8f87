"""The lab tests of lesson 16, "Lost in translation": portable_id, merge_runs and
template_messages (lab 1), chat_request and chat_reply (lab 2).

Lab 1's tests are pure: each view is also rendered by the stage's chat template (jinja2's sandbox),
which refuses what a real template would. Lab 2's run against lab.ChatServer on 127.0.0.1, on a
real event loop of their own (asyncio.run: the virtual loop has no sockets), and every one of them
asks the server whether each request was well formed (server.problems == []). The visible tests
are the lesson's list, one for each wrong idea a rung argues against; the hidden ones hold each
contract to the clauses the visible ones leave."""

import asyncio
import copy
import hashlib
import json

import harness
import lab
from lab.stage.chat_requests import oracle
from lab.checks import Failed, blame, expect, test
from lab.lessons.lesson16 import stage


def warm():
    """What every grading of this lesson does first, the same way each time, done once by the
    autograder before it forks a process a submission: the servers judge requests by the openai
    package's types, which take most of a second to import."""
    oracle()


MODEL = "course-model"
LEFT = lab.harness_at(15)   # the loop the adapters are handed to: lesson 15's, async


def rendered(turns, name="template_messages"):
    """The prompt the stage's template makes of `turns`, or a sentence naming `name`."""
    try:
        return lab.TemplateModel([]).render(turns)
    except Exception as error:
        raise Failed(f"{name} gave turns the chat template refuses: {error}") from None


def turns_of(ns, system, messages, tools=()):
    turns = blame("template_messages", ns.template_messages, system, messages, list(tools))
    expect(isinstance(turns, list) and all(isinstance(t, dict) and isinstance(t.get("content"), str)
                                           for t in turns),
           "template_messages should return a list of {\"role\", \"content\": text} dicts.")
    return turns


def hashed(call_id):
    return "tc_" + hashlib.sha256(call_id.encode("utf-8")).hexdigest()[:40]


def steered():
    """A record whose last turn is a prompt with steering joined to it (lesson 9): U U."""
    call = lab.call("read", {"path": "notes.txt"}, id="c1")
    return [lab.user("What is in notes.txt?"), lab.reply(call), lab.tool_result(call, stage.NOTES),
            lab.say("Two errands."), lab.user("Copy them to todo.txt."), lab.user("Use tabs, not spaces.")]


class Chat:
    """A Chat Completions adapter made of the learner's chat_request and chat_reply."""

    def __init__(self, ns, model=MODEL):
        self.ns, self.model = ns, model

    def to_request(self, system, messages, tools):
        payload = blame("chat_request", self.ns.chat_request, system, list(messages), tools, self.model)
        expect(isinstance(payload, dict), "chat_request should return the request's body as a dict.")
        return payload

    def from_response(self, raw):
        reply = blame("chat_reply", self.ns.chat_reply, raw)
        expect(isinstance(reply, dict) and reply.get("role") == "assistant"
               and isinstance(reply.get("content"), list),
               f"chat_reply should return an assistant message, not {str(reply)[:80]}.")
        return reply


class Template(harness.ChatTemplate):
    """The chat-template adapter with the learner's template_messages in it."""

    def __init__(self, ns):
        self.ns = ns

    def to_request(self, system, messages, tools):
        turns = turns_of(self.ns, system, list(messages), tools)
        self._asked = json.dumps(turns)
        return turns


async def run(model, prompt, messages=None, tools=None):
    """(record, events) of one run of lesson 15's loop with `model`."""
    record = [] if messages is None else messages
    events = [e async for e in LEFT.run_agent(model, harness.SYSTEM, record,
                                              [] if tools is None else tools, prompt)]
    return record, events


def served(ns, script, prompt="Copy my notes to todo.txt.", url=None, ws=None):
    """Run `prompt` against a ChatServer with `script` (or against `url`, where no server is):
    (record, events, server or None)."""
    ws = ws or stage.disk()

    async def main():
        if url:
            model = harness.AdapterModel(Chat(ns), stage.sender(url))
            return (*await run(model, prompt, tools=stage.tools(ws)), None)
        with lab.ChatServer(script) as server:
            model = harness.AdapterModel(Chat(ns), stage.sender(server.url))
            return (*await run(model, prompt, tools=stage.tools(ws)), server)
    return asyncio.run(main())


def well_formed(server):
    if server.problems:
        raise Failed(f"chat_request built a request the server refused: {server.problems[0]}")


# -- lab 1: portable_id, merge_runs, template_messages --------------------------------------------

@test(16, 1, "A compacted session's view (the summary, then the kept prompt: U U) goes through "
             "template_messages and renders with no error, the two texts in one user turn, and the "
             "record is left exactly as it was.")
def compacted_view_renders_and_the_record_stays(ns):
    record = stage.compacted()
    before = copy.deepcopy(record)
    turns = turns_of(ns, harness.SYSTEM, record)
    expect(record == before and len(record) == len(before),
           "template_messages changed the record it was handed; merge a copy (the view), never the "
           "messages themselves.")
    rendered(turns)
    first = [t for t in turns if t["role"] != "system"][0]
    expect(first["role"] == "user" and harness.SUMMARY_PREFIX.strip() in first["content"]
           and "Copy them to todo.txt, please." in first["content"],
           "template_messages should join the summary and the kept prompt into one user turn.")


@test(16, 1, "A prompt with steering joined to it renders; a toolResult becomes user text labelled "
             "with its call id and tool name, \"[result of call c1, read]\", the result on the next "
             "line, and an error result's label says \"error\".")
def results_are_labelled_user_text(ns):
    record = steered()
    turns = turns_of(ns, harness.SYSTEM, record)
    rendered(turns)
    expect(any("[result of call c1, read]" in t["content"] for t in turns if t["role"] == "user"),
           "template_messages should send each toolResult as user text labelled \"[result of call "
           "c1, read]\"; the model must see which call it answers.")
    failing = [lab.user("Read x."), lab.reply(lab.call("read", {"path": "x"}, id="c9")),
               lab.tool_result(lab.call("read", {"path": "x"}, id="c9"), "No such file: x", is_error=True)]
    turns = turns_of(ns, harness.SYSTEM, failing)
    expect(any("[error from call c9, read]" in t["content"] for t in turns),
           "template_messages should label a failed result \"[error from call c9, read]\".")
    expect(any("[error from call c9, read]\nNo such file: x" in t["content"] for t in turns),
           "template_messages should put a result on a new line after its label, so that the "
           "label stands alone.")


@test(16, 1, "Nothing of the view is lost: every message's text, each tool call's line and each "
             "result appear in the rendered prompt, in the record's order.")
def nothing_is_lost(ns):
    record = steered()
    prompt = rendered(turns_of(ns, harness.SYSTEM, record))
    pieces = []
    for m in record:
        if m["role"] == "assistant":
            pieces += [harness.text_of(m)] if harness.text_of(m) else []
            pieces += [harness.tool_call_line(c) for c in harness.tool_calls(m)]
        else:
            pieces.append(m["content"])
    at = 0
    for piece in pieces:
        found = prompt.find(piece, at)
        expect(found >= 0, f"template_messages lost {piece[:40]!r}, or moved it out of order; every "
                           "message of the view must reach the template.")
        at = found + len(piece)


@test(16, 1, "portable_id keeps \"c1\" and \"call_0\", hashes \"a.b\" and \"a_b\" apart, gives the "
             "same id on every call (and the one another process would give), and every id it "
             "returns fits PORTABLE_ID.")
def ids_are_portable_and_stable(ns):
    for kept in ("c1", "call_0", "toolu_01A-x"):
        got = blame("portable_id", ns.portable_id, kept)
        expect(got == kept, f"portable_id changed {kept!r} into {got!r}; an id that fits goes out as it is.")
    first, again = (blame("portable_id", ns.portable_id, "a.b") for _ in range(2))
    expect(first == again, f"portable_id gave \"a.b\" two ids, {first!r} then {again!r}; a call and its "
                           "result must get the same one in every request.")
    other = blame("portable_id", ns.portable_id, "a_b")
    expect(first != other, f"portable_id gave \"a.b\" and \"a_b\" the same id, {first!r}: two calls "
                           "would become one.")
    expect(first == hashed("a.b"), f"portable_id gave \"a.b\" {first!r}; another process must give the "
                                   "same, so use \"tc_\" and SHA-256's first 40 hex digits.")
    for odd in ("a.b", "x" * 80, "call:1", "ид"):
        got = blame("portable_id", ns.portable_id, odd)
        expect(isinstance(got, str) and harness.PORTABLE_ID.fullmatch(got),
               f"portable_id gave {got!r} for {odd!r}, which PORTABLE_ID does not match.")


@test(16, 1, "merge_runs joins each run of one role with a blank line, in a new list of new dicts, "
             "and leaves the turns it was given as they were.")
def merge_runs_builds_a_new_list(ns):
    turns = [{"role": "user", "content": "one"}, {"role": "user", "content": "two"},
             {"role": "assistant", "content": "three"}, {"role": "user", "content": "four"}]
    before = copy.deepcopy(turns)
    merged = blame("merge_runs", ns.merge_runs, turns)
    expect(turns == before, "merge_runs changed the turns it was given; build new dicts, since the "
                            "turns may be the record itself.")
    expect(merged == [{"role": "user", "content": "one\n\ntwo"}, {"role": "assistant", "content": "three"},
                      {"role": "user", "content": "four"}],
           f"merge_runs gave {merged!r}; each run of one role becomes one turn, texts joined by a blank line.")


@test(16, 1, "Three user messages in a row become one turn; an assistant message with text and two "
             "calls is its text, then both call lines, in order.", hidden=True)
def three_users_and_two_calls(ns):
    merged = blame("merge_runs", ns.merge_runs, [{"role": "user", "content": w} for w in "abc"])
    expect(merged == [{"role": "user", "content": "a\n\nb\n\nc"}],
           f"merge_runs gave {merged!r} for three user turns in a row.")
    calls = [lab.call("read", {"path": "a"}, id="c1"), lab.call("read", {"path": "b"}, id="c2")]
    record = [lab.user("Read a and b."), lab.reply(lab.text("Both, then."), *calls)]
    turns = turns_of(ns, harness.SYSTEM, record)
    rendered(turns)
    expected = "\n".join(["Both, then."] + [harness.tool_call_line(c) for c in calls])
    expect(turns[-1] == {"role": "assistant", "content": expected},
           f"template_messages wrote the assistant turn as {turns[-1]!r}.")


@test(16, 1, "portable_id hashes an id that is too long, holds a character outside the alphabet, or "
             "is empty, as \"tc_\" and the first 40 hex digits of its SHA-256.", hidden=True)
def odd_ids_are_hashed(ns):
    for odd in ("x" * 65, "ид", "", "a b"):
        got = blame("portable_id", ns.portable_id, odd)
        expect(got == hashed(odd), f"portable_id gave {got!r} for {odd!r}; expected {hashed(odd)!r}.")
    expect(blame("portable_id", ns.portable_id, "y" * 64) == "y" * 64,
           "portable_id hashed a 64-character id; PORTABLE_ID allows 64.")


@test(16, 1, "The system turn is the system prompt alone with no tools, and with tools it goes on "
             "after a blank line with tools_prompt(tools).", hidden=True)
def the_system_turn(ns):
    turns = turns_of(ns, "Be brief.", [lab.user("Hi.")])
    expect(turns[0] == {"role": "system", "content": "Be brief."},
           f"template_messages' system turn, with no tools, was {turns[0]!r}.")
    specs = harness.tool_specs(stage.tools(stage.disk()))
    turns = turns_of(ns, "Be brief.", [lab.user("Hi.")], specs)
    expect(turns[0] == {"role": "system", "content": "Be brief.\n\n" + harness.tools_prompt(specs)},
           "template_messages should write the tools into the system turn, after a blank line, "
           "with tools_prompt(tools).")


# -- lab 2: chat_request, chat_reply --------------------------------------------------------------

@test(16, 2, "Against a ChatServer, the task (read, write, answer) runs end to end over HTTP: every "
             "request is one the openai package's types accept and carries the tools, the file is "
             "written, and the record holds the calls with their parsed arguments.")
def a_whole_task_over_http(ns):
    ws = stage.disk()
    record, events, server = served(ns, stage.task_script(), ws=ws)
    well_formed(server)
    # the scripted server calls tools whatever it is sent; a real model calls only those it is shown
    want = [{"type": "function", "function": dict(spec)} for spec in harness.tool_specs(stage.tools(ws))]
    expect(all(request.get("tools") == want for request in server.requests),
           "chat_request should send the tools in every request, one {\"type\": \"function\", "
           "\"function\": spec} for each tool spec: a model sent none can call none.")
    expect(events[-1]["type"] == "agent_end", "the run did not end with agent_end.")
    expect(len(server.exchanges) == 3 and ws.exists("todo.txt") and ws.read_text("todo.txt") == stage.NOTES,
           f"the task should take 3 requests and write todo.txt; it took {len(server.exchanges)}.")
    calls = [c for m in record if m["role"] == "assistant" for c in harness.tool_calls(m)]
    expect([(c["name"], c["arguments"]) for c in calls]
           == [("read", {"path": "notes.txt"}), ("write", {"path": "todo.txt", "content": stage.NOTES})],
           "chat_reply should give each tool call its name and its arguments parsed from the JSON string.")
    last = server.requests[-1]["messages"]
    expect([m["role"] for m in last] == ["system", "user", "assistant", "tool", "assistant", "tool"],
           f"chat_request sent the roles {[m['role'] for m in last]}; expected system, user, "
           "assistant, tool, assistant, tool.")


@test(16, 2, "A resumed, compacted session sends the same ids for the same call and its result as "
             "the request before the compaction did (and as any other process would).")
def ids_survive_a_resume(ns):
    record, whole = stage.compacted(), stage.compacted_whole()
    before = Chat(ns).to_request(harness.SYSTEM, whole, [])
    after = Chat(ns).to_request(harness.SYSTEM, record, [])
    want = hashed("toolu_01.w")

    def write_ids(payload):
        calls = [c["id"] for m in payload["messages"] for c in m.get("tool_calls") or []
                 if c["function"]["name"] == "write"]
        results = [m["tool_call_id"] for m in payload["messages"] if m["role"] == "tool"
                   and m["content"].startswith("Wrote")]
        return calls + results
    expect(write_ids(before) == [want, want] and write_ids(after) == [want, want],
           f"chat_request sent the write call's id as {write_ids(before)} before the compaction and "
           f"{write_ids(after)} after; the same call needs the same id in every request: "
           "portable_id of its own id.")

    async def main():
        with lab.ChatServer([lab.say("Fine.")]) as server:
            model = harness.AdapterModel(Chat(ns), stage.sender(server.url))
            await run(model, "And now?", messages=list(record))
            return server
    well_formed(asyncio.run(main()))


@test(16, 2, "A 429, a 503, a 401 and no server at all each end the run with a failed reply whose "
             "error_message names the status (or says no server answered), and agent_end comes.")
def failures_come_back_as_messages(ns):
    cases = [(lab.answer_status(429, "Rate limit reached.", headers={"retry-after": "2"}), "429",
              "Rate limit reached."),
             (lab.answer_status(503, "The server is overloaded."), "503", "The server is overloaded."),
             (lab.answer_status(401, "Incorrect API key provided."), "401", "Incorrect API key provided.")]
    for step, status, said in cases:
        record, events, server = served(ns, [step])
        well_formed(server)
        last = record[-1]
        expect(events[-1]["type"] == "agent_end" and last.get("stop_reason") == "error",
               f"chat_reply let a {status} end the run without a failed reply.")
        expect(status in last.get("error_message", "") and last.get("content") == [],
               f"chat_reply's failed reply for a {status} should name the status and hold no "
               f"content; its error_message was {last.get('error_message')!r}.")
        expect("overloaded" in last["error_message"] or status != "503",
               "chat_reply should carry the provider's own message in error_message.")
        expect(last["error_message"] == f"{status} from the provider: {said}",
               f"chat_reply's error_message for a {status} was {last['error_message']!r}; it should "
               f"be \"{status} from the provider: \" and the provider's own message.")
    record, events, _ = served(ns, [], url=stage.free_port_url())
    expect(events[-1]["type"] == "agent_end" and record[-1].get("stop_reason") == "error",
           "with no server at the URL, the run should end with a failed reply and agent_end.")


@test(16, 2, "A 400 whose words say the prompt is too long gives \"prompt is too long: ...\", so does "
             "a 413 saying so; a 400 for a bad tool schema is not taken for one.")
def too_long_is_known_by_its_words(ns):
    too_long = (400, {}, json.dumps({"error": {"message": "This model's maximum context length is "
                                                "8192 tokens. However, your messages resulted in "
                                                "9001 tokens.", "code": "context_length_exceeded"}}))
    reply = Chat(ns).from_response(too_long)
    expect(reply.get("stop_reason") == "error" and reply.get("error_message", "").startswith("prompt is too long"),
           f"chat_reply did not recognise a context-length 400; its error_message was {reply.get('error_message')!r}.")
    big = (413, {}, json.dumps({"error": {"message": "Prompt is too long: 210000 tokens > 200000 maximum"}}))
    reply = Chat(ns).from_response(big)
    expect(reply.get("error_message", "").startswith("prompt is too long"),
           "chat_reply missed a 413 that says the prompt is too long; know it by the words.")
    schema = (400, {}, json.dumps({"error": {"message": "Invalid schema for function 'read': "
                                              "'object' is not of type 'array'."}}))
    reply = Chat(ns).from_response(schema)
    message = reply.get("error_message", "")
    expect(reply.get("stop_reason") == "error" and not message.startswith("prompt is too long")
           and "400" in message,
           f"chat_reply took a 400 for a bad tool schema for \"prompt is too long\" ({message!r}); a "
           "compaction cannot fix a bug, so know the refusal by its words, not its status.")


@test(16, 2, "A reply with two tool calls gives two toolCall blocks in order, their arguments "
             "parsed from the JSON strings, and stop_reason \"toolUse\"; usage comes from the reply.")
def two_calls_in_order(ns):
    script = [lab.reply(lab.call("read", {"path": "a"}), lab.call("read", {"path": "b"})), lab.say("Read.")]

    async def main():
        with lab.ChatServer(script) as server:
            send = stage.sender(server.url)
            payload = Chat(ns).to_request(harness.SYSTEM, [lab.user("Read a and b.")], [])
            raw = await send(payload)
            return server, Chat(ns).from_response(raw)
    server, reply = asyncio.run(main())
    well_formed(server)
    calls = [b for b in reply["content"] if b.get("type") == "toolCall"]
    expect([(c.get("id"), c.get("arguments")) for c in calls] == [("call_1", {"path": "a"}), ("call_2", {"path": "b"})],
           f"chat_reply gave the calls {calls!r}; expected call_1 with {{'path': 'a'}}, then call_2 with {{'path': 'b'}}.")
    expect(reply.get("stop_reason") == "toolUse", f"chat_reply's stop_reason was {reply.get('stop_reason')!r}, not \"toolUse\".")
    usage = json.loads(server.exchanges[0].body if isinstance(server.exchanges[0].body, str)
                       else json.dumps(server.exchanges[0].body))["usage"]
    expect(reply.get("usage", {}).get("input") == usage["prompt_tokens"]
           and reply["usage"].get("output") == usage["completion_tokens"],
           "chat_reply should give usage input from prompt_tokens and output from completion_tokens.")
    expect(reply["usage"].get("cache_read") == 0,
           f"chat_reply's usage should hold cache_read 0 (this format reports no cache reads); it "
           f"was {reply['usage']!r}.")


@test(16, 2, "Both adapters pass the same end-to-end run: the scripted task gives the same record "
             "(roles, texts, calls and results) over HTTP as through the given ChatTemplate.")
def both_adapters_agree(ns):
    http_record, _, server = served(ns, stage.task_script())
    well_formed(server)
    ws, model = stage.disk(), lab.TemplateModel(stage.task_script())

    async def main():
        return await run(harness.AdapterModel(harness.ChatTemplate(), model.generate), "Copy my notes to todo.txt.",
                         tools=stage.tools(ws))
    template_record, _ = asyncio.run(main())

    def plain(record):
        return [(m["role"], harness.text_of(m) if m["role"] == "assistant" else m["content"],
                 [(c["name"], c["arguments"]) for c in harness.tool_calls(m)] if m["role"] == "assistant" else [])
                for m in record]
    expect(plain(http_record) == plain(template_record),
           "the same task gave two records: chat_request or chat_reply translate it otherwise than "
           "template_messages does.")


@test(16, 2, "A 200 whose body is not JSON, or has no choices, is a failed reply saying so, never an "
             "exception.", hidden=True)
def unreadable_200(ns):
    for body in ("<html>Bad gateway</html>", json.dumps({"choices": []}), ""):
        reply = Chat(ns).from_response((200, {}, body))
        expect(reply.get("stop_reason") == "error" and reply.get("content") == [],
               f"chat_reply should answer an unreadable 200 ({body[:20]!r}) with a failed reply.")


@test(16, 2, "finish_reason \"length\" gives stop_reason \"length\", and one chat_reply does not know "
             "gives \"toolUse\" with calls and \"stop\" without; content null with calls gives no "
             "text block.", hidden=True)
def length_and_null_content(ns):
    body = {"id": "x", "object": "chat.completion", "created": 0, "model": MODEL,
            "choices": [{"index": 0, "finish_reason": "length",
                         "message": {"role": "assistant", "content": "Half a sent"}}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}}
    reply = Chat(ns).from_response((200, {}, json.dumps(body)))
    expect(reply.get("stop_reason") == "length", f"chat_reply gave stop_reason {reply.get('stop_reason')!r} for \"length\".")
    body["choices"][0] = {"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": [
            {"id": "call_7", "type": "function", "function": {"name": "read", "arguments": "{\"path\": \"a\"}"}}]}}
    reply = Chat(ns).from_response((200, {}, json.dumps(body)))
    expect(reply["content"] == [{"type": "toolCall", "id": "call_7", "name": "read", "arguments": {"path": "a"}}],
           f"chat_reply gave {reply['content']!r} for a reply with content null and one call.")
    for calls, want in ((body["choices"][0]["message"]["tool_calls"], "toolUse"), (None, "stop")):
        body["choices"][0] = {"index": 0, "finish_reason": "content_filter", "message": {
            "role": "assistant", "content": "Part of an answer", "tool_calls": calls}}
        reply = Chat(ns).from_response((200, {}, json.dumps(body)))
        expect(reply.get("stop_reason") == want,
               f"chat_reply gave stop_reason {reply.get('stop_reason')!r} for finish_reason "
               f"\"content_filter\" {'with' if calls else 'without'} calls; one it does not know "
               f"gives \"toolUse\" with calls, else \"stop\".")


@test(16, 2, "The body: the system message first, \"stream\" false, no \"tools\" key without tools, "
             "content null for an assistant that only calls, one tool message per result.", hidden=True)
def the_body(ns):
    call = lab.call("read", {"path": "a"}, id="c1")
    record = [lab.user("Read a."), lab.reply(call), lab.tool_result(call, "A."), lab.user("Now?"), lab.user("Quick.")]
    body = Chat(ns).to_request("Be brief.", record, [])
    expect(body.get("model") == MODEL and body.get("stream") is False and "tools" not in body,
           "chat_request should send model, stream False, and no tools key when there are no tools.")
    sent = body["messages"]
    expect(sent[0] == {"role": "system", "content": "Be brief."} and sent[2].get("content") is None
           and sent[3] == {"role": "tool", "tool_call_id": "c1", "content": "A."}
           and [m["role"] for m in sent[4:]] == ["user", "user"],
           f"chat_request sent {sent!r}.")
