"""--harness FILE: the learner's own harness.py is checked, lab by lab, before it runs; a file
whose labs do not pass is refused in one sentence naming the lesson, lab and test; a pass is
remembered in DIR/.agent/, so the next start is quick; the agent then runs the file's own code."""

import json

import lab
from lab.agent import loading

from tests.agent.conftest import options, run


def reference():
    return loading.reference_text()


def test_a_harness_with_a_failing_lab_is_refused(workdir, tmp_path):
    broken = reference().replace('return {"role": "user", "content": text}',
                                 'return {"role": "user", "content": text.strip()}')
    assert broken != reference()
    path = tmp_path / "harness.py"
    path.write_text(broken)
    with lab.ChatServer([lab.say("never")]) as server:
        done = run(options(server, workdir, "Hi.", harness=path))
    assert done.returncode == 1
    said = done.stderr.strip().splitlines()[-1]
    assert said.startswith("python -m lab agent: harness.py is refused: its user_message fails "
                           "lesson 1's lab 1, at the test \"user_message keeps the text exactly"), said
    assert "the content is the text exactly as given" in said and said.endswith(".")
    assert server.requests == []                       # refused before anything was sent
    assert not (workdir / ".agent" / "checked.json").exists()


def test_a_harness_without_a_part_the_agent_needs_is_refused_at_once(workdir, tmp_path):
    text = reference()
    start = text.index("class AdapterModel")
    path = tmp_path / "harness.py"
    path.write_text(text[:start])
    with lab.ChatServer([lab.say("never")]) as server:
        done = run(options(server, workdir, "Hi.", harness=path))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "python -m lab agent: harness.py defines no AdapterModel (lesson 16), which the agent "
        "needs: it runs the harness as the course's last lesson leaves it.")
    assert "Checking" not in done.stderr


def test_a_passing_harness_runs_its_own_code_and_the_pass_is_remembered(workdir, tmp_path):
    """The file's own words are what the model is told: its SYSTEM opens the briefing."""
    mine = reference().replace('SYSTEM = "You are a helpful assistant."',
                               'SYSTEM = "You are my own agent, built in sixteen lessons."')
    path = tmp_path / "harness.py"
    path.write_text(mine)
    with lab.ChatServer([lab.say("First."), lab.say("Second.")]) as server:
        first = run(options(server, workdir, "Hi.", harness=path), timeout=120)
        second = run(options(server, workdir, "Again.", harness=path))
    assert first.returncode == 0, first.stderr
    assert "Checking harness.py against the labs of lessons 1-" in first.stderr
    assert "harness.py (its labs pass)" in first.stderr
    assert second.returncode == 0, second.stderr
    assert "Checking" not in second.stderr and "harness.py (checked earlier)" in second.stderr
    assert server.problems == []
    assert server.requests[0]["messages"][0]["content"].startswith("You are my own agent")
    assert len(json.loads((workdir / ".agent" / "checked.json").read_text())) == 1
