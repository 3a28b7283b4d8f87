"""Which Pythons the course accepts, said the same way everywhere, and how one is picked
(scripts/find-python, which the Makefile and .ci/run use)."""

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIND = ROOT / "scripts" / "find-python"
pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")


def test_requires_python_and_environment_yml_agree():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"
    lines = (ROOT / "environment.yml").read_text().splitlines()
    assert [l.strip() for l in lines if re.match(r"\s*- python\b", l)] == ["- python>=3.11"]


def fake_python(folder, name, version=None):
    """A `name` on PATH that reports `version` like a Python would, or fails like a pyenv shim
    for a version that is not active (version None)."""
    path = folder / name
    if version is None:
        path.write_text(f"#!/bin/sh\necho 'pyenv: {name}: command not found' >&2\nexit 127\n")
    else:
        path.write_text("#!/bin/sh\n"
                        f'exec {sys.executable} -c "import sys; sys.version_info = {version!r}; '
                        'exec(sys.argv[-1])" "$@"\n')
    path.chmod(0o755)


def find(folder, *args):
    """Run find-python with PATH = `folder` and the few tools it uses, nothing else (/usr/bin
    would bring the machine's own Pythons in)."""
    tools = folder / "tools"
    tools.mkdir(exist_ok=True)
    for name in ("sh", "sort", "cut", "basename"):
        if not (tools / name).exists():
            (tools / name).symlink_to(shutil.which(name))
    env = dict(os.environ, PATH=f"{folder}{os.pathsep}{tools}")
    return subprocess.run(["sh", str(FIND), *args], capture_output=True, text=True, env=env)


def test_the_newest_that_runs_is_picked(tmp_path):
    fake_python(tmp_path, "python3.13")              # a shim that does not run
    fake_python(tmp_path, "python3.12", (3, 12, 1))
    fake_python(tmp_path, "python3.11", (3, 11, 7))
    fake_python(tmp_path, "python3", (3, 10, 13))
    done = find(tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "python3.12\n", "")


def test_python3_counts_when_it_is_new_enough(tmp_path):
    fake_python(tmp_path, "python3", (3, 13, 0))
    assert find(tmp_path).stdout == "python3\n"


def test_none_fit_is_one_sentence_naming_the_versions(tmp_path):
    fake_python(tmp_path, "python3", (3, 10, 13))
    fake_python(tmp_path, "python3.11")
    done = find(tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    message = done.stderr.strip()
    assert "\n" not in message and message.count(". ") == 0 and message.endswith(".")
    assert "3.13, 3.12 or 3.11" in message and "PYTHON=" in message


def test_all_lists_each_version_once_newest_first(tmp_path):
    fake_python(tmp_path, "python3.11", (3, 11, 7))
    fake_python(tmp_path, "python3", (3, 11, 7))
    fake_python(tmp_path, "python3.12", (3, 12, 1))
    done = find(tmp_path, "--all")
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["3.12", "3.11"]


def test_the_ci_and_the_finder_name_the_same_versions():
    ci = (ROOT / ".ci" / "run").read_text()
    supported = re.search(r'^SUPPORTED="([^"]*)"', ci, re.M).group(1).split()
    finder = FIND.read_text()
    candidates = re.search(r'^CANDIDATES="([^"]*)"', finder, re.M).group(1).split()
    assert [c.removeprefix("python") for c in candidates if c != "python3"] == supported[::-1]


def test_start_py_on_an_older_python_says_which_it_needs(monkeypatch, capsys):
    import importlib.util
    spec = importlib.util.spec_from_file_location("start_script", ROOT / "start.py")
    start = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(start)
    monkeypatch.setattr(start.sys, "version_info", (3, 10, 13, "final", 0))
    assert start.main(["--print-command"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "this is Python 3.10; the course needs Python 3.11 or newer" in err
