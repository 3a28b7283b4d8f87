"""Autograde every submission of the course, in parallel, into the one gradebook.

nbgrader's Autograde does two kinds of work for a submission: it converts the notebook (sanitize,
then the autograde preprocessors, SandboxedTests among them, which is where the time goes) and it
writes the gradebook (the student, the submission and its timestamp, then SaveAutoGrades and
AssignLatePenalties). Here the two are split along that line, each done by nbgrader's own code:

1. Converting, in parallel: a forked process per submission (at most `jobs` at a time) runs
   nbgrader's Autograde converter on it with the two gradebook-writing preprocessors left out. It
   writes autograded/<student>/<assignment>/ and only reads the gradebook. The sandboxed verdict
   is computed there and kept under .autograde/verdicts/.
2. Recording, in this process alone, the gradebook's one writer: nbgrader's own
   Autograde.init_assignment (student, submission, timestamp), then SaveAutoGrades and
   AssignLatePenalties on the autograded notebook, exactly as `nbgrader autograde` runs them.

A submission is done when it is recorded; .autograde/done/ then holds the digest of what was
submitted and of what it was graded against (the check cells and their points, the release, the
lesson's tests, the grader's code). Run the command again after an interruption and it carries
on: recorded submissions are skipped while neither they nor anything they were graded against
changed, and are graded again, with the reason said, when something did; verdicts already
computed are reused.
`nbgrader autograde` itself, run by hand or from the formgrader, does the same work in one
process, one submission after another, with the same preprocessors and the same results.
"""

import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import signal
import sys
import time
import traceback
from pathlib import Path

from lab.grader import course, nbgrader_ext, report, sandbox


class Submission:
    def __init__(self, root, assignment, student):
        self.assignment, self.student = assignment, student
        self.path = Path(root, "submitted", student, assignment)
        self.status = "waiting"   # waiting, skipped, graded, error
        self.error = ""
        self.score = None
        self.max_score = None
        self.seconds = 0.0
        self.against = {}     # what its grade depends on besides its files (autograde.against)
        self.regraded = ""    # why a grade it already had was computed again ("" if it had none)

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


class NotANotebook(ValueError):
    pass


def _check_json(path):
    """Nothing, or NotANotebook with a sentence saying where the file stops being JSON. (Anything
    else wrong with a notebook, nbgrader's own conversion reports.)"""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    try:
        data = json.loads(text)
    except ValueError as error:
        raise NotANotebook(f"{path.name} is not valid JSON (line {error.lineno}, column {error.colno}: "
                           f"{error.msg}), so it is not a notebook; it was not graded") from None
    if not isinstance(data, dict) or "cells" not in data:
        raise NotANotebook(f"{path.name} is JSON but not a notebook (it has no cells); it was not graded")


def _first_line(error):
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


# -- nbgrader's Autograde, split at the gradebook ------------------------------------------------

def _writes_gradebook(item):
    from nbgrader.preprocessors import AssignLatePenalties, SaveAutoGrades
    from traitlets.utils.importstring import import_item
    cls = import_item(item) if isinstance(item, str) else item
    return isinstance(cls, type) and issubclass(cls, (SaveAutoGrades, AssignLatePenalties))


def _converter_class():
    """nbgrader's Autograde that writes files and only reads the gradebook."""
    import shutil
    from nbgrader import utils
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.converters import Autograde
    from nbgrader.converters.base import BaseConverter

    class ConvertOnly(Autograde):
        def init_assignment(self, assignment_id, student_id):
            # Autograde.init_assignment without its gradebook writes, which stage 2 makes.
            BaseConverter.init_assignment(self, assignment_id, student_id)
            dest_path = self._format_dest(assignment_id, student_id)
            source_path = self.coursedir.format_path(self.coursedir.source_directory, ".", assignment_id)
            source_files = set(utils.find_all_files(source_path, self.coursedir.ignore + ["*.ipynb"]))
            excluded = {os.path.join(source_path, x) for x in self.exclude_overwriting.get(assignment_id, [])}
            for filename in sorted(source_files - excluded):
                dest = os.path.join(dest_path, os.path.relpath(filename, source_path))
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                if os.path.exists(dest):
                    os.remove(dest)
                shutil.copy(filename, dest)
            known = []
            with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
                for notebook in self.notebooks:
                    try:
                        gb.find_notebook(os.path.splitext(os.path.basename(notebook))[0], assignment_id)
                    except MissingEntry:
                        continue
                    known.append(notebook)
            self.notebooks = known
            if not known:
                raise RuntimeError("No notebooks found, did you forget to run 'nbgrader generate_assignment'?")

        def _init_preprocessors(self):
            self.exporter._preprocessors = []
            chosen = self.sanitize_preprocessors if self._sanitizing else \
                [p for p in self.autograde_preprocessors if not _writes_gradebook(p)]
            for pp in chosen:
                self.exporter.register_preprocessor(pp)

    return ConvertOnly


def _convert(application, submission):
    """Stage 1, in a forked process: {"ok": bool, "error": sentence}."""
    from nbgrader.utils import capture_log
    for path in sorted(submission.path.glob("*.ipynb")):
        try:
            _check_json(path)
        except NotANotebook as error:
            return {"ok": False, "error": str(error), "broken": True}
    application.coursedir.student_id = submission.student
    application.coursedir.assignment_id = submission.assignment
    converter = _converter_class()(coursedir=application.coursedir, parent=application)
    converter.force = True
    result = capture_log(converter)
    if result.get("success"):
        return {"ok": True}
    return {"ok": False, "error": _nbgrader_failure(result)}


_BOILERPLATE = ("There was an error processing", "Please see the error log", "Canceled")


def _nbgrader_failure(result):
    """What nbgrader said went wrong, as a sentence: the message of its last ERROR record that is
    not boilerplate, or the exception line that ends a logged traceback. Never a line of code."""
    records, current = [], None
    for line in (result.get("log", "") or "").splitlines():
        head = re.match(r"\[(\w+)\] ?(.*)", line)
        if head:
            current = [head.group(1), [head.group(2)]]
            records.append(current)
        elif current is not None:
            current[1].append(line)
    said = []
    for level, lines in records:
        lines = [l for l in lines if l.strip()]
        if level != "ERROR" or not lines:
            continue
        text = lines[-1].strip() if lines[0].startswith("Traceback") else " ".join(l.strip() for l in lines)
        if not text.startswith(_BOILERPLATE) and not text.startswith("nbgrader.converters.base.NbGraderException"):
            said.append(text)
    if not said:
        tail = [l.strip() for l in (result.get("error", "") or "").splitlines() if l.strip()]
        said = [tail[-1]] if tail and re.match(r"[\w.]+(Error|Exception): ", tail[-1]) \
            and "NbGraderException" not in tail[-1] else []
    return f"nbgrader could not convert it: {said[-1][:300]}" if said else \
        "nbgrader could not convert it, and said nothing more"


def _child(conn, application, submission):
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides when to stop
    os.nice(4)   # the parent, the one writer, is the critical path
    try:
        result = _convert(application, submission)
    except BaseException as error:
        result = {"ok": False, "error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc()}
    try:
        conn.send(result)
    finally:
        conn.close()
    os._exit(0)


def _record(application, s, result, state):
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
            report.apply_extension(application.coursedir.root, s.student, s.assignment)  # before lateness is counted
            if result.get("ok"):
                with setenv(NBGRADER_EXECUTION="autograde"):
                    for path in converter.notebooks:
                        resources = converter.init_single_notebook_resources(path)
                        graded = converter._format_dest(s.assignment, s.student)
                        nb = nbformat.read(os.path.join(graded, os.path.basename(path)), as_version=4)
                        for writer in (SaveAutoGrades, AssignLatePenalties):
                            nb, resources = writer(parent=converter).preprocess(nb, resources)
        except Exception as error:
            errors.append(f"the gradebook could not be written: {type(error).__name__}: {_first_line(error)}")
    _score(application, s)
    if errors:
        s.status, s.error = "error", "; ".join(dict.fromkeys(errors))
        return
    s.status = "graded"
    marker = state / "done" / s.assignment / f"{s.student}.json"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"digest": s.digest(), "against": s.against,
                                  "score": s.score, "max_score": s.max_score}))


# What a recorded grade was computed against, beside the submission itself: change any of them
# and the grade no longer says what the check cells now say, so the submission is graded again.
AGAINST = {
    "check cells": "its check cells, their code or their points, changed",
    "release": "the release changed",
    "lab tests": "the lab tests changed",
    "grader": "the grader changed",
    "extension": "the learner's extension changed",
}


def _digest(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _files_digest(folder):
    h = hashlib.sha256()
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
        h.update(str(path.relative_to(folder)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


_code = {}


def _code_digest(lessons_dir):
    """The grader's own code: harness/ and lab/ without the lessons (each lesson's code counts as
    its tests), read once a process."""
    if not _code:
        root = lessons_dir.parents[1]
        h = hashlib.sha256()
        for package in ("harness", "lab"):
            for path in sorted((root / package).rglob("*.py")):
                if lessons_dir in path.parents:
                    continue
                h.update(str(path.relative_to(root)).encode())
                h.update(path.read_bytes())
        _code["digest"] = h.hexdigest()
    return _code["digest"]


def against(root, assignment, books):
    """{part: digest} of everything a grade of `assignment` depends on besides the submission:
    the gradebook's check cells (source and points) and solution ids, the released files, the
    lesson's own code (its tests) and the rest of the grader's code."""
    from lab.grader import verdict
    mine = {key: book for key, book in books.items() if key[1] == assignment}
    lessons_dir = Path(__file__).resolve().parents[1] / "lessons"
    tests = {}
    for notebook, _ in mine:
        try:
            folder = lessons_dir / f"lesson{nbgrader_ext.lesson_of(notebook):02d}"
        except ValueError:
            continue
        if folder.is_dir():
            tests[notebook] = _files_digest(folder)
    release = Path(root, "release", assignment)
    return {
        "check cells": _digest(sorted([list(key), book["checks"], book["solutions"]] for key, book in mine.items())),
        "release": _files_digest(release) if release.is_dir() else "",
        "lab tests": _digest(tests),
        "grader": _digest([verdict.VERSION, _code_digest(lessons_dir)]),
    }


def _changed(marker, s):
    """Why a recorded grade no longer holds ("" when it does), from its done marker."""
    try:
        done = json.loads(marker.read_text())
    except ValueError:
        return "its record could not be read"
    if done.get("digest") != s.digest():
        return "the submission changed"
    then = done.get("against") or {}
    reasons = [why for part, why in AGAINST.items() if then.get(part) != s.against.get(part)]
    return "; ".join(reasons)


def _score(application, s):
    from nbgrader.api import Gradebook, MissingEntry
    with Gradebook(application.coursedir.db_url, application.coursedir.course_id) as gb:
        try:
            submission = gb.find_submission(s.assignment, s.student)
        except MissingEntry:
            return
        s.score, s.max_score = submission.score, submission.max_score


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


def run(root=course.COURSE, assignments=None, students=None, jobs=None, timeout=None,
        force=False, progress=True, out=None):
    """Autograde the submissions of `assignments` (default: all) into the gradebook.
    Returns the Submissions, each with its status and score."""
    out = out or sys.stdout
    root = Path(root).resolve()
    overrides = {"SandboxedTests.timeout": int(timeout)} if timeout is not None else {}
    application = course.app(root, **overrides)
    sandbox.detect()   # once, here, before any fork
    jobs = max(1, int(jobs or os.cpu_count() or 1))
    state = root / course.STATE
    submissions = find_submissions(root, assignments, students)
    books = _books(application, {s.assignment for s in submissions})
    depends = {a: against(root, a, books) for a in {s.assignment for s in submissions}}
    given = report.extensions(root)
    todo = []
    for s in submissions:
        extra = given.get((s.student, s.assignment))
        s.against = dict(depends[s.assignment], extension=str(extra.total_seconds()) if extra else "")
        marker = state / "done" / s.assignment / f"{s.student}.json"
        if not force and marker.exists() and (root / "autograded" / s.student / s.assignment).exists():
            s.regraded = _changed(marker, s)
            if not s.regraded:
                s.status = "skipped"
                continue
        todo.append(s)
    bar = Progress(len(submissions), out, progress)
    for s in submissions:
        if s.status == "skipped":
            _score(application, s)
            bar.update(s, 0)
    nbgrader_ext.BOOKS.update(books)
    limit = _time_limit(application, books)
    context = multiprocessing.get_context("fork")
    running = {}    # connection -> (process, submission, started)
    finished = []   # (submission, result), waiting for the one writer
    queue = list(todo)

    def refill():
        while queue and len(running) < jobs:
            s = queue.pop(0)
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_child, args=(send, application, s), daemon=True)
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
                _record(application, s, result, state)
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


def _time_limit(application, books):
    """How long one submission's grading process may take before it is stopped."""
    timeout = application.config.SandboxedTests.get("timeout", 30)
    cells = sum(len(b["checks"]) + len(b["solutions"]) for b in books.values()) or 8
    return 120 + 2 * timeout * cells


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
