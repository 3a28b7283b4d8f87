"""Sample submissions, made from the release and the master notebook by small edits, never kept
as hand-written JSON. Each states the exact score it must get and the check cells that pass.

Samples are what learners hand in: nothing done, everything right, half right, a loop that never
ends, a cell that does not parse, a check cell deleted or pasted twice, a file that is not a
notebook, a correct gap that makes Python print a warning. Attacks try to get points they did not
earn, or to change someone else's: each scores exactly what its honest part earns.

    python -m lab.grader fixtures [--course DIR] [--only NAME ...]   writes them into submitted/
"""

import copy
import json
from pathlib import Path
from typing import Callable, NamedTuple

import nbformat

from lab.grader import course

LESSON12 = "12-memory-that-outlives-the-process"
SOLUTIONS = ("lab1-summarize", "lab2-find-cut", "lab2-rows", "lab2-compact")
LAB1, LAB2 = ("lab1-summarize",), ("lab2-find-cut", "lab2-rows", "lab2-compact")
ALL_CHECKS = ("lab1-tests", "lab1-hidden", "lab2-tests", "lab2-hidden")
TIMESTAMP = "2026-03-02 09:00:00.000000 UTC"


class Fixture(NamedTuple):
    name: str
    score: float            # the exact total it must get
    passing: tuple          # the check cells that must pass; every other one scores 0
    kind: str               # "sample" or "attack"
    about: str
    make: Callable          # make(release nb, master nb, context) -> nb, or str for a broken file


# -- small edits --------------------------------------------------------------------------------

def _cell(nb, grade_id):
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id:
            return cell
    raise KeyError(f"the notebook has no cell {grade_id}")


def master_source(master, grade_id):
    return _cell(master, grade_id).source


def solve(nb, master, *grade_ids):
    """Fill the named solution cells with the master's answer."""
    for grade_id in grade_ids:
        _cell(nb, grade_id).source = master_source(master, grade_id)
    return nb


def edit(text, old, new):
    """`text` with `old` replaced by `new`, where `old` must occur exactly once: a fixture whose
    edit no longer applies fails loudly instead of silently testing something else."""
    if text.count(old) != 1:
        raise ValueError(f"a fixture's edit expects {old!r} exactly once; found {text.count(old)}")
    return text.replace(old, new)


def change(nb, master, grade_id, old, new):
    _cell(nb, grade_id).source = edit(master_source(master, grade_id), old, new)
    return nb


def append(nb, grade_id, code):
    cell = _cell(nb, grade_id)
    cell.source = cell.source.rstrip("\n") + "\n\n" + code.strip("\n")
    return nb


def prepend_to_body(nb, master, grade_id, code):
    """Put `code` first in the solved function's body (after its docstring)."""
    source = master_source(master, grade_id)
    marker = "    ### BEGIN SOLUTION\n"
    indented = "".join(f"    {line}\n" for line in code.strip("\n").splitlines())
    _cell(nb, grade_id).source = edit(source, marker, marker + indented)
    return nb


def all_stubs_plus(grade_id, code):
    def make(nb, master, ctx):
        return append(nb, grade_id, code)
    return make


def lab1_right_then(grade_id, code):
    """Lab 1 solved, lab 2 solved except that `code` runs first in the gap `grade_id`."""
    def make(nb, master, ctx):
        solve(nb, master, *SOLUTIONS)
        return prepend_to_body(nb, master, grade_id, code.format(**ctx))
    return make


# -- the samples --------------------------------------------------------------------------------

def _unchanged(nb, master, ctx):
    return nb


def _correct(nb, master, ctx):
    return solve(nb, master, *SOLUTIONS)


def _lab1_only_right(nb, master, ctx):
    solve(nb, master, *SOLUTIONS)
    # lab 2's cut moves backwards to the previous user message: a rung argues against it
    return change(nb, master, "lab2-find-cut", "users = [i for i in range(cut, len(rows))",
                  "users = [i for i in range(cut, -1, -1)")


def _hidden_tests_matter(nb, master, ctx):
    solve(nb, master, *SOLUTIONS)
    # strips only after checking for emptiness: a reply of white space passes as a summary
    change(nb, master, "lab1-summarize", "summary = text_of(reply).strip()", "summary = text_of(reply)")
    cell = _cell(nb, "lab1-summarize")
    cell.source = edit(cell.source, "    return summary\n", "    return summary.strip()\n")
    return nb


def _loops_forever(nb, master, ctx):
    solve(nb, master, *SOLUTIONS)
    return change(nb, master, "lab2-find-cut", "    users = [i for i",
                  "    while True:  # waits for a user message that never comes\n        pass\n    users = [i for i")


def _does_not_parse(nb, master, ctx):
    solve(nb, master, *SOLUTIONS)
    return change(nb, master, "lab2-compact", "    if cut in (0, len(rows)):", "    if cut in (0, len(rows))")


def _deleted_check_cell(nb, master, ctx):
    solve(nb, master, *SOLUTIONS)
    nb.cells = [c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") != "lab1-tests"]
    return nb


def _duplicated_check_cell(nb, master, ctx):
    solve(nb, master, *LAB1)
    index = next(i for i, c in enumerate(nb.cells)
                 if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "lab2-tests")
    twin = copy.deepcopy(nb.cells[index])
    twin.id = "lab2-tests-pasted"
    nb.cells.insert(index + 1, twin)
    first = next(i for i, c in enumerate(nb.cells)
                 if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "lab1-tests")
    twin = copy.deepcopy(nb.cells[first])
    twin.id = "lab1-tests-pasted"
    nb.cells.insert(first + 1, twin)
    return nb


def _not_json(nb, master, ctx):
    text = nbformat.writes(solve(nb, master, *SOLUTIONS))
    return text[: len(text) // 2]   # the upload was cut off half way


def _warns(nb, master, ctx):
    solve(nb, master, *SOLUTIONS)
    return prepend_to_body(nb, master, "lab1-summarize",
                           'import sys, warnings\n'
                           'warnings.warn("summaries of long sessions may be slow", UserWarning)\n'
                           'print("note: summarising", len(messages), "messages", file=sys.stderr)')


def _chatty(nb, master, ctx):
    solve(nb, master, *SOLUTIONS)
    return prepend_to_body(nb, master, "lab1-summarize",
                           'for n in range(20000):\n    print("thinking", n)')


SAMPLES = [
    Fixture("unchanged", 0, (), "sample", "the release as it was handed out", _unchanged),
    Fixture("correct", 15, ALL_CHECKS, "sample", "every gap filled with the master's answer", _correct),
    Fixture("lab1-only", 5, ("lab1-tests", "lab1-hidden"), "sample",
            "lab 1 right; lab 2's cut moves backwards", _lab1_only_right),
    Fixture("hidden-tests-matter", 13, ("lab1-tests", "lab2-tests", "lab2-hidden"), "sample",
            "passes lab 1's visible tests, fails its hidden ones (white space taken for a summary)",
            _hidden_tests_matter),
    Fixture("loops-forever", 5, ("lab1-tests", "lab1-hidden"), "sample",
            "find_cut loops forever: lab 2's check cells time out, lab 1 is graded", _loops_forever),
    Fixture("does-not-parse", 5, ("lab1-tests", "lab1-hidden"), "sample",
            "the compact cell has a syntax error", _does_not_parse),
    Fixture("deleted-check-cell", 15, ALL_CHECKS, "sample",
            "all right, and lab 1's check cell deleted: it is put back and graded", _deleted_check_cell),
    Fixture("duplicated-check-cells", 5, ("lab1-tests", "lab1-hidden"), "sample",
            "lab 1 right, lab 2 not done, both visible check cells pasted twice", _duplicated_check_cell),
    Fixture("not-a-notebook", 0, (), "sample", "the file was cut off half way: not valid JSON", _not_json),
    Fixture("warns", 15, ALL_CHECKS, "sample",
            "all right, and summarize prints a warning and a line to stderr", _warns),
    Fixture("chatty", 15, ALL_CHECKS, "sample", "all right, and summarize prints 20,000 lines", _chatty),
]


# -- the attacks --------------------------------------------------------------------------------

ATTACKS = [
    Fixture("redefines-lab-check", 0, (), "attack", "replaces lab.check with one that prints a pass",
            all_stubs_plus("lab1-summarize",
                           'import lab\n'
                           'lab.check = lambda *a, **k: print("Lab 1 of lesson 12, tests: 3 of 3 pass.")')),
    Fixture("patches-test-runner", 0, (), "attack", "makes lab.checks.run_one report every test passed",
            all_stubs_plus("lab1-summarize",
                           'import lab.checks as checks\n'
                           'checks.run_one = lambda t, ns: checks.Result(t, True, "", False)\n'
                           'checks.Failed = type("Failed", (Exception,), {})')),
    Fixture("patches-builtins", 0, (), "attack", "rebinds AssertionError, isinstance and print",
            all_stubs_plus("lab1-summarize",
                           'import builtins\n'
                           'builtins.AssertionError = type("AssertionError", (Exception,), {})\n'
                           'builtins.isinstance = lambda *args: True\n'
                           'builtins.NotImplementedError = type("NotImplementedError", (Exception,), {})')),
    Fixture("silences-tracebacks", 0, (), "attack",
            "turns IPython's traceback display off, so errors print nothing (nbgrader #1324)",
            all_stubs_plus("lab1-summarize",
                           'ip = get_ipython()\n'
                           'ip.showtraceback = lambda *a, **k: None\n'
                           'ip._showtraceback = lambda *a, **k: None\n'
                           'ip.set_custom_exc((BaseException,), lambda *a, **k: None)')),
    Fixture("prints-passed", 0, (), "attack", "prints what a passing check cell prints",
            all_stubs_plus("lab1-summarize",
                           'import sys\n'
                           'print("Lab 1 of lesson 12, tests: 3 of 3 pass.")\n'
                           'sys.__stdout__.write("Success! Your notebook passes all the tests.\\n")')),
    Fixture("sys-exit-in-gap", 5, ("lab1-tests", "lab1-hidden"), "attack",
            "lab 1 right; find_cut calls sys.exit()", lab1_right_then("lab2-find-cut", "import sys\nsys.exit(0)")),
    Fixture("os-exit-in-gap", 5, ("lab1-tests", "lab1-hidden"), "attack",
            "lab 1 right; find_cut calls os._exit()", lab1_right_then("lab2-find-cut", "import os\nos._exit(0)")),
    Fixture("os-exit-at-top-level", 5, ("lab1-tests", "lab1-hidden"), "attack",
            "lab 1 right; the rows cell ends its process right after defining rows",
            lambda nb, master, ctx: append(solve(nb, master, *SOLUTIONS), "lab2-rows", "import os\nos._exit(0)")),
    Fixture("swaps-in-reference", 0, (), "attack", "hands every gap back to harness: the reference in a kernel",
            lambda nb, master, ctx: [append(nb, "lab1-summarize", "summarize = harness.summarize"),
                                     append(nb, "lab2-find-cut", "find_cut = harness.find_cut"),
                                     append(nb, "lab2-rows", "rows = harness.SessionLog.rows"),
                                     append(nb, "lab2-compact", "compact = harness.compact")][-1]),
    Fixture("reads-reference-from-disk", 0, (), "attack", "executes the reference's source read from disk",
            all_stubs_plus("lab1-summarize",
                           'import inspect, importlib.util\n'
                           'try:\n'
                           '    exec(inspect.getsource(harness.summarize))\n'
                           'except Exception:\n'
                           '    pass\n'
                           'try:\n'
                           '    exec(open({compaction!r}).read())\n'
                           'except Exception:\n'
                           '    spec = importlib.util.spec_from_file_location("ref", {compaction!r})\n'
                           '    module = importlib.util.module_from_spec(spec)\n'
                           '    spec.loader.exec_module(module)\n'
                           '    summarize = module.summarize')),
    Fixture("imports-lab-checks", 0, (), "attack", "imports the reference and the tests through lab and harness",
            all_stubs_plus("lab1-summarize",
                           'from harness.compaction import summarize\n')),
    Fixture("edits-files-on-disk", 0, (), "attack",
            "rewrites lab's tests, the reference and the gradebook on disk",
            all_stubs_plus("lab1-summarize",
                           'for path in ({checks!r}, {compaction!r}, {gradebook!r}, "../../gradebook.db"):\n'
                           '    try:\n'
                           '        with open(path, "a") as f:\n'
                           '            f.write("\\nrun_one = lambda t, ns: None\\n")\n'
                           '    except Exception:\n'
                           '        pass\n'
                           'import os\n'
                           'for path in ({checks!r}, {gradebook!r}):\n'
                           '    try:\n'
                           '        os.remove(path)\n'
                           '    except Exception:\n'
                           '        pass')),
    Fixture("forges-the-call-record", 0, (), "attack",
            "asks in the agent's voice with tools, then rewrites the model's record of the call",
            lambda nb, master, ctx: change(
                solve(nb, master, *LAB1), master, "lab1-summarize",
                "reply = model.complete(SUMMARY_SYSTEM, [document], [])",
                "reply = model.complete(\"You are a helpful assistant.\", [document], "
                "[{'name': 'read', 'description': '', 'parameters': {}}])\n"
                "    try:\n"
                "        model.calls[-1].system = SUMMARY_SYSTEM\n"
                "        model.calls[-1].tools = []\n"
                "    except Exception:\n"
                "        pass\n"
                "    try:\n"
                "        model.calls.clear()\n"
                "    except Exception:\n"
                "        pass")),
    Fixture("escapes-through-a-handle", 0, (), "attack",
            "walks from the model object to the grader's os module to run a command",
            lambda nb, master, ctx: prepend_to_body(
                solve(nb, master, *LAB1), master, "lab1-summarize",
                'g = model.complete.__func__.__globals__\n'
                'g["os"].system("touch {pwned}")')),
    Fixture("kills-the-grader", 5, ("lab1-tests", "lab1-hidden"), "attack",
            "lab 1 right; find_cut signals its parent and its process group",
            lab1_right_then("lab2-find-cut", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
                                             "os.killpg(0, signal.SIGKILL)")),
    Fixture("uses-the-network", 5, ("lab1-tests", "lab1-hidden"), "attack",
            "lab 1 right; find_cut opens a connection",
            lab1_right_then("lab2-find-cut", 'import socket\nsocket.create_connection(("1.1.1.1", 53), timeout=2)')),
    Fixture("starts-processes", 5, ("lab1-tests", "lab1-hidden"), "attack",
            "lab 1 right; find_cut forks and runs a command",
            lab1_right_then("lab2-find-cut", "import os\nos.fork()\nos.system('touch {pwned}')")),
    Fixture("eats-memory", 5, ("lab1-tests", "lab1-hidden"), "attack",
            "lab 1 right; find_cut asks for 8 GiB", lab1_right_then("lab2-find-cut", "hog = bytearray(8 << 30)")),
    Fixture("returns-an-always-equal", 5, ("lab1-tests", "lab1-hidden"), "attack",
            "lab 1 right; find_cut returns an object equal to everything",
            lab1_right_then("lab2-find-cut", "class Always(int):\n    def __eq__(self, other):\n        return True\n"
                                             "class Anything:\n    def __eq__(self, other):\n        return True\n"
                                             "    __hash__ = object.__hash__\n"
                                             "return Anything()")),
    Fixture("copies-a-classmate", 0, (), "attack", "looks for another submission to copy from",
            all_stubs_plus("lab1-summarize",
                           'import glob, json\n'
                           'for path in glob.glob({others!r}):\n'
                           '    for cell in json.load(open(path))["cells"]:\n'
                           '        if "def summarize" in "".join(cell["source"]):\n'
                           '            exec("".join(cell["source"]))')),
    Fixture("edits-check-cells", 0, (), "attack", "rewrites the locked check cells and their points",
            lambda nb, master, ctx: [_rewrite_check(c) for c in nb.cells] and nb),
]


def _rewrite_check(cell):
    meta = cell.get("metadata", {}).get("nbgrader", {})
    if meta.get("grade"):
        cell.source = 'print("all tests pass")'
        meta["points"] = 99
    return cell


FIXTURES = SAMPLES + ATTACKS
BY_NAME = {f.name: f for f in FIXTURES}


def context(root):
    """The paths an attack aims at: real files, so that outside a sandbox the attack would work."""
    root = Path(root).resolve()
    return {"compaction": str(course.REPO / "harness" / "compaction.py"),
            "checks": str(course.REPO / "lab" / "checks" / "__init__.py"),
            "gradebook": str(root / "gradebook.db"),
            "others": str(root / "submitted" / "*" / "*" / "*.ipynb"),
            "pwned": str(root / "PWNED")}


def _format(nb, ctx):
    """Attack code names paths as {placeholders}; fill them in every solution cell."""
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("solution") and "{" in cell.source:
            for key, value in ctx.items():
                cell.source = cell.source.replace("{" + key + "!r}", repr(value)).replace("{" + key + "}", value)
    return nb


def build(fixture, release, master, ctx):
    """The submission `fixture` makes: a notebook node, or text for a file that is not one."""
    made = fixture.make(copy.deepcopy(release), master, ctx)
    if isinstance(made, str):
        return made
    return _format(made, ctx)


def write(root, names=None, assignment=LESSON12, student_prefix=""):
    """Write the fixtures into `root`/submitted/ as nbgrader's collect would. Returns the
    {student id: Fixture} written."""
    root = Path(root)
    release = nbformat.read(root / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    master = nbformat.read(course.NOTEBOOKS / f"{assignment}.ipynb", as_version=4)
    ctx = context(root)
    written = {}
    for fixture in FIXTURES:
        if names and fixture.name not in names:
            continue
        student = student_prefix + fixture.name
        folder = root / "submitted" / student / assignment
        folder.mkdir(parents=True, exist_ok=True)
        made = build(fixture, release, master, ctx)
        text = made if isinstance(made, str) else nbformat.writes(made)
        (folder / f"{assignment}.ipynb").write_text(text, encoding="utf-8")
        (folder / "timestamp.txt").write_text(TIMESTAMP, encoding="utf-8")
        written[student] = fixture
    return written


def points(master, grade_id):
    return float(_cell(master, grade_id).metadata["nbgrader"]["points"])
