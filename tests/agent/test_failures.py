"""Failures are sentences, with nothing lost (the issue's item 5): no server at the URL, a refused
key, a model name the server does not know, a reply the adapter cannot read, a full disk while
saving. And the API key shows up in no output, log or session file."""

import errno
import json
import socket
from pathlib import Path

import lab
from lab.agent import cli, local

from tests.agent.conftest import (KEY, KEY_ENV, environment, everything_written, options, run,
                      session_entries)


def one_line(text):
    """The agent's last line on stderr: the sentence."""
    return [line for line in text.splitlines() if line.strip()][-1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_server_at_the_url(workdir):
    url = f"http://127.0.0.1:{free_port()}/v1"
    done = run(["--base-url", url, "--model", "m", "--dir", workdir, "--api-key-env", KEY_ENV, "Hi."])
    assert done.returncode == 1
    assert one_line(done.stderr).startswith(f"No server answered at {url}/chat/completions: is it running")
    assert "Traceback" not in done.stderr
    roles = [e["message"]["role"] for e in session_entries(workdir)]
    assert roles == ["user", "user", "assistant"]           # the prompt is kept, the failure recorded


def test_a_refused_key(workdir):
    with lab.ChatServer([lab.say("never")], keys=["the-right-key-000"]) as server:
        done = run(options(server, workdir, "Hi."))
    assert done.returncode == 1
    assert one_line(done.stderr) == (f"The server refused the key in ${KEY_ENV} (401): check that it "
                                     "holds a key for this provider, or name another variable with "
                                     "--api-key-env.")
    assert server.problems == [] and [e.status for e in server.exchanges] == [401]   # not retried


def test_no_key_where_one_is_wanted(workdir):
    with lab.ChatServer([lab.say("never")], keys=["the-right-key-000"]) as server:
        done = run(options(server, workdir, "Hi."), key=None)
    assert done.returncode == 1
    assert f"${KEY_ENV} is not set" in one_line(done.stderr)
    assert "authorization" not in {k.lower() for k in server.exchanges[0].headers}


def test_a_model_the_server_does_not_know(workdir):
    with lab.ChatServer([lab.say("never")], model="course-model") as server:
        args = options(server, workdir, "Hi.")
        args[args.index("--model") + 1] = "gpt-nonesuch"
        done = run(args)
    assert done.returncode == 1
    assert one_line(done.stderr).startswith("The server does not know the model 'gpt-nonesuch' (404: "
                                            "The model `gpt-nonesuch` does not exist")
    assert server.problems == []


def test_a_reply_the_adapter_cannot_read(workdir):
    with lab.ChatServer([lab.answer_status(200, body="<html>Bad gateway</html>")]) as server:
        done = run(options(server, workdir, "Hi."))
        url = server.url
    assert done.returncode == 1                   # no terminal: a failed run is a failed command
    assert one_line(done.stderr).startswith(f"The reply from {url}/chat/completions is not a "
                                            "Chat Completions reply the adapter can read")
    assert session_entries(workdir)[-1]["message"]["stop_reason"] == "error"


def test_a_full_disk_while_saving_is_a_sentence_and_the_file_stays_whole(workdir, monkeypatch, capsys):
    """In process: the disk fills up on the fourth line of the session, half-way through it."""
    real, calls = local._write, []

    def write(fd, data):
        calls.append(data)
        if len(calls) == 4:
            real(fd, data[:len(data) // 2])          # part of the line reaches the disk ...
            raise OSError(errno.ENOSPC, "No space left on device")   # ... and then none fits
        return real(fd, data)

    monkeypatch.setattr(local, "_write", write)
    monkeypatch.setenv(KEY_ENV, KEY)
    script = [lab.reply(lab.call("read", {"path": "a.txt"}, id="r1")), lab.say("Read it.")]
    (workdir / "a.txt").write_text("a\n")
    stdin = open("/dev/null", "rb")
    with lab.ChatServer(script) as server:
        status = cli.main(options(server, workdir, "Read a.txt."), stdin=stdin.fileno())
    stdin.close()
    said = capsys.readouterr()
    assert status == 1
    assert one_line(said.err) == (f"The session could not be saved to {Path(workdir).resolve()}/.agent/"
                                  "session.jsonl: the disk is full. Everything before this point is saved "
                                  "and the file is still whole; free some space, then go on with --resume.")
    entries = session_entries(workdir)          # every line parses: the torn half was cut off
    assert [e["id"] for e in entries] == ["e1", "e2", "e3"]
    assert server.problems == []


def test_the_key_is_in_no_output_log_or_session_file(terminal, workdir):
    script = [lab.reply(lab.call("bash", {"command": f"echo key=${KEY_ENV}; env | grep -c SECRET"}, id="b1")),
              lab.say("Done.")]
    with lab.ChatServer(script, keys=[KEY]) as server:
        t = terminal(options(server, workdir, "--json", "Show me the key."))
        t.expect("Allow? [y/N]")
        t.type("y")
        t.expect('"Done."')
        t.expect("> ")
        t.type("/exit")
        assert t.wait() == 0
    assert server.problems == []
    result = next(m for m in server.requests[1]["messages"] if m.get("role") == "tool")
    assert result["content"].startswith("key=\n0\n")        # the command's environment has no key
    assert KEY not in t.output
    assert KEY not in everything_written(workdir)
    assert KEY not in json.dumps(server.requests)            # only in the Authorization header
    assert all(e.status == 200 for e in server.exchanges)


def test_a_key_the_server_quotes_back_is_cut_out(workdir):
    body = json.dumps({"error": {"message": f"Key {KEY} is not allowed here.", "type": "x"}})
    with lab.ChatServer([lab.answer_status(400, body=body)]) as server:
        done = run(options(server, workdir, "Hi."))
    assert done.returncode == 1
    assert KEY not in done.stdout + done.stderr and KEY not in everything_written(workdir)
    assert "[the key]" in everything_written(workdir)


def test_usage_errors_are_sentences_with_status_2(tmp_path):
    done = run(["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--dir", tmp_path / "nope"])
    assert done.returncode == 2
    assert one_line(done.stderr) == f"python -m lab agent: there is no directory {tmp_path / 'nope'}: " \
                                    "--dir names the directory the agent works in."
    done = run(["--dir", tmp_path])
    assert done.returncode == 2 and "--base-url and --model are needed" in done.stderr
    assert environment()[KEY_ENV] == KEY
