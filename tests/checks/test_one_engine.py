"""One wrong answer through the three front ends of lab.checks.engine (the notebook's lab.check,
the command line's lab_check, the autograder's verdict) gets one verdict and one sentence."""

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lab import checks
from lab.course import starters
from lab.runtime import checkcell
from lab.checks import engine
from lab.grader import verdict
from lab.course.starters import Stage

ROOT = Path(__file__).resolve().parents[2]

# Asks the summary in the agent's own voice: lesson 12's summary-request rung argues against it.
WRONG = '''
from harness import SYSTEM, render, text_of, user_message

def summarize(model, messages):
    asked = user_message("<conversation>\\n" + render(messages) + "\\n</conversation>")
    return text_of(model.complete(SYSTEM, [asked], [])).strip()
'''


def _unwrap(text):
    return re.sub(r"\s+", " ", text).strip()


def _why_lines(filled):
    """{test title: why sentence} from the notebook's (and the grader's) filled lines."""
    joined, lines = {}, []
    for line in filled.splitlines():
        if line.startswith("        ") and lines:   # a continuation of the line before
            lines[-1] += " " + line.strip()
        else:
            lines.append(line.strip())
    for title, why in zip(lines, lines[1:]):
        if title.startswith("✗ ") and why.startswith("why: "):
            joined[_unwrap(title[2:])] = _unwrap(why[5:])
    return joined


def _wrong_summarize():
    scope = {}
    exec(compile(WRONG, "<wrong>", "exec"), scope)
    return scope["summarize"]


def test_one_wrong_answer_gets_one_sentence_in_the_notebook_the_command_line_and_the_grader(tmp_path):
    expected = [(r.title, engine.why(r))
                for r in checks.run(12, 1, _wrong_summarize_ns(), hidden=False) if not r.passed]
    assert expected, "the wrong summarize passes every visible test of lesson 12's lab 1"
    title, sentence = expected[0]

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        checkcell.check(12, lab=1, summarize=_wrong_summarize())
    checkcell.PASSED.clear()
    notebook = _why_lines(out.getvalue())

    path = tmp_path / "harness.py"
    path.write_text(starters.text_at(Stage(12), solved=True) + WRONG, encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / "lab" / "lab_check.py"), "--harness", str(path),
                           "--lesson", "12", "--lab", "1", "--visible-only"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    command_line = {_unwrap(line[len("FAIL  lab 1  "):].split(" -- ")[0]): line.split(" -- ", 1)[1]
                    for line in done.stdout.splitlines() if line.startswith("FAIL  lab 1  ")}

    graded = verdict.grade(12, [("lab1-summarize", WRONG)],
                           [{"grade_id": "lab1-tests", "points": 3, "source": "lab.check(12, lab=1)"}],
                           timeout=10)
    cell = graded["cells"]["lab1-tests"]
    grader = _why_lines("\n".join(cell["lines"]))

    for front, found in (("the notebook", notebook), ("lab_check", command_line), ("the grader", grader)):
        assert found.get(_unwrap(title)) == sentence, (
            f"{front} says {found.get(_unwrap(title))!r} for {title!r}, the engine {sentence!r}")
    assert done.returncode == 1 and not cell["passed"]
    assert cell["reason"] == f"{next(t.name for t in checks.tests_for(12, 1) if t.title == title)}: {sentence}"


def _wrong_summarize_ns():
    from lab.course import manifest
    return manifest.Namespace({"summarize": _wrong_summarize()})


def test_after_an_overrun_the_rest_are_not_run_in_a_sentence():
    """engine.run_tests stops an endless harness once, whatever isolation ran the test."""
    tests = checks.tests_for(12, 2, hidden=False)
    ran = []

    def run(t):
        ran.append(t)
        return engine.overran(t, "find_cut (at line 4 of its definition)", "2 s")

    results = engine.run_tests(tests, run)
    assert ran == tests[:1] and [r.not_run for r in results] == [False] + [True] * (len(tests) - 1)
    assert engine.not_run_line(results) == (
        f"The other {len(tests) - 1} tests were not run: after an endless loop the time limit would only "
        "stop them too. Fix the loop and check again.")
    assert sum(r.earned for r in results) == 0 and sum(r.points for r in results) == sum(t.points for t in tests)


def test_a_spent_budget_is_the_reason_the_rest_are_not_run():
    tests = checks.tests_for(12, 1, hidden=False)
    calls = iter(["", "the cell's 4 s had already run out"])
    results = engine.run_tests(tests, lambda t: checks.Result(t, True, "", False),
                               spent=lambda: next(calls, "unused"))
    assert [r.passed for r in results] == [True] + [False] * (len(tests) - 1)
    assert engine.not_run_line(results).endswith("not run: the cell's 4 s had already run out.")
    assert sum(r.earned for r in results) == tests[0].points


def test_a_gap_reaching_another_through_harness_gets_one_sentence_in_all_three(tmp_path):
    """compact calling harness.find_cut: the notebook and lab_check refuse the call (graded, harness
    is the starter, where find_cut is a stub), and the grader's worker says the same of the stub
    it reaches, test by test."""
    import inspect

    import harness
    from lab.grader import fixtures

    source = inspect.getsource(harness.compact).replace("cut = find_cut(", "cut = harness.find_cut(")
    assert "harness.find_cut(" in source, "lesson 12's compact no longer calls find_cut"
    says = ("your compact calls harness.find_cut, which graded code does not have (there every gap "
            "of the lesson is a stub): call your own find_cut instead.")

    scope = {}
    exec(compile(starters.text_at(Stage(12), solved=True), "<solved>", "exec"), scope)
    exec(compile("import harness\n" + source, "<your cell>", "exec"), scope)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        checkcell.check(12, lab=2, find_cut=scope["find_cut"], rows=scope["SessionLog"].rows,
                        compact=scope["compact"])
    checkcell.PASSED.clear()
    notebook = _why_lines(out.getvalue())

    path = tmp_path / "harness.py"
    path.write_text(starters.text_at(Stage(12), solved=True) + "\nimport harness\n" + source, encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / "lab" / "lab_check.py"), "--harness", str(path),
                           "--lesson", "12", "--lab", "2", "--visible-only"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    command_line = {_unwrap(line[len("FAIL  lab 2  "):].split(" -- ")[0]): line.split(" -- ", 1)[1]
                    for line in done.stdout.splitlines() if line.startswith("FAIL  lab 2  ")}

    cells = [(g, "import harness\n" + s.replace("cut = find_cut(", "cut = harness.find_cut(")
              if g == "lab2-compact" else s) for g, s in verdict.learner_cells(fixtures.master_of(12))]
    graded = verdict.grade(12, cells, [{"grade_id": "lab2-tests", "points": 7,
                                        "source": "lab.check(12, lab=2)"}], timeout=10)
    grader = _why_lines("\n".join(graded["cells"]["lab2-tests"]["lines"]))

    assert notebook and set(notebook.values()) == {says}, notebook
    for front, found in (("lab_check", command_line), ("the grader", grader)):
        assert found == notebook, f"{front} says {found}, the notebook {notebook}"


HANDED_BACK = {
    "assigned": "import harness\nsummarize = harness.summarize\n",
    "called": ("import harness\n\n"
               "def summarize(model, messages):\n    return harness.summarize(model, messages)\n"),
    "kept": ("from harness import summarize as course_summarize\n\n"
             "def summarize(model, messages):\n    return course_summarize(model, messages)\n"),
}


@pytest.mark.parametrize("form", HANDED_BACK)
def test_a_gap_handed_back_to_harness_gets_the_notebooks_sentences_from_the_grader(form):
    """Graded, harness.summarize is the starter's stub: the grader says of it what the notebook's
    lab.check says of the course's answer, line for line, instead of "not written yet"."""
    import harness
    scope = {k: v for k, v in vars(harness).items() if not k.startswith("_")}
    exec(compile(HANDED_BACK[form], "<your cell>", "exec"), scope)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        checkcell.check(12, lab=1, summarize=scope["summarize"])
    checkcell.PASSED.clear()
    graded = verdict.grade(12, [("lab1-summarize", HANDED_BACK[form])],
                           [{"grade_id": "lab1-tests", "points": 3, "source": "lab.check(12, lab=1)"}],
                           timeout=10)["cells"]["lab1-tests"]
    notebook, grader = ([_unwrap(line) for line in text.split("\n  ") if "why:" in line or "not yet:" in line]
                        for text in (out.getvalue(), "\n".join(graded["lines"])))
    assert notebook and "harness.summarize" in notebook[0], out.getvalue()
    assert grader == notebook, f"the grader says {grader}, the notebook {notebook}"
    assert graded["score"] == 0


DOORS = {
    "harness_at": "import lab\n\ndef summarize(model, messages):\n    return lab.harness_at(13).summarize(model, messages)\n",
    "harness_now": "import lab\n\ndef summarize(model, messages):\n    return lab.harness_now(13).summarize(model, messages)\n",
    "now": "import lab\n\ndef summarize(model, messages):\n    return lab.now(13, 'summarize')(model, messages)\n",
    "use_reference": ("import harness\nimport lab\n\ndef summarize(model, messages):\n"
                      "    lab.use_reference(12)\n    return harness.summarize(model, messages)\n"),
    "kept": "from lab import harness_at as course\n\ndef summarize(model, messages):\n    return course(13).summarize(model, messages)\n",
}
TAKEN_BEFORE = {
    "a function": "import lab\nref = lab.harness_at(13).summarize\n\ndef summarize(model, messages):\n    return ref(model, messages)\n",
    "a module": "import lab\nlater = lab.harness_now(13)\n\ndef summarize(model, messages):\n    return later.summarize(model, messages)\n",
}


def _lab1_in_the_notebook(source):
    import harness
    scope = {k: v for k, v in vars(harness).items() if not k.startswith("_")}
    exec(compile(source, "<your cell>", "exec"), scope)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        checkcell.check(12, lab=1, summarize=scope["summarize"])
    checkcell.PASSED.clear()
    from lab.runtime import takeover
    takeover.use_reference(12)
    return out.getvalue()


def _lab1_graded(source):
    return verdict.grade(12, [("lab1-summarize", source)],
                         [{"grade_id": "lab1-tests", "points": 3, "source": "lab.check(12, lab=1)"}],
                         timeout=10)


@pytest.mark.parametrize("form", DOORS)
def test_a_gap_that_takes_the_answer_from_lab_gets_one_sentence_in_notebook_and_grader(form):
    """lab.harness_at, harness_now, now and use_reference hand over the course's answers; graded,
    lab serves none of them, so the notebook refuses the call too, and both say so alike."""
    door = "harness_at" if form == "kept" else form
    says = (f"your summarize calls lab.{door}, which hands over the course's own answers and which "
            "graded code does not have: use your own code instead.")
    printed = _lab1_in_the_notebook(DOORS[form])
    graded = _lab1_graded(DOORS[form])["cells"]["lab1-tests"]
    notebook, grader = (_why_lines(text) for text in (printed, "\n".join(graded["lines"])))
    assert "0 of 3 pass" in printed and set(notebook.values()) == {says}, printed
    assert grader == notebook, f"the grader says {grader}, the notebook {notebook}"
    assert graded["score"] == 0


@pytest.mark.parametrize("form", TAKEN_BEFORE)
def test_a_course_answer_taken_from_lab_before_the_check_fails_it(form):
    """The answer fetched at the top of the cell and kept: graded, that cell stops at lab (the
    gap is never defined) and earns nothing; in the notebook the kept answer is refused."""
    printed = _lab1_in_the_notebook(TAKEN_BEFORE[form])
    assert "0 of 3 pass" in printed and "the course's own answer" in printed, printed
    graded = _lab1_graded(TAKEN_BEFORE[form])
    assert graded["cells"]["lab1-tests"]["score"] == 0
    assert graded["errors"]["lab1-summarize"][0] == "AttributeError"


class _Notebook:
    """What lab.runtime.takeover asks of IPython to tell a notebook cell's code: a compiler that
    knows the cells' file names (IPython's CachingCompiler.format_code_name)."""

    def __init__(self, *filenames):
        self.compile = self
        self.filenames = filenames

    def format_code_name(self, name):
        return ("Cell", "In[1]") if name in self.filenames else None


HELPER = '''
import harness

def plan(log, budget):
    rows = log.rows()
    return rows, harness.find_cut(rows, budget)
'''
HELPERS = {"through harness": HELPER,
           "kept under a name of its own": (
               HELPER.replace("import harness", "from harness import find_cut as cut_at")
                     .replace("harness.find_cut(", "cut_at("))}


@pytest.mark.parametrize("form", HELPERS)
def test_a_helper_reaching_a_gap_through_harness_gets_one_sentence_in_notebook_and_grader(monkeypatch, form):
    """A helper of the learner's own, in a cell of its own, that compact calls: graded it reaches
    find_cut's stub, so the notebook refuses its call too, and both say so of the helper."""
    import inspect

    import harness
    from lab.grader import fixtures
    from lab.runtime import guards, takeover

    compact = inspect.getsource(harness.compact).replace(
        "    rows = log.rows()\n    cut = find_cut(rows, keep_recent_tokens)\n",
        "    rows, cut = plan(log, keep_recent_tokens)\n")
    assert "plan(log" in compact, "lesson 12's compact no longer starts with rows and find_cut"
    says = ("your plan calls harness.find_cut, which graded code does not have (there every gap of "
            "the lesson is a stub): call your own find_cut instead.")

    scope = {}
    exec(compile(starters.text_at(Stage(12), solved=True), "<solved>", "exec"), scope)
    exec(compile(HELPERS[form], "<cell helper>", "exec"), scope)
    exec(compile(compact, "<cell compact>", "exec"), scope)
    found = {"find_cut": scope["find_cut"], "rows": scope["SessionLog"].rows, "compact": scope["compact"]}

    def check():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            checkcell.check(12, lab=2, **found)
        checkcell.PASSED.clear()
        takeover.use_reference(12)
        return out.getvalue()

    assert "7 of 7 pass" in check(), "outside a notebook the helper is not told apart, and the lab passes"
    monkeypatch.setattr(guards, "running_shell", lambda: _Notebook("<cell helper>", "<cell compact>"))
    notebook = _why_lines(check())

    cells = [(g, s) for g, s in verdict.learner_cells(fixtures.master_of(12)) if g != "lab2-compact"]
    cells += [("cell-helper", HELPERS[form]), ("lab2-compact", compact)]
    graded = verdict.grade(12, cells, [{"grade_id": "lab2-tests", "points": 7,
                                        "source": "lab.check(12, lab=2)"}], timeout=10)
    grader = _why_lines("\n".join(graded["cells"]["lab2-tests"]["lines"]))
    assert notebook and set(notebook.values()) == {says}, notebook
    assert grader == notebook, f"the grader says {grader}, the notebook {notebook}"


def test_in_a_real_kernel_the_helpers_call_is_refused(tmp_path):
    """The same helper, in a notebook run by a Jupyter kernel: IPython's own names for its cells
    are what takeover tells the learner's code by."""
    import inspect

    import nbformat

    import harness
    from lab.lessons import build

    compact = inspect.getsource(harness.compact).replace(
        "    rows = log.rows()\n    cut = find_cut(rows, keep_recent_tokens)\n",
        "    rows, cut = plan(log, keep_recent_tokens)\n")
    solved = starters.text_at(Stage(12), solved=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f"import lab\nexec(compile({solved!r}, '<solved>', 'exec'))"),
                nbformat.v4.new_code_cell(HELPER),
                nbformat.v4.new_code_cell(compact),
                nbformat.v4.new_code_cell("lab.check(12, lab=2, find_cut=find_cut, rows=SessionLog.rows, "
                                          "compact=compact)")]
    ran = build.execute(nb, cwd=tmp_path)
    said = " ".join("".join(o.get("text", "") for o in ran.cells[-1].outputs).split())
    assert "Lab 2 of lesson 12, tests: 3 of 7 pass." in said, said
    assert ("why: your plan calls harness.find_cut, which graded code does not have (there every gap "
            "of the lesson is a stub): call your own find_cut instead.") in said, said


def test_a_gap_the_learners_cell_put_into_harness_may_be_called_through_harness(monkeypatch):
    """`harness.summarize = summarize` in a cell of the learner's, then compact calling
    harness.summarize: graded, that cell puts the learner's summarize into the worker's harness,
    so the grader gives 7 of 7; the notebook's check gives the same, where it refused the call."""
    import inspect

    import harness
    from lab.grader import fixtures
    from lab.runtime import guards, takeover

    master = fixtures.master_of(12)
    gaps = fixtures.solution_cells(12, master)
    learner = dict(verdict.learner_cells(master))
    compact = "import harness\n" + learner[gaps["compact"]].replace("summarize(", "harness.summarize(")
    assert "harness.summarize(" in compact, "lesson 12's compact no longer calls summarize"
    put = "import harness\nharness.summarize = summarize\n"

    scope = {}
    exec(compile(starters.text_at(Stage(12), solved=True), "<solved>", "exec"), scope)
    exec(compile(inspect.getsource(harness.summarize), "<cell summarize>", "exec"), scope)
    exec(compile(put, "<cell put>", "exec"), scope)
    exec(compile(compact, "<cell compact>", "exec"), scope)
    monkeypatch.setattr(guards, "running_shell", lambda: _Notebook("<cell summarize>", "<cell put>", "<cell compact>"))
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            checkcell.check(12, lab=2, find_cut=scope["find_cut"], rows=scope["SessionLog"].rows,
                            compact=scope["compact"])
    finally:
        checkcell.PASSED.clear()
        takeover.use_reference(12)

    cells = []
    for grade_id, source in verdict.learner_cells(master):
        if grade_id == gaps["compact"]:
            cells += [("cell-put", put), (grade_id, compact)]
        else:
            cells.append((grade_id, source))
    graded = verdict.grade(12, cells, [{"grade_id": "lab2-tests", "points": 7,
                                        "source": "lab.check(12, lab=2)"}], timeout=10)
    assert graded["cells"]["lab2-tests"]["score"] == 7, graded["cells"]["lab2-tests"]["lines"]
    assert "7 of 7 pass" in out.getvalue(), out.getvalue()


HONEST_PUT = "import harness\nharness.summarize = summarize\n"
# the same, of a draft of theirs under the gap's name
DRAFT_PUT = "import harness\nharness.summarize = lambda model, messages: 'a draft'\n"
COURSES_OWN = '''
import harness

def summarize(model, messages):
    return harness.compaction.summarize(model, messages)
'''


def _lab1_beside_a_put(monkeypatch, source, put=HONEST_PUT):
    """Lesson 12's lab 1 checked in a kernel where one cell defines summarize from `source` and the
    next puts it into harness (`harness.summarize = summarize`); what the check printed."""
    import harness
    from lab.runtime import guards, takeover

    course = harness.compaction.summarize
    scope = {}
    exec(compile(source, "<cell summarize>", "exec"), scope)
    exec(compile(put, "<cell put>", "exec"), scope)
    monkeypatch.setattr(guards, "running_shell", lambda: _Notebook("<cell summarize>", "<cell put>"))
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            checkcell.check(12, lab=1, summarize=scope["summarize"])
    finally:
        checkcell.PASSED.clear()
        takeover.use_reference(12)
        restored = harness.summarize is harness.compaction.summarize is takeover.reference_of("summarize")
        harness.summarize = harness.compaction.summarize = course
    return out.getvalue(), restored


def test_the_learners_summarize_put_into_harness_by_their_cell_is_still_theirs(monkeypatch):
    """Their own summarize, put into harness by a cell of theirs: the notebook's check took harness
    as it then was for the course's answer and said "summarize is the course's own
    harness.summarize" (0 of 3); the grader gave 3."""
    import inspect

    import harness

    honest = "import harness\nfrom harness import *\n" + inspect.getsource(harness.summarize)
    said, restored = _lab1_beside_a_put(monkeypatch, honest)
    assert "Lab 1 of lesson 12, tests: 3 of 3 pass." in said, said
    assert restored, "use_reference(12) did not put the course's summarize back where the learner's cell put theirs"
    cell = _lab1_graded(honest + "\n" + HONEST_PUT)["cells"]["lab1-tests"]
    assert cell["score"] == 3, cell["lines"]


@pytest.mark.parametrize("put", [HONEST_PUT, DRAFT_PUT], ids=["their summarize", "a draft"])
def test_the_courses_summarize_left_in_its_module_is_refused_once_harness_holds_the_learners(monkeypatch, put):
    """A summarize that calls harness.compaction.summarize, the course's own, after a cell put the
    learner's code into harness.summarize: the notebook's check took what the cell put there for
    the course's answer, so it refused their summarize as the course's own (0 of 3, a sentence that
    was not true) or, beside a draft, let the call through (3 of 3); graded it scores 0."""
    sentence = ("your summarize calls harness.summarize, the course's own answer, which graded code "
                "does not have: write summarize yourself.")
    said, restored = _lab1_beside_a_put(monkeypatch, COURSES_OWN, put)
    assert "Lab 1 of lesson 12, tests: 0 of 3 pass." in said, said
    assert sentence in _unwrap(said), said
    assert restored
    # graded, harness is the lesson's starter, one module as the learner's harness.py is, with
    # no harness.compaction: the call fails there before it reaches a stub
    cell = _lab1_graded(COURSES_OWN + "\n" + put)["cells"]["lab1-tests"]
    assert cell["score"] == 0, cell["lines"]


# An honest summarize that spends `seconds` of CPU on every call before it answers.
SLOW = '''
import time
from harness import *

{reference}

_answer = summarize

def summarize(model, messages):
    started = time.process_time()
    while time.process_time() - started < {seconds}:
        pass
    return _answer(model, messages)
'''


def _slow(seconds):
    import inspect

    import harness
    return SLOW.format(reference=inspect.getsource(harness.summarize), seconds=seconds)


def _slow_in_the_notebook(source, seconds):
    from lab.runtime import takeover
    scope = {}
    exec(compile(source, "<slow cell>", "exec"), scope)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            checkcell.check(12, lab=1, summarize=scope["summarize"], timeout=seconds)
    finally:
        checkcell.PASSED.clear()
        takeover.use_reference(12)
    return out.getvalue()


def test_each_test_has_its_own_time_in_the_grader_as_in_the_notebook(monkeypatch):
    """The notebook gives each test TEST_SECONDS; the grader gave a check cell's tests one budget
    together, so code a little slow on every test lost the later ones to the earlier ones' time
    (graded 2 of 3 where the notebook said 3 of 3)."""
    monkeypatch.setattr(engine, "TEST_SECONDS", 3.0)   # wall time in the notebook: room for a busy machine
    source = _slow(0.3)
    said = _slow_in_the_notebook(source, 3.0)
    assert "Lab 1 of lesson 12, tests: 3 of 3 pass." in said, said
    # a cell's time shorter than the tests' together, as 30 s is for code slow enough
    graded = verdict.grade(12, [("lab1-summarize", source)],
                           [{"grade_id": "lab1-tests", "points": 3, "source": "lab.check(12, lab=1)"}],
                           timeout=1)["cells"]["lab1-tests"]
    assert graded["score"] == 3, graded["lines"]


def _sleepy(seconds):
    """The slow summarize, waiting `seconds` on every call instead of computing."""
    source = _slow(0).replace("while time.process_time() - started < 0:\n        pass",
                              f"time.sleep({seconds})")
    assert f"time.sleep({seconds})" in source
    return source


@pytest.mark.parametrize("slow", [_slow, _sleepy], ids=["lesson12-computes", "lesson12-sleeps"])
def test_a_test_over_its_time_fails_in_the_grader_as_in_the_notebook(monkeypatch, slow):
    """The other way: a test that took longer than TEST_SECONDS failed in the notebook and passed
    graded. Computing, the cell's 30 s covered it (3 of 3 graded, 0 of 3 in the notebook); waiting
    without computing (a sleep, a retry's back-off), the wall clock stopped a test only at
    WALL_FACTOR times its time, where the notebook's wall clock stops it at its time."""
    monkeypatch.setattr(engine, "TEST_SECONDS", 1.0)
    source = slow(1.5)
    said = _unwrap(_slow_in_the_notebook(source, 1.0))
    assert "Lab 1 of lesson 12, tests: 0 of 3 pass." in said, said
    assert "did not finish within 1 s, so the check stopped it: an endless loop?" in said, said
    graded = verdict.grade(12, [("lab1-summarize", source)],
                           [{"grade_id": "lab1-tests", "points": 3, "source": "lab.check(12, lab=1)"}],
                           timeout=30)["cells"]["lab1-tests"]
    lines = _unwrap("\n".join(graded["lines"]))
    assert graded["score"] == 0, graded["lines"]
    assert "Lab 1 of lesson 12, tests: 0 of 3 pass." in lines, lines
    assert "your code did not finish within 1 s, so the check stopped it: an endless loop?" in lines, lines


def test_a_test_that_sleeps_within_its_time_passes_in_both():
    """The other side of the same line: waiting less than a test's time costs nothing graded."""
    source = _sleepy(0.2)
    graded = verdict.grade(12, [("lab1-summarize", source)],
                           [{"grade_id": "lab1-tests", "points": 3, "source": "lab.check(12, lab=1)"}],
                           timeout=30, test_seconds=1.5)["cells"]["lab1-tests"]
    assert graded["score"] == 3, graded["lines"]


@pytest.mark.parametrize("lesson", [1, 7, 9, 12, 16], ids=lambda n: f"lesson{n:02d}")
def test_the_workers_cpu_limit_leaves_every_test_and_cell_its_time(lesson):
    """The worker's RLIMIT_CPU is a backstop under the budgets, never below them: at 4 cells of
    the cell's time and 30 s it ended, mid-check, a worker whose slow but honest code took 8 s
    on each of lesson 7's 21 tests, which the notebook passes (each under its 10 s)."""
    from lab.grader import nbgrader_ext, session
    from lab import lessons
    assert lesson in lessons.written()
    cells = [(f"cell-{n}", "x = 1\n") for n in range(6)]
    for limits in (None, nbgrader_ext.SandboxedTests().limits()):
        held = session.Session(lesson, cells, timeout=30, limits=limits)
        allowed = 30 * len(cells) + engine.TEST_SECONDS * len(checks.tests_for(lesson))
        assert held.limits.cpu_seconds > allowed, (
            f"session.Session gave lesson {lesson}'s worker {held.limits.cpu_seconds} CPU seconds, "
            f"less than the {allowed:g} its cells and tests may take")
        if limits is not None:
            assert held.limits.memory_mb == limits.memory_mb
