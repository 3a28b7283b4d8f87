"""grading/ is an nbgrader course directory generated from notebooks/, and plain nbgrader
commands work in it."""

import subprocess
import sys

import pytest

from lab.grader import course

from .conftest import REPO


def test_the_committed_nbgrader_config_is_what_the_generator_makes():
    path = REPO / "grading" / "nbgrader_config.py"
    assert path.exists(), "grading/nbgrader_config.py is missing: run python -m lab.grader setup"
    assert path.read_text(encoding="utf-8") == course.config_text(), \
        "grading/nbgrader_config.py is stale: run python -m lab.grader setup"


def test_setup_makes_one_assignment_per_lesson_notebook(tmp_path):
    from lab import lessons
    from lab.grader import fixtures
    names = sorted(fixtures.assignment(n) for n in lessons.written())
    assert course.setup(tmp_path) == ["nbgrader_config.py"] + [f"source/{n}/{n}.ipynb" for n in names]
    assert course.setup(tmp_path, check=True) == []
    assert course.assignments(tmp_path) == names


def test_setup_check_finds_a_hand_edited_file(tmp_path):
    course.setup(tmp_path)
    config = tmp_path / "nbgrader_config.py"
    config.write_text(config.read_text() + "c.Execute.timeout = 5\n")
    (tmp_path / "source" / "99-left-over").mkdir()
    assert course.setup(tmp_path, check=True) == ["nbgrader_config.py", "source/99-left-over (no notebook makes it)"]


def test_the_config_loads_as_nbgrader_loads_it(graded):
    application = course.app(graded.root)
    config = application.config
    assert application.coursedir.course_id == course.COURSE_ID
    assert config.Autograde.autograde_preprocessors[0] == "lab.grader.nbgrader_ext.SandboxedTests"
    assert "lab.grader.nbgrader_ext.RepairCells" in config.Autograde.sanitize_preprocessors
    assert config.GenerateFeedback.preprocessors[-1] == "lab.grader.nbgrader_ext.HideTestSource"


def test_the_source_notebook_is_the_master_without_outputs(graded):
    import nbformat
    source = nbformat.read(graded.source, as_version=4)
    master = nbformat.read(graded.master, as_version=4)
    assert [c.source for c in source.cells] == [c.source for c in master.cells]
    assert all(not c.get("outputs") for c in source.cells if c.cell_type == "code")


def test_the_command_line_lists_every_step(capsys):
    from lab.grader.__main__ import main
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    out = capsys.readouterr()
    assert done.value.code == 0 and out.err == ""
    for step in ("setup", "check", "release", "collect", "autograde", "feedback", "export", "doctor", "fixtures"):
        assert f"\n    {step}" in out.out, step


def test_plain_nbgrader_autograde_grades_in_the_sandbox(graded):
    """`nbgrader autograde`, typed in the course directory as nbgrader's documentation says (or run
    by the formgrader), grades through SandboxedTests too: here with no verdict kept from the
    parallel run, so it works one out itself. Plain nbgrader alone would give this submission,
    which hands every gap back to the reference, full marks."""
    import os
    from lab.grader import grades
    student = "swaps-in-reference"
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", "autograde", graded.assignment, "--student", student, "--force",
         "--SandboxedTests.verdict_dir="],
        cwd=graded.root, capture_output=True, text=True,
        env={**os.environ, "PATH": course._path_with_this_python(), "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Sandboxed tests of 12-memory-that-outlives-the-process: 4 check cells, 4 failed" in done.stderr
    assert grades.scores(graded.root, graded.assignment)[student]["total"] == 0


def test_the_grade_id_table_in_the_docs_is_current():
    from lab.grader import course
    assert course.GRADE_IDS.read_text(encoding="utf-8") == course.grade_id_doc(), \
        "docs/grade-ids.md is stale: run python -m lab.grader setup"
