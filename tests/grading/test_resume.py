"""The parallel autograde can be stopped and started again: what was recorded is skipped, what
was not is graded, and a submission that changed is graded again."""

import io
import shutil

import pytest

from lab.grader import autograde, fixtures, grades, regrade

STUDENTS = ["correct", "lab1-only", "unchanged"]


@pytest.fixture()
def course_copy(graded, tmp_path):
    """The graded course, copied, with three students made ungraded again."""
    root = tmp_path / "course"
    shutil.copytree(graded.root, root, ignore=shutil.ignore_patterns("feedback"))
    for student in STUDENTS:
        shutil.rmtree(root / "autograded" / student / graded.assignment)
        (root / ".autograde" / "done" / graded.assignment / f"{student}.json").unlink()
    return root


def test_a_second_run_skips_everything_already_recorded(graded):
    out = io.StringIO()
    submissions = autograde.run(graded.root, assignments=[graded.assignment], jobs=2, progress=True, out=out)
    statuses = {s.student: s.status for s in submissions}
    assert statuses.pop("not-a-notebook") == "error"
    assert set(statuses.values()) == {"skipped"}
    assert out.getvalue().count(": already graded\n") == len(statuses)


def test_an_interrupted_run_carries_on_where_it_stopped(graded, course_copy, monkeypatch):
    real = autograde._record
    calls = []

    def record_then_stop(*args, **kwargs):
        if len(calls) == 1:
            raise KeyboardInterrupt
        calls.append(args[1].student)
        return real(*args, **kwargs)

    monkeypatch.setattr(autograde, "_record", record_then_stop)
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        autograde.run(course_copy, assignments=[graded.assignment], students=STUDENTS, jobs=2, out=out)
    assert "interrupted: 1 of 3 recorded. Run the same command again to carry on" in out.getvalue()
    monkeypatch.setattr(autograde, "_record", real)
    again = {s.student: s.status for s in autograde.run(course_copy, assignments=[graded.assignment],
                                                        students=STUDENTS, jobs=2, progress=False)}
    assert again == {calls[0]: "skipped", **{s: "graded" for s in STUDENTS if s != calls[0]}}
    scores = grades.scores(course_copy, graded.assignment)
    expected = fixtures.by_name(graded.lesson)
    assert {s: scores[s]["total"] for s in STUDENTS} == {s: expected[s].score for s in STUDENTS}


def test_a_changed_submission_is_graded_again(graded, course_copy):
    autograde.run(course_copy, assignments=[graded.assignment], students=STUDENTS, jobs=2, progress=False)
    notebook = course_copy / "submitted" / "lab1-only" / graded.assignment / f"{graded.assignment}.ipynb"
    correct = course_copy / "submitted" / "correct" / graded.assignment / f"{graded.assignment}.ipynb"
    notebook.write_bytes(correct.read_bytes())   # lab1-only hands in a corrected notebook
    statuses = {s.student: s.status for s in autograde.run(course_copy, assignments=[graded.assignment],
                                                           students=STUDENTS, jobs=2, progress=False)}
    assert statuses == {"correct": "skipped", "lab1-only": "graded", "unchanged": "skipped"}
    assert grades.scores(course_copy, graded.assignment)["lab1-only"]["total"] == fixtures.by_name(graded.lesson)["correct"].score


def test_changed_points_regrade_every_submission_and_say_why(graded, course_copy):
    """An instructor changes a check cell's points and generates the assignment again: every
    grade computed against the old points is computed again, and the summary says why."""
    import json
    from lab.grader import course
    autograde.run(course_copy, assignments=[graded.assignment], students=STUDENTS, jobs=2, progress=False)
    source = course_copy / "source" / graded.assignment / f"{graded.assignment}.ipynb"
    nb = json.loads(source.read_text())
    cell = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "lab1-tests")
    before = cell["metadata"]["nbgrader"]["points"]
    cell["metadata"]["nbgrader"]["points"] = before + 2
    source.write_text(json.dumps(nb))
    result = course.api(course.app(course_copy)).generate_assignment(graded.assignment, force=True)
    assert result["success"], result.get("error")
    submissions = autograde.run(course_copy, assignments=[graded.assignment], students=STUDENTS, jobs=2, progress=False)
    assert {s.student: s.status for s in submissions} == {s: "graded" for s in STUDENTS}
    assert all("its check cells, their code or their points, changed" in s.regraded for s in submissions)
    lines = autograde.summary(submissions)
    assert lines[0] == "3 graded, 0 already graded and unchanged, 0 with errors."
    assert f"  correct/{graded.assignment}: graded again: " in "\n".join(lines)
    scores = grades.scores(course_copy, graded.assignment)
    assert scores["correct"]["cells"]["lab1-tests"] == before + 2   # full marks at the new points


def test_other_time_limits_regrade_every_submission_and_say_why(graded, course_copy):
    """An instructor gives the tests more time (autograde's --timeout, or instructor_config.py):
    a grade made under the old limits may not be the one the new limits give, so every
    submission is graded again, and the summary says why."""
    from .conftest import TIMEOUT
    autograde.run(course_copy, assignments=[graded.assignment], students=STUDENTS, jobs=2, progress=False)
    submissions = autograde.run(course_copy, assignments=[graded.assignment], students=STUDENTS, jobs=2,
                                progress=False, test_seconds=TIMEOUT + 1)
    assert {s.student: s.status for s in submissions} == {s: "graded" for s in STUDENTS}
    assert all(s.regraded == "the sandbox's time or memory limits changed" for s in submissions)


@pytest.mark.parametrize("part", sorted(regrade.AGAINST))
def test_a_grade_made_against_anything_else_is_made_again(graded, course_copy, part):
    """A done marker records what its grade was computed against; a grade made against another
    version of any part (here its record says so) is not reused."""
    import json
    autograde.run(course_copy, assignments=[graded.assignment], students=STUDENTS, jobs=2, progress=False)
    marker = course_copy / ".autograde" / "done" / graded.assignment / "correct.json"
    done = json.loads(marker.read_text())
    assert set(done["against"]) == set(regrade.AGAINST)
    done["against"][part] = "something else"
    marker.write_text(json.dumps(done))
    submissions = {s.student: s for s in autograde.run(course_copy, assignments=[graded.assignment],
                                                       students=STUDENTS, jobs=2, progress=False)}
    assert {n: s.status for n, s in submissions.items()} == {"correct": "graded", "lab1-only": "skipped", "unchanged": "skipped"}
    assert submissions["correct"].regraded == regrade.AGAINST[part]


def test_bytecode_written_beside_a_lesson_leaves_its_grades_standing(tmp_path):
    """Any process that imports a lesson's modules may write __pycache__ beside them, whenever it
    runs (a kernel drawing a figure, the tests): the lesson's tests are what they were, so the
    grades made against them stand. A change to the lesson's own files still counts."""
    from pathlib import Path
    lessons = Path(regrade.__file__).resolve().parents[1] / "lessons"
    folder = tmp_path / "lesson07"
    shutil.copytree(lessons / "lesson07", folder, ignore=shutil.ignore_patterns("__pycache__"))
    before = regrade._files_digest(folder)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "figures.cpython-313.pyc").write_bytes(b"bytecode")
    (folder / "checks.cpython-313.pyc").write_bytes(b"bytecode")
    assert regrade._files_digest(folder) == before, \
        "regrade counts a bytecode cache as a change to the lesson's tests, and grades everything again"
    (folder / "checks.py").write_text((folder / "checks.py").read_text() + "\n# a change\n")
    assert regrade._files_digest(folder) != before
