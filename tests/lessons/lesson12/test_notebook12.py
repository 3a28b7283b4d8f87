"""Lesson 12's notebook, beyond what every lesson's is held to (tests/lessons/test_notebook*.py):
the seed's thirteen outputs, in the master and in the learner's copy; its rungs, in the seed's
order with the seed's answers; the hook, the teaser, the demonstrations that say whose code they
ran on; and what a learner meets who runs cells out of order, writes a wrong gap, an endless one,
or one that does not parse."""

from collections import Counter

import nbformat
import pytest

from lab.course import starters
from lab.lessons import build
from lab.lessons import lesson12 as data

from tests.lessons.runs import learner_runs
from tests.lessons.lesson12.seed_outputs import SEED_OUTPUTS, expected

LESSON = 12
PATH = build.notebook_path(LESSON)


@pytest.fixture(scope="module")
def master():
    return nbformat.read(PATH, as_version=4)


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def stdout_of(cell):
    return "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")


def by_id(nb, cell_id):
    matches = [c for c in nb.cells if c.get("id") == cell_id]
    assert len(matches) == 1, f"expected one cell with id {cell_id}, found {len(matches)}"
    return matches[0]


# --- the master copy ------------------------------------------------------------------------

@pytest.mark.parametrize("cell_id", sorted(SEED_OUTPUTS))
def test_demonstration_prints_the_seed_output(master, cell_id):
    assert stdout_of(by_id(master, cell_id)) == expected(cell_id)


def test_first_code_cell_imports_harness_and_lab(master):
    first = code_cells(master)[0]
    assert "import harness" in first.source and "import lab" in first.source
    assert "harness-course" in stdout_of(first)


def test_rungs_are_the_seeds():
    """Nine single-choice (two optional), four number, one multi-select, three open questions, in
    the seed's order, with the seed's right answers."""
    kinds = Counter(spec.kind for spec in data.RUNGS)
    assert kinds == {"choice": 9, "number": 4, "multi": 1, "open": 3}
    assert [s.id for s in data.RUNGS if s.optional] == ["count-tokens", "stale-usage"]
    right = {s.id: [i for i, o in enumerate(s.options) if o.right]
             for s in data.RUNGS if s.kind == "choice"}
    assert right == {"what-is-sent": [1], "result-paid": [2], "throw-away": [2],
                     "strict-cut": [0], "summary-request": [1], "live-list": [1],
                     "compaction-fails": [2], "count-tokens": [2], "stale-usage": [0]}
    for spec in data.RUNGS:
        if spec.kind == "choice":
            assert len(spec.options) == 3 and all(o.text and o.feedback for o in spec.options)
    numbers = {s.id: s.answer for s in data.RUNGS if s.kind == "number"}
    assert numbers == {"wall-count": 8, "lines-after": 10, "replay-count": 5, "tail-start": 10}
    multi = [s for s in data.RUNGS if s.kind == "multi"]
    assert [option[1] for option in multi[0].options] == [True, False, True]
    for spec in data.RUNGS:
        if spec.kind == "open":
            assert spec.model_answer and len(spec.common) == 3
    order = [s.id for s in data.RUNGS]
    assert order == ["what-is-sent", "result-paid", "wall-count", "throw-away", "what-to-append",
                     "lines-after", "replay-count", "strict-cut", "tail-start", "no-entry",
                     "summary-request", "live-list", "compaction-fails", "colleague",
                     "count-tokens", "stale-usage", "exact-error"]


def test_a_runs_all_three_cell_follows_its_rung(master):
    """The seed's "the cell then runs all three": the demonstration comes after the question."""
    ids = [c.id for c in master.cells]
    for rung_id, demo in [("what-is-sent", "demo-recall"), ("throw-away", "demo-three-ways"),
                          ("summary-request", "demo-who-writes"), ("live-list", "demo-two-lists"),
                          ("compaction-fails", "demo-housekeeping"), ("strict-cut", "demo-bad-cut"),
                          ("replay-count", "demo-entry"), ("wall-count", "demo-wall"),
                          ("what-to-append", "demo-entry-line"), ("tail-start", "demo-find-cut")]:
        assert ids.index(f"rung-{rung_id}") < ids.index(demo)


def test_no_answer_sits_in_plain_markdown_right_under_its_question(master):
    """The two answers that once followed their questions in prose now come after the cell that
    shows them (issue 9: cells 17 and 28)."""
    ids = [c.id for c in master.cells]
    assert ids.index("rung-what-to-append") < ids.index("demo-entry-line") < ids.index("entry")
    assert ids.index("rung-tail-start") < ids.index("demo-find-cut") < ids.index("tail-after")
    for rung_id in ("what-to-append", "tail-start"):
        after = master.cells[ids.index(f"rung-{rung_id}") + 1]
        assert after.cell_type == "code" or len(after.source) < 400, after.id


def test_the_hook_leads_and_lesson_13_is_teased(master):
    title = by_id(master, "title").source
    assert title.index("**The wall.**") < title.index("minutes") and ".rungs" not in title
    assert "Next: 13 · The briefing" in by_id(master, "still-open").source


def test_every_demo_that_runs_on_the_learners_code_says_so(master):
    """data.DEMOS lists, in notebook order, the cells that switch to the learner's code: each one
    ends by saying whose code it ran on, and no other cell claims to."""
    ids = [c.id for c in master.cells]
    listed = [cell_id for cell_id, _, _ in data.DEMOS]
    assert listed == sorted(listed, key=ids.index)
    claiming = [c.id for c in code_cells(master) if "ran_on(" in c.source]
    assert claiming == listed
    for cell_id, label, names in data.DEMOS:
        cell = by_id(master, cell_id)
        assert cell.source.rstrip().endswith(f'ran_on("{cell_id}")')
        notes = [o.data["text/plain"] for o in cell.outputs if o.output_type == "display_data"
                 and o.data.get("text/plain", "").startswith(f"{label} ran on: ")]
        assert len(notes) == 1, cell_id
        assert all(name in notes[0] for name in names)


def test_the_learners_gaps_say_what_the_command_line_starter_says(learner):
    """One starter: the comment lines of each gap in harness/gaps are above its definition in the
    learner's edition (nbgrader's stub under them) and in `python -m lab starter 12 --lab N`, and
    both stubs raise NotImplementedError, so an untouched lab is "not done" either way."""
    from harness import gaps
    for cell_id, name, lab in (("lab1-summarize", "summarize", 1), ("lab2-find-cut", "find_cut", 2),
                               ("lab2-rows", "SessionLog.rows", 2), ("lab2-compact", "compact", 2)):
        words = gaps.comments(LESSON, name)
        assert words.count("\n") >= 3
        cell = by_id(learner, cell_id).source
        assert cell.startswith(words) and "raise NotImplementedError()" in cell
        starter = starters.text_at(starters.Stage(LESSON, lab))
        flat = [line.strip() for line in starter.splitlines()]
        assert all(line.strip() in flat for line in words.splitlines())
        block = starter.split(words.splitlines()[0].strip(), 1)[1].split("# --- end ---", 1)[0]
        assert "raise NotImplementedError()" in block and "return cut" not in block


def test_nbgrader_metadata(master):
    ids = [c.metadata["nbgrader"]["grade_id"] for c in master.cells if "nbgrader" in c.metadata]
    assert len(ids) == len(set(ids)), "grade_ids must be unique"
    graded = {c.id: c.metadata["nbgrader"]["points"] for c in master.cells
              if c.metadata.get("nbgrader", {}).get("grade")}
    # each cell is worth its tests' points, declared once with the tests (lab/checks)
    from lab import checks
    worth = lambda lab, hidden: sum(t.points for t in checks.tests_for(LESSON, lab, hidden=hidden))
    assert graded == {"lab1-tests": worth(1, False), "lab1-hidden": worth(1, True),
                      "lab2-tests": worth(2, False), "lab2-hidden": worth(2, True)}
    assert graded == {"lab1-tests": 3, "lab1-hidden": 5, "lab2-tests": 7, "lab2-hidden": 4}
    for cell in master.cells:
        meta = cell.metadata.get("nbgrader")
        if meta is None:
            assert cell.id.endswith("try") or "-try-" in cell.id, f"{cell.id} has no nbgrader role"
            continue
        assert meta["schema_version"] == 3
        assert meta["locked"] == (not meta["solution"])
    for cell_id in ("lab1-hidden", "lab2-hidden"):
        source = by_id(master, cell_id).source
        assert "### BEGIN HIDDEN TESTS" in source and "hidden=True" in source
    headings = "\n".join(c.source for c in master.cells if c.cell_type == "markdown")
    total = sum(graded.values())
    assert f"({total} points)" in headings
    assert f"({graded['lab1-tests'] + graded['lab1-hidden']} points" in headings
    assert f"({graded['lab2-tests'] + graded['lab2-hidden']} points" in headings


def test_tau_citations_are_links_to_the_pinned_commit(master):
    text = "\n".join(c.source for c in master.cells if c.cell_type == "markdown")
    links = text.count("https://github.com/huggingface/tau/blob/9fe6a71/src/")
    assert links >= 29
    assert "github.com/huggingface/tau/blob/" + "62eab4e" not in text


def test_figures_are_drawn_from_the_log(master):
    cell = by_id(master, "figure-12-1")
    assert "harness.find_cut" in cell.source and "lab.draw_log" in cell.source
    assert stdout_of(cell).startswith("dashed line (budget's reach): e4 | solid line (find_cut): e6")
    assert "image/png" in cell.outputs[0].data
    forty = by_id(master, "demo-forty")
    assert "lab.draw_log(log, 300" in forty.source
    assert any("image/png" in o.get("data", {}) for o in forty.outputs)


# --- nbval on the master copy -----------------------------------------------------------------

# --- the learner's copy -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def learner(master):
    return build.learner_copy(master)


@pytest.fixture(scope="module")
def learner_run():
    return learner_runs(12)[0]   # the run the suite every lesson passes makes, shared


def test_demonstrations_run_on_the_reference_in_the_learners_copy(learner_run):
    for cell_id in SEED_OUTPUTS:
        assert stdout_of(by_id(learner_run, cell_id)) == expected(cell_id)


# --- bad input: out of order, wrong code ------------------------------------------------------

def small_notebook(master, *cell_ids, replace=None):
    """A notebook of just these cells of the master (in this order), `replace` giving new sources."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = master.metadata
    for cell_id in cell_ids:
        cell = nbformat.from_dict(dict(by_id(master, cell_id)))
        cell.outputs = [] if cell.cell_type == "code" else None
        if cell.cell_type != "code":
            del cell["outputs"]
        if replace and cell_id in replace:
            cell.source = replace[cell_id]
        nb.cells.append(cell)
    return nb


def test_cells_run_out_of_order_say_so_in_a_sentence(learner, tmp_path):
    """A fresh kernel, and the learner runs a try-it cell and a check cell before anything else."""
    nb = small_notebook(learner, "lab2-try-compact", "lab2-tests", "rung-tail-start", "yours-rows")
    run = build.execute(nb, cwd=tmp_path)
    for cell in run.cells:
        assert all(o.output_type != "error" for o in cell.outputs), cell.id
    assert "is not defined yet" in stdout_of(by_id(run, "lab2-try-compact"))
    assert "not defined" in stdout_of(by_id(run, "lab2-tests"))


def test_a_wrong_gap_gets_the_failing_tests_sentence(master, tmp_path):
    """summarize built with the agent's own system prompt and its tools: the check names the
    failing test and says why, and nothing raises."""
    wrong = ('def summarize(model, messages):\n'
             '    reply = model.complete(harness.SYSTEM, list(messages) + [user_message("Summarise.")], [])\n'
             '    return text_of(reply).strip()\n')
    nb = small_notebook(master, "setup", "lab1-given", "lab1-summarize", "lab1-tests",
                        replace={"lab1-summarize": wrong})
    run = build.execute(nb, cwd=tmp_path)
    out = stdout_of(by_id(run, "lab1-tests"))
    assert "✗" in out and "why:" in out and "not done yet" not in out
    assert all(o.output_type != "error" for c in run.cells if c.cell_type == "code" for o in c.outputs)


def test_an_endless_find_cut_in_the_kernel_is_one_sentence(master, tmp_path):
    """The check cell, in a real kernel: a find_cut that never returns is stopped by the time limit
    and reported in a sentence, with no traceback, and the cell itself does not fail."""
    endless = ("def find_cut(rows, keep_recent_tokens):\n"
               "    while True:\n"
               "        pass\n")
    nb = small_notebook(master, "setup", "lab1-given", "lab1-summarize", "lab2-given", "lab2-find-cut",
                        "lab2-rows", "lab2-compact", "lab2-tests",
                        replace={"lab2-find-cut": endless, "lab2-tests": "import lab\n\nlab.check(12, lab=2, timeout=2)"})
    run = build.execute(nb, cwd=tmp_path)
    out = " ".join(stdout_of(by_id(run, "lab2-tests")).split())
    assert "why: find_cut (at line" in out and "did not finish within 2 s" in out
    assert "Traceback" not in out
    assert all(o.output_type != "error" for c in run.cells if c.cell_type == "code" for o in c.outputs)


def test_a_gap_cell_that_does_not_parse_is_named_as_that_cell(master, tmp_path):
    broken = "def summarize(model, messages)\n    return ''\n"
    nb = small_notebook(master, "setup", "lab1-given", "lab1-summarize", "lab1-tests",
                        replace={"lab1-summarize": broken})
    run = build.execute(nb, cwd=tmp_path, allow_errors=True)
    out = " ".join(stdout_of(by_id(run, "lab1-tests")).split())
    assert out.startswith("not yet: the cell that defines summarize does not parse (line 1: expected ':')")
