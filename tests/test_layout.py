"""The project's set-up files agree with each other and with the README's contract."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pins_of_pyproject():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return sorted(d.split("#")[0].strip() for d in deps)


def pins_of_environment():
    text = (ROOT / "environment.yml").read_text()
    return sorted(m.group(1) for m in re.finditer(r"^\s+- ([A-Za-z0-9_.-]+==[^\s]+)$", text, re.M))


def test_pyproject_and_environment_pin_the_same_dependencies():
    assert pins_of_pyproject() == pins_of_environment()
    assert all("==" in pin for pin in pins_of_pyproject())


def test_the_lock_agrees_with_the_pins():
    lock = dict(line.split("==") for line in (ROOT / "constraints.txt").read_text().split()
                if "==" in line)
    lock = {k.lower().replace("_", "-"): v for k, v in lock.items()}
    for pin in pins_of_pyproject():
        name, version = pin.split("==")
        assert lock.get(name.lower().replace("_", "-")) == version, pin


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "make lab" in readme and "make test" in readme


def test_every_dependency_is_explained_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    for pin in pins_of_pyproject():
        assert f"`{pin.split('==')[0]}`" in readme, pin


def test_the_readme_links_every_written_lesson_and_names_what_the_learner_writes():
    from lab import lessons, manifest
    readme = (ROOT / "README.md").read_text()
    rows = {int(m.group(1)): m.group(0) for m in re.finditer(r"^\| (\d\d) \|.*$", readme, re.M)}
    for lesson in lessons.written():
        notebook = lessons.load(lesson).NOTEBOOK
        assert lesson in rows, f"the README's lesson table has no row for lesson {lesson:02d}"
        assert f"(notebooks/{notebook})" in rows[lesson], f"the README does not link notebooks/{notebook}"
        for name in manifest.names(lesson):
            assert f"`{manifest.bare(name)}" in rows[lesson] or f"`{name}`" in rows[lesson], \
                f"the README's row for lesson {lesson:02d} does not name {name}"
