"""The worker the learner's code runs in, and the wire between it and the grader."""

import os
import time
from types import SimpleNamespace

import nbformat
import pytest

from lab.grader import audit, sandbox, verdict, wire, worker_world
from lab.grader import session as grading_session

from .conftest import REPO

STARTER = "def helper(x):\n    return x * 2\n"


@pytest.fixture(scope="module")
def worker():
    with sandbox.Worker(STARTER) as w:
        w.peer.deadline = None
        yield w


def run(worker, source, seconds=5):
    return worker.run_cell(source, "<test>", time.monotonic() + seconds)


def test_the_worker_cannot_see_the_repository_or_the_course(worker):
    error = run(worker, f"open({str(REPO / 'harness' / 'compaction.py')!r}).read()")
    assert isinstance(error, (FileNotFoundError, PermissionError)), error
    error = run(worker, f"import os\nos.listdir({str(REPO)!r})")
    assert isinstance(error, (FileNotFoundError, PermissionError)), error


def test_the_worker_has_no_network_no_processes_and_no_signals(worker):
    assert isinstance(run(worker, "import socket"), ImportError)
    assert isinstance(run(worker, "import subprocess"), ImportError)
    assert isinstance(run(worker, "import os\nos.fork()"), PermissionError)
    assert isinstance(run(worker, "import os\nos.kill(1, 9)"), PermissionError)
    assert isinstance(run(worker, "import ctypes"), ImportError)


def test_the_worker_writes_only_in_its_own_directory(worker):
    assert run(worker, "open('notes.txt', 'w').write('mine')") is None
    elsewhere = "/" + "/".join(["tmp", "elsewhere.txt"])  # the machine's shared temporary folder
    assert isinstance(run(worker, f"open({elsewhere!r}, 'w')"), PermissionError)


def test_a_message_many_reads_long_crosses_whole_both_ways(worker):
    """The wire reads at most wire.READ_SIZE bytes at a time: a value many reads long (and with
    text beyond ASCII) arrives whole, from the worker and to it, and the next message after it
    is read on its own."""
    text = "é" + "0123456789" * (wire.READ_SIZE // 2) + "ü"
    assert len(text.encode()) > 4 * wire.READ_SIZE
    assert run(worker, f"big = {text!r} * 2") is None
    assert worker.lookup("big") == text * 2
    echo = worker.lookup("helper")
    assert echo(text) == text * 2
    assert echo(3) == 6


def test_memory_is_limited():
    with sandbox.Worker(STARTER, limits=worker_world.Limits(memory_mb=256)) as w:
        assert isinstance(run(w, "hog = bytearray(1 << 30)"), MemoryError)
        assert run(w, "small = bytearray(1 << 20)") is None


def test_time_is_limited_and_the_process_is_killed():
    w = sandbox.Worker(STARTER)
    started = time.monotonic()
    with pytest.raises(wire.TimedOut):
        run(w, "while True:\n    pass", seconds=1)
    assert time.monotonic() - started < 3
    w.kill()
    assert w.exit_status() == "killed by SIGKILL"


def _budgeted(w, seconds):
    """The worker's next cell timed as the grader times it: CPU seconds, the wall as backstop,
    read of the worker by the grading session's own reader."""
    budget = grading_session.Budget(seconds, lambda: grading_session.Session._worker_cpu(SimpleNamespace(worker=w)))
    w.peer.more_time = budget.more
    return budget.deadline


def _hogs(cpu, count):
    """`count` processes that keep CPU `cpu` busy, at this process's priority, each in a session
    of its own as the worker is (where the kernel shares a CPU out between sessions first)."""
    import subprocess
    import sys
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(count)]
    for hog in hogs:
        os.sched_setaffinity(hog.pid, {cpu})
    return hogs


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or worker_world.queued_seconds_of([os.getpid()]) is None,
                    reason="needs Linux's CPU affinity and schedstat")
def test_a_cell_slowed_by_a_busy_machine_is_not_cut_at_the_wall_backstop():
    """Half a CPU second of work on a CPU shared with six busy processes takes some 3.5 s of
    wall time, past the 3 s backstop of a 1 s limit: the time it waited for the CPU is not
    time it spent waiting without computing, so the right answer is not cut (session.Budget)."""
    cpu = min(os.sched_getaffinity(0))
    with sandbox.Worker(STARTER) as w:
        for pid in worker_world.group_members(w.process.pid):
            os.sched_setaffinity(pid, {cpu})
        code = ("import time\nspent = time.process_time()\n"
                "while time.process_time() - spent < 0.5:\n    pass\ndone = 1")
        hogs = _hogs(cpu, 6)
        try:
            started = time.monotonic()
            error = w.run_cell(code, "<test>", _budgeted(w, 1))
            took = time.monotonic() - started
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
        assert took > grading_session.WALL_FACTOR, f"the machine was not busy enough to show it ({took:.1f} s)"
        assert error is None and w.lookup("done") == 1, \
            "session.Budget cut a cell that computed for half its limit and waited for a CPU the rest"


def test_a_cell_that_waits_without_computing_is_not_cut_at_its_wall_time():
    # As a cell starved by a busy grading server: its wall time passes, its CPU time does not.
    with sandbox.Worker(STARTER) as w:
        started = time.monotonic()
        assert w.run_cell("import time\ntime.sleep(1.5)\ndone = 1", "<test>", _budgeted(w, 1)) is None
        assert time.monotonic() - started >= 1.5
        assert w.lookup("done") == 1


def test_a_busy_loop_is_cut_at_its_cpu_seconds_and_a_sleeper_at_the_wall_backstop():
    # Cut by its CPU seconds, not by the wall: it used about the second it had, and it ran for
    # less than the wall backstop once the time it spent waiting for a CPU is left out (on a busy
    # machine a CPU second takes longer than that on the clock).
    with sandbox.Worker(STARTER) as w:
        budget = grading_session.Budget(1, lambda: grading_session.Session._worker_cpu(SimpleNamespace(worker=w)))
        w.peer.more_time = budget.more
        with pytest.raises(wire.TimedOut):
            w.run_cell("while True:\n    pass", "<test>", budget.deadline)
        assert 1 <= budget.used() < 1.5
        assert budget.waited(time.monotonic()) < grading_session.WALL_FACTOR
    with sandbox.Worker(STARTER) as w:
        started = time.monotonic()
        with pytest.raises(wire.TimedOut):
            w.run_cell("import time\ntime.sleep(60)", "<test>", _budgeted(w, 1))
        took = time.monotonic() - started
        assert grading_session.WALL_FACTOR - 0.1 <= took < grading_session.WALL_FACTOR + 2


def test_a_budget_counts_the_cpu_of_each_worker_it_has_seen_and_the_graders_own():
    readings = iter([("w1", 10.0, None), ("w1", 10.4, None), ("w2", 3.0, None), ("w2", 3.3, None)])
    budget = grading_session.Budget(1, lambda: next(readings))
    assert budget.used() == pytest.approx(0.4, abs=0.05)          # w1: 10.0 -> 10.4
    assert budget.used() == pytest.approx(0.4, abs=0.05)          # w2 first seen at 3.0: adds 0
    assert budget.more() is not None                              # 0.7 of 1 s used: time left
    unreadable = grading_session.Budget(1, lambda: None)
    assert unreadable.used() is None and unreadable.more() is None  # no /proc: the wall alone


def test_the_wall_backstop_leaves_out_the_time_spent_waiting_for_a_cpu():
    readings = iter([("w1", 10.0, 1.0), ("w1", 10.2, 6.0)])
    budget = grading_session.Budget(1, lambda: next(readings))
    assert budget.used() == pytest.approx(0.2, abs=0.05)
    # 6 s of wall, 5 of them queued for a CPU: 1 s counts against the 3 s backstop
    assert budget.waited(budget.started + 6) == pytest.approx(1.0, abs=0.05), \
        "session.Budget counts time spent waiting for a CPU as time spent waiting without computing"


def test_the_cpu_of_a_process_group_is_read_from_proc():
    import os
    members = worker_world.group_members(os.getpgrp())
    assert os.getpid() in members
    spent = worker_world.cpu_seconds_of(members)
    assert spent is not None and spent > 0
    assert worker_world.group_members(2 ** 22 + 12345) == []           # no such group
    assert worker_world.cpu_seconds_of([]) == 0 and worker_world.cpu_seconds_of(None) is None
    queued = worker_world.queued_seconds_of(members)
    assert queued is None or queued >= 0
    assert worker_world.queued_seconds_of([]) == 0 and worker_world.queued_seconds_of(None) is None


def test_a_process_that_ends_itself_is_reported_as_gone():
    w = sandbox.Worker(STARTER)
    with pytest.raises(wire.Gone):
        run(w, "import os\nos._exit(3)")
    w.kill()


def test_arguments_are_copied_in_and_changes_copied_back(worker):
    run(worker, "def grow(items, extra):\n    items.append(extra)\n    items[0]['seen'] = True\n    return items")
    grow = worker.lookup("grow")
    first = {"role": "user"}
    items = [first, (1, [2])]
    returned = grow(items, {3: "three", "$x": 1})
    assert items == [{"role": "user", "seen": True}, (1, [2]), {3: "three", "$x": 1}]
    assert items[0] is first and returned is items
    assert isinstance(items[1], tuple)


def test_objects_stay_where_they_live(worker):
    class Model:
        def __init__(self):
            self.calls = []

        def complete(self, system, messages, tools):
            self.calls.append(system)
            return {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}

    run(worker, "def ask(model):\n    reply = model.complete('sys', [], [])\n    model.calls.clear()\n"
                "    return reply['content'][0]['text'], type(model).__name__")
    model = Model()
    assert worker.lookup("ask")(model) == ("ok", "Remote")
    assert model.calls == ["sys"]   # the worker cleared a copy of the record, not the record


def test_the_grader_hands_over_no_private_attribute_no_module_and_no_class(worker):
    import os

    class Holder:
        module = os
        value = 1

        def method(self):
            return 2

    run(worker, "def probe(h, what):\n    return eval(what)")
    probe = worker.lookup("probe")
    holder = Holder()
    assert probe(holder, "h.value") == 1 and probe(holder, "h.method()") == 2
    assert probe(holder, "type(h).__name__") == "Remote"   # a handle, not the grader's class
    forged = "h._peer.request('getattr', h._handle, name={!r})"   # past the worker's own proxy
    for attempt in ("h.method.__func__", "h.module", "setattr(h, 'value', 5)",
                    forged.format("__class__"), forged.format("__dict__"), forged.format("_private"),
                    "h._peer.request('call', h._handle)"):
        with pytest.raises((AttributeError, TypeError)):
            probe(holder, attempt)
    assert Holder.value == 1 and holder.value == 1


def test_exceptions_keep_their_class_and_message(worker):
    run(worker, "class MyError(ValueError):\n    pass\n"
                "def fail(kind):\n"
                "    if kind == 'runtime': raise RuntimeError('no summary')\n"
                "    if kind == 'mine': raise MyError('odd')\n"
                "    if kind == 'exit': raise SystemExit(0)\n"
                "    kind()\n")
    fail = worker.lookup("fail")
    with pytest.raises(RuntimeError, match="no summary"):
        fail("runtime")
    with pytest.raises(ValueError) as caught:
        fail("mine")
    assert type(caught.value).__name__ == "MyError"
    with pytest.raises(wire.ExitRequested):
        fail("exit")
    mine = LookupError("the grader's own")

    def raiser():
        raise mine

    with pytest.raises(LookupError) as caught:
        fail(raiser)
    assert caught.value is mine


def test_a_result_that_is_not_data_compares_equal_to_nothing(worker):
    run(worker, "class Anything:\n    def __eq__(self, other):\n        return True\n"
                "def cut():\n    return Anything()")
    result = worker.lookup("cut")()
    assert isinstance(result, wire.Remote) and result != 0 and repr(result) == "<Anything from the learner's code>"


def test_the_process_sandbox_works_where_namespaces_do_not():
    with sandbox.Worker(STARTER, mode="process") as w:
        w.peer.deadline = time.monotonic() + 10
        assert w.lookup("helper")(21) == 42
        assert isinstance(run(w, f"open({str(REPO / 'harness' / 'compaction.py')!r})"), PermissionError)
        assert isinstance(run(w, "import socket"), ImportError)


def test_the_starter_is_compiled_once_in_the_grader_and_a_broken_one_is_refused_in_a_sentence():
    compiled = sandbox.starter_code(STARTER)
    assert sandbox.starter_code(STARTER) is compiled   # kept, not compiled again for each worker
    with pytest.raises(sandbox.SandboxError, match=r"^the starter harness does not compile \(line 2: "):
        sandbox.starter_code("x = 1\ndef broken(:\n")


def test_the_worker_harness_holds_no_answer():
    starter = grading_session.worker_starter(12)
    master = nbformat.read(REPO / "notebooks" / "12-memory-that-outlives-the-process.ipynb", as_version=4)
    distinctive = [line for line in audit.secret_lines(master)["solution"] if len(line) >= 20]
    assert len(distinctive) > 10 and audit.leaks(starter, distinctive) == []
    namespace = {}
    exec(compile(starter, "harness.py", "exec"), namespace)
    with pytest.raises(NotImplementedError):
        namespace["summarize"](None, [])
    with pytest.raises(NotImplementedError):
        namespace["compact"](None, None, keep_recent_tokens=10)
    long_reply = {"role": "assistant", "content": [{"type": "text", "text": "x" * 400}]}
    rows = [("e1", {"role": "user", "content": "a"}), ("e2", long_reply), ("e3", {"role": "user", "content": "b"})]
    budget = namespace["estimate_tokens"]([rows[2][1]]) + 1
    with pytest.raises(NotImplementedError):   # the given walk back runs, then the open snap forward
        namespace["find_cut"](rows, budget)
    assert namespace["find_cut"](rows, 10**6) == 0   # all of it fits: the given part answers alone


def test_a_check_cell_that_escapes_the_grading_lab_fails_closed():
    cells = [{"grade_id": "sneaky", "points": 1.0,
              "source": "from lab.runtime.checkcell import check\ncheck(12, lab=1)"},
             {"grade_id": "also", "points": 1.0, "source": "import lab.checks\nlab.check(12, lab=1)"}]
    result = verdict.grade(12, [("lab1-summarize", "def summarize(model, messages):\n    return 'x'")],
                           cells, timeout=10)
    assert {k: v["passed"] for k, v in result["cells"].items()} == {"sneaky": False, "also": False}
    assert "reads the notebook's own namespace" in result["cells"]["sneaky"]["reason"]
    assert result["cells"]["also"]["lines"][0].startswith("Lab 1 of lesson 12, tests: ")
    from lab import checks
    failed_test = result["cells"]["also"]["reason"].split(":")[0]
    assert failed_test in {t.name for t in checks.tests_for(12, 1, hidden=False)}


def test_doctor_names_the_sandbox(capsys):
    from lab.grader.__main__ import main
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"sandbox: {sandbox.detect()}: ")


@pytest.mark.parametrize("mode", ["process", sandbox.detect()])
def test_everyday_standard_library_works_in_the_worker(mode):
    with sandbox.Worker(STARTER, mode=mode) as w:
        for module in ("dataclasses", "logging", "typing", "copy", "json", "re", "textwrap", "warnings"):
            assert run(w, f"import {module}") is None, (mode, module)
        assert run(w, "import logging, warnings\nlogging.getLogger('x').warning('hi')\nwarnings.warn('w')") is None


def test_every_attack_scores_what_it_earned_in_the_weaker_process_sandbox(graded, monkeypatch):
    """Where no namespace can be made, the audit hook and the limits still hold every attack to
    its earned score (the main run used the strongest sandbox this machine has)."""
    from lab.grader import course, fixtures, nbgrader_ext
    monkeypatch.setattr(sandbox, "_mode", "process")
    application = course.app(graded.root)
    book = nbgrader_ext.book_of(application.coursedir.db_url, graded.assignment, graded.assignment)
    release = nbformat.read(graded.release, as_version=4)
    master = nbformat.read(graded.master, as_version=4)
    ctx = fixtures.context(graded.root)
    from .conftest import snapshot
    before = snapshot(REPO / "lab", REPO / "harness", REPO / "notebooks")
    from lab.lessons.lesson12.samples import ATTACKS
    for fixture in ATTACKS:
        fixture = fixture.resolved(master)
        nb = fixtures.build(fixture, release, master, ctx)
        result = verdict.grade(12, nbgrader_ext.prepared(nb, book), nbgrader_ext.grade_cells_of(book),
                               timeout=10, protect=[str(graded.root)])
        got = sum(v["score"] for v in result["cells"].values())
        assert got == fixture.score, (fixture.name, {k: v["reason"] for k, v in result["cells"].items()})
    assert not (graded.root / "PWNED").exists()
    assert snapshot(REPO / "lab", REPO / "harness", REPO / "notebooks") == before


def test_a_cell_that_forges_messages_on_the_grader_connection_is_named_for_it():
    """Writing into the worker's pipe to the grader breaks the protocol: the grader stops that
    process, and the cell's error says so instead of claiming the cell ended it."""
    forge = ("import os\n"
             "for fd in range(3, 64):\n"
             "    try:\n"
             "        os.write(fd, b'{\"k\": \"r\", \"n\": 999999, \"v\": 1}\\n' * 50)\n"
             "    except OSError:\n"
             "        pass\n"
             "x = 1\n")
    session = grading_session.Session(12, [("forger", forge), ("after", "y = 2\n")], timeout=10)
    try:
        session.ensure()
        name, text = session.cell_errors.get("forger", ("", ""))
        assert name == "ProtocolBroken" and "connection" in text, session.cell_errors
    finally:
        session.close()


ARGS_NOT_STR = '''\
def run_tool(tools, call):
    found = [tool for tool in tools if tool["name"] == call["name"]]
    if not found:
        return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": "Tool " + call["name"] + " not found", "is_error": True}
    try:
        content, is_error = found[0]["execute"](call["arguments"]), False
    except Exception as exc:
        content, is_error = str(exc.args[0]), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}
'''


def test_an_exception_reaches_the_learners_code_as_it_was_raised(worker):
    """Its class (builtin, or the course's own), its args, its attributes and its str(), and a
    KeyboardInterrupt a test raises is a real one there."""
    import lab
    run(worker, "def seen(raiser):\n"
                "    try:\n        raiser()\n"
                "    except Exception as exc:\n"
                "        return [type(exc).__name__, type(exc).__module__, str(exc), list(exc.args),\n"
                "                getattr(exc, 'filename', None), getattr(exc, 'path', None)]\n"
                "    except BaseException as exc:\n"
                "        import lab\n"
                "        return ['base', type(exc).__name__, isinstance(exc, (KeyboardInterrupt, lab.PowerCut)),\n"
                "                getattr(exc, 'path', None)]\n")
    seen = worker.lookup("seen")

    def missing():
        raise FileNotFoundError(2, "No such file or directory", "confg.py")

    def keyless():
        raise KeyError("nope")

    def interrupted():
        raise KeyboardInterrupt()

    def cut():
        raise lab.PowerCut("the power went", path="notes.txt")

    assert seen(missing) == ["FileNotFoundError", "builtins", "[Errno 2] No such file or directory: 'confg.py'",
                             [2, "No such file or directory"], "confg.py", None]
    assert seen(keyless) == ["KeyError", "builtins", "'nope'", ["nope"], None, None]
    assert seen(interrupted) == ["base", "KeyboardInterrupt", True, None]
    assert seen(cut) == ["base", "PowerCut", True, "notes.txt"]
    run(worker, "def passes(raiser):\n    return raiser()\n")
    with pytest.raises(KeyboardInterrupt):   # let go, it comes back as the very one raised
        worker.lookup("passes")(interrupted)


def test_lesson_4s_args_not_str_loses_the_points_the_notebook_takes():
    """`str(exc.args[0])` in place of `str(exc)`: the notebook's check fails it, and so does the
    grader, since the tool's OSError reaches run_tool with its own args."""
    from lab import checks
    from lab.course import manifest
    ns = {}
    exec(ARGS_NOT_STR, ns)
    found = {n: manifest.reference(n, 4) for n in manifest.names(4)}
    found["run_tool"] = ns["run_tool"]
    assert all(r.passed for r in checks.run(4, 1, manifest.Namespace(found), hidden=False))
    assert not all(r.passed for r in checks.run(4, 1, manifest.Namespace(found), hidden=True))
    cells = [("lab1-run-tool", ARGS_NOT_STR)]
    grade_cells = [{"grade_id": "lab1-tests", "points": 8, "source": "import lab\nlab.check(4, lab=1)\n"},
                   {"grade_id": "lab1-hidden", "points": 3,
                    "source": "import lab\nlab.require_pass(4, lab=1)\nlab.check(4, lab=1, hidden=True)\n"}]
    result = verdict.grade(4, cells, grade_cells, timeout=20)
    assert {g: v["passed"] for g, v in result["cells"].items()} == {"lab1-tests": True, "lab1-hidden": False}


def test_honest_code_runs_in_the_worker(worker):
    """`import lab` for its builders, a part of harness by its module's name, and a helper class
    of the learner's own all work; lab's checks and the reference are not served."""
    assert run(worker, "import lab\nfrom lab import text\nmade = lab.call('read', {'path': 'a'}, id='c1')\n"
                       "from harness.tools import helper as doubled\n"
                       "class Counter:\n    def __init__(self):\n        self.n = doubled(2)\n"
                       "counted = Counter().n\n") is None
    assert worker.lookup("made") == {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a"}}
    assert worker.lookup("counted") == 4
    for name in ("check", "use_reference", "harness_at", "require_pass"):
        error = run(worker, f"import lab\nlab.{name}")
        assert isinstance(error, AttributeError) and "not available while your code is graded" in str(error), error


def test_a_cell_of_the_learners_own_is_run_in_its_place():
    nb = nbformat.v4.new_notebook()
    helper = nbformat.v4.new_code_cell("def shout(text):\n    return text.upper()")
    gap = nbformat.v4.new_code_cell("def run_tool(tools, call):\n    return shout(call)")
    gap.metadata["nbgrader"] = {"solution": True, "grade_id": "lab1-run-tool", "grade": False, "locked": False}
    given = nbformat.v4.new_code_cell("import lab")
    given.metadata["nbgrader"] = {"solution": False, "grade_id": "setup", "grade": False, "locked": True}
    nb.cells = [given, helper, gap]
    assert verdict.learner_cells(nb) == [("cell-1", helper.source), ("lab1-run-tool", gap.source)]


@pytest.mark.parametrize("mode", ["process", sandbox.detect()])
def test_what_the_course_installs_is_importable_as_in_the_notebook(mode):
    """Honest code imports what the course installs (numpy, jinja2) in a gap cell and is graded
    as the notebook runs it; the course's own packages stay out of reach."""
    with sandbox.Worker(STARTER, mode=mode) as w:
        assert run(w, "import numpy\nx = int(numpy.arange(5).sum())", seconds=30) is None, mode
        assert run(w, "assert x == 10") is None
        assert run(w, "import jinja2\njinja2.Template('{{ 1 + 1 }}').render()") is None
        error = run(w, f"open({str(REPO / 'harness' / 'compaction.py')!r}).read()")
        assert isinstance(error, (FileNotFoundError, PermissionError)), error


@pytest.mark.parametrize("mode", ["process", sandbox.detect()])
def test_an_installed_copy_of_the_course_in_site_packages_stays_hidden(mode, monkeypatch, tmp_path):
    """Where the course itself is installed into the site-packages the worker is shown (pip
    install, not editable), its packages there are hidden (namespaces) or refused (process)."""
    site = tmp_path / "site-packages"
    (site / "harness").mkdir(parents=True)
    (site / "harness" / "compaction.py").write_text("SECRET = 'the reference'\n")
    (site / "lab").mkdir()
    (site / "lab" / "__init__.py").write_text("SECRET = 'the tests'\n")
    (site / "helpful.py").write_text("VALUE = 42\n")
    monkeypatch.setattr(worker_world, "third_party", lambda: [str(site)])
    with sandbox.Worker(STARTER, mode=mode) as w:
        assert run(w, "import helpful\nassert helpful.VALUE == 42") is None, mode
        for path in (site / "harness" / "compaction.py", site / "lab" / "__init__.py"):
            error = run(w, f"open({str(path)!r}).read()")
            assert isinstance(error, (FileNotFoundError, PermissionError)), (mode, path, error)
        error = run(w, "import harness.compaction as c\nc.SECRET")
        assert isinstance(error, AttributeError), error   # harness is the starter, whatever is on the path


def test_the_worker_holds_no_descriptor_but_its_two_pipes(worker):
    """A folder the grader showed the worker was held open on a descriptor while it was bound;
    the worker starts by closing every descriptor but its pipes to the grader."""
    error = run(worker, "import os\n"
                        "def _is_open(fd):\n"
                        "    try:\n"
                        "        os.fstat(fd)\n"
                        "        return True\n"
                        "    except OSError:\n"
                        "        return False\n"
                        "count = sum(_is_open(fd) for fd in range(3, 256))\n"
                        "assert count == 2, count")
    assert error is None, error


def test_a_gap_cell_that_imports_numpy_is_graded_as_the_notebook_grades_it():
    """Honest code scored 0 when the sandbox hid every site-packages: `import numpy` in a gap
    cell now earns what the same cell earns in the notebook."""
    from lab import checks
    from lab.course import starters
    reference = starters.definition("run_tool", lesson=4)
    source = "import numpy\n" + "".join(line for line in reference.splitlines(keepends=True)
                                        if "### BEGIN SOLUTION" not in line and "### END SOLUTION" not in line)
    points = sum(t.points for t in checks.tests_for(4, 1, hidden=False))
    cells = [{"grade_id": "lab1-tests", "source": "import lab\nlab.check(4, lab=1)\n", "points": points}]
    result = verdict.grade(4, [("lab1-run-tool", source)], cells, timeout=30)
    assert result["cells"]["lab1-tests"]["score"] == points, result["cells"]["lab1-tests"]["reason"]


def test_a_worker_started_during_a_check_cell_spends_the_cells_time_from_when_it_is_ready():
    """The grader starts the worker when a check cell first needs the learner's code: its CPU
    counts from then. Counted only from the first time the budget happened to read it (its first
    deadline), code that computes for 1.6 times the limit would pass, and a loop would run for
    twice the limit before it is stopped."""
    spin = ("import time\n"
            "def spin(seconds):\n"
            "    started = time.process_time()\n"
            "    while time.process_time() - started < seconds:\n"
            "        pass\n"
            "    return 'done'\n")
    for seconds, stopped in ((1.6, True), (0.3, False)):
        graded = grading_session.Session(1, [("cell-1", spin)], timeout=1)
        try:
            graded.start_cell()
            # resolving the learner's name starts the worker, as a check cell's first use does
            learner_spin = graded.resolve(grading_session.LazyName(graded, "spin"))
            if stopped:
                try:
                    learner_spin(seconds)
                except wire.TimedOut:
                    pass
                else:
                    pytest.fail("session.Session let code that computed for 1.6 times the cell's "
                                "limit finish: the worker it started during the cell was not counted "
                                "from the start")
            else:
                assert learner_spin(seconds) == "done", \
                    "session.Session stopped code that computed for less than the cell's limit"
        finally:
            graded.close()


def test_a_worker_started_again_during_a_test_does_not_spend_the_tests_wall_time():
    """A test after one that ended the worker starts a new one, which runs the learner's cells
    again; they ran before the check in the notebook, so the time they take is not the test's.
    The CPU count always left it out; the wall clock, a test's own since a test waits at most
    its own time, counted it, and a cell that waits 1.5 s stopped a 1 s test that does nothing."""
    cells = [("cell-1", "import time\ntime.sleep(1.5)\n"), ("cell-2", "def quick():\n    return 'done'\n")]
    graded = grading_session.Session(1, cells, timeout=5, test_seconds=1)
    try:
        graded.start_cell()
        with graded.time_of_a_test(1):
            quick = graded.resolve(grading_session.LazyName(graded, "quick"))
            assert quick() == "done", "session.Session counted the worker's start against the test"
    finally:
        graded.close()


@pytest.mark.parametrize("source", ["import harness\nsummarize = harness.summarize\n",
                                    "import harness\n\ndef summarize(model, messages):\n"
                                    "    return harness.summarize(model, messages)\n",
                                    "from harness import summarize as course_summarize\n\n"
                                    "def summarize(model, messages):\n"
                                    "    return course_summarize(model, messages)\n"],
                         ids=["assigned", "called", "kept"])
def test_a_gap_handed_back_to_harness_scores_nothing_as_the_notebook_says(source):
    """The notebook's lab.check refuses the course's own summarize, assigned, called, or kept
    under a name of the learner's own (tests/checks/test_checkcell.py); graded, harness is the starter and the lab earns nothing."""
    cell = {"grade_id": "lab1-tests", "points": 3, "source": "import lab\nlab.check(12, lab=1)\n"}
    got = verdict.grade(12, [("lab1-summarize", source)], [cell], timeout=10)["cells"]["lab1-tests"]
    assert got["score"] == 0 and not got["passed"], \
        f"verdict.grade gave a summarize handed back to harness {got['score']} points: {got['lines']}"


def test_a_gap_that_reaches_another_gap_through_harness_earns_what_the_notebook_says(monkeypatch):
    """Lesson 12's master with compact calling harness.find_cut: graded, harness is the starter,
    where find_cut is a stub, so the tests that reach it fail; the notebook's lab.check
    (tests/checks/test_checkcell.py) refuses that call, and both give the cell the same points."""
    import harness
    import lab
    from lab.grader import fixtures
    from lab.runtime import takeover
    cells = [(g, "import harness\n" + s.replace("cut = find_cut(", "cut = harness.find_cut(")
              if g == "lab2-compact" else s) for g, s in verdict.learner_cells(fixtures.master_of(12))]
    assert any("harness.find_cut(" in s for _, s in cells), "lesson 12's compact no longer calls find_cut"
    cell = {"grade_id": "lab2-tests", "points": 7, "source": "import lab\nlab.check(12, lab=2)\n"}
    graded = verdict.grade(12, cells, [cell], timeout=10)["cells"]["lab2-tests"]
    notebook = {k: v for k, v in vars(harness).items() if not k.startswith("_")}
    for _, source in cells:
        exec(compile(source, "<cell>", "exec"), notebook)
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    try:
        partial = lab.check(12, 2, find_cut=notebook["find_cut"], rows=notebook["rows"],
                            compact=notebook["compact"])
    finally:
        takeover.use_reference(12)
    here = cell["points"] if partial is None else float(partial)   # None: every test passed
    assert not graded["passed"] and 0 < graded["score"] < 7, graded
    assert here == graded["score"], \
        f"the notebook gave compact's lab {here} points and the grader {graded['score']}"


AWAITS_AT_THE_TOP = '''
import asyncio

async def doubled(x):
    await asyncio.sleep(0)
    return 2 * x

tried = await doubled(21)
'''


def test_a_cell_with_await_at_its_top_level_runs_as_the_notebook_runs_it():
    """IPython runs `await` at a cell's top level (autoawait); the grader runs such a cell to its
    end too, so a helper defined after the await is there for the gap that uses it, and an error
    the awaited code raises is the cell's error, as in the notebook."""
    import inspect

    import harness
    helper = inspect.getsource(harness.summarize).replace("def summarize(", "def summarize_with(")
    gap = "def summarize(model, messages):\n    return summarize_with(model, messages)\n"
    cell = [{"grade_id": "lab1-tests", "points": 3, "source": "lab.check(12, lab=1)"}]
    result = verdict.grade(12, [("cell-try", AWAITS_AT_THE_TOP + helper), ("lab1-summarize", gap)], cell, timeout=10)
    assert result["errors"] == {}, result["errors"]
    assert result["cells"]["lab1-tests"]["score"] == 3, result["cells"]["lab1-tests"]["lines"]

    raising = "async def broken():\n    raise ValueError('the server said no')\n\nawait broken()\n"
    result = verdict.grade(12, [("cell-try", raising)], cell, timeout=10)
    assert result["errors"] == {"cell-try": ["ValueError", "the server said no"]}


@pytest.mark.parametrize("magic,earns", [("%%time\n{gap}", 3), ("%%capture printed\n{gap}", 3),
                                         ("{mine}\n%time summarize = mine\n", 3), ("%%timeit -n1 -r1\n{gap}", 0)])
def test_a_gap_cell_under_a_timing_or_capturing_magic_is_graded_as_ipython_runs_it(magic, earns):
    """%%time and %%capture run their cell in the notebook's namespace and %time its statement,
    so the gap they define is the learner's there and graded; %%timeit runs its code in a
    namespace of its own, so nothing it defines stays, in the notebook or graded."""
    import inspect

    import harness
    gap = inspect.getsource(harness.summarize)
    source = magic.format(gap=gap, mine=gap.replace("def summarize(", "def mine("))
    result = verdict.grade(12, [("lab1-summarize", source)],
                           [{"grade_id": "lab1-tests", "points": 3, "source": "lab.check(12, lab=1)"}], timeout=10)
    assert result["cells"]["lab1-tests"]["score"] == earns, result["cells"]["lab1-tests"]["lines"]
