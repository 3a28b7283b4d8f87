"""Instructor grading with nbgrader: `python -m lab.grader` (see docs/instructors.md).

    course.py         grading/ made from notebooks/; nbgrader loaded and run the way its CLI does
    autograde.py      every submission in parallel into the one gradebook, resumable
    verdict.py        the verdict on one submission, decided where no learner code runs
    sandbox.py        the worker process the learner's code runs in, and its limits
    wire.py           the wire between grader and worker (also the worker's own main loop)
    nbgrader_ext.py   the preprocessors grading/nbgrader_config.py plugs into nbgrader
    feedback.py       nbgrader generate_feedback, several students at once
    grades.py         the gradebook as CSV and as plain data
    release_checks.py validate, validate --invert, leaks and points, before a release
    audit.py          finding solution or hidden-test lines where they must not be
    fixtures.py       sample and attack submissions, made from the release by small edits
"""
