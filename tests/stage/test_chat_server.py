"""lab.ChatServer on 127.0.0.1, started and stopped by each test: replies in the openai package's
shape, requests judged by its request type, status steps as given, everything recorded in order,
nothing printed, nothing left running."""

import asyncio
import json
import socket
import threading

import httpx
import pytest
from openai.types.chat import ChatCompletion

import lab
from lab.stage.chat_server import CREATED
from lab.stage.http import NoReply, post_json

MODEL = "course-model"
READ = {"type": "function", "function": {"name": "read", "description": "Read a file.",
                                         "parameters": {"type": "object",
                                                        "properties": {"path": {"type": "string"}},
                                                        "required": ["path"]}}}


def ask(messages, **extra):
    return {"model": MODEL, "messages": messages, **extra}


FIRST = ask([{"role": "system", "content": "You are terse."},
             {"role": "user", "content": "What does a.txt say?"}], tools=[READ])


def post(server, payload, headers=None, path="/chat/completions"):
    status, headers, body = asyncio.run(post_json(server.url + path, payload, headers))
    return status, headers, body


def post_raw(server, content):
    with httpx.Client(trust_env=False) as client:
        response = client.post(server.url + "/chat/completions", content=content,
                               headers={"content-type": "application/json"})
    return response.status_code, response.text


def test_a_reply_is_a_chat_completion_and_its_tool_calls_round_trip():
    script = [lab.reply(lab.text("Reading it."), lab.call("read", {"path": "a.txt"})),
              lab.say("It says hello.")]
    with lab.ChatServer(script) as server:
        status, headers, body = post(server, FIRST)
        assert (status, headers["content-type"]) == (200, "application/json")
        first = ChatCompletion.model_validate_json(body)
        assert (first.id, first.object, first.created, first.model) == \
            ("chatcmpl-1", "chat.completion", CREATED, MODEL)
        choice = first.choices[0]
        assert choice.finish_reason == "tool_calls" and choice.message.content == "Reading it."
        [call] = choice.message.tool_calls
        assert (call.id, call.type, call.function.name) == ("call_1", "function", "read")
        assert json.loads(call.function.arguments) == {"path": "a.txt"}
        assert first.usage.prompt_tokens == lab.count_tokens(json.dumps(FIRST))
        assert first.usage.total_tokens == first.usage.prompt_tokens + first.usage.completion_tokens

        # The reply goes back as a request's assistant message (a response's "refusal" and
        # "annotations" are not fields of that type), with the tool's answer after it.
        back = {k: v for k, v in json.loads(body)["choices"][0]["message"].items()
                if k in ("role", "content", "tool_calls")}
        second = ask(FIRST["messages"] + [back, {"role": "tool", "tool_call_id": call.id,
                                                 "content": "hello"}], tools=[READ])
        status, _, body = post(server, second)
        reply = ChatCompletion.model_validate_json(body)
        assert status == 200 and reply.id == "chatcmpl-2"
        assert (reply.choices[0].finish_reason, reply.choices[0].message.content) == ("stop", "It says hello.")
        assert reply.choices[0].message.tool_calls is None
        assert server.problems == []


def test_a_reply_that_only_calls_tools_has_null_content_and_keeps_a_given_id():
    script = [lab.reply(lab.call("read", {"path": "a"}, id="toolu_01"), lab.call("read", {"path": "b"}))]
    with lab.ChatServer(script) as server:
        message = json.loads(post(server, FIRST)[2])["choices"][0]["message"]
    assert message["content"] is None
    assert [c["id"] for c in message["tool_calls"]] == ["toolu_01", "call_1"]
    assert [json.loads(c["function"]["arguments"]) for c in message["tool_calls"]] == [{"path": "a"}, {"path": "b"}]


TOOL_WITHOUT_ID = ask([{"role": "user", "content": "hi"},
                       {"role": "assistant", "content": None, "tool_calls": [
                           {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
                       {"role": "tool", "content": "hello"}])


@pytest.mark.parametrize("payload, named", [
    ({**FIRST, "max_turns": 3}, "Unrecognized request argument supplied: max_turns"),
    (ask([{"role": "user", "content": "hi", "stop_reason": "stop"}]),
     "Unrecognized request argument supplied: messages[0].stop_reason"),
    (ask([{"role": "user", "content": "hi"},
          {"role": "assistant", "content": "Hi.", "refusal": None, "annotations": []},
          {"role": "user", "content": "and?"}]),
     "Unrecognized request argument supplied: messages[1].annotations"),
    (TOOL_WITHOUT_ID, "Missing required parameter: 'messages[2].tool_call_id'"),
    ({"model": MODEL}, "Missing required parameter: 'messages'"),
    (ask([{"role": "toolResult", "content": "x"}]), "'messages[0].role': 'toolResult' is none of"),
    (ask([{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
         tools=[{"name": "read", "parameters": {}}]), "Missing required parameter: 'tools[0].function'"),
    (ask([{"role": "user", "content": "hi"}], stream=True), "does not stream"),
    (ask([{"role": "tool", "tool_call_id": "c9", "content": "x"}]),
     "messages with role 'tool' must be a response to a preceding message with 'tool_calls'"),
    (ask(TOOL_WITHOUT_ID["messages"][:2]), "did not have response messages (at messages[2]): c1"),
    (ask("hi"), "Invalid type for 'messages': expected an array, but got a string"),
])
def test_a_malformed_request_is_refused_400_and_named_in_problems(payload, named):
    with lab.ChatServer([lab.say("Hello.")]) as server:
        status, _, body = post(server, payload)
        assert status == 400
        error = json.loads(body)["error"]
        assert named in error["message"] and error["type"] == "invalid_request_error"
        assert len(server.problems) == 1 and named in server.problems[0]
        # A refused request uses no step: the next good one still gets the first.
        assert post(server, FIRST)[0] == 200 and len(server.problems) == 1


def test_a_body_that_is_not_a_json_object_is_refused_400():
    with lab.ChatServer([]) as server:
        status, body = post_raw(server, b"model=course-model")
        assert status == 400 and "could not parse the JSON body" in json.loads(body)["error"]["message"]
        assert server.requests == ["model=course-model"] and len(server.problems) == 1
        status, body = post_raw(server, b'"hello"')
        assert status == 400 and json.loads(body)["error"]["message"] == \
            "The request body must be a JSON object, not a string."
        assert server.requests == ["model=course-model", "hello"] and len(server.problems) == 2


def test_status_steps_arrive_as_given_through_post_json():
    script = [lab.answer_status(429, "Rate limit reached.", headers={"Retry-After": "2"}),
              lab.answer_status(503, "The server is overloaded."),
              lab.answer_status(400, "This model's maximum context length is 128000 tokens.",
                                error_code="context_length_exceeded"),
              lab.answer_status(200, body="<html>Bad gateway</html>", headers={"content-type": "text/html"})]
    with lab.ChatServer(script) as server:
        replies = [post(server, FIRST) for _ in script]
        assert server.problems == []
    status, headers, body = replies[0]
    assert (status, headers["retry-after"]) == (429, "2")
    assert json.loads(body) == {"error": {"message": "Rate limit reached.", "type": "requests",
                                          "param": None, "code": "rate_limit_exceeded"}}
    assert replies[1][0] == 503 and json.loads(replies[1][2])["error"]["type"] == "server_error"
    assert json.loads(replies[2][2])["error"]["code"] == "context_length_exceeded"
    assert replies[3][0] == 200 and replies[3][1]["content-type"] == "text/html"
    assert replies[3][2] == "<html>Bad gateway</html>"


def test_keys_ask_for_a_bearer_key_and_401_the_rest():
    with lab.ChatServer([lab.say("In.")], keys=["sk-course-1234"]) as server:
        missing = post(server, FIRST)
        wrong = post(server, FIRST, {"Authorization": "Bearer sk-wrong-key-0000"})
        right = post(server, FIRST, {"Authorization": "Bearer sk-course-1234"})
        assert server.problems == []   # a refusal the test set up is an answer, not a problem
    assert missing[0] == 401 and "didn't provide an API key" in json.loads(missing[2])["error"]["message"]
    assert wrong[0] == 401 and json.loads(wrong[2])["error"]["code"] == "invalid_api_key"
    assert "sk-wrong-key-0000" not in wrong[2]
    assert right[0] == 200 and json.loads(right[2])["choices"][0]["message"]["content"] == "In."


def test_an_unknown_model_is_404_in_openais_words_and_another_path_is_404_too():
    with lab.ChatServer([lab.say("Hi.")]) as server:
        status, _, body = post(server, {**FIRST, "model": "gpt-nonesuch"})
        assert status == 404
        assert json.loads(body)["error"]["message"] == \
            "The model `gpt-nonesuch` does not exist or you do not have access to it."
        assert server.problems == []
        status, _, body = post(server, FIRST, path="/completions")
        assert (status, json.loads(body)["error"]["message"]) == (404, "Invalid URL (POST /v1/completions)")
        assert len(server.problems) == 1 and "/v1/completions" in server.problems[0]
        assert post(server, FIRST)[0] == 200   # neither used the step


def test_a_request_after_the_script_ran_out_is_500_and_a_problem():
    with lab.ChatServer([lab.say("Only one.")]) as server:
        post(server, FIRST)
        status, _, body = post(server, FIRST)
    assert status == 500 and "ran out" in json.loads(body)["error"]["message"]
    assert len(server.problems) == 1 and "ran out" in server.problems[0]


def test_exchanges_record_every_request_and_response_in_order():
    script = [lab.say("One."), lab.answer_status(503, "Busy.", headers={"retry-after": "1"})]
    bad = {**FIRST, "bogus": True}
    with lab.ChatServer(script) as server:
        sent = [FIRST, bad, FIRST]
        got = [post(server, payload) for payload in sent]
    assert server.requests == sent
    assert [e.status for e in server.exchanges] == [200, 400, 503] == [g[0] for g in got]
    assert [e.body for e in server.exchanges[:2]] == [json.loads(got[0][2]), json.loads(got[1][2])]
    assert server.exchanges[2].headers == {"retry-after": "1", "content-type": "application/json"}
    request, status, headers, body = server.exchanges[0]
    assert (request, status, body["choices"][0]["message"]["content"]) == (FIRST, 200, "One.")


def test_two_runs_of_the_same_script_give_the_same_exchanges():
    def run():
        with lab.ChatServer([lab.reply(lab.call("read", {"path": "a"})), lab.say("Done.")]) as server:
            post(server, FIRST)
            post(server, FIRST)
        return server.exchanges
    assert run() == run()


def test_the_server_stops_its_thread_and_frees_its_port():
    before = set(threading.enumerate())
    server = lab.ChatServer([lab.say("Hi.")]).start()
    url, port = server.url, int(server.url.split(":")[2].split("/")[0])
    assert post(server, FIRST)[0] == 200
    server.stop()
    server.stop()   # a second stop is harmless
    assert set(threading.enumerate()) <= before
    with pytest.raises(NoReply):
        asyncio.run(post_json(url + "/chat/completions", FIRST))
    with socket.socket() as probe:   # SO_REUSEADDR binds a port in TIME_WAIT, never one listened on
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))
    with pytest.raises(RuntimeError, match="not running"):
        server.url


def test_the_server_writes_nothing_to_stdout_or_stderr(capfd):
    with lab.ChatServer([lab.say("Hi."), lab.answer_status(503, "Busy.")], keys=["k"]) as server:
        key = {"Authorization": "Bearer k"}
        post(server, FIRST, key)
        post(server, {**FIRST, "x": 1}, key)
        post(server, FIRST, key, path="/nowhere")
        post(server, FIRST)
        post(server, FIRST, key)
        post(server, FIRST, key)
    assert [e.status for e in server.exchanges] == [200, 400, 404, 401, 503, 500]
    assert capfd.readouterr() == ("", "")


def test_script_steps_the_wire_cannot_send_are_refused_in_a_sentence():
    with pytest.raises(ValueError, match="over HTTP a failure is a status"):
        lab.ChatServer([lab.fail("overloaded")])
    with pytest.raises(TypeError, match="assistant message"):
        lab.ChatServer([lab.user("hi")])
    with pytest.raises(ValueError, match="needs body="):
        lab.answer_status(200, "fine")
    with pytest.raises(ValueError, match="from 200 to 599"):
        lab.answer_status(700, "what")
    with pytest.raises(TypeError, match="wrap the one key"):
        lab.ChatServer([], keys="k")
