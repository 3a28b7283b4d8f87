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


def find(folder, *args, home=None):
    """Run find-python with PATH = `folder` and the few tools it uses, nothing else (/usr/bin
    would bring the machine's own Pythons in), HOME = `home` (an empty folder unless given) and
    no PYENV_ROOT, and no python.org frameworks folder."""
    tools = folder / "tools"
    tools.mkdir(exist_ok=True)
    for name in ("sh", "sort", "cut", "basename"):
        if not (tools / name).exists():
            (tools / name).symlink_to(shutil.which(name))
    if home is None:
        home = folder / "home"
        home.mkdir(exist_ok=True)
    env = dict(os.environ, PATH=f"{folder}{os.pathsep}{tools}", HOME=str(home),
               FIND_PYTHON_FRAMEWORKS=str(folder / "no-frameworks"))
    env.pop("PYENV_ROOT", None)
    return subprocess.run(["sh", str(FIND), *args], capture_output=True, text=True, env=env)


def said(done, version, command):
    """find-python's sentence on standard error for the Python it took."""
    return (f"find-python: the course runs on Python {version}, {command} (the newest 3.11 or "
            "later found); to choose another, run make lab PYTHON=/path/to/python3.\n")


def test_the_newest_that_runs_is_picked(tmp_path):
    fake_python(tmp_path, "python3.13")              # a shim that does not run
    fake_python(tmp_path, "python3.12", (3, 12, 1))
    fake_python(tmp_path, "python3.11", (3, 11, 7))
    fake_python(tmp_path, "python3", (3, 10, 13))
    done = find(tmp_path)
    assert (done.returncode, done.stdout) == (0, "python3.12\n")
    assert done.stderr == said(done, "3.12", "python3.12")


def pyenv_versions(root, *versions):
    """pyenv's versions folder under `root`, with a fake Python in each X.Y.Z/bin."""
    for version in versions:
        bin_ = root / "versions" / ".".join(map(str, version)) / "bin"
        bin_.mkdir(parents=True)
        fake_python(bin_, f"python{version[0]}.{version[1]}", version)


def test_pyenv_s_newer_python_wins_over_an_older_one_on_path(tmp_path):
    # The learner's case: 3.11 on PATH, 3.13 installed with pyenv and not active (its shim fails).
    fake_python(tmp_path, "python3.11", (3, 11, 7))
    fake_python(tmp_path, "python3.13")
    root = tmp_path / "pyenv-root"
    pyenv_versions(root, (3, 12, 4), (3, 13, 1))
    (tmp_path / "pyenv").write_text("#!/bin/sh\n"
                                    f'case "$1" in root) echo "{root}" ;;\n'
                                    '  versions) echo 3.12.4; echo 3.13.1 ;; esac\n')
    (tmp_path / "pyenv").chmod(0o755)
    done = find(tmp_path)
    took = f"{root}/versions/3.13.1/bin/python3.13"
    assert (done.returncode, done.stdout, done.stderr) == (0, took + "\n", said(done, "3.13", took))
    listed = find(tmp_path, "--all").stdout.splitlines()
    assert [line.split()[0] for line in listed] == ["3.13", "3.12", "3.11"]


def test_a_pyenv_folder_counts_without_the_pyenv_command(tmp_path):
    fake_python(tmp_path, "python3", (3, 11, 2))
    home = tmp_path / "home"
    pyenv_versions(home / ".pyenv", (3, 12, 8))
    done = find(tmp_path, home=home)
    assert done.stdout == f"{home}/.pyenv/versions/3.12.8/bin/python3.12\n"


def test_the_windows_launcher_s_pythons_count(tmp_path):
    # `py -0p` as Python 3.12's launcher prints it (the older launcher's "-3.11-64" tags too).
    store = tmp_path / "Program Files"
    for version in ((3, 13, 0), (3, 11, 9)):
        folder = store / f"Python3{version[1]}"
        folder.mkdir(parents=True)
        fake_python(folder, "python.exe", version)
    (tmp_path / "py").write_text("#!/bin/sh\n[ \"$1\" = -0p ] || exit 1\n"
                                 f"echo ' -V:3.13 *        {store}/Python313/python.exe'\n"
                                 f"echo ' -3.11-64        {store}/Python311/python.exe'\n")
    (tmp_path / "py").chmod(0o755)
    done = find(tmp_path)
    assert done.stdout == f"{store}/Python313/python.exe\n"
    assert [line.split()[0] for line in find(tmp_path, "--all").stdout.splitlines()] == ["3.13", "3.11"]


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
    assert "pyenv" in message and "py launcher" in message


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
