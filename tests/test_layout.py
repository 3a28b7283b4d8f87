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


def test_loading_jsonschema_builds_no_parser():
    """Every JupyterLab, nbgrader and grader process loads jsonschema. From 4.25 on, the extra of
    it that jupyter-events asks for brings rfc3987-syntax, which builds a parser as it is
    imported: 1.4 s of CPU in each of those processes. The lock keeps jsonschema at 4.24."""
    import subprocess
    import sys
    probe = ("import sys, nbformat, jsonschema; "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'rfc3987_syntax', 'lark'}))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", (
        f"importing jsonschema loads {done.stdout.strip()}: constraints.txt must keep jsonschema "
        "below 4.25, or every process that validates a notebook spends 1.4 s building a parser")


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "make lab" in readme and "make test" in readme


def test_every_dependency_is_explained_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    for pin in pins_of_pyproject():
        assert f"`{pin.split('==')[0]}`" in readme, pin


def test_the_readme_links_every_written_lesson_and_names_what_the_learner_writes():
    from lab import lessons
    from lab.course import manifest
    readme = (ROOT / "README.md").read_text()
    rows = {int(m.group(1)): m.group(0) for m in re.finditer(r"^\| (\d\d) \|.*$", readme, re.M)}
    for lesson in lessons.written():
        notebook = lessons.load(lesson).NOTEBOOK
        assert lesson in rows, f"the README's lesson table has no row for lesson {lesson:02d}"
        assert f"(notebooks/{notebook})" in rows[lesson], f"the README does not link notebooks/{notebook}"
        for name in manifest.names(lesson):
            assert f"`{manifest.bare(name)}" in rows[lesson] or f"`{name}`" in rows[lesson], \
                f"the README's row for lesson {lesson:02d} does not name {name}"


def test_tests_that_share_a_set_up_run_in_one_process(tmp_path):
    """`make test`'s --dist loadgroup keeps the tests of one xdist_group in one process, marked as
    tests/conftest.py marks them; pytest 9.2 silently undid that (pytest-xdist #1386), and every
    shared set-up (a graded course, a JupyterLab, a hub) was then made in each process."""
    import os
    import subprocess
    import sys
    (tmp_path / "conftest.py").write_text(
        "import pytest\n"
        "@pytest.hookimpl(tryfirst=True)\n"
        "def pytest_collection_modifyitems(items):\n"
        "    for item in items:\n"
        "        item.add_marker(pytest.mark.xdist_group('shared'))\n")
    for n in range(4):
        (tmp_path / f"test_{n}.py").write_text(
            "import os\n"
            f"def test_{n}(): open('worker-{n}', 'w').write(os.environ['PYTEST_XDIST_WORKER'])\n")
    # pytest and pytest-xdist alone (the other plugins installed add seconds of start-up to each
    # of the three processes, and nothing to the grouping)
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "xdist.plugin",
                           "-n", "2", "--dist", "loadgroup", str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout[-2000:]
    workers = {(tmp_path / f"worker-{n}").read_text() for n in range(4)}
    assert len(workers) == 1, f"the tests of one xdist_group ran in {sorted(workers)}: pytest-xdist did not group them"


def _fake_item(group):
    from types import SimpleNamespace
    mark = SimpleNamespace(args=(group,), kwargs={})
    return SimpleNamespace(group=group, get_closest_marker=lambda name: mark if group else None)


def _suite_conftest():
    import importlib.util
    spec = importlib.util.spec_from_file_location("suite_conftest", ROOT / "tests" / "conftest.py")
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)
    return suite


def test_the_longest_shared_set_ups_are_scheduled_first():
    """tests/conftest.py puts the browser tests, the grading suite and the browser walks before
    every other group (the rest most tests first), and the tests of no group last, each group's
    order kept."""
    suite = _suite_conftest()
    groups = [None, "lesson05", "grading", "browser-walks", "lesson12", "browser", "lesson12", None,
              "grading", "browser", "lesson12", "browser-walks"]
    items = [_fake_item(group) for group in groups]
    for n, item in enumerate(items):
        item.n = n
    order = [(item.group, item.n) for item in suite.schedule_order(items)]
    assert order == [("browser", 5), ("browser", 9), ("grading", 2), ("grading", 8),
                     ("browser-walks", 3), ("browser-walks", 11),
                     ("lesson12", 4), ("lesson12", 6), ("lesson12", 10), ("lesson05", 1),
                     (None, 0), (None, 7)], f"schedule_order gave {order}"


def test_the_browser_tests_are_two_groups_and_every_walk_file_exists():
    """The walks through every lesson and the themes share one JupyterLab, the other browser
    tests another (tests/conftest.py says why); a walk file renamed would quietly join the other."""
    suite = _suite_conftest()
    for name in suite.WALKS:
        assert (ROOT / "tests" / "browser" / name).exists(), f"tests/conftest.py WALKS names {name}, which does not exist"
        assert suite.group_for(["tests", "browser", f"{name}::test_x"]) == "browser-walks"
    assert suite.group_for(["tests", "browser", "test_front_door.py::test_x"]) == "browser"
    assert suite.group_for(["tests", "grading", "test_wrong_answers.py::test_x"]) is None
    assert suite.group_for(["tests", "grading", "test_scores.py::test_x"]) == "grading"
    assert suite.group_for(["tests", "test_carry.py::test_x"]) is None


def test_the_grading_tests_shared_out_share_no_set_up_with_the_grading_suite():
    """A test of SHARED_OUT that took the graded course, or a module-scoped worker, would make
    that set-up again in every process it lands in."""
    import ast
    suite = _suite_conftest()
    for name in suite.SHARED_OUT:
        path = ROOT / "tests" / "grading" / name
        assert path.exists(), f"tests/conftest.py SHARED_OUT names {name}, which does not exist"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                taken = {a.arg for a in node.args.args}
                assert "graded" not in taken, f"{name}: {node.name} takes the graded course, so it " \
                    "belongs with the grading suite: take the file out of SHARED_OUT"
                for decorator in node.decorator_list:
                    text = ast.unparse(decorator)
                    assert not ("fixture" in text and "scope" in text), f"{name}: {node.name} is a " \
                        "shared fixture, so its tests belong in one process: take the file out of SHARED_OUT"


def test_auto_starts_one_process_more_than_the_cores(monkeypatch):
    suite = _suite_conftest()
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert suite.pytest_xdist_auto_num_workers(None) == 3
    monkeypatch.setattr("os.cpu_count", lambda: None)
    assert suite.pytest_xdist_auto_num_workers(None) == 2
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "5")
    assert suite.pytest_xdist_auto_num_workers(None) == 5


def test_make_test_writes_bytecode_caches():
    """A machine that sets PYTHONDONTWRITEBYTECODE would have every Python the suite starts
    compile lab and harness again (the Makefile says why it is cleared)."""
    command = re.search(r"^test:.*\n(?:#.*\n)*\t(.*)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    assert command.startswith("PYTHONDONTWRITEBYTECODE= "), f"make test runs {command!r}"


def test_xdist_starts_the_groups_in_the_order_collection_gives(tmp_path):
    """With the Makefile's --no-loadscope-reorder, pytest-xdist starts the groups in the order
    tests/conftest.py sorted them; without it, it starts the group of most tests first, and a
    small group with a long set-up (the browser tests) would start last."""
    import os
    import subprocess
    import sys
    command = re.search(r"^test:.*\n\t(.*)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    assert "--dist loadgroup --no-loadscope-reorder" in command, f"make test runs {command!r}"
    (tmp_path / "conftest.py").write_text(
        "import pytest\n"
        "@pytest.hookimpl(tryfirst=True)\n"
        "def pytest_collection_modifyitems(items):\n"
        "    for item in items:\n"
        "        item.add_marker(pytest.mark.xdist_group('small' if 'few' in item.name else 'big'))\n"
        "    items.sort(key=lambda item: 'few' not in item.name)\n")
    (tmp_path / "test_order.py").write_text(
        "import pytest\n"
        "@pytest.mark.parametrize('n', range(4))\n"
        "def test_many(n): open('ran', 'a').write('many ')\n"
        "def test_few(): open('ran', 'a').write('few ')\n")
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")

    def first(*flags):
        (tmp_path / "ran").unlink(missing_ok=True)
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                               "xdist.plugin", "-n", "1", "--dist", "loadgroup", *flags, str(tmp_path)],
                              cwd=tmp_path, capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stdout[-2000:]
        return (tmp_path / "ran").read_text().split()[0]
    assert first("--no-loadscope-reorder") == "few", "xdist did not keep the collection's order"
    assert first() == "many", "xdist no longer reorders groups by size: the flag may be unneeded"
