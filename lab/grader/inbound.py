"""What `collect` tells the instructor about the exchange's inbound folder: one sentence for each
learner who handed an assignment in more than once, and one for each whose collected submission
came after the deadline. Nothing here changes what nbgrader collects: the newest submission is
the one graded, every earlier one stays in the exchange, and a late one is graded like any other
(nbgrader records it as late; its penalty is c.LateSubmissionPlugin.penalty_method's, none by
default).
"""

import glob
import os
from collections import defaultdict

from lab.grader import course


def _when(stamp):
    return stamp.strftime("%Y-%m-%d %H:%M:%S UTC")


def _minutes(delta):
    minutes = max(1, round(delta.total_seconds() / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def notes(root, assignment):
    """[sentence] about the inbound submissions of `assignment` for the course at `root`, read
    from the exchange that the course's nbgrader configuration names, and the deadline from its
    gradebook."""
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.exchange import ExchangeFactory
    from nbgrader.utils import parse_utc
    application = course.app(root)
    coursedir = application.coursedir
    exchange_root = ExchangeFactory(config=application.config).Collect(
        coursedir=coursedir, config=application.config).root
    inbound = os.path.join(exchange_root, coursedir.course_id, "inbound")
    by_student = defaultdict(list)
    for path in glob.glob(os.path.join(glob.escape(inbound), f"*+{glob.escape(assignment)}+*")):
        parts = os.path.basename(path).rsplit("+", 3)
        if len(parts) >= 3 and parts[1] == assignment:
            by_student[parts[0]].append(parse_utc(parts[2]))
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        try:
            deadline = gb.find_assignment(assignment).duedate
        except MissingEntry:
            deadline = None
    out = []
    for student in sorted(by_student):
        stamps = sorted(by_student[student])
        newest = stamps[-1]
        if len(stamps) > 1:
            out.append(f"{student} handed {assignment} in {len(stamps)} times; the newest, of "
                       f"{_when(newest)}, is the one collected and graded, and the earlier ones "
                       f"stay in the exchange.")
        if deadline is not None and newest > deadline:
            out.append(f"{student}'s submission of {_when(newest)} came {_minutes(newest - deadline)} "
                       f"after the deadline ({_when(deadline)}); it is graded like any other, and "
                       f"nbgrader records it as late.")
    return out
