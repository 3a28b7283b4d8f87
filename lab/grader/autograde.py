"""Autograde every submission of the course, in parallel, into the one gradebook.

Two stages, one submission after another flowing through both:

1. Verdicts, in parallel: a forked grader process per submission (at most `jobs` at a time)
   sanitizes each notebook with nbgrader's own sanitize preprocessors, runs the learner's cells in
   a sandboxed worker and the tests in itself (lab.grader.verdict), and saves the verdict under
   .autograde/verdicts/. It only reads the gradebook.
2. Recording, in this process alone, the gradebook's one writer: nbgrader's own Autograde converter
   runs on the submission as `nbgrader autograde` would, with SandboxedTests finding the verdict
   already made. It writes autograded/ and the grades.

A submission is done when nbgrader has recorded it; .autograde/done/ then holds the digest of
what was submitted. Run the command again after an interruption and it carries on: recorded
submissions whose files have not changed are skipped, and verdicts already computed are reused.
"""

import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
import traceback
from pathlib import Path

from lab.grader import course, nbgrader_ext, sandbox


class Submission:
    def __init__(self, root, assignment, student):
        self.assignment, self.student = assignment, student
        self.path = Path(root, "submitted", student, assignment)
        self.status = "waiting"   # waiting, skipped, graded, error
        self.error = ""
        self.score = None
        self.max_score = None
        self.seconds = 0.0

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


# -- stage 1, in a forked grader process --------------------------------------------------------

def _read(path):
    import nbformat
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    try:
        json.loads(text)
    except ValueError as error:
        raise NotANotebook(f"{path.name} is not valid JSON (line {error.lineno}, column {error.colno}: "
                           f"{error.msg}), so it is not a notebook; it was not graded") from None
    try:
        return nbformat.reads(text, as_version=4)
    except Exception as error:
        raise NotANotebook(f"{path.name} is not a valid notebook ({_first_line(error)}); it was not graded") from None


class NotANotebook(ValueError):
    pass


def _first_line(error):
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _verdicts(application, submission, books):
    """Stage 1 for one submission: {notebook: {"key"} or {"error"}}. Reads no database: `books`
    holds what the gradebook says about each notebook."""
    pp = nbgrader_ext.SandboxedTests(parent=application)
    out = {}
    for notebook, book in books.items():
        path = submission.path / f"{notebook}.ipynb"
        if not path.exists():
            out[notebook] = {"error": f"{notebook}.ipynb was not submitted"}
            continue
        try:
            code_cells = nbgrader_ext.prepared(_read(path), book)
            key, _ = pp.verdict_from(notebook, code_cells, book)
            out[notebook] = {"key": key}
        except NotANotebook as error:
            out[notebook] = {"error": str(error), "fatal": True}
        except Exception as error:
            out[notebook] = {"error": f"could not be graded: {type(error).__name__}: {_first_line(error)}",
                             "trace": traceback.format_exc()}
    return out


def _child(conn, application, submission, books):
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides when to stop
    os.nice(4)   # the parent, recording one submission at a time, is the critical path
    try:
        result = _verdicts(application, submission, books)
    except BaseException as error:
        result = {"": {"error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc()}}
    try:
        conn.send(result)
    finally:
        conn.close()
    os._exit(0)


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
        rate = elapsed / self.done if self.done else 0
        eta = rate * (self.total - self.done)
        status = (f"{self.done}/{self.total} done ({self.skipped} skipped, {self.errors} errors), "
                  f"{running} grading, {elapsed:.0f}s, about {eta:.0f}s left")
        if self.tty:
            width = 24
            filled = int(width * self.done / max(self.total, 1))
            self.out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {status}\033[K")
            if self.done == self.total:
                self.out.write("\n")
        else:
            what = {"graded": f"{_points(submission.score)}/{_points(submission.max_score)}",
                    "skipped": "already graded", "error": f"ERROR: {submission.error}"}[submission.status]
            self.out.write(f"[{self.done}/{self.total}] {submission.name}: {what}\n")
        self.out.flush()


def _points(value):
    return "-" if value is None else (f"{value:g}")


def run(root=course.COURSE, assignments=None, students=None, jobs=None, timeout=None,
        force=False, progress=True, out=None):
    """Autograde the submissions of `assignments` (default: all) into the gradebook.
    Returns the list of Submissions with their status and score."""
    out = out or sys.stdout
    root = Path(root).resolve()
    overrides = {}
    if timeout is not None:
        overrides["SandboxedTests.timeout"] = int(timeout)
    application = course.app(root, **overrides)
    api = course.api(application)
    sandbox.detect()   # once, here, before any fork
    jobs = max(1, int(jobs or os.cpu_count() or 1))
    state = root / course.STATE
    submissions = find_submissions(root, assignments, students)
    books_of = _books(application, {s.assignment for s in submissions})
    todo = []
    for s in submissions:
        marker = state / "done" / s.assignment / f"{s.student}.json"
        autograded = root / "autograded" / s.student / s.assignment
        if not force and marker.exists() and autograded.exists():
            try:
                if json.loads(marker.read_text())["digest"] == s.digest():
                    s.status = "skipped"
                    continue
            except (ValueError, KeyError):
                pass
        todo.append(s)
    bar = Progress(len(submissions), out, progress)
    for s in submissions:
        if s.status == "skipped":
            _score(application, s)
            bar.update(s, 0)

    context = multiprocessing.get_context("fork")
    running = {}   # connection -> (process, submission, started)
    queue = list(todo)
    limit_per = _child_limit(application, books_of)
    try:
        while queue or running:
            while queue and len(running) < jobs:
                s = queue.pop(0)
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(send, application, s, books_of.get(s.assignment, {})),
                                          daemon=True)
                process.start()
                send.close()
                running[receive] = (process, s, time.monotonic())
            ready = multiprocessing.connection.wait(list(running), timeout=0.5)
            now = time.monotonic()
            for conn in list(running):
                process, s, started = running[conn]
                if conn in ready:
                    try:
                        result = conn.recv()
                    except (EOFError, OSError):
                        result = {"": {"error": "its grader process ended without a verdict"}}
                elif now - started > limit_per:
                    process.kill()
                    result = {"": {"error": f"grading took longer than {limit_per:.0f} seconds"}}
                else:
                    continue
                conn.close()
                process.join(timeout=5)
                del running[conn]
                s.seconds = now - started
                _record(application, api, s, result, state)
                bar.update(s, len(running))
    except KeyboardInterrupt:
        for conn, (process, s, _) in running.items():
            process.kill()
            process.join(timeout=5)
        out.write(f"\ninterrupted: {bar.done} of {bar.total} recorded. Run the same command again "
                  "to carry on; recorded submissions are skipped.\n")
        raise
    return submissions


def _child_limit(application, books_of):
    timeout = application.config.SandboxedTests.get("timeout", 30)
    cells = max([len(b["checks"]) + len(b["solutions"]) for books in books_of.values()
                 for b in books.values()] or [8])
    notebooks = max([len(books) for books in books_of.values()] or [1])
    return 60 + 3 * timeout * cells * notebooks


def _books(application, assignments):
    """{assignment: {notebook: book}} from the gradebook, read once before any fork."""
    from nbgrader.api import Gradebook, MissingEntry
    names = {}
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        for assignment in assignments:
            try:
                names[assignment] = sorted(n.name for n in gb.find_assignment(assignment).notebooks)
            except MissingEntry:
                names[assignment] = []
    db_url = application.coursedir.db_url
    return {assignment: {name: nbgrader_ext.book_of(db_url, name, assignment) for name in found}
            for assignment, found in names.items()}


def _record(application, api, s, result, state):
    """Stage 2: nbgrader's own autograde of one submission, the verdicts already made."""
    errors = [v["error"] for v in result.values() if "error" in v]
    if not result and not errors:
        errors = [f"{s.assignment} is not an assignment in the gradebook (run release first)"]
    import warnings
    with warnings.catch_warnings():
        # nbgrader's own session handling warns when a submission fails to convert; it is noise
        # about nbgrader's internals, and the failure itself is reported below.
        warnings.simplefilter("ignore")
        outcome = api.autograde(s.assignment, s.student, force=True, create=True)
    if not outcome.get("success") and not any(v.get("fatal") for v in result.values()):
        detail = _nbgrader_error(outcome)
        errors.append(f"nbgrader autograde failed{': ' + detail if detail else ''}")
    _score(application, s)
    if errors:
        s.status, s.error = "error", "; ".join(dict.fromkeys(errors))
        return
    s.status = "graded"
    marker = state / "done" / s.assignment / f"{s.student}.json"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"digest": s.digest(), "score": s.score, "max_score": s.max_score}))


def _nbgrader_error(outcome):
    text = (outcome.get("error") or "").strip().splitlines()
    return text[-1] if text else ""


def _score(application, s):
    from nbgrader.api import Gradebook, MissingEntry
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        try:
            submission = gb.find_submission(s.assignment, s.student)
        except MissingEntry:
            return
        s.score, s.max_score = submission.score, submission.max_score


def summary(submissions):
    """The lines to print after a run."""
    graded = [s for s in submissions if s.status == "graded"]
    skipped = [s for s in submissions if s.status == "skipped"]
    failed = [s for s in submissions if s.status == "error"]
    lines = [f"{len(graded)} graded, {len(skipped)} already graded and unchanged, "
             f"{len(failed)} with errors."]
    for s in failed:
        lines.append(f"  {s.name}: {s.error}")
    return lines
