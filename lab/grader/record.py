"""Stage 2 of autograding one submission: the gradebook's part of nbgrader's Autograde, done by
the one process that writes the gradebook, on what stage 1 (lab/grader/convert.py) wrote."""

import json
import os
from pathlib import Path

from lab.grader import report
from lab.grader.convert import first_line


def record(application, s, result, state):
    """Stage 2: the gradebook's part of nbgrader's Autograde, on what stage 1 wrote."""
    import warnings
    import nbformat
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import AssignLatePenalties, SaveAutoGrades
    from nbgrader.utils import setenv, temp_attrs
    errors = [] if result.get("ok") else [result.get("error") or "it could not be converted"]
    with warnings.catch_warnings(), \
            temp_attrs(application.coursedir, student_id=s.student, assignment_id=s.assignment):
        warnings.simplefilter("ignore")   # nbgrader's session handling is noisy when a notebook failed
        converter = Autograde(coursedir=application.coursedir, parent=application)
        try:
            converter.init_notebooks()
            converter.notebooks = sorted(n for found in converter.assignments.values() for n in found)
            converter.init_assignment(s.assignment, s.student)   # nbgrader's own: student, submission, timestamp
            report.set_extension(application, s.student, s.assignment, s.extension)  # before lateness is counted
            if result.get("ok"):
                with setenv(NBGRADER_EXECUTION="autograde"):
                    for path in converter.notebooks:
                        resources = converter.init_single_notebook_resources(path)
                        graded = converter._format_dest(s.assignment, s.student)
                        # written by nbgrader a moment ago in stage 1: no need to validate it again
                        text = Path(graded, os.path.basename(path)).read_text(encoding="utf-8")
                        nb = nbformat.v4.reads(text)
                        for writer in (SaveAutoGrades, AssignLatePenalties):
                            nb, resources = writer(parent=converter).preprocess(nb, resources)
        except Exception as error:
            errors.append(f"the gradebook could not be written: {type(error).__name__}: {first_line(error)}")
    score(application, s)
    if errors:
        s.status, s.error = "error", "; ".join(dict.fromkeys(errors))
        return
    s.status = "graded"
    marker = state / "done" / s.assignment / f"{s.student}.json"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"digest": s.digest(), "against": s.against,
                                  "score": s.score, "max_score": s.max_score}))


def score(application, s):
    """Set s.score and s.max_score from the gradebook (left as they are if it has no submission)."""
    from nbgrader.api import Gradebook, MissingEntry
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        try:
            submission = gb.find_submission(s.assignment, s.student)
        except MissingEntry:
            return
        s.score, s.max_score = submission.score, submission.max_score
