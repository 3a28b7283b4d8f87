"""nbgrader generate_feedback for every autograded submission, several students at a time.

Feedback only reads the gradebook and writes each student's own feedback/ folder, so students
can be done in parallel processes; each runs nbgrader's own GenerateFeedback for its student."""

import multiprocessing
import os
from pathlib import Path

from lab.grader import course


def students(root, assignment):
    folder = Path(root, "autograded")
    if not folder.exists():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / assignment).is_dir())


def _one(args):
    root, assignment, student = args
    if not any(Path(root, "autograded", student, assignment).glob("*.ipynb")):
        return student, False, ["its submission was not graded (see autograde's summary), so there "
                                "is nothing to give feedback on"]
    application = course.app(root)
    result = course.api(application).generate_feedback(assignment, student, force=True)
    return student, bool(result.get("success")), (result.get("error") or "").strip().splitlines()[-1:]


def run(root, assignment, only=None, jobs=None):
    """Feedback for `assignment` (for the students `only`, or all). Returns {student: error}, the
    failures; an empty dict when every feedback file was written."""
    names = [s for s in students(root, assignment) if not only or s in only]
    jobs = max(1, min(int(jobs or os.cpu_count() or 1), len(names) or 1))
    work = [(str(root), assignment, s) for s in names]
    if jobs == 1:
        results = [_one(w) for w in work]
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.map(_one, work, chunksize=max(1, len(work) // (4 * jobs)))
    return {student: (error[0] if error else "failed") for student, ok, error in results if not ok}
