"""Autograde every submission of the course, in parallel, into the one gradebook.

nbgrader's Autograde does two kinds of work for a submission: it converts the notebook (sanitize,
then the autograde preprocessors, SandboxedTests among them, which is where the time goes) and it
writes the gradebook (the student, the submission and its timestamp, then SaveAutoGrades and
AssignLatePenalties). Here the two are split along that line, each done by nbgrader's own code:

1. Converting, in parallel (lab/grader/convert.py): a forked process per submission (at most
   `jobs` at a time) runs nbgrader's Autograde converter on it with the two gradebook-writing
   preprocessors left out. It writes autograded/<student>/<assignment>/ and only reads the
   gradebook. The sandboxed verdict is computed there and kept under .autograde/verdicts/.
2. Recording, in this process alone, the gradebook's one writer (lab/grader/record.py): the
   rows nbgrader's Autograde.init_assignment (student, submission, timestamp), SaveAutoGrades
   and AssignLatePenalties write, with the values they write, in one session and a few commits
   (a test compares every row with what nbgrader's own preprocessors write).

A submission is done when it is recorded; .autograde/done/ then holds the digest of what was
submitted and of what it was graded against (the check cells and their points, the release, the
lesson's tests, the grader's code). Run the command again after an interruption and it carries
on: recorded submissions are skipped while neither they nor anything they were graded against
changed, and are graded again, with the reason said, when something did (lab/grader/regrade.py);
verdicts already computed are reused.
`nbgrader autograde` itself, run by hand or from the formgrader, does the same work in one
process, one submission after another, with the same preprocessors and the same results.
"""

import gc
import hashlib
import multiprocessing
import multiprocessing.connection
import os
import sys
import time
from pathlib import Path

import nbformat

from lab import checks, lessons
from lab.grader import convert, course, engines, nbgrader_ext, record, regrade, report, sandbox, session, verdict
from lab.grader.record import record as _record   # by this name, so that a test can stand in for it


class Submission:
    def __init__(self, root, assignment, student):
        self.assignment, self.student = assignment, student
        self.path = Path(root, "submitted", student, assignment)
        self.status = "waiting"   # waiting, skipped, graded, error
        self.error = ""
        self.score = None
        self.max_score = None
        self.seconds = 0.0          # its grading process's wall time
        self.record_seconds = 0.0   # the gradebook writer's time on it
        self.against = {}     # what its grade depends on besides its files (autograde.against)
        self.regraded = ""    # why a grade it already had was computed again ("" if it had none)
        self.extension = None   # the learner's extension for it (a timedelta), from extensions.csv

    @property
    def name(self):
        return f"{self.student}/{self.assignment}"

    def digest(self):
        h = hashlib.sha256()
        for path in sorted(p for p in self.path.rglob("*") if p.is_file()):
            h.update(str(path.relative_to(self.path)).encode())
            h.update(path.read_bytes())
        return h.hexdigest()


def find_submissions(root, assignments=None, students=None):
    submitted = Path(root, "submitted")
    out = []
    if not submitted.exists():
        return out
    for student_dir in sorted(p for p in submitted.iterdir() if p.is_dir()):
        if students and student_dir.name not in students:
            continue
        for assignment_dir in sorted(p for p in student_dir.iterdir() if p.is_dir()):
            if assignments and assignment_dir.name not in assignments:
                continue
            out.append(Submission(root, assignment_dir.name, student_dir.name))
    return out


# -- the whole run ------------------------------------------------------------------------------

class Progress:
    """One line, redrawn on a terminal; one line a submission otherwise."""

    def __init__(self, total, out, enabled=True):
        self.total, self.out, self.enabled = total, out, enabled
        self.done = self.errors = self.skipped = 0
        self.started = time.monotonic()
        self.tty = enabled and hasattr(out, "isatty") and out.isatty()

    def update(self, submission, running):
        if submission.status == "error":
            self.errors += 1
        elif submission.status == "skipped":
            self.skipped += 1
        self.done += 1
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0
        if self.tty:
            width = 24
            filled = int(width * self.done / max(self.total, 1))
            self.out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} done "
                           f"({self.skipped} skipped, {self.errors} errors), {running} grading, "
                           f"{elapsed:.0f}s, about {eta:.0f}s left\033[K")
            if self.done == self.total:
                self.out.write("\n")
        else:
            what = {"graded": f"{_points(submission.score)}/{_points(submission.max_score)}",
                    "skipped": "already graded", "error": f"ERROR: {submission.error}"}[submission.status]
            self.out.write(f"[{self.done}/{self.total}] {submission.name}: {what}\n")
        self.out.flush()


def _points(value):
    return "-" if value is None else f"{value:g}"


def default_jobs():
    """Grading processes at once when none is asked for: one more than the CPUs. Between two
    submissions it records, this process (the one writer) starts the next grading process, so
    with one a CPU a CPU would stand idle while a record is written; the grading processes run
    at a lower priority than the writer, so the extra one never holds it up."""
    return (os.cpu_count() or 1) + 1


def run(root=course.COURSE, assignments=None, students=None, jobs=None, timeout=None,
        force=False, progress=True, out=None, test_seconds=None):
    """Autograde the submissions of `assignments` (default: all) into the gradebook.
    `timeout` and `test_seconds` override SandboxedTests' limits of the same names.
    Returns the Submissions, each with its status and score."""
    out = out or sys.stdout
    root = Path(root).resolve()
    overrides = {"SandboxedTests.timeout": int(timeout)} if timeout is not None else {}
    if test_seconds is not None:
        overrides["SandboxedTests.test_seconds"] = float(test_seconds)
    application = course.app(root, **overrides)
    sandbox.detect()   # once, here, before any fork
    jobs = max(1, int(jobs or default_jobs()))
    state = root / course.STATE
    submissions = find_submissions(root, assignments, students)
    books = _books(application, {s.assignment for s in submissions})
    sandboxed = nbgrader_ext.SandboxedTests(config=application.config)   # the limits in force
    limits = {"timeout": sandboxed.timeout, "test_seconds": sandboxed.test_seconds,
              "memory_mb": sandboxed.memory_mb}
    depends = {a: regrade.against(root, a, books, limits) for a in {s.assignment for s in submissions}}
    given = report.extensions(root)
    todo = []
    for s in submissions:
        extra = s.extension = given.get((s.student, s.assignment))
        s.against = dict(depends[s.assignment], extension=str(extra.total_seconds()) if extra else "")
        marker = state / "done" / s.assignment / f"{s.student}.json"
        if not force and marker.exists() and (root / "autograded" / s.student / s.assignment).exists():
            s.regraded = regrade.changed(marker, s)
            if not s.regraded:
                s.status = "skipped"
                continue
        todo.append(s)
    bar = Progress(len(submissions), out, progress)
    for s in submissions:
        if s.status == "skipped":
            record.score(application, s)
            bar.update(s, 0)
    nbgrader_ext.BOOKS.update(books)
    _warm(root, books)
    # The grading processes are forked from this one, and a check can make one collect garbage
    # in full (lesson 15's loop does, to hear from tasks that failed unawaited): what is already
    # here is kept out of the collector's sight, so that such a collection looks at the
    # submission's own objects alone, not at (and so copying) every object of this process.
    gc.freeze()
    limit = _time_limit(sandboxed, books)
    context = multiprocessing.get_context("fork")
    running = {}    # connection -> (process, submission, started)
    finished = []   # (submission, result), waiting for the one writer
    queue = list(todo)

    def refill():
        while queue and len(running) < jobs:
            s = queue.pop(0)
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=convert.child, args=(send, application, s), daemon=True)
            process.start()
            send.close()
            running[receive] = (process, s, time.monotonic())

    def collect(wait):
        ready = multiprocessing.connection.wait(list(running), timeout=wait) if running else []
        now = time.monotonic()
        for conn in list(running):
            process, s, started = running[conn]
            if conn in ready:
                try:
                    result = conn.recv()
                except (EOFError, OSError):
                    result = {"ok": False, "error": "its grading process ended without a result"}
            elif now - started > limit:
                process.kill()
                result = {"ok": False, "error": f"grading took longer than {limit:.0f} seconds"}
            else:
                continue
            conn.close()
            process.join(timeout=5)
            del running[conn]
            s.seconds = now - started
            finished.append((s, result))

    try:
        while queue or running or finished:
            refill()
            collect(0 if finished else 0.5)
            refill()                      # keep every slot busy while this process records
            if finished:
                s, result = finished.pop(0)
                began = time.monotonic()
                with engines.shared_engines():
                    _record(application, s, result, state)
                s.record_seconds = time.monotonic() - began
                bar.update(s, len(running))
    except KeyboardInterrupt:
        for process, s, _ in running.values():
            process.kill()
            process.join(timeout=5)
        out.write(f"\ninterrupted: {bar.done} of {bar.total} recorded. Run the same command again "
                  "to carry on; recorded submissions are skipped.\n")
        raise
    finally:
        nbgrader_ext.BOOKS.clear()
        gc.unfreeze()
    return submissions


def _books(application, assignments):
    """{(notebook, assignment): book} from the gradebook, read once before any fork."""
    from nbgrader.api import Gradebook, MissingEntry
    names = {}
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        for assignment in assignments:
            try:
                names[assignment] = sorted(n.name for n in gb.find_assignment(assignment).notebooks)
            except MissingEntry:
                names[assignment] = []
    db_url = application.coursedir.db_url
    return {(name, assignment): nbgrader_ext.book_of(db_url, name, assignment)
            for assignment, found in names.items() for name in found}


def _warm(root, books):
    """Fill, once and before any fork, the caches that every grading process would otherwise
    fill again for itself (it grades one submission and ends): the notebook schemas compiled, the
    grader's fingerprint, each lesson's worker starter (compiled) and tests loaded (and its
    warm(), where its tests have one), and the check cells as Python."""
    verdict.code_digest()
    sandbox.wire_code()
    session.as_python("pass")
    for book in books.values():
        for cell in nbgrader_ext.grade_cells_of(book):
            session.as_python(cell["source"])
    for notebook, assignment in sorted(books):
        release = Path(root, "release", assignment, f"{notebook}.ipynb")
        if release.exists():
            nb = nbformat.read(release, as_version=4)
            nbformat.validate(nb, relax_add_props=True)
            nbgrader_ext.CheckMetadata().preprocess(nb, {})
        try:
            lesson = nbgrader_ext.lesson_of(notebook)
        except ValueError:
            continue
        if lesson in lessons.written():
            sandbox.starter_code(session.worker_starter(lesson))
            session.learner_names(lesson)
            getattr(lessons.load(lesson, "checks"), "warm", lambda: None)()


def _time_limit(sandboxed, books):
    """How long one submission's grading process may take before it is stopped: every cell its
    time limit twice over, and every test of its lesson its own (`sandboxed`: the SandboxedTests
    in force) as long as the wall clock may stretch it (session.WALL_FACTOR)."""
    cells = sum(len(b["checks"]) + len(b["solutions"]) for b in books.values()) or 8
    tests = 0
    for notebook, _ in books:
        try:
            lesson = nbgrader_ext.lesson_of(notebook)
        except ValueError:
            continue
        if lesson in lessons.written():
            tests += len(checks.tests_for(lesson))
    return 120 + 2 * sandboxed.timeout * cells + session.WALL_FACTOR * sandboxed.test_seconds * tests


def summary(submissions):
    """The lines to print after a run."""
    graded = [s for s in submissions if s.status == "graded"]
    skipped = [s for s in submissions if s.status == "skipped"]
    failed = [s for s in submissions if s.status == "error"]
    again = [s for s in graded if s.regraded]
    lines = [f"{len(graded)} graded, {len(skipped)} already graded and unchanged, "
             f"{len(failed)} with errors."]
    lines += [f"  {s.name}: graded again: {s.regraded}" for s in again]
    lines += [f"  {s.name}: {s.error}" for s in failed]
    return lines
