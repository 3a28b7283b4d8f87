"""Every lesson's master notebook, read as a file: made from its source, run for real, with each
part the lesson standard asks for, and with nbgrader roles that the grader can rely on.
The standard these tests enforce is written out in docs/lesson-standard.md."""

import re
from collections import Counter

import nbformat

from lab import checks
from lab.course import manifest, starters
from lab.lessons import build

from tests.lessons.conftest import by_id, code_cells


def test_committed_notebook_is_what_its_source_makes(lesson):
    """Edit lab/lessons/lessonNN/ (or the reference harness), then run `python -m lab build NN`:
    the committed notebook must never lag behind."""
    assert build.stale(lesson) == ""


def test_staleness_is_detected(lesson, tmp_path, monkeypatch):
    path = build.notebook_path(lesson)
    nb = nbformat.read(path, as_version=4)
    nb.cells[0].source += "\nAn edit made by hand."
    copy = tmp_path / path.name
    copy.write_text(nbformat.writes(nb), encoding="utf-8")
    monkeypatch.setattr(build, "notebook_path", lambda n: copy)
    assert "differs from what its source makes" in build.stale(lesson)


def test_the_header_names_the_lesson(lesson, data, master):
    first = master.cells[0]
    assert first.cell_type == "markdown"
    assert f"{lesson:02d} · {data.TITLE}" in first.source


def test_saved_outputs_have_no_errors_and_no_stderr(master):
    for cell in code_cells(master):
        for output in cell.outputs:
            assert output.output_type != "error", f"cell {cell.id}: {output.get('ename')}"
            assert not (output.output_type == "stream" and output.name == "stderr"), \
                f"cell {cell.id} wrote to stderr: {output.text[:200]}"


def test_every_code_cell_was_run(master):
    assert [c.id for c in code_cells(master) if c.source.strip() and c.execution_count is None] == []


def test_no_markdown_cell_is_longer_than_a_screen(master):
    for cell in master.cells:
        if cell.cell_type == "markdown":
            assert len(cell.source) <= 2400 and len(cell.source.splitlines()) <= 40, \
                f"markdown cell {cell.id} is {len(cell.source)} characters: split it"


def test_every_rung_is_in_the_notebook_once_in_the_datas_order(lesson, data, master):
    seen = []
    for cell in code_cells(master):
        seen += re.findall(rf'lab\.rung\({lesson}, "([^"]+)"\)', cell.source)
    assert seen == [spec.id for spec in data.RUNGS]
    assert len(data.RUNGS) >= 5
    kinds = Counter(spec.kind for spec in data.RUNGS)
    assert kinds["choice"] and kinds["number"] and kinds["multi"] and kinds["open"], kinds


def test_every_option_of_every_rung_has_its_own_feedback(data):
    for spec in data.RUNGS:
        if spec.kind == "choice":
            assert len(spec.options) >= 2 and sum(o.right for o in spec.options) == 1, spec.id
            feedback = [o.feedback for o in spec.options]
            assert all(f.strip() for f in feedback) and len(set(feedback)) == len(feedback), spec.id
        elif spec.kind == "number":
            assert spec.right.strip() and spec.wrong.strip(), spec.id
        elif spec.kind == "multi":
            assert spec.right.strip() and spec.wrong.strip() and len(spec.options) >= 2, spec.id
        elif spec.kind == "open":
            assert spec.model_answer.strip() and len(spec.common) >= 2, spec.id
            assert all(answer.strip() and misses.strip() for answer, misses in spec.common), spec.id


def test_rung_text_forms_are_fixed_and_keep_no_widget_view(lesson, master):
    """nbval compares text/plain: a rung's saved text form comes from the lesson data alone, and
    no widget view (whose model id is random, and gone on reopening) is saved."""
    for cell in code_cells(master):
        if "lab.rung(" in cell.source:
            assert cell.outputs, f"rung cell {cell.id} has no saved output"
            assert cell.outputs[0].data["text/plain"].startswith(f"[lesson {lesson} · question ")
            assert "application/vnd.jupyter.widget-view+json" not in cell.outputs[0].data


def test_each_lab_has_a_three_level_hint_ladder_a_diff_and_a_test_list(lesson, data, master):
    sources = "\n".join(c.source for c in code_cells(master))
    for lab in manifest.labs(lesson):
        hints = data.HINTS[lab]
        assert len(hints.levels) == 3 and all(text.strip() for _, text in hints.levels)
        assert f"lab.hints({lesson}, lab={lab})" in sources
        assert 'lab.show_diff("' in sources
        cell = by_id(master, f"lab{lab}-testlist")
        items = [line for line in cell.source.splitlines() if line[:1].isdigit()]
        assert len(items) == len(checks.tests_for(lesson, lab, hidden=False))


def test_solution_cells_are_the_reference_for_every_name_the_lesson_asks_for(lesson, master):
    """Each gap's solution cell ends with lab.course.starters.definition(...) of the reference."""
    solutions = [c for c in master.cells if c.metadata.get("nbgrader", {}).get("solution")]
    defined = []
    for cell in solutions:
        match = [n for n in manifest.names(lesson)
                 if cell.source.endswith(starters.definition(n, markers=True, lesson=lesson).rstrip("\n"))]
        assert len(match) == 1, f"solution cell {cell.id} is not one reference definition"
        assert starters.BEGIN in cell.source and starters.END in cell.source
        defined += match
    assert sorted(defined) == sorted(manifest.names(lesson))


def test_nbgrader_metadata(lesson, master):
    ids = [c.metadata["nbgrader"]["grade_id"] for c in master.cells if "nbgrader" in c.metadata]
    assert len(ids) == len(set(ids)), "grade_ids must be unique"
    graded = {c.id: c.metadata["nbgrader"]["points"] for c in master.cells
              if c.metadata.get("nbgrader", {}).get("grade")}
    for lab in manifest.labs(lesson):
        assert graded[f"lab{lab}-tests"] == sum(t.points for t in checks.tests_for(lesson, lab, hidden=False))
        assert graded[f"lab{lab}-hidden"] > 0
        source = by_id(master, f"lab{lab}-hidden").source
        assert "### BEGIN HIDDEN TESTS" in source and "hidden=True" in source
        assert f"lab.require_pass({lesson}, lab={lab})" in source
    for cell in master.cells:
        meta = cell.metadata.get("nbgrader")
        if meta is None:
            assert "try" in cell.id, f"{cell.id} has no nbgrader role"
            continue
        assert meta["schema_version"] == 3 and meta["locked"] == (not meta["solution"])


def test_tau_links_name_their_commit(master):
    text = "\n".join(c.source for c in master.cells if c.cell_type == "markdown")
    links = re.findall(r"https://github\.com/huggingface/tau/(\w+)/([0-9a-f]+)/", text)
    assert links, "the lesson sets its idea beside Tau: link it"
    assert all(kind == "blob" and len(commit) >= 7 for kind, commit in links)


def test_the_close_has_its_five_parts(master):
    text = "\n".join(c.source for c in master.cells if c.cell_type == "markdown")
    for part in ("You hit", "You built", "The principle", "Your harness now", "Still open"):
        assert part in text, f"the close has no {part!r}"


def test_learner_copy_has_no_solution_and_no_hidden_tests(lesson, master, learner):
    text = "\n".join(c.source for c in learner.cells)
    elsewhere = "\n".join(c.source for c in master.cells if not c.metadata.get("nbgrader", {}).get("solution"))
    assert starters.BEGIN not in text and "### BEGIN HIDDEN TESTS" not in text and "hidden=True" not in text
    for name in manifest.names(lesson):
        reference = starters.definition(name, markers=True, lesson=lesson)
        body = reference.split(starters.BEGIN, 1)[1].split(starters.END, 1)[0] if starters.BEGIN in reference \
            else reference
        for line in body.splitlines():
            line = line.strip()
            if line and not line.startswith("#") and len(line) > 12 and line not in elsewhere \
                    and not line.startswith(("def ", '"""')):
                assert line not in text, f"the learner's copy still holds {name}'s line: {line}"
    assert all(not c.get("outputs") for c in learner.cells if c.cell_type == "code")


def test_the_lesson_keeps_no_table_the_syllabus_already_holds(lesson, data):
    """Which names a lab covers, and their signatures, come from harness/syllabus.py through
    lab.course.manifest; a lesson's data repeating them would drift."""
    for table in ("LABS", "NAMES", "SIGNATURES", "PLACES"):
        assert not hasattr(data, table), (
            f"lab/lessons/lesson{lesson:02d}/__init__.py keeps {table}: what a lab asks for comes from "
            f"harness/syllabus.py (lab.course.manifest.names({lesson}, lab)); remove it")
