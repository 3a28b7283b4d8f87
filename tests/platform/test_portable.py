"""The learner's side runs where Unix-only modules do not exist (Windows): notebooks, rungs,
checks, starters, diffs and lab_check, with `resource`, `fcntl` and `os.fork` taken away, and
select() limited to sockets as it is on Windows.

Each step runs in a fresh process whose site start-up (a sitecustomize on PYTHONPATH, which every
child process inherits, the notebook's kernel included) makes those modules unimportable and
deletes the POSIX-only functions, the way they are missing on Windows. The instructor's grader
(lab/grader/) is Linux-only and is not part of this.
"""

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from lab import lessons
from lab.course import starters
from lab.lessons import build

ROOT = Path(__file__).resolve().parents[2]
LESSON = 12
# What a learner-side time limit or sandbox would reach for. The third-party libraries underneath
# (platformdirs, jupyter_client) branch on sys.platform for things like os.getuid, so only what
# the course itself might use is taken away: taking more would test those libraries, not the course.
UNIX_ONLY_MODULES = ("resource", "fcntl")
UNIX_ONLY_FUNCTIONS = {"os": ("fork", "forkpty"),
                       "signal": ("setitimer", "getitimer", "alarm", "SIGALRM")}

SITECUSTOMIZE = f"""\
# Written by tests/platform/test_portable.py: this process is to behave as if it were on Windows.
import sys
for name in {UNIX_ONLY_MODULES!r}:
    sys.modules[name] = None          # `import name` now raises ImportError
import os, signal
for module, names in (("os", {UNIX_ONLY_FUNCTIONS['os']!r}), ("signal", {UNIX_ONLY_FUNCTIONS['signal']!r})):
    for attribute in names:
        try:
            delattr(sys.modules[module], attribute)
        except AttributeError:
            pass
# Windows' select() waits on sockets only, and it has no poll/epoll: a pipe there is an error.
# Only where asked: the kernel's zmq sockets are eventfds on Linux (sockets on Windows), so the
# kernel cannot run under this, and it is lab_check that waits on a pipe.
import select, stat
for name in (("poll", "epoll", "devpoll", "kqueue") if os.environ.get("SELECT_SOCKETS_ONLY") else ()):
    if hasattr(select, name):
        delattr(select, name)
class _SocketsOnly:
    # A class, not a function, so that it does not become a method where a class keeps it
    # (selectors.SelectSelector._select = select.select).
    select = staticmethod(select.select)
    def __call__(self, *lists_and_timeout):
        for items in lists_and_timeout[:3]:
            for item in items:
                fd = item if isinstance(item, int) else item.fileno()
                if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                    raise OSError("select() on Windows waits on sockets only, and this is not one")
        return self.select(*lists_and_timeout)
if os.environ.get("SELECT_SOCKETS_ONLY"):
    select.select = _SocketsOnly()
"""


@pytest.fixture(scope="module")
def windowsish(tmp_path_factory):
    """The environment of a process with the Unix-only parts gone, and a folder to work in."""
    where = tmp_path_factory.mktemp("windowsish")
    (where / "prelude").mkdir()
    (where / "prelude" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(where / "prelude"), str(ROOT)])
    env.pop("LAB_RUNGS_DIR", None)
    return env, where


def run(env, *args, cwd=ROOT, timeout=300):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=timeout)


def test_the_prelude_takes_the_unix_only_parts_away(windowsish):
    env, _ = windowsish
    probe = ("import os, signal\n"
             "for name in ('resource', 'fcntl'):\n"
             "    try:\n        __import__(name)\n        print(name, 'importable')\n"
             "    except ImportError:\n        pass\n"
             "print(hasattr(os, 'fork'), hasattr(signal, 'setitimer'))\n")
    done = run(env, "-c", probe)
    assert (done.stdout, done.stderr) == ("False False\n", "")


def test_lab_imports_and_a_rung_shows_its_text(windowsish):
    env, _ = windowsish
    first = lessons.load(LESSON).RUNGS[0].id
    done = run(env, "-c", f"import lab; print(repr(lab.rung({LESSON}, {first!r})))")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert f"[lesson {LESSON} · question {first}" in done.stdout


def test_starter_and_diff(windowsish):
    env, _ = windowsish
    starter = run(env, "-m", "lab", "starter", str(LESSON))
    assert starter.returncode == 0 and starter.stderr == "", starter.stderr
    assert starter.stdout == starters.text_at(starters.Stage(LESSON, 1))
    diff = run(env, "-m", "lab", "diff", str(LESSON - 1), str(LESSON))
    assert diff.returncode == 0 and diff.stderr == "" and diff.stdout.strip(), diff.stderr


def test_lab_check_passes_the_solved_starter(windowsish):
    env, where = windowsish
    harness = where / "harness.py"
    harness.write_text(starters.text_at(starters.Stage(LESSON, 2), solved=True))
    env = dict(env, SELECT_SOCKETS_ONLY="1")
    done = run(env, "lab/lab_check.py", "--lesson", str(LESSON), "--harness", str(harness))
    assert done.returncode == 0 and done.stderr == "", done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].endswith(" passed, 0 failed")


def test_the_learners_edition_runs(windowsish):
    """Every cell of the learner's edition runs in a kernel that has no Unix-only parts either
    (its first cell proves that), from the folder the learner's copy lives in."""
    env, where = windowsish
    nb = build.learner_copy(nbformat.read(build.notebook_path(LESSON), as_version=4))
    nb.cells.insert(0, nbformat.v4.new_code_cell(
        "import os\nassert not hasattr(os, 'fork'), 'the kernel still has os.fork'\n"
        "try:\n    import resource\nexcept ImportError:\n    pass\n"
        "else:\n    raise AssertionError('the kernel can import resource')"))
    source, ran = where / "learner.ipynb", where / "ran.ipynb"
    nbformat.write(nb, source)
    script = ("import sys, nbformat\nfrom lab.lessons import build\n"
              "nb = build.execute(nbformat.read(sys.argv[1], as_version=4), cwd=sys.argv[3])\n"
              "nbformat.write(nb, sys.argv[2])\n")
    workdir = where / "mywork"
    workdir.mkdir()
    done = run(env, "-c", script, str(source), str(ran), str(workdir), timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    executed = nbformat.read(ran, as_version=4)
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert errors == []
    assert sum(1 for c in executed.cells if c.cell_type == "code" and c.execution_count) > 10


def test_lab_check_stops_an_endless_harness(windowsish):
    env, where = windowsish
    harness = where / "endless.py"
    harness.write_text("while True:\n    pass\n")
    env = dict(env, SELECT_SOCKETS_ONLY="1")
    done = run(env, "lab/lab_check.py", "--lesson", str(LESSON), "--harness", str(harness),
               "--timeout", "2", timeout=60)
    assert (done.returncode, done.stderr) == (1, "")
    assert "FAIL  importing endless.py did not finish within 2 s" in done.stdout
