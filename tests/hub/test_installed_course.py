"""A course installed the way the recipe's learner image installs it (`pip install .`, not
editable, so the solved reference harness sits in site-packages) still keeps the reference out of
a sandboxed submission's reach, when the grader itself runs from that installation.

The grader below is the installed copy's own lab.grader, in a fresh virtual environment that
holds the course; the attacks read the installed reference by path, list it, import it from
site-packages, and read the base Python's own site-packages, where `pip install .` without a
virtual environment would have put it. Each is first run outside the sandbox, where it must work
(so the test cannot pass by attacking nothing), then in every sandbox mode this machine has.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PROBE = r'''
import glob, json, os, sys, sysconfig, time
import harness.compaction as reference
from lab.grader import sandbox, worker_world
venv = sys.argv[1]
assert reference.__file__.startswith(venv), reference.__file__
assert "def summarize" in open(reference.__file__).read()
installed = os.path.dirname(reference.__file__)
base_purelib = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_prefix})["purelib"]
attacks = {
    "read the installed reference": f"text = open({reference.__file__!r}).read()",
    "list the installed package": f"import os\nnames = os.listdir({installed!r})",
    "import it from site-packages": (
        f"import sys, importlib\nsys.path.insert(0, {os.path.dirname(installed)!r})\n"
        "sys.modules.pop('harness', None)\nmodule = importlib.import_module('harness.compaction')\n"
        "text = open(module.__file__).read()"),   # the installed file, not the worker's starter
}
for folder in sorted(set([base_purelib] + worker_world.package_dirs())):
    files = sorted(glob.glob(os.path.join(folder, "*", "__init__.py")))
    if files:
        attacks[f"read {folder}"] = f"text = open({files[0]!r}).read()"
outside = {}
for name, code in attacks.items():
    try:
        exec(code, {})
        outside[name] = "read it"
    except Exception as error:
        outside[name] = type(error).__name__
modes = [sandbox.detect()] + (["process"] if sandbox.detect() != "process" else [])
inside = {}
for mode in modes:
    with sandbox.Worker("def helper():\n    return 1\n", mode=mode) as worker:
        inside[mode] = {}
        for name, code in attacks.items():
            error = worker.run_cell(code, "<attack>", time.monotonic() + 10)
            inside[mode][name] = "read it" if error is None else type(error).__name__
print(json.dumps({"outside": outside, "inside": inside, "purelib": base_purelib,
                  "hidden": worker_world.package_dirs()}))
'''


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A virtual environment with the course pip-installed into it (not editable), and the
    grader's own dependencies visible behind it."""
    root = tmp_path_factory.mktemp("installed-course")
    source = root / "source"
    source.mkdir()
    # a copy, so that building the wheel writes nothing into the shared checkout
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for package in ("harness", "lab"):
        shutil.copytree(REPO / package, source / package, ignore=skip)
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                           "--no-deps", "--target", str(site), str(source)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert done.returncode == 0, f"pip install . failed:\n{done.stdout}"
    assert (site / "harness" / "compaction.py").exists()
    # the course's dependencies (nbformat, ...) from this environment, after the installed copy
    here = sysconfig.get_paths()["purelib"]
    (site / "zz-course-dependencies.pth").write_text(here + "\n")
    return venv


def test_a_pip_installed_course_keeps_its_reference_from_the_sandbox(installed):
    done = subprocess.run([str(installed / "bin" / "python"), "-c", PROBE, str(installed)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=installed,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(installed)},
                          timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    # outside the sandbox every attack works: they aim at real files
    assert set(report["outside"].values()) == {"read it"}, report["outside"]
    for mode, results in report["inside"].items():
        leaked = {name: how for name, how in results.items() if how == "read it"}
        assert not leaked, f"in {mode} mode a submission could: {leaked}"
    assert report["purelib"] in report["hidden"] or not os.path.isdir(report["purelib"])
