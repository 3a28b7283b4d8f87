"""The gradebook as a table: nbgrader's own CSV export, and the scores as plain data for tests
and for the benchmark."""

import csv

from lab.grader import course


def export(root, target):
    """Write nbgrader's CSV export of the course at `root` to `target`. Returns the number of rows."""
    from nbgrader.api import Gradebook
    from nbgrader.plugins import CsvExportPlugin
    application = course.app(root)
    plugin = CsvExportPlugin(parent=application)
    plugin.to = str(target)
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        plugin.export(gb)
    with open(target, newline="", encoding="utf-8") as f:
        return sum(1 for _ in csv.DictReader(f))


def scores(root, assignment):
    """{student: {"total": score, "cells": {grade_id: score}}} for one assignment, read from the
    gradebook (manual scores win over automatic ones, as nbgrader counts them)."""
    from nbgrader.api import Gradebook, MissingEntry
    application = course.app(root)
    out = {}
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        for student in gb.students:
            try:
                submission = gb.find_submission(assignment, student.id)
            except MissingEntry:
                continue
            cells = {}
            for notebook in submission.notebooks:
                for grade in notebook.grades:
                    cells[grade.name] = grade.score
            out[student.id] = {"total": submission.score, "cells": cells}
    return out
