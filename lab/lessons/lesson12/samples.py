"""Lesson 12's own submissions for the grader's tests, beyond the samples every lesson has
(lab.grader.fixtures.samples): check cells deleted or pasted twice, a file that is not a notebook,
warnings and chatter, and the attacks that try to get points not earned or to reach outside the
sandbox. Each states the exact score it must get and the check cells that pass."""

import copy

import nbformat

from lab.grader.fixtures import Fixture, all_stubs_plus, append, change, prepend_to_body, solve

SOLUTIONS = ("lab1-summarize", "lab2-find-cut", "lab2-rows", "lab2-compact")
LAB1 = ("lab1-summarize",)
ALL_CHECKS = ("lab1-tests", "lab1-hidden", "lab2-tests", "lab2-hidden")


def lab1_right_then(grade_id, code):
    """Lab 1 solved, lab 2 solved except that `code` runs first in the gap `grade_id`."""
    def make(nb, master, ctx):
        solve(nb, master, *SOLUTIONS)
        return prepend_to_body(nb, master, grade_id, code.format(**ctx))
    return make


# -- samples --------------------------------------------------------------------------------

def _cut_moves_backwards(nb, master, ctx):
    solve(nb, master, *SOLUTIONS)
    # lab 2's cut moves backwards to the previous user message: a rung argues against it
    return change(nb, master, "lab2-find-cut", "users = [i for i in range(cut, len(rows))",
                  "users = [i for i in range(cut, -1, -1)")


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


# What the samples every lesson has must score here (lab.grader.fixtures.samples): lab 2's tests
# of compact run the learner's own summarize, so lab 2 alone earns only its other tests.
SCORES = {
    "unchanged": (),
    "correct": ALL_CHECKS,
    "lab1-only": ("lab1-tests", "lab1-hidden"),
    # lab 2's tests of find_cut and rows pass; those that call compact meet lab 1's stub
    "lab2-only": {"lab2-tests": 4},
    "hidden-only": {"lab1-tests": 3, "lab1-hidden": 4, "lab2-tests": 7, "lab2-hidden": 4},
    # lab 2's first test passes before the looping gap is reached and stopped
    "loops-forever": {"lab1-tests": 3, "lab1-hidden": 5, "lab2-tests": 1},
    "does-not-parse": ("lab1-tests", "lab1-hidden"),
}

# Passes lab 1's visible tests and fails its hidden ones: it strips only after checking for
# emptiness, so a reply of white space passes for a summary.
HIDDEN_ONLY = {"summarize": '''\
def summarize(model, messages):
    wrapped = user_message(f"<conversation>\\n{render(messages)}\\n</conversation>")
    reply = model.complete(SUMMARY_SYSTEM, [wrapped], [])
    summary = text_of(reply)
    if reply["stop_reason"] == "error" or not summary:
        raise RuntimeError("no summary")
    return summary.strip()
'''}

EXTRA = [
    Fixture("lab2-cut-backwards", {"lab1-tests": 3, "lab1-hidden": 5, "lab2-tests": 6}, "sample",
            "lab 1 right; lab 2's cut moves backwards", _cut_moves_backwards),
    Fixture("deleted-check-cell", ALL_CHECKS, "sample",
            "all right, and lab 1's check cell deleted: it is put back and graded", _deleted_check_cell),
    Fixture("duplicated-check-cells", ("lab1-tests", "lab1-hidden"), "sample",
            "lab 1 right, lab 2 not done, both visible check cells pasted twice", _duplicated_check_cell),
    Fixture("not-a-notebook", (), "sample", "the file was cut off half way: not valid JSON", _not_json),
    Fixture("warns", ALL_CHECKS, "sample",
            "all right, and summarize prints a warning and a line to stderr", _warns),
    Fixture("chatty", ALL_CHECKS, "sample", "all right, and summarize prints 20,000 lines", _chatty),
]


# -- the attacks --------------------------------------------------------------------------------
#
# Each test earns its own points, so an attack scores what its honest part earns test by test:
# where find_cut is sabotaged, lab 2's tests of rows and of replace_messages, which never call it,
# still pass; an always-equal cut also passes the test of sessions with nothing to gain, whose
# outcome (False, nothing written) is what compact rightly does with a cut it takes for 0; a
# summary asked in the agent's voice passes the two lab 1 tests it passes in the notebook too.

LAB1_AND_TWO_OF_LAB2 = {"lab1-tests": 3, "lab1-hidden": 5, "lab2-tests": 2}

ATTACKS = [
    Fixture("redefines-lab-check", (), "attack", "replaces lab.check with one that prints a pass",
            all_stubs_plus("lab1-summarize",
                           'import lab\n'
                           'lab.check = lambda *a, **k: print("Lab 1 of lesson 12, tests: 3 of 3 pass.")')),
    Fixture("patches-test-runner", (), "attack", "makes lab.checks.run_one report every test passed",
            all_stubs_plus("lab1-summarize",
                           'import lab.checks as checks\n'
                           'checks.run_one = lambda t, ns: checks.Result(t, True, "", False)\n'
                           'checks.Failed = type("Failed", (Exception,), {})')),
    Fixture("patches-builtins", (), "attack", "rebinds AssertionError, isinstance and print",
            all_stubs_plus("lab1-summarize",
                           'import builtins\n'
                           'builtins.AssertionError = type("AssertionError", (Exception,), {})\n'
                           'builtins.isinstance = lambda *args: True\n'
                           'builtins.NotImplementedError = type("NotImplementedError", (Exception,), {})')),
    Fixture("silences-tracebacks", (), "attack",
            "turns IPython's traceback display off, so errors print nothing (nbgrader #1324)",
            all_stubs_plus("lab1-summarize",
                           'ip = get_ipython()\n'
                           'ip.showtraceback = lambda *a, **k: None\n'
                           'ip._showtraceback = lambda *a, **k: None\n'
                           'ip.set_custom_exc((BaseException,), lambda *a, **k: None)')),
    Fixture("prints-passed", (), "attack", "prints what a passing check cell prints",
            all_stubs_plus("lab1-summarize",
                           'import sys\n'
                           'print("Lab 1 of lesson 12, tests: 3 of 3 pass.")\n'
                           'sys.__stdout__.write("Success! Your notebook passes all the tests.\\n")')),
    Fixture("sys-exit-in-gap", LAB1_AND_TWO_OF_LAB2, "attack",
            "lab 1 right; find_cut calls sys.exit()", lab1_right_then("lab2-find-cut", "import sys\nsys.exit(0)")),
    Fixture("os-exit-in-gap", LAB1_AND_TWO_OF_LAB2, "attack",
            "lab 1 right; find_cut calls os._exit()", lab1_right_then("lab2-find-cut", "import os\nos._exit(0)")),
    Fixture("os-exit-at-top-level", ("lab1-tests", "lab1-hidden"), "attack",
            "lab 1 right; the rows cell ends its process right after defining rows",
            lambda nb, master, ctx: append(solve(nb, master, *SOLUTIONS), "lab2-rows", "import os\nos._exit(0)")),
    Fixture("swaps-in-reference", (), "attack", "hands every gap back to harness: the reference in a kernel",
            lambda nb, master, ctx: [append(nb, "lab1-summarize", "summarize = harness.summarize"),
                                     append(nb, "lab2-find-cut", "find_cut = harness.find_cut"),
                                     append(nb, "lab2-rows", "rows = harness.SessionLog.rows"),
                                     append(nb, "lab2-compact", "compact = harness.compact")][-1]),
    Fixture("reads-reference-from-disk", (), "attack", "executes the reference's source read from disk",
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
    Fixture("imports-lab-checks", (), "attack", "imports the reference and the tests through lab and harness",
            all_stubs_plus("lab1-summarize",
                           'from harness.compaction import summarize\n')),
    Fixture("edits-files-on-disk", (), "attack",
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
    Fixture("forges-the-call-record", {"lab1-tests": 2}, "attack",
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
    Fixture("escapes-through-a-handle", (), "attack",
            "walks from the model object to the grader's os module to run a command",
            lambda nb, master, ctx: prepend_to_body(
                solve(nb, master, *LAB1), master, "lab1-summarize",
                'g = model.complete.__func__.__globals__\n'
                'g["os"].system("touch {pwned}")')),
    Fixture("kills-the-grader", LAB1_AND_TWO_OF_LAB2, "attack",
            "lab 1 right; find_cut signals its parent and its process group",
            lab1_right_then("lab2-find-cut", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
                                             "os.killpg(0, signal.SIGKILL)")),
    Fixture("uses-the-network", LAB1_AND_TWO_OF_LAB2, "attack",
            "lab 1 right; find_cut opens a connection",
            lab1_right_then("lab2-find-cut", 'import socket\nsocket.create_connection(("1.1.1.1", 53), timeout=2)')),
    Fixture("starts-processes", LAB1_AND_TWO_OF_LAB2, "attack",
            "lab 1 right; find_cut forks and runs a command",
            lab1_right_then("lab2-find-cut", "import os\nos.fork()\nos.system('touch {pwned}')")),
    Fixture("eats-memory", LAB1_AND_TWO_OF_LAB2, "attack",
            "lab 1 right; find_cut asks for 8 GiB", lab1_right_then("lab2-find-cut", "hog = bytearray(8 << 30)")),
    Fixture("returns-an-always-equal", {"lab1-tests": 3, "lab1-hidden": 5, "lab2-tests": 3}, "attack",
            "lab 1 right; find_cut returns an object equal to everything",
            lab1_right_then("lab2-find-cut", "class Always(int):\n    def __eq__(self, other):\n        return True\n"
                                             "class Anything:\n    def __eq__(self, other):\n        return True\n"
                                             "    __hash__ = object.__hash__\n"
                                             "return Anything()")),
    Fixture("copies-a-classmate", (), "attack", "looks for another submission to copy from",
            all_stubs_plus("lab1-summarize",
                           'import glob, json\n'
                           'for path in glob.glob({others!r}):\n'
                           '    for cell in json.load(open(path))["cells"]:\n'
                           '        if "def summarize" in "".join(cell["source"]):\n'
                           '            exec("".join(cell["source"]))')),
    Fixture("edits-check-cells", (), "attack", "rewrites the locked check cells and their points",
            lambda nb, master, ctx: [_rewrite_check(c) for c in nb.cells] and nb),
]


def _rewrite_check(cell):
    meta = cell.get("metadata", {}).get("nbgrader", {})
    if meta.get("grade"):
        cell.source = 'print("all tests pass")'
        meta["points"] = 99
    return cell


EXTRA += ATTACKS
