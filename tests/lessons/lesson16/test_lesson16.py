"""Facts of lesson 16 that the suite every lesson runs does not cover: each options cell shows what
its question's feedback claims, the walls fail the way the lesson says, the figure comes from a
run, nothing printed depends on the port, and the reference adapter keeps lesson 5's contract
over a real socket."""

import asyncio
import re

import nbformat
import pytest

import harness
import lab
from lab.lessons import build, load
from lab.lessons.lesson16 import stage

from tests.lessons.conftest import by_id, stdout_of


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(16), as_version=4)


def test_the_walls_fail_as_the_lesson_says(master):
    wall = stdout_of(by_id(master, "demo-wall"))
    assert wall.count("TemplateError: Conversation roles must alternate") == 2
    assert "no role toolResult" in wall and "agent_end came: True" not in wall
    http = stdout_of(by_id(master, "demo-wall-http"))
    assert "HTTPStatusError (429)" in http and "HTTPStatusError (503)" in http
    assert "agent_end came: False | the record: U\n" in http


def test_each_options_cell_shows_what_its_feedback_claims(master):
    merge = stdout_of(by_id(master, "demo-where-merge"))
    assert "(a) in the record: the log and the record still agree: False" in merge
    assert "the record unchanged: True" in merge
    role = stdout_of(by_id(master, "demo-no-tool-role"))
    assert "(a) dropped: the results' words in the prompt: False" in role
    assert "(b) labelled: ['[result of call c1, read]', '[result of call c2, read]']" in role
    ids = stdout_of(by_id(master, "demo-ids"))
    assert "carries the same id: True" in ids and "call_2 before the compaction and call_1 after it" in ids
    assert "a.b -> a_b and a_b -> a_b" in ids
    assert "requests that reached the server: 6" in stdout_of(by_id(master, "demo-retries"))
    where = stdout_of(by_id(master, "demo-retry-where"))
    assert "the user's prompt in it 2 times" in where and "(c) in the transport: the record is U A" in where
    failed = stdout_of(by_id(master, "demo-failed"))
    assert failed.count("stop_reason error") == 6 and "a refusal in words  -> stop_reason stop" in failed
    assert "went on up, untouched" in failed
    too_long = stdout_of(by_id(master, "demo-too-long")).splitlines()
    assert too_long[1].split("|")[1:] and "True" in too_long[1].split("|")[1] and "False" in too_long[1].split("|")[2]
    number = next(r for r in load(16).RUNGS if r.id == "retries-first-second")
    assert number.answer == 6


def test_right_answers_do_not_sit_in_one_place():
    places = [next(i for i, o in enumerate(r.options) if o.right) for r in load(16).RUNGS if r.kind == "choice"]
    assert max(places.count(p) for p in set(places)) <= 0.4 * len(places) + 1e-9, places


def test_every_tick_all_option_has_its_own_reason():
    multi = next(r for r in load(16).RUNGS if r.id == "failed-reply")
    assert all(len(option) == 3 and option[2].strip() for option in multi.options)
    assert any(not fits for _, fits, _ in multi.options)


def test_nothing_printed_names_a_port_or_an_address(master):
    for cell in master.cells:
        if cell.cell_type == "code":
            text = stdout_of(cell)
            assert not re.search(r"127\.0\.0\.1|localhost|:\d{4,5}/", text), cell.id


def test_the_figure_comes_from_a_run(master):
    outputs = by_id(master, "figure-16-1").outputs
    alt = next(o for o in outputs if "image/png" in o.get("data", {}))["data"]["text/plain"]
    assert "Template turns joining more than one message: 1" in alt
    assert harness.portable_id("toolu_01.w") in alt


def test_the_reference_adapter_never_raises_for_the_provider():
    """Lesson 5's contract over a real socket: every failure of the provider is a failed reply."""
    steps = [lab.answer_status(429, "slow down", headers={"retry-after": "2"}),
             lab.answer_status(500, body="<html>oops</html>"),
             lab.answer_status(200, body="not json"),
             lab.answer_status(404, "The model `x` does not exist")]

    async def main():
        replies = []
        with lab.ChatServer(steps) as server:
            model = harness.AdapterModel(harness.ChatCompletions("course-model"), stage.sender(server.url))
            for _ in steps:
                replies.append(await model.complete("s", [lab.user("hi")], []))
        replies.append(await harness.AdapterModel(harness.ChatCompletions("m"),
                                                  stage.sender(stage.free_port_url())).complete("s", [], []))
        return server, replies
    server, replies = asyncio.run(main())
    assert server.problems == []
    assert [r["stop_reason"] for r in replies] == ["error"] * 5
    assert replies[0]["error_message"] == "429 from the provider: slow down"
    assert replies[-1]["error_message"].startswith("no server answered")


def test_the_chat_template_ids_are_the_same_every_run():
    def ids():
        adapter = harness.ChatTemplate()
        adapter.to_request("s", [lab.user("hi")], [])
        return [c["id"] for c in harness.tool_calls(adapter.from_response(
            '<tool_call>{"name": "read", "arguments": {}}</tool_call>\n'
            '<tool_call>{"name": "read", "arguments": {}}</tool_call>'))]
    first = ids()
    assert first == ids() and len(set(first)) == 2
    assert all(harness.PORTABLE_ID.fullmatch(i) for i in first)
