"""The hub's configuration stops with one sentence, and touches nothing, when a port it needs is
taken or its proxy is missing. (A second or late submission is in test_term.py.)"""

import os
import socket
import subprocess

import pytest

from . import hubkit as hk


def run_hub(tmp_path, **env):
    hub = hk.Hub(tmp_path / "state", tmp_path / "exchange")
    hub.env.update(env)
    done = subprocess.run(hub.command(), cwd=tmp_path, env=hub.env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=60, stdin=subprocess.DEVNULL)
    return hub, done


@pytest.fixture
def state(tmp_path):
    """A hub state folder holding a database from an earlier run, which a failed start must keep."""
    folder = tmp_path / "state"
    folder.mkdir(mode=0o700)
    (folder / "jupyterhub.sqlite").write_bytes(b"an earlier term's database")
    return folder


def untouched(folder):
    return sorted(os.listdir(folder)) == ["jupyterhub.sqlite"] and \
        (folder / "jupyterhub.sqlite").read_bytes() == b"an earlier term's database"


def port_is_free(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


@pytest.mark.parametrize("which", ["COURSE_HUB_PORT", "COURSE_HUB_PROXY_API_PORT"])
def test_a_port_in_use_is_one_sentence_and_loses_nothing(tmp_path, state, which):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        hub, done = run_hub(tmp_path, **{which: str(port)})
        assert done.returncode == 1
        assert done.stdout.strip().splitlines() == [
            f"jupyterhub_config.py: port {port} on 127.0.0.1 ({which}) is already in use by another "
            f"program; stop it or choose another port with {which}=N."]
        # the program on the port still has it and still answers
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    assert untouched(state)
    for name in ("COURSE_HUB_PORT", "COURSE_HUB_API_PORT", "COURSE_HUB_PROXY_API_PORT"):
        if name != which:
            assert port_is_free(int(hub.env[name])), f"something was left listening on {name}"


def test_a_missing_proxy_is_one_sentence_and_loses_nothing(tmp_path, state):
    missing = tmp_path / "node" / "configurable-http-proxy"
    hub, done = run_hub(tmp_path, COURSE_HUB_PROXY=str(missing))
    assert done.returncode == 1
    assert done.stdout.strip().splitlines() == [
        f"jupyterhub_config.py: the proxy {missing} is not installed; run `make hub-proxy` (npm ci "
        f"from grading/hub/package-lock.json) or set COURSE_HUB_PROXY to configurable-http-proxy."]
    assert untouched(state)
    assert all(port_is_free(int(hub.env[name])) for name in
               ("COURSE_HUB_PORT", "COURSE_HUB_API_PORT", "COURSE_HUB_PROXY_API_PORT"))


def test_a_port_taken_between_choosing_and_binding_is_chosen_again(tmp_path, monkeypatch):
    # what a busy machine does: a client's ephemeral port, or a sibling test's server, lands on a
    # port the test chose free a moment before; the test's hub chooses again instead of failing
    real = hk.free_ports
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        choices = iter([[port, *real(2)]])
        monkeypatch.setattr(hk, "free_ports", lambda count: next(choices, None) or real(count))
        hub = hk.Hub(tmp_path / "state", tmp_path / "exchange")
        assert hub.port == port
        try:
            hub.start()
            assert hub.port != port
            status, _ = hk.request(f"{hub.url}/hub/api/", timeout=5)
            assert status == 200
        finally:
            hub.stop()
        # one refused start was enough, and a hub whose every port is taken still fails
        monkeypatch.setattr(hk, "free_ports", lambda count: [port, *real(count - 1)])
        with pytest.raises(RuntimeError, match="already in use"):
            hk.Hub(tmp_path / "again", tmp_path / "exchange").start(tries=2)
