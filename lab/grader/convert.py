"""Stage 1 of autograding one submission: nbgrader's Autograde converter, in a forked process,
with the two preprocessors that write the gradebook left out (lab/grader/autograde.py says why).
It writes autograded/<student>/<assignment>/ and only reads the gradebook."""

import json
import os
import re
import signal
import traceback
from pathlib import Path

from lab.grader import engines


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


def first_line(error):
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


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


def convert(application, submission):
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


def child(conn, application, submission):
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides when to stop
    os.nice(4)   # the parent, the one writer, is the critical path
    try:
        with engines.shared_engines():
            result = convert(application, submission)
    except BaseException as error:
        result = {"ok": False, "error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc()}
    try:
        conn.send(result)
    finally:
        conn.close()
    os._exit(0)
