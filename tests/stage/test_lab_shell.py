"""lab.Shell: scripted command output for the bash tool."""

import pytest

import harness
import lab


def test_scripted_commands_and_history():
    shell = lab.Shell({"pytest": ("1 failed\n", 1), "ls": "a.py\n"})
    shell.script("echo hi", "hi\n")
    assert shell.run("ls") == ("a.py\n", 0)
    assert shell.run("pytest") == ("1 failed\n", 1)
    assert shell.run("echo hi") == ("hi\n", 0)
    assert shell.run("rm -rf build") == ("bash: rm: command not found\n", 127)
    assert shell.history == ["ls", "pytest", "echo hi", "rm -rf build"]


def test_a_function_can_answer():
    shell = lab.Shell({"date": lambda command: ("Monday\n", 0)})
    assert shell.run("date") == ("Monday\n", 0)
    broken = lab.Shell({"date": lambda command: "Monday"})
    with pytest.raises(TypeError):
        broken.run("date")


def test_bad_scripts_are_refused():
    with pytest.raises(TypeError):
        lab.Shell({"ls": 3})
    with pytest.raises(TypeError):
        lab.Shell().run(["ls"])


def test_drives_the_bash_tool():
    shell = lab.Shell({"pytest": ("3 passed\n1 failed\n", 1)})
    bash = harness.make_bash_tool(shell)
    assert bash["execute"]({"command": "pytest"}) == "3 passed\n1 failed\n\nCommand exited with code 1"
    assert shell.history == ["pytest"]
