"""The issue's scenarios, end to end: `python -m lab agent` as a real process against the course's
OpenAI-style server on 127.0.0.1 (scripted replies, no model), on a real directory. Every request
the server received must be a valid Chat Completions request (server.problems == [], judged by
the openai package's types)."""

import json
import os

import lab
from harness.loop import INTERRUPTED

from tests.agent.conftest import (KEY, messages_sent, never_ending, options, release, run, session_entries,
                      started, still_running)


def tool_message(messages, call_id):
    return next(m for m in messages if m.get("role") == "tool" and m["tool_call_id"] == call_id)


def allowed(terminal, server, workdir, prompt):
    """The agent on a terminal, given `prompt`, once its first call has been asked about, allowed
    with y, and is running."""
    t = terminal(options(server, workdir, prompt))
    t.expect("Allow? [y/N]")
    t.type("y")
    t.expect("(allowed)")
    return t


def exit_at_prompt(t):
    """Wait for the agent's next prompt and type /exit there."""
    t.expect("> ")
    t.type("/exit")


def test_a_task_reads_a_file_writes_another_and_answers(terminal, workdir):
    (workdir / "notes.txt").write_text("buy milk\nfix the bike\n")
    script = [lab.reply(lab.call("read", {"path": "notes.txt"}, id="r1")),
              lab.reply(lab.call("write", {"path": "todo.md", "content": "- [ ] buy milk\n"}, id="w1")),
              lab.say("Done: todo.md has your first task.")]
    with lab.ChatServer(script, keys=[KEY]) as server:
        t = terminal(options(server, workdir, "Make a todo list from notes.txt."))
        t.expect("-> read notes.txt")
        t.expect("Allow? [y/N]")
        t.type("y")
        t.expect("Done: todo.md has your first task.")
        exit_at_prompt(t)
        assert t.wait() == 0
    assert server.problems == []
    assert (workdir / "todo.md").read_text() == "- [ ] buy milk\n"
    assert tool_message(messages_sent(server, 1), "r1")["content"] == "buy milk\nfix the bike\n"
    assert tool_message(messages_sent(server, 2), "w1")["content"] == "Successfully wrote to todo.md."
    # lesson 13: the briefing lists the tools that are really there
    system = messages_sent(server, 0)[0]["content"]
    assert "- bash:" in system and "- read:" in system and "- write:" in system
    assert [t["function"]["name"] for t in server.requests[0]["tools"]] == ["bash", "read", "write"]
    # lesson 11: the whole session is on disk, one valid entry a line
    assert [e["message"]["role"] for e in session_entries(workdir)] == \
        ["user", "user", "assistant", "toolResult", "assistant", "toolResult", "assistant"]


def test_an_approval_answered_n_runs_nothing(terminal, workdir):
    script = [lab.reply(lab.call("write", {"path": "x.txt", "content": "no"}, id="w1")),
              lab.reply(lab.call("bash", {"command": "touch made-by-bash"}, id="b1")),
              lab.say("Understood.")]
    with lab.ChatServer(script) as server:
        t = terminal(options(server, workdir, "Write x.txt."))
        t.expect("write wants to write x.txt")
        t.expect("Allow? [y/N]")
        t.type("n")
        t.expect("bash wants to run:\n    touch made-by-bash")
        t.type("")                 # Enter alone is no
        t.expect("Understood.")
        exit_at_prompt(t)
        assert t.wait() == 0
    assert server.problems == []
    assert not (workdir / "x.txt").exists() and not (workdir / "made-by-bash").exists()
    denied = tool_message(messages_sent(server, 1), "w1")
    assert "write was not run: the user said no" in denied["content"]
    assert "bash was not run: the user said no" in tool_message(messages_sent(server, 2), "b1")["content"]


def test_with_no_terminal_every_write_and_bash_is_denied(workdir):
    script = [lab.reply(lab.call("write", {"path": "x.txt", "content": "no"}, id="w1"),
                        lab.call("bash", {"command": "touch made"}, id="b1"),
                        lab.call("read", {"path": "in.txt"}, id="r1")),
              lab.say("Nothing was allowed.")]
    (workdir / "in.txt").write_text("readable\n")
    with lab.ChatServer(script) as server:
        done = run(options(server, workdir, "Try."))
    assert done.returncode == 0, done.stderr
    assert server.problems == []
    assert "No terminal: every write and bash call is denied" in done.stderr
    sent = messages_sent(server, 1)
    assert "no terminal to ask" in tool_message(sent, "w1")["content"]
    assert "no terminal to ask" in tool_message(sent, "b1")["content"]
    assert tool_message(sent, "r1")["content"] == "readable\n"     # reading is not gated
    assert sorted(os.listdir(workdir)) == [".agent", "in.txt"]


def test_a_network_command_is_refused_by_the_rules_without_asking(terminal, workdir):
    script = [lab.reply(lab.call("bash", {"command": "curl https://example.com/x.sh"}, id="b1")),
              lab.say("The rules said no.")]
    with lab.ChatServer(script) as server:
        t = terminal(options(server, workdir, "Fetch it."))
        t.expect("The rules said no.")
        exit_at_prompt(t)
        assert t.wait() == 0
    assert server.problems == []
    assert "Allow?" not in t.output                       # nobody was asked
    result = tool_message(messages_sent(server, 1), "b1")
    assert result["content"].startswith("bash was not run: no network: curl")


def test_typing_during_a_run_steers_it(terminal, workdir):
    script = [lab.reply(lab.call("bash", {"command": never_ending(workdir)}, id="b1")),
              lab.say("I will use spaces.")]
    with lab.ChatServer(script) as server:
        t = allowed(terminal, server, workdir, "Tidy up.")
        t.type("use spaces, not tabs")
        t.expect("(noted: the agent reads this at its next step)")
        release(workdir)
        t.expect("I will use spaces.")
        exit_at_prompt(t)
        assert t.wait() == 0
    assert server.problems == []
    sent = messages_sent(server, 1)
    assert sent[-1] == {"role": "user", "content": "use spaces, not tabs"}   # after the result
    assert sent[-2]["role"] == "tool" and "released" in sent[-2]["content"]


def test_ctrl_c_cancels_the_run_and_the_session_stays_valid(terminal, workdir):
    script = [lab.reply(lab.call("bash", {"command": never_ending(workdir)}, id="b1")),
              lab.say("Back again.")]
    with lab.ChatServer(script) as server:
        t = allowed(terminal, server, workdir, "Wait for ever.")
        started(workdir)
        t.ctrl_c()
        t.expect("Cancelled.")
        assert not still_running(workdir)        # the command was stopped with the run
        t.expect("> ")
        t.type("Are you there?")
        t.expect("Back again.")
        exit_at_prompt(t)
        assert t.wait() == 0
    assert server.problems == []
    sent = messages_sent(server, 1)
    assert tool_message(sent, "b1")["content"] == INTERRUPTED       # lesson 10's pairing
    assert sent[-1] == {"role": "user", "content": "Are you there?"}
    roles = [e["message"]["role"] for e in session_entries(workdir)]
    assert roles == ["user", "user", "assistant", "user", "assistant"]   # no result for the cut call


def test_ctrl_c_at_the_question_cancels_the_run(terminal, workdir):
    script = [lab.reply(lab.call("write", {"path": "x.txt", "content": "x"}, id="w1")),
              lab.say("Fine.")]
    with lab.ChatServer(script) as server:
        t = terminal(options(server, workdir, "Write."))
        t.expect("Allow? [y/N]")
        t.ctrl_c()
        t.expect("Cancelled.")
        exit_at_prompt(t)
        assert t.wait() == 0
    assert server.problems == [] and len(server.requests) == 1
    assert not (workdir / "x.txt").exists()


def test_a_process_killed_mid_run_resumes_with_nothing_lost(terminal, workdir):
    first = [lab.reply(lab.text("Starting."), lab.call("bash", {"command": never_ending(workdir)}, id="b1"))]
    with lab.ChatServer(first) as server:
        t = allowed(terminal, server, workdir, "Run the long job.")
        started(workdir)
        t.kill()                                    # SIGKILL: no goodbye, no flush
    release(workdir)
    before = session_entries(workdir)
    assert [e["message"]["role"] for e in before] == ["user", "user", "assistant"]
    with lab.ChatServer([lab.say("Picking up where we were.")]) as server:
        done = run(options(server, workdir, "--resume", "Go on."))
    assert done.returncode == 0, done.stderr
    assert server.problems == []
    assert "resumed: 3 messages" in done.stderr
    sent = messages_sent(server)
    assert sent[1]["content"].startswith("[Session started")
    assert sent[2] == {"role": "user", "content": "Run the long job."}
    assert sent[3]["content"] == "Starting." and sent[3]["tool_calls"][0]["id"] == "b1"
    assert sent[4] == {"role": "tool", "tool_call_id": "b1", "content": INTERRUPTED}
    assert sent[-1] == {"role": "user", "content": "Go on."}
    after = session_entries(workdir)
    assert after[:3] == before and after[-1]["message"]["content"][0]["text"] == "Picking up where we were."


def test_a_429_then_success(workdir):
    script = [lab.answer_status(429, "Rate limit reached.", headers={"retry-after": "0"}),
              lab.answer_status(503, "Overloaded.", headers={"retry-after": "0"}),
              lab.say("Hello after the wait.")]
    with lab.ChatServer(script) as server:
        done = run(options(server, workdir, "Hi."))
    assert done.returncode == 0, done.stderr
    assert server.problems == [] and [e.status for e in server.exchanges] == [429, 503, 200]
    assert "Hello after the wait." in done.stdout
    assert "The server answered 429; trying again in 0 s (request 2 of 4)." in done.stderr
    assert server.requests[0] == server.requests[2]        # the same request, sent again


def test_retries_stop_at_the_cap_and_the_failure_is_a_sentence(workdir):
    script = [lab.answer_status(503, "Overloaded.", headers={"retry-after": "0"})] * 3
    with lab.ChatServer(script) as server:
        done = run(options(server, workdir, "--tries", "3", "Hi."))
    assert done.returncode == 1
    assert server.problems == [] and len(server.exchanges) == 3
    assert "The server failed (503: Overloaded) after several tries" in done.stderr
    assert "Traceback" not in done.stderr
    entries = session_entries(workdir)
    assert entries[-1]["message"]["stop_reason"] == "error"   # recorded, as lesson 5 records it


def test_json_prints_one_json_object_per_line(workdir):
    script = [lab.reply(lab.call("read", {"path": "a.txt"}, id="r1")), lab.say("A says a.")]
    (workdir / "a.txt").write_text("a\n")
    with lab.ChatServer(script) as server:
        done = run(options(server, workdir, "--json", "What does a.txt say?"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    events = [json.loads(line) for line in lines]
    assert all(isinstance(e, dict) and "type" in e for e in events)
    assert events[0]["type"] == "agent_start" and events[-1]["type"] == "agent_end"
    assert {"tool_execution_start", "tool_execution_end", "message_end"} <= {e["type"] for e in events}
    assert server.problems == []


def test_paths_outside_the_directory_are_error_results(workdir, tmp_path):
    (tmp_path / "secret.txt").write_text("the-secret-text\n")
    os.symlink(tmp_path / "secret.txt", workdir / "link.txt")
    script = [lab.reply(lab.call("read", {"path": "../secret.txt"}, id="r1"),
                        lab.call("read", {"path": "/etc/passwd"}, id="r2"),
                        lab.call("read", {"path": "link.txt"}, id="r3"),
                        lab.call("read", {"path": ".agent/session.jsonl"}, id="r4")),
              lab.say("All refused.")]
    with lab.ChatServer(script) as server:
        done = run(options(server, workdir, "Read around."))
    assert done.returncode == 0, done.stderr
    assert server.problems == []
    sent = messages_sent(server)
    for call_id in ("r1", "r2", "r3"):
        assert "is outside the working directory" in tool_message(sent, call_id)["content"]
    assert "the agent's own folder" in tool_message(sent, "r4")["content"]
    assert "the-secret-text" not in json.dumps(sent)
    entries = session_entries(workdir)
    assert all(e["message"]["is_error"] for e in entries if e["message"]["role"] == "toolResult")


def test_the_demo_runs_on_its_own_server(tmp_path):
    folder = tmp_path / "demo"
    done = run(["--demo", "--dir", folder], key=None)
    assert done.returncode == 0, done.stderr
    assert "-> read notes.txt" in done.stdout and "-> write todo.md" in done.stdout
    assert "the course's scripted server" in done.stderr
    assert not (folder / "todo.md").exists()        # no terminal: the write was denied
    assert len(session_entries(folder)) == 7
