"""The gradebook writer (lab/grader/record.py) writes what nbgrader's own Autograde writes: the
class's submissions of one lesson are recorded both ways, each into its own copy of the course,
and every row they touch is compared: the student, the submission (timestamp, extension), each
notebook (score, late penalty) and each grade and comment. The copies are late, one learner has
an extension, and a late submission scores nothing, so that every branch is taken."""

import datetime
import json
import shutil
import warnings

import pytest

from lab.grader import course, engines, fixtures, record, report

PENALTY = {"LateSubmissionPlugin.penalty_method": "zero"}
EXTENDED = "lab1-only"


def as_nbgrader_writes(application, s):
    """nbgrader's Autograde's gradebook writes, as `nbgrader autograde` makes them: its
    init_assignment, then SaveAutoGrades and AssignLatePenalties on each autograded notebook."""
    import nbformat
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import AssignLatePenalties, SaveAutoGrades
    from nbgrader.utils import setenv, temp_attrs
    with warnings.catch_warnings(), \
            temp_attrs(application.coursedir, student_id=s.student, assignment_id=s.assignment):
        warnings.simplefilter("ignore")
        converter = Autograde(coursedir=application.coursedir, parent=application)
        converter.init_notebooks()
        converter.notebooks = sorted(n for found in converter.assignments.values() for n in found)
        converter.init_assignment(s.assignment, s.student)
        report.set_extension(application, s.student, s.assignment, s.extension)
        if s.status == "graded":
            with setenv(NBGRADER_EXECUTION="autograde"):
                for path in converter.notebooks:
                    resources = converter.init_single_notebook_resources(path)
                    graded = converter._format_dest(s.assignment, s.student)
                    nb = nbformat.read(f"{graded}/{path.rsplit('/', 1)[-1]}", as_version=4)
                    for writer in (SaveAutoGrades, AssignLatePenalties):
                        nb, resources = writer(parent=converter).preprocess(nb, resources)


def rows(application, assignment):
    """Every gradebook row of `assignment`'s submissions, as plain data."""
    from nbgrader.api import Gradebook
    out = {}
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        for sub in gb.find_assignment(assignment).submissions:
            out[sub.student.id] = {
                "timestamp": str(sub.timestamp), "extension": str(sub.extension),
                "seconds late": sub.total_seconds_late, "score": sub.score,
                "notebooks": {nb.name: {
                    "score": nb.score, "penalty": nb.late_submission_penalty,
                    "grades": {g.name: (g.auto_score, g.manual_score, g.needs_manual_grade) for g in nb.grades},
                    "comments": {c.name: (c.auto_comment, c.manual_comment) for c in nb.comments}}
                    for nb in sub.notebooks}}
    return out


def _copy(graded, where):
    """The graded course copied to `where`, late (the due date a day before the timestamp), the
    assignment's submissions taken out of its gradebook; its application, with late work
    scoring nothing."""
    from nbgrader.api import Gradebook
    root = where / "course"
    others = {part.assignment for part in graded.lessons.values()} - {graded.assignment}
    # what the writers read: the configuration, the gradebook and this assignment's folders
    shutil.copytree(graded.root, root, ignore=lambda folder, names: [
        n for n in names if n in others or n in ("feedback", ".autograde")])
    application = course.app(root, **PENALTY)
    stamp = datetime.datetime.strptime(fixtures.TIMESTAMP[:19], "%Y-%m-%d %H:%M:%S")
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        gb.update_or_create_assignment(graded.assignment, duedate=stamp - datetime.timedelta(hours=24))
        for student in graded.submissions:
            gb.remove_submission(graded.assignment, student)
    return application


@pytest.fixture(scope="module")
def both_ways(graded, tmp_path_factory):
    ours = _copy(graded, tmp_path_factory.mktemp("ours"))
    theirs = _copy(graded, tmp_path_factory.mktemp("nbgraders"))
    state = tmp_path_factory.mktemp("state")
    submissions = sorted(graded.submissions.values(), key=lambda s: s.student)
    for s in submissions:
        # each in its own shared-engine block, as autograde records one (nbgrader's preprocessors
        # write the same rows without it, only slower)
        with engines.shared_engines():
            record.record(ours, _submission_copy(s, ours.coursedir.root), {"ok": s.status == "graded"}, state)
        with engines.shared_engines():
            as_nbgrader_writes(theirs, _submission_copy(s, theirs.coursedir.root))
    return rows(ours, graded.assignment), rows(theirs, graded.assignment)


def _submission_copy(s, root):
    from lab.grader.autograde import Submission
    copy = Submission(root, s.assignment, s.student)
    copy.status = "graded" if s.status == "graded" else "error"
    copy.against = s.against
    if s.student == EXTENDED:
        copy.extension = datetime.timedelta(hours=48)
    return copy


def test_the_writer_writes_every_row_as_nbgrader_writes_it(both_ways):
    ours, theirs = both_ways
    assert sorted(ours) == sorted(theirs) and len(ours) >= 5
    for student in theirs:
        assert ours[student] == theirs[student], (student, json.dumps(ours[student], indent=1, default=str),
                                                  json.dumps(theirs[student], indent=1, default=str))


def test_the_comparison_covers_late_and_on_time_work_and_every_kind_of_row(both_ways):
    _, theirs = both_ways
    assert theirs[EXTENDED]["seconds late"] == 0 and theirs["correct"]["seconds late"] > 0
    notebooks = [nb for sub in theirs.values() for nb in sub["notebooks"].values()]
    assert any(nb["penalty"] for nb in notebooks), "a late notebook that scored loses its score"
    grades = [g for nb in notebooks for g in nb["grades"].values()]
    assert {g[0] for g in grades} > {0.0} and False in {g[2] for g in grades}
    comments = {c[0] for nb in notebooks for c in nb["comments"].values()}
    assert comments == {"No response.", None}


def test_a_cell_the_release_does_not_have_is_named_in_a_sentence(graded, tmp_path):
    """Where nbgrader would stop with a bare MissingEntry, the writer says which cell."""
    import nbformat
    from nbgrader.api import Gradebook
    from lab.grader.autograde import Submission
    application = _copy(graded, tmp_path)
    s = Submission(application.coursedir.root, graded.assignment, "correct")
    stray = nbformat.v4.new_code_cell("x = 1", metadata={"nbgrader": {
        "grade": True, "solution": False, "grade_id": "my-own-cell", "points": 1}})
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        record._submission(application, gb, s)
        with pytest.raises(LookupError) as error:
            record._auto_grades(gb, s, graded.assignment, [stray])
    assert str(error.value) == (f"{graded.assignment}.ipynb has a graded or answer cell 'my-own-cell' "
                                "that the released assignment does not have")
