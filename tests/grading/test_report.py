"""The class report: a row per learner, a column per assignment, its status and each test's points,
missing and late marked as such; extensions; and which tests failed most."""

import csv
import datetime
import shutil

import nbformat
import pytest

from lab import checks
from lab.grader import autograde, fixtures, report
from lab.grader.__main__ import main


def _rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def class_report(graded, tmp_path_factory):
    """The report of the graded course, written once for the tests that only read it."""
    return report.write(graded.root, tmp_path_factory.mktemp("report"))


@pytest.fixture()
def course_copy(graded, tmp_path):
    root = tmp_path / "course"
    shutil.copytree(graded.root, root, ignore=shutil.ignore_patterns("feedback"))
    return root


def test_class_csv_has_a_row_per_learner_and_a_column_per_test(graded, class_report):
    paths = class_report
    assert [p.name for p in paths] == ["class.csv", "failures.csv", "failures.png"]
    rows = {row["student_id"]: row for row in _rows(paths[0])}
    a = graded.assignment
    expected = fixtures.by_name(graded.lesson)
    for name, fixture in expected.items():
        if name == "not-a-notebook":
            continue
        row = rows[name]
        assert float(row[a]) == fixture.score and row[f"{a} status"] == "on time", (name, row[a])
        # each test's points add up to the score: the report says what the grade said
        tests = [t.name for t in checks.tests_for(graded.lesson)]
        assert sum(float(row[f"{a}: {t}"]) for t in tests) == fixture.score, name
    # the hidden-only sample fails a hidden test, and the report names it
    hidden = [t.name for t in checks.tests_for(graded.lesson, hidden=True)]
    assert any(float(rows["hidden-only"][f"{a}: {t}"]) == 0 for t in hidden)
    assert all(float(rows["correct"][f"{a}: {t}"]) == 1 for t in hidden)


def test_a_file_that_could_not_be_graded_is_not_graded_and_an_absent_one_missing(graded, class_report):
    rows = {row["student_id"]: row for row in _rows(class_report[0])}
    a = graded.assignment
    assert rows["not-a-notebook"][f"{a} status"] == "not graded" and rows["not-a-notebook"][a] == ""
    # a learner with nothing handed in for another assignment is missing there, not 0
    others = [k for k in rows["correct"] if k.endswith(" status") and not k.startswith(a + " ")]
    for column in others:
        assignment = column[:-len(" status")]
        if not (graded.root / "submitted" / "correct" / assignment).exists():
            assert rows["correct"][column] == "missing" and rows["correct"][assignment] == ""


def test_failures_are_counted_most_failed_first_and_drawn(graded, class_report):
    paths = class_report
    table = [r for r in _rows(paths[1]) if r["assignment"] == graded.assignment]
    assert [r["test"] for r in table] and sorted(table, key=lambda r: -int(r["failed"])) == table
    graded_count = {int(r["graded"]) for r in table}
    assert len(graded_count) == 1
    # the test every sample but "correct" and a few others fail is at the top, and none is failed by more
    unchanged_fails_all = all(int(r["failed"]) >= 1 for r in table)
    assert unchanged_fails_all, "the untouched release fails every test"
    assert paths[2].read_bytes().startswith(b"\x89PNG")


def test_a_late_submission_is_late_until_an_extension_covers_it(graded, course_copy):
    """The due date falls before the fixtures' timestamp: every graded submission is late. An
    extension of 48 hours for one learner makes theirs on time, in the gradebook and the report,
    and autograde counts it again because the extension changed."""
    from nbgrader.api import Gradebook
    from lab.grader import course
    application = course.app(course_copy)
    stamp = datetime.datetime.strptime(fixtures.TIMESTAMP[:19], "%Y-%m-%d %H:%M:%S")
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        gb.update_or_create_assignment(graded.assignment, duedate=stamp - datetime.timedelta(hours=24))
    rows = {r["student_id"]: r for r in _rows(report.write(course_copy)[0])}
    assert rows["correct"][f"{graded.assignment} status"] == "late"
    assert main(["--course", str(course_copy), "extend", "correct", graded.assignment, "--hours", "48"]) == 0
    assert (course_copy / report.EXTENSIONS).read_text().splitlines() == [
        "student_id,assignment,hours", f"correct,{graded.assignment},48"]
    rows = {r["student_id"]: r for r in _rows(report.write(course_copy)[0])}
    assert rows["correct"][f"{graded.assignment} status"] == "on time"
    assert rows["lab1-only"][f"{graded.assignment} status"] == "late"
    submissions = {s.student: s for s in autograde.run(course_copy, assignments=[graded.assignment],
                                                       jobs=2, progress=False)}
    assert submissions["correct"].regraded == "the learner's extension changed"
    assert submissions["lab1-only"].status == "skipped"
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        assert gb.find_submission(graded.assignment, "correct").total_seconds_late == 0
        assert gb.find_submission(graded.assignment, "lab1-only").total_seconds_late > 0


def test_bad_extensions_are_refused_in_a_sentence(graded, course_copy, capsys):
    assert main(["--course", str(course_copy), "extend", "correct", "no-such-assignment", "--hours", "2"]) == 1
    assert "no-such-assignment is not an assignment of this course" in capsys.readouterr().err
    (course_copy / report.EXTENSIONS).write_text("student_id,assignment,hours\ncorrect,x,soon\n")
    assert main(["--course", str(course_copy), "report"]) == 1
    assert "extensions.csv, line 2: give student_id, assignment and hours (a number)" in capsys.readouterr().err
    # autograde reads the same file before it grades anything, and says so in one sentence
    assert main(["--course", str(course_copy), "autograde", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.strip().endswith("line 2: give student_id, assignment and hours (a number), as "
                                "`python -m lab.grader extend` writes them; nothing was graded"), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_check_refuses_a_course_with_nothing_to_check(tmp_path, capsys):
    from lab.grader import course
    course.setup(tmp_path / "empty", notebooks=tmp_path / "no-notebooks")
    assert main(["--course", str(tmp_path / "empty"), "check"]) == 1
    assert "has no assignments to check: run python -m lab.grader release first" in capsys.readouterr().err


def test_the_help_is_not_cut_short(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "each wrapping nbgrader for the whole course." in " ".join(out.split())
    assert "after a release, before handing it out" in out


def test_the_autograded_notebook_keeps_each_tests_points(graded):
    nb = nbformat.read(graded.root / "autograded" / "hidden-only" / graded.assignment / f"{graded.assignment}.ipynb",
                       as_version=4)
    kept = [c.metadata["lab"]["tests"] for c in nb.cells if "lab" in c.get("metadata", {})]
    assert kept and all(len(t) == 3 for tests in kept for t in tests)


def test_the_instructors_own_settings_are_loaded_last_and_never_overwritten(tmp_path):
    from lab.grader import course
    root = tmp_path / "course"
    course.setup(root, notebooks=tmp_path / "no-notebooks")
    own = root / "instructor_config.py"
    text = ('c = get_config()  # noqa: F821\n'
            f'c.Exchange.root = "{tmp_path / "exchange"}"\n'
            'c.SandboxedTests.timeout = 7\n')
    own.write_text(text)
    config = course.app(root).config
    assert config.Exchange.root == str(tmp_path / "exchange")
    assert config.SandboxedTests.timeout == 7        # the instructor's value wins over the generated 30
    course.setup(root, notebooks=tmp_path / "no-notebooks")
    assert own.read_text() == text
