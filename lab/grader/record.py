"""Stage 2 of autograding one submission: the gradebook's part of nbgrader's Autograde, done by
the one process that writes the gradebook, on what stage 1 (lab/grader/convert.py) wrote.

nbgrader's Autograde writes it in three steps, each of which opens the gradebook again and looks
up every row it touches on its own: Autograde.init_assignment (the student, then the submission
and its timestamp), SaveAutoGrades (each grade cell's auto score and each answer cell's comment,
a query and a commit each) and AssignLatePenalties (each notebook's penalty). Here the same rows
get the same values from nbgrader's own functions and models (update_or_create_submission,
determine_grade, compute_checksum, the configured late-submission plugin), in one session that
reads each submitted notebook's grades and comments at once and commits the grades and
penalties together. A test (tests/grading/test_record.py) writes a class's submissions both ways
and compares every row."""

import json
from pathlib import Path

from lab.grader import report
from lab.grader.convert import first_line


def record(application, s, result, state):
    """Stage 2: the gradebook's part of nbgrader's Autograde, on what stage 1 wrote."""
    from nbgrader.api import Gradebook
    errors = [] if result.get("ok") else [result.get("error") or "it could not be converted"]
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        try:
            _write(application, gb, s, graded=result.get("ok"))
        except Exception as error:
            gb.db.rollback()
            errors.append(f"the gradebook could not be written: {type(error).__name__}: {first_line(error)}")
        _score(gb, s)
    if errors:
        s.status, s.error = "error", "; ".join(dict.fromkeys(errors))
        return
    s.status = "graded"
    marker = state / "done" / s.assignment / f"{s.student}.json"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"digest": s.digest(), "against": s.against,
                                  "score": s.score, "max_score": s.max_score}))


def _write(application, gb, s, graded):
    """The student, the submission (its timestamp and extension) and, when stage 1 converted it,
    the auto grades and late penalties of each of its notebooks."""
    submission = _submission(application, gb, s)
    if graded:
        notebooks = [_auto_grades(gb, s, name, cells)
                     for name, cells in _graded_notebooks(application.coursedir, gb, s)]
        # the penalties read each notebook's score, a query that flushes the grades first
        _late_penalties(application, s, submission, notebooks)
        gb.db.commit()


def _submission(application, gb, s):
    """Autograde.init_assignment's gradebook writes: the student (made if the configuration lets
    Autograde make students, else it must exist), the assignment's existence, the submission with
    the timestamp handed in beside it; then the learner's extension, before lateness is counted.
    Returns the submission's row."""
    import warnings
    from nbgrader.api import MissingEntry
    from nbgrader.converters import Autograde
    from sqlalchemy.exc import SAWarning
    coursedir = application.coursedir
    if application.config.Autograde.get("create_student", Autograde.create_student.default_value):
        gb.update_or_create_student(s.student)
    else:
        try:
            gb.find_student(s.student)
        except MissingEntry:
            raise RuntimeError(f"No student with ID '{s.student}' exists in the database") from None
    try:
        gb.find_assignment(s.assignment)
    except MissingEntry:
        raise RuntimeError(f"No assignment with ID '{s.assignment}' exists in the database") from None
    source = coursedir.format_path(coursedir.submitted_directory, s.student, s.assignment)
    timestamp = coursedir.get_existing_timestamp(source)
    extra = {"timestamp": timestamp} if timestamp else {}
    with warnings.catch_warnings():
        # nbgrader's add_submission reads a new row's relations before adding it to the session,
        # and SQLAlchemy says so on every new submission; the rows are added all the same.
        warnings.simplefilter("ignore", SAWarning)
        submission = gb.update_or_create_submission(s.assignment, s.student, **extra)
    report.extend_submission(gb, submission, s.extension)
    return submission


def _graded_notebooks(coursedir, gb, s):
    """[(notebook name, its nbgrader cells)] of the assignment's notebooks that stage 1 wrote.
    Stage 1 wrote and validated them a moment ago: only the cells nbgrader's writers read (those
    with nbgrader metadata) are made into notebook nodes."""
    import nbformat
    from nbformat.v4.rwbase import rejoin_lines, strip_transient
    from nbgrader.api import Assignment, Notebook
    graded = Path(coursedir.format_path(coursedir.autograded_directory, s.student, s.assignment))
    names = gb.db.query(Notebook.name).join(Assignment).filter(Assignment.name == s.assignment)
    found = []
    for (notebook,) in sorted(names):
        path = graded / f"{notebook}.ipynb"
        if path.exists():
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            # what nbformat's reader does to a whole notebook, to these cells alone
            chosen = {"cells": [c for c in cells if "nbgrader" in c.get("metadata", {})], "metadata": {}}
            found.append((notebook, strip_transient(rejoin_lines(nbformat.from_dict(chosen))).cells))
    return found


def _auto_grades(gb, s, notebook, cells):
    """SaveAutoGrades on one notebook: each grade cell's auto score (nbgrader's determine_grade,
    so a number a test cell printed is its partial score) and whether it needs a manual grade;
    each answer cell's comment ("No response." when it is as released, task cells aside). The
    rows are read at once, with their cells' names, rather than looked up a cell at a time.
    Returns the submitted notebook's row."""
    from nbgrader import utils
    from nbgrader.api import BaseCell, Comment, Grade
    submitted = gb.find_submission_notebook(notebook, s.assignment, s.student)
    grades = dict((name, g) for g, name in gb.db.query(Grade, BaseCell.name).join(
        BaseCell, Grade.cell_id == BaseCell.id).filter(Grade.notebook_id == submitted.id))
    comments = dict((name, c) for c, name in gb.db.query(Comment, BaseCell.name).join(
        BaseCell, Comment.cell_id == BaseCell.id).filter(Comment.notebook_id == submitted.id))
    for cell in cells:
        if utils.is_grade(cell):
            grade = _row(grades, cell, notebook)
            grade.auto_score, _ = utils.determine_grade(cell)
            grade.needs_manual_grade = grade.manual_score is not None or grade.auto_score is None
        if utils.is_solution(cell) or utils.is_task(cell):
            comment = _row(comments, cell, notebook)
            unchanged = cell.metadata.nbgrader.get("checksum", None) == utils.compute_checksum(cell)
            comment.auto_comment = "No response." if unchanged and not utils.is_task(cell) else None
    return submitted


def _row(rows, cell, notebook):
    """The gradebook row of `cell`, or an error that says the release has no such cell (where
    nbgrader's SaveAutoGrades would stop with a bare MissingEntry)."""
    name = cell.metadata["nbgrader"]["grade_id"]
    if name not in rows:
        raise LookupError(f"{notebook}.ipynb has a graded or answer cell {name!r} that the "
                          "released assignment does not have")
    return rows[name]


def _late_penalties(application, s, submission, notebooks):
    """AssignLatePenalties on each submitted notebook's row: none, or what the configured plugin
    charges for the submission's seconds late, kept between 0 and the notebook's score."""
    from nbgrader.preprocessors import AssignLatePenalties
    assigner = AssignLatePenalties(parent=application)
    assigner.init_plugin()
    late = submission.total_seconds_late
    for notebook in notebooks:
        notebook.late_submission_penalty = None
        if late > 0:
            penalty = assigner.plugin_inst.late_submission_penalty(s.student, notebook.score, late)
            if penalty is not None:
                notebook.late_submission_penalty = assigner._check_late_penalty(notebook, penalty)


def score(application, s):
    """Set s.score and s.max_score from the gradebook (left as they are if it has no submission)."""
    from nbgrader.api import Gradebook
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        _score(gb, s)


def _score(gb, s):
    from nbgrader.api import MissingEntry
    try:
        submission = gb.find_submission(s.assignment, s.student)
    except MissingEntry:
        return
    s.score, s.max_score = submission.score, submission.max_score
