"""Lesson 12's notebook: generated from its source, run for real, complete, and safe to hand out.

The master copy (notebooks/12-...ipynb) is what lab/lessons/build.py makes of lab/lessons/lesson12.md,
with outputs saved by running it. Its learner's copy is what nbgrader's own preprocessors make of it.
"""

import os
import subprocess
import sys
from collections import Counter

import nbformat
import pytest

from lab import checks, starters
from lab.lessons import build
from lab.lessons import lesson12 as data

from tests.seed_outputs import SEED_OUTPUTS, expected

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

def test_committed_notebook_is_what_its_source_makes():
    """Edit lab/lessons/lesson12.md (or the reference harness), then run
    `python -m lab.lessons build 12`: the committed notebook must never lag behind."""
    assert build.stale(LESSON) == ""


def test_staleness_is_detected(tmp_path, monkeypatch):
    """A notebook whose cells differ from the source is reported as stale."""
    nb = nbformat.read(PATH, as_version=4)
    nb.cells[0].source += "\nAn edit made by hand."
    copy = tmp_path / PATH.name
    copy.write_text(nbformat.writes(nb), encoding="utf-8")
    monkeypatch.setattr(build, "notebook_path", lambda lesson: copy)
    assert "differs from what its source makes" in build.stale(LESSON)


@pytest.mark.parametrize("cell_id", sorted(SEED_OUTPUTS))
def test_demonstration_prints_the_seed_output(master, cell_id):
    assert stdout_of(by_id(master, cell_id)) == expected(cell_id)


def test_saved_outputs_have_no_errors_and_no_stderr(master):
    for cell in code_cells(master):
        for output in cell.outputs:
            assert output.output_type != "error", f"cell {cell.id}: {output.get('ename')}"
            assert not (output.output_type == "stream" and output.name == "stderr"), \
                f"cell {cell.id} wrote to stderr: {output.text[:200]}"


def test_every_code_cell_was_run(master):
    unrun = [c.id for c in code_cells(master) if c.source.strip() and c.execution_count is None]
    assert unrun == []


def test_first_code_cell_imports_harness_and_lab(master):
    first = code_cells(master)[0]
    assert "import harness" in first.source and "import lab" in first.source
    assert "harness-course" in stdout_of(first)


def test_every_rung_of_the_lesson_is_in_the_notebook_once(master):
    calls = Counter()
    for cell in code_cells(master):
        for spec in data.RUNGS:
            if f'lab.rung(12, "{spec.id}")' in cell.source:
                calls[spec.id] += 1
    assert calls == Counter({spec.id: 1 for spec in data.RUNGS})


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
    assert [fits for _, fits in multi[0].options] == [True, False, True]
    for spec in data.RUNGS:
        if spec.kind == "open":
            assert spec.model_answer and len(spec.common) == 3
    order = [s.id for s in data.RUNGS]
    assert order == ["what-is-sent", "result-paid", "wall-count", "throw-away", "what-to-append",
                     "lines-after", "replay-count", "strict-cut", "tail-start", "no-entry",
                     "summary-request", "live-list", "compaction-fails", "colleague",
                     "count-tokens", "stale-usage", "exact-error"]


def test_rungs_stand_in_the_notebook_in_the_seeds_order(master):
    seen = []
    for cell in code_cells(master):
        for spec in data.RUNGS:
            if f'lab.rung(12, "{spec.id}")' in cell.source:
                seen.append(spec.id)
    assert seen == [s.id for s in data.RUNGS]


def test_each_lab_has_a_three_level_hint_ladder(master):
    for lab in (1, 2):
        hints = data.HINTS[lab]
        assert all(text.strip() for _, text in hints.levels) and len(hints.levels) == 3
        assert any(f"lab.hints(12, lab={lab})" in c.source for c in code_cells(master))


def test_a_runs_all_three_cell_follows_its_rung(master):
    """The seed's "the cell then runs all three": the demonstration comes after the question."""
    ids = [c.id for c in master.cells]
    for rung_id, demo in [("what-is-sent", "demo-recall"), ("throw-away", "demo-three-ways"),
                          ("summary-request", "demo-who-writes"), ("live-list", "demo-two-lists"),
                          ("compaction-fails", "demo-housekeeping"), ("strict-cut", "demo-bad-cut"),
                          ("replay-count", "demo-entry"), ("wall-count", "demo-wall")]:
        assert ids.index(f"rung-{rung_id}") < ids.index(demo)


def test_rung_text_forms_do_not_depend_on_answers(master):
    """nbval compares text/plain: a rung's saved text form is fixed by the lesson data, and the
    saved notebook keeps no widget view, whose model id would be random and gone on reopening."""
    for cell in code_cells(master):
        if "lab.rung(" in cell.source:
            plain = cell.outputs[0].data["text/plain"]
            assert plain.startswith("[lesson 12 · question ")
            assert set(cell.outputs[0].data) == {"text/plain"}


def test_solution_cells_are_the_reference_harness(master):
    """Each gap's solution is lab.starters.definition(...) of the reference, never typed by hand."""
    expected_names = {"lab1-summarize": "summarize", "lab2-find-cut": "find_cut",
                      "lab2-rows": "SessionLog.rows", "lab2-compact": "compact"}
    solutions = {c.id: c for c in master.cells if c.metadata.get("nbgrader", {}).get("solution")}
    assert set(solutions) == set(expected_names)
    for cell_id, name in expected_names.items():
        source = solutions[cell_id].source
        assert source.endswith(starters.definition(name, markers=True).rstrip("\n"))
        assert "### BEGIN SOLUTION" in source and "### END SOLUTION" in source


def test_nbgrader_metadata(master):
    ids = [c.metadata["nbgrader"]["grade_id"] for c in master.cells if "nbgrader" in c.metadata]
    assert len(ids) == len(set(ids)), "grade_ids must be unique"
    graded = {c.id: c.metadata["nbgrader"]["points"] for c in master.cells
              if c.metadata.get("nbgrader", {}).get("grade")}
    assert graded == {"lab1-tests": 3, "lab1-hidden": 2, "lab2-tests": 7, "lab2-hidden": 3}
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
    assert "(15 points)" in headings and "(5 points" in headings and "(10 points" in headings


def test_test_lists_match_the_checks(master):
    for lab in (1, 2):
        cell = by_id(master, f"lab{lab}-testlist")
        items = [line for line in cell.source.splitlines() if line[:1].isdigit()]
        assert len(items) == len(checks.tests_for(LESSON, lab, hidden=False))


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

def test_nbval_passes_on_the_master_copy(tmp_path):
    env = dict(os.environ, LAB_RUNGS_DIR=str(tmp_path / "rungs"))
    env.pop("NBGRADER_EXECUTION", None)
    result = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "-q", "-p", "no:cacheprovider",
                             "--rootdir", str(tmp_path), str(PATH)],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]


# --- the learner's copy -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def learner(master):
    return build.learner_copy(master)


def test_learner_copy_has_no_solution_code_and_no_hidden_tests(master, learner):
    text = "\n".join(c.source for c in learner.cells)
    elsewhere = "\n".join(c.source for c in master.cells
                          if not c.metadata.get("nbgrader", {}).get("solution"))
    assert "### BEGIN SOLUTION" not in text and "### BEGIN HIDDEN TESTS" not in text
    assert "hidden=True" not in text
    for name in ("summarize", "find_cut", "SessionLog.rows", "compact"):
        reference = starters.definition(name, markers=True)
        body = reference.split("### BEGIN SOLUTION", 1)[1].split("### END SOLUTION", 1)[0]
        for line in body.splitlines():
            if (line.strip() and not line.strip().startswith("#") and len(line.strip()) > 12
                    and line.strip() not in elsewhere):
                assert line.strip() not in text, f"the learner's copy still holds: {line.strip()}"
    assert all(not c.get("outputs") for c in learner.cells if c.cell_type == "code")


@pytest.fixture(scope="module")
def learner_run(learner, tmp_path_factory):
    where = tmp_path_factory.mktemp("learner")
    return build.execute(learner, cwd=where)


def test_run_all_on_the_learners_copy_completes(learner_run):
    for cell in code_cells(learner_run):
        for output in cell.outputs:
            assert output.output_type != "error", f"cell {cell.id}: {output.get('ename')}"
            assert not (output.output_type == "stream" and output.name == "stderr"), cell.id


def test_empty_gaps_say_not_done_yet(learner_run):
    for cell_id in ("lab1-tests", "lab2-tests"):
        assert "not done yet" in stdout_of(by_id(learner_run, cell_id))
    for cell in code_cells(learner_run):
        if cell.metadata.get("nbgrader") is None:  # the try-it cells
            assert "is not written yet" in stdout_of(cell), cell.id


def test_demonstrations_run_on_the_reference_in_the_learners_copy(learner_run):
    for cell_id in SEED_OUTPUTS:
        assert stdout_of(by_id(learner_run, cell_id)) == expected(cell_id)


def test_under_autograde_an_empty_gap_scores_zero(learner, tmp_path):
    run = build.execute(learner, cwd=tmp_path, env={"NBGRADER_EXECUTION": "autograde"},
                        allow_errors=True)
    for cell_id in ("lab1-tests", "lab1-hidden", "lab2-tests", "lab2-hidden"):
        outputs = by_id(run, cell_id).outputs
        assert any(o.output_type == "error" for o in outputs), cell_id


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
