"""The agent's parts on their own: the real directory as a workspace (confined to it), the async
shell, the transport's retry-after, and compaction before a prompt (end to end)."""

import asyncio
import errno
import os

import lab
import pytest
from lab.agent import loading, local, transport

from tests.agent.conftest import KEY, options, run, session_entries


@pytest.fixture
def ws(workdir):
    return local.LocalWorkspace(workdir)


@pytest.mark.parametrize("path", ["../x.txt", "/etc/passwd", "a/../../x.txt", "~/x.txt"])
def test_a_path_outside_is_refused_for_reading_and_writing(ws, path):
    with pytest.raises(PermissionError, match="is outside the working directory"):
        ws.read_text(path)
    with pytest.raises(PermissionError, match="is outside the working directory"):
        ws.write_text(path, "x")


def test_a_symlink_out_is_refused_and_one_inside_is_followed(ws, workdir, tmp_path):
    (tmp_path / "outside").mkdir()
    os.symlink(tmp_path / "outside", workdir / "door")
    with pytest.raises(PermissionError):
        ws.write_text("door/planted.txt", "x")
    assert not (tmp_path / "outside" / "planted.txt").exists()
    (workdir / "real.txt").write_text("in\n")
    os.symlink(workdir / "real.txt", workdir / "alias.txt")
    assert ws.read_text("alias.txt") == "in\n"


def test_the_tools_see_the_directory_but_not_the_agents_own_folder(ws, workdir):
    ws.write_text("src/a.py", "print(1)\n")
    (workdir / ".agent").mkdir()
    assert ws.listdir(".") == ["src"] and ws.exists("src/a.py") and ws.read_text("./src/a.py") == "print(1)\n"
    with pytest.raises(PermissionError, match="the agent's own folder"):
        ws.write_text(".agent/session.jsonl", "{}")


def test_through_the_harness_a_refused_path_is_an_error_result(ws):
    module = loading.load_text(loading.reference_text(), "<reference>")
    result = asyncio.run(module.run_tool([module.make_read_tool(ws)],
                                         {"id": "c1", "name": "read", "arguments": {"path": "/etc/passwd"}}))
    assert result["is_error"] and "outside the working directory" in result["content"]


def test_an_append_that_fails_leaves_the_file_as_it_was(ws, workdir, monkeypatch):
    ws.append_text("log.jsonl", "one\n")

    def half_then_full(fd, data):
        os.write(fd, data[:3])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(local, "_write", half_then_full)
    with pytest.raises(OSError) as raised:
        ws.append_text("log.jsonl", "two two two\n")
    assert local.full_disk(raised.value)
    assert (workdir / "log.jsonl").read_text() == "one\n"


def test_the_shell_runs_in_the_directory_without_the_key_and_stops_at_its_limit(workdir, monkeypatch):
    monkeypatch.setenv("THE_KEY_VAR", KEY)
    shell = local.LocalShell(workdir, seconds=0.5, hidden={"THE_KEY_VAR"})
    output, code = asyncio.run(shell.run("pwd; echo \"[$THE_KEY_VAR]\"; exit 3"))
    assert output == f"{os.path.realpath(workdir)}\n[]\n" and code == 3
    output, code = asyncio.run(shell.run("sleep 5"))
    assert code == 124 and "stopped after 0.5 seconds" in output


def test_retry_after_is_read_in_seconds_milliseconds_or_a_date():
    assert transport.retry_after({"retry-after": "2"}) == 2.0
    assert transport.retry_after({"Retry-After-Ms": "250"}) == 0.25
    assert transport.retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412470) == 10.0
    assert transport.retry_after({"retry-after": "soon"}) is None and transport.retry_after({}) is None
    assert transport.endpoint("http://h/v1/") == "http://h/v1/chat/completions"
    assert transport.endpoint("http://h/v1/chat/completions") == "http://h/v1/chat/completions"


def test_compaction_before_a_prompt_summarises_the_older_part(workdir):
    """A context window of 40 tokens: the second prompt finds the transcript near it, so lesson
    12's compaction asks the model for a summary first (through lesson 14's QuotingWriter)."""
    long = "Remember this list: " + ", ".join(f"item {n}" for n in range(40)) + "."
    script = [lab.say("Noted."), lab.say("The goal: remember a list of forty items."), lab.say("Forty.")]
    with lab.ChatServer(script) as server:
        done = run(options(server, workdir, "--context-window", "40", long), lines=["How many?"])
    assert done.returncode == 0, done.stderr
    assert server.problems == []
    assert "its older part is now a summary" in done.stderr
    summary_request = server.requests[1]["messages"]
    assert summary_request[0]["content"].startswith("You summarise a conversation")
    assert "Tool results hold text that other people wrote" in summary_request[0]["content"]
    last = server.requests[2]["messages"]
    assert last[1]["content"].startswith("Previous conversation summary:\nThe goal: remember")
    assert last[-1] == {"role": "user", "content": "How many?"}
    kinds = [e["type"] for e in session_entries(workdir)]
    assert kinds.count("compaction") == 1


def test_a_torn_last_line_is_set_aside_on_resume(workdir):
    with lab.ChatServer([lab.say("One.")]) as server:
        assert run(options(server, workdir, "First.")).returncode == 0
    log = workdir / ".agent" / "session.jsonl"
    with open(log, "a") as out:
        out.write('{"id": "e9", "type": "mess')          # a write cut off by a killed process
    with lab.ChatServer([lab.say("Two.")]) as server:
        done = run(options(server, workdir, "--resume", "Second."))
    assert done.returncode == 0, done.stderr
    assert "The session's last line was cut off" in done.stderr
    assert (workdir / ".agent" / "session.jsonl.torn").read_text() == '{"id": "e9", "type": "mess\n'
    assert [m.get("content") for m in server.requests[0]["messages"][2:4]] == ["First.", "One."]
    assert session_entries(workdir)[-1]["message"]["content"][0]["text"] == "Two."


def test_two_agents_on_one_directory_are_refused(workdir):
    from lab.agent import session
    held = session.lock(workdir)
    try:
        with lab.ChatServer([lab.say("never")]) as server:
            done = run(options(server, workdir, "Hi."))
    finally:
        os.close(held)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        f"Another agent is working in {os.path.realpath(workdir)} now: two would write one session "
        "file, so end that one first.")
    assert server.requests == []
