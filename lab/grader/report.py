"""The class's results, as an instructor uses them: a table an LMS gradebook imports, and which
tests failed most.

    python -m lab.grader report [--to DIR]     writes DIR/class.csv, DIR/failures.csv and
                                               DIR/failures.png (default DIR: the course's
                                               reports/)

class.csv has one row per learner (every learner the gradebook or submitted/ knows) and, for each
assignment, its score, its status and a column per lab test with the points that test earned. A
status is "on time", "late" (after the due date and any extension that learner was given),
"missing" (nothing handed in: the score is left blank, never 0) or "not graded" (handed in, not
yet autograded, or its grading failed). failures.csv counts, per assignment and test, how many of
the graded submissions failed it, most failed first; failures.png draws the five most failed tests
of each assignment.

The per-test points come from the autograded notebooks, where the grader writes each check
cell's tests beside its result (cell metadata "lab"), so the report says what the grade said.
"""

import csv
import datetime
import json
from pathlib import Path

from lab import checks
from lab.grader import course, nbgrader_ext

REPORTS = "reports"
EXTENSIONS = "extensions.csv"   # student_id, assignment, hours: the instructor's own file


# -- extensions ----------------------------------------------------------------------------------

def extensions(root):
    """{(student, assignment): timedelta} from the course's extensions.csv ({} if it has none).
    A row that cannot be read is an error naming its line, never skipped."""
    path = Path(root, EXTENSIONS)
    if not path.exists():
        return {}
    out = {}
    with open(path, newline="", encoding="utf-8") as f:
        for number, row in enumerate(csv.DictReader(f), start=2):
            try:
                student, assignment = row["student_id"].strip(), row["assignment"].strip()
                hours = float(row["hours"])
            except (KeyError, TypeError, ValueError, AttributeError):
                raise ValueError(f"{path.name}, line {number}: give student_id, assignment and hours "
                                 "(a number), as `python -m lab.grader extend` writes them") from None
            if not student or not assignment or hours < 0:
                raise ValueError(f"{path.name}, line {number}: give a student, an assignment and hours of 0 or more")
            out[(student, assignment)] = datetime.timedelta(hours=hours)
    return out


def extend(root, student, assignment, hours):
    """Give `student` `hours` more for `assignment`: written to extensions.csv (replacing any
    earlier extension of theirs for it) and, if they have a graded submission, to the gradebook,
    where nbgrader reads it for lateness (SubmittedAssignment.extension)."""
    if hours < 0:
        raise ValueError("an extension is 0 hours or more")
    if assignment not in course.assignments(root):
        raise ValueError(f"{assignment} is not an assignment of this course "
                         f"(known: {', '.join(course.assignments(root)) or 'none; run setup'})")
    given = extensions(root)
    given[(student, assignment)] = datetime.timedelta(hours=hours)
    path = Path(root, EXTENSIONS)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["student_id", "assignment", "hours"])
        for (s, a), delta in sorted(given.items()):
            writer.writerow([s, a, f"{delta.total_seconds() / 3600:g}"])
    apply_extension(root, student, assignment)


def apply_extension(root, student, assignment):
    """Copy the extension of `student` for `assignment` (if any) into the gradebook's
    submission, when there is one. Returns True if the gradebook was changed."""
    return set_extension(course.app(root), student, assignment, extensions(root).get((student, assignment)))


def set_extension(application, student, assignment, delta):
    """Make the gradebook's submission of `student` for `assignment` (if there is one) carry the
    extension `delta` (a timedelta, or None for none). Returns True if the gradebook was changed."""
    from nbgrader.api import Gradebook, MissingEntry
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        try:
            submission = gb.find_submission(assignment, student)
        except MissingEntry:
            return False
        return extend_submission(gb, submission, delta)


def extend_submission(gb, submission, delta):
    """Make the gradebook row `submission` carry the extension `delta`, committed; True if that
    changed it."""
    if submission.extension == delta:
        return False
    submission.extension = delta
    gb.db.commit()
    return True


# -- the class table -----------------------------------------------------------------------------

def _tests_of(assignment):
    """[(test name, title, hidden)] of the assignment's lesson, in the lesson's order."""
    try:
        lesson = nbgrader_ext.lesson_of(assignment)
        return [(t.name, t.title, t.hidden) for t in checks.tests_for(lesson)]
    except ValueError:
        return []


def _earned_per_test(root, student, assignment):
    """{test name: points earned} from the autograded notebooks ({} if none)."""
    folder = Path(root, "autograded", student, assignment)
    out = {}
    for path in sorted(folder.glob("*.ipynb")):
        # Only the cells' metadata is read: nbformat's validation of every cell took two thirds
        # of a class report's time, for files nbgrader itself wrote and validated.
        with open(path, encoding="utf-8") as f:
            cells = json.load(f).get("cells", [])
        for cell in cells:
            for name, _points, earned in cell.get("metadata", {}).get("lab", {}).get("tests", []):
                out[name] = float(earned)
    return out


def collect(root):
    """(assignments, {assignment: [(test name, title, hidden)]}, rows): a row per learner,
    {"student": id, assignment: {"score", "max_score", "status", "tests": {name: earned}}}."""
    from nbgrader.api import Gradebook, MissingEntry
    root = Path(root)
    assignments = course.assignments(root)
    tests = {a: _tests_of(a) for a in assignments}
    given = extensions(root)
    submitted = root / "submitted"
    application = course.app(root)
    rows = []
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        students = {s.id for s in gb.students}
        if submitted.exists():
            students |= {p.name for p in submitted.iterdir() if p.is_dir()}
        duedates = {}
        for a in assignments:
            try:
                duedates[a] = gb.find_assignment(a).duedate
            except MissingEntry:
                duedates[a] = None
        for student in sorted(students):
            row = {"student": student}
            for a in assignments:
                handed_in = (submitted / student / a).is_dir()
                try:
                    submission = gb.find_submission(a, student)
                except MissingEntry:
                    submission = None
                if submission is None or not any((root / "autograded" / student / a).glob("*.ipynb")):
                    status = "not graded" if handed_in else "missing"
                    row[a] = {"score": None, "max_score": None, "status": status, "tests": {}}
                    continue
                due = duedates.get(a)
                extra = given.get((student, a))
                late = False
                if due is not None and submission.timestamp is not None:
                    late = submission.timestamp > due + (extra or datetime.timedelta(0))
                row[a] = {"score": float(submission.score), "max_score": float(submission.max_score),
                          "status": "late" if late else "on time",
                          "tests": _earned_per_test(root, student, a)}
            rows.append(row)
    return assignments, tests, rows


def _number(value):
    return "" if value is None else f"{value:g}"


def write_class_csv(path, assignments, tests, rows):
    header = ["student_id"]
    for a in assignments:
        header += [a, f"{a} status"] + [f"{a}: {name}" for name, _, _ in tests[a]]
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        for row in rows:
            line = [row["student"]]
            for a in assignments:
                cell = row[a]
                graded = cell["score"] is not None
                line += [_number(cell["score"]), cell["status"]]
                line += [_number(cell["tests"].get(name, 0.0)) if graded else "" for name, _, _ in tests[a]]
            writer.writerow(line)


def failures(assignments, tests, rows):
    """[(assignment, test name, title, hidden, failed, graded)], most failed first within each
    assignment; a test counts as failed where it earned nothing in a graded submission."""
    out = []
    for a in assignments:
        graded = [row[a] for row in rows if row[a]["score"] is not None]
        counted = []
        for name, title, hidden in tests[a]:
            failed = sum(1 for cell in graded if not cell["tests"].get(name))
            counted.append((a, name, title, hidden, failed, len(graded)))
        counted.sort(key=lambda item: (-item[4], [t[0] for t in tests[a]].index(item[1])))
        out += counted
    return out


def write_failures_csv(path, table):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["assignment", "test", "hidden", "failed", "graded", "title"])
        for a, name, title, hidden, failed, graded in table:
            writer.writerow([a, name, "yes" if hidden else "no", failed, graded, title])


def draw_failures(path, table, top=5):
    """A bar chart a panel per assignment: its `top` most failed tests, as a share of the
    graded submissions."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    by_assignment = {}
    for a, name, title, hidden, failed, graded in table:
        by_assignment.setdefault(a, []).append((name, hidden, failed, graded))
    panels = [(a, items[:top]) for a, items in by_assignment.items() if items and items[0][3]]
    if not panels:
        panels = [("nothing graded yet", [])]
    figure, axes = plt.subplots(len(panels), 1, figsize=(8, 1.2 + 1.1 * top * len(panels) / 2), squeeze=False)
    for axis, (a, items) in zip(axes[:, 0], panels):
        names = [f"{name}{' (hidden)' if hidden else ''}" for name, hidden, _, _ in reversed(items)]
        shares = [failed / graded if graded else 0 for _, _, failed, graded in reversed(items)]
        axis.barh(names, shares, color="#b5523b")
        axis.set_xlim(0, 1)
        axis.set_title(a, loc="left", fontsize=10)
        axis.tick_params(labelsize=8)
        for y, (share, (_, _, failed, graded)) in enumerate(zip(shares, reversed(items))):
            axis.text(min(share, 0.9) + 0.01, y, f"{failed} of {graded}", va="center", fontsize=8)
    axes[-1, 0].set_xlabel("share of graded submissions that failed the test")
    figure.tight_layout()
    figure.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(figure)


def write(root, to=None):
    """Write class.csv, failures.csv and failures.png into `to` (default: the course's
    reports/). Returns the three paths."""
    root = Path(root)
    target = Path(to) if to else root / REPORTS
    target.mkdir(parents=True, exist_ok=True)
    assignments, tests, rows = collect(root)
    table = failures(assignments, tests, rows)
    paths = (target / "class.csv", target / "failures.csv", target / "failures.png")
    write_class_csv(paths[0], assignments, tests, rows)
    write_failures_csv(paths[1], table)
    draw_failures(paths[2], table)
    return paths


def summary_lines(root, top=3):
    """A few lines for the terminal: per assignment, how many graded, and its most failed tests."""
    assignments, tests, rows = collect(root)
    table = failures(assignments, tests, rows)
    lines = []
    for a in assignments:
        cells = [row[a] for row in rows]
        counts = {s: sum(1 for c in cells if c["status"] == s) for s in ("on time", "late", "missing", "not graded")}
        lines.append(f"{a}: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n))
        worst = [t for t in table if t[0] == a and t[4]][:top]
        for _, name, _, hidden, failed, graded in worst:
            lines.append(f"    {failed} of {graded} failed {name}{' (hidden)' if hidden else ''}")
    return lines
