"""The pieces the course's nbgrader_config.py plugs into nbgrader.

RepairCells     goes first in Autograde.sanitize_preprocessors: a check cell pasted twice keeps
                its last copy (as nbgrader's DeduplicateIds does) and the others become plain
                cells, without the empty metadata that makes nbgrader reject the whole
                notebook (#1083); a check cell that was deleted is put back from the gradebook
                after the cell that preceded it in the source (nbgrader's own add_missing_cells
                fails when that cell is a locked markdown cell).

SandboxedTests  stands where nbgrader's Execute stands in Autograde.autograde_preprocessors. It
                runs nothing in a kernel: it asks lab.grader.verdict for the verdict (or reuses
                one already computed, kept under verdict_dir by the hash of everything a verdict
                depends on: the learner's cells, the check cells, the limits, the sandbox, and
                the code of lab and harness) and writes it into the notebook as each check
                cell's output. nbgrader's own SaveAutoGrades
                then reads the scores from those outputs, as it always does: a check cell whose
                tests all passed prints their list; one where some failed also carries its partial
                score (the points of the tests that passed) as the cell's result, which
                nbgrader takes as the cell's score, or an error output when it earned nothing.
                Nothing the learner's code printed is in any of them.
OverwriteCellsAtOnce
                nbgrader's OverwriteCells, reading the notebook's cells from the gradebook in
                one query instead of one a cell; the same comparisons and repairs.
CheckMetadata   nbgrader's CheckCellMetadata with the JSON schema compiled once, not once a cell:
                the same checks in a fraction of the time (it runs twice a submission).
HideTestSource  goes last in GenerateFeedback.preprocessors: the feedback shows each check
                cell's results, never the code between ### BEGIN HIDDEN TESTS and ### END HIDDEN
                TESTS (nbgrader #917).
"""

import json
import os
import re
from pathlib import Path

from nbformat.notebooknode import NotebookNode
from traitlets import Float, Integer, Unicode

from nbgrader.api import Gradebook
from nbgrader.preprocessors import NbGraderPreprocessor

from lab.checks import engine
from lab.grader import verdict, worker_world

BOOKS = {}         # (notebook, assignment) -> book, filled by lab.grader.autograde for one run


def lesson_of(notebook_id):
    match = re.match(r"(\d+)", notebook_id)
    if not match:
        raise ValueError(f"notebook {notebook_id} does not start with its lesson number, so its "
                         "lab tests cannot be found")
    return int(match.group(1))


def book_of(db_url, notebook_id, assignment_id):
    """What the gradebook says about a notebook, as plain data: its check cells (name, source,
    points, cell type) in the source's order, and the names of its solution cells."""
    with Gradebook(db_url) as gb:
        notebook = gb.find_notebook(notebook_id, assignment_id)
        order = [c.name for c in notebook.source_cells]
        sources = {c.name: c for c in notebook.source_cells}
        solutions = sorted(c.name for c in notebook.solution_cells)
        checks = []
        for cell in sorted(notebook.grade_cells, key=lambda c: order.index(c.name) if c.name in order else len(order)):
            if cell.name in sources and cell.name not in solutions:
                checks.append([cell.name, sources[cell.name].source, float(cell.max_score), cell.cell_type])
    return {"checks": checks, "solutions": solutions, "order": order}


def grade_cells_of(book):
    """[{"grade_id", "source", "points"}] of the code check cells, in the source's order, with the
    source and points the gradebook holds (never the submission's)."""
    return [{"grade_id": name, "source": source, "points": points}
            for name, source, points, cell_type in book["checks"] if cell_type == "code"]


def prepared(nb, book):
    """The learner's cells as nbgrader's sanitizing leaves them, worked out without the gradebook
    database (for the parallel stage): a solution cell pasted twice counts by its last copy, one
    turned into markdown is code again, and a grade_id the gradebook does not know is dropped.
    A code cell of the learner's own (no nbgrader metadata) runs too, in its place."""
    known = set(book["order"])
    solutions = set(book["solutions"])
    seen, out = set(), []
    for index in reversed(range(len(nb.cells))):
        cell = nb.cells[index]
        meta = cell.get("metadata", {}).get("nbgrader")
        if verdict.own_cell(cell):
            out.append((f"cell-{index}", cell.get("source", "")))
            continue
        if not isinstance(meta, dict) or not meta.get("solution"):
            continue
        grade_id = meta.get("grade_id")
        if grade_id not in known or grade_id in seen:
            continue
        seen.add(grade_id)
        if grade_id in solutions:
            out.append((grade_id, cell.get("source", "")))
    return list(reversed(out))


def apply(nb, result):
    """Write a verdict into the notebook: each check cell's lines and, when it failed, its partial
    score (the points of its passing tests) as the cell's result, or an error when it earned
    nothing; each learner cell that stopped, its error. Every other code cell has no output."""
    cells, errors = result["cells"], result["errors"]
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        cell.outputs = []
        cell.execution_count = None
        meta = cell.get("metadata", {}).get("nbgrader", {})
        grade_id = meta.get("grade_id")
        if meta.get("grade") and grade_id in cells and not meta.get("solution"):
            v = cells[grade_id]
            # each test's points, for the class report (lab.grader.report); nbgrader keeps a
            # cell's metadata in the autograded notebook and never reads this key
            cell.setdefault("metadata", {})["lab"] = {"tests": v.get("tests", [])}
            if v["lines"]:
                cell.outputs.append(NotebookNode(output_type="stream", name="stdout",
                                                 text="\n".join(v["lines"]) + "\n"))
            if not v["passed"] and v.get("score"):
                # Part of the tests passed: nbgrader reads a number the cell outputs as its
                # partial score (nbgrader.utils.get_partial_grade); an error would make it 0.
                cell.outputs.append(NotebookNode(output_type="execute_result", execution_count=None,
                                                 metadata={}, data={"text/plain": f"{v['score']:g}"}))
            elif not v["passed"]:
                cell.outputs.append(NotebookNode(output_type="error", ename="AssertionError",
                                                 evalue=v["reason"],
                                                 traceback=[f"AssertionError: {v['reason']}"]))
        elif meta.get("solution") and grade_id in errors:
            ename, evalue = errors[grade_id]
            cell.outputs.append(NotebookNode(output_type="error", ename=ename, evalue=evalue,
                                             traceback=[f"{ename}: {evalue}"]))
    return nb


class RepairCells(NbGraderPreprocessor):
    """Pasted twice: the last copy counts. Deleted: put back from the gradebook."""

    def preprocess(self, nb, resources):
        seen = set()
        for cell in reversed(nb.cells):
            meta = cell.get("metadata", {}).get("nbgrader")
            if not isinstance(meta, dict) or "grade_id" not in meta:
                continue
            if meta["grade_id"] in seen:
                self.log.warning("Cell %s appears more than once; the last copy counts", meta["grade_id"])
                del cell.metadata["nbgrader"]
                cell.metadata.pop("deletable", None)
                cell.metadata.pop("editable", None)
            else:
                seen.add(meta["grade_id"])
        info = resources["nbgrader"]
        book = BOOKS.get((info["notebook"], info["assignment"]))
        if book is not None and all(name in seen for name, *_ in book["checks"]):
            return nb, resources   # nothing deleted: no need to ask the gradebook
        with Gradebook(info["db_url"]) as gb:
            notebook = gb.find_notebook(info["notebook"], info["assignment"])
            order = [c.name for c in notebook.source_cells]
            solutions = {c.name for c in notebook.solution_cells}
            for grade_cell in notebook.grade_cells:
                if grade_cell.name in seen:
                    continue
                self.log.warning("Cell %s was deleted; it is put back from the gradebook", grade_cell.name)
                source = next(c for c in notebook.source_cells if c.name == grade_cell.name)
                cell = _restored(source, grade_cell.max_score, grade_cell.name in solutions)
                position = len(nb.cells)
                earlier = order[:order.index(grade_cell.name)] if grade_cell.name in order else []
                for name in reversed(earlier):
                    found = [i for i, c in enumerate(nb.cells)
                             if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == name]
                    if found:
                        position = found[0] + 1
                        break
                nb.cells.insert(position, cell)
                seen.add(grade_cell.name)
        return nb, resources


from nbgrader.nbgraderformat import MetadataValidator as _MetadataValidator
from nbgrader.nbgraderformat.common import BaseMetadataValidator as _Base
from nbgrader.nbgraderformat.common import SchemaTooNewError, SchemaTooOldError
from nbgrader.preprocessors import CheckCellMetadata as _CheckCellMetadata


class _CompiledSchema(_Base):
    _validators = {}
    # The metadata found valid so far, as JSON text with its schema version: every submission of
    # a lesson holds the same check cells and gap cells, and the grading processes are forked
    # after the releases were checked (autograde._warm), so each checks only what it changed.
    _valid = set()

    def validate_cell(self, cell):
        if "nbgrader" not in cell.metadata:
            return
        schema = cell.metadata["nbgrader"].get("schema_version", 0)
        if schema < self.schema_version:
            raise SchemaTooOldError(f"Outdated schema version: {schema} (expected {self.schema_version})",
                                    schema, self.schema_version)
        if schema > self.schema_version:
            raise SchemaTooNewError(f"Schema version is too new: {schema} (expected {self.schema_version})",
                                    schema, self.schema_version)
        known = (self.schema_version, json.dumps(cell.metadata["nbgrader"], sort_keys=True))
        if known in self._valid:
            return
        validator = self._validators.get(self.schema_version)
        if validator is None:
            import jsonschema
            cls = jsonschema.validators.validator_for(self.schema)
            cls.check_schema(self.schema)
            validator = self._validators[self.schema_version] = cls(self.schema)
        if not validator.is_valid(cell.metadata["nbgrader"]):
            raise jsonschema_best_match(validator.iter_errors(cell.metadata["nbgrader"]))
        self._valid.add(known)


def jsonschema_best_match(errors):
    import jsonschema.exceptions
    return jsonschema.exceptions.best_match(errors)


class _FastValidator(_MetadataValidator, _CompiledSchema):
    pass


class CheckMetadata(_CheckCellMetadata):
    """nbgrader's CheckCellMetadata, its schema compiled once."""

    def preprocess(self, nb, resources):
        import traceback
        from nbgrader.nbgraderformat import ValidationError
        try:
            _FastValidator().validate_nb(nb)
        except ValidationError:
            self.log.error(traceback.format_exc())
            msg = "Notebook failed to validate; the nbgrader metadata may be corrupted."
            self.log.error(msg)
            raise ValidationError(msg)
        return nb, resources


class _CellsAtOnce:
    """A gradebook whose find_source_cell and find_graded_cell answer from one read of the
    notebook's cells; everything else goes to the real gradebook."""

    def __init__(self, gradebook, notebook_id, assignment_id):
        from nbgrader.api import MissingEntry
        self._gb, self._missing = gradebook, MissingEntry
        notebook = gradebook.find_notebook(notebook_id, assignment_id)
        self._source = {c.name: c for c in notebook.source_cells}
        self._graded = {c.name: c for c in list(notebook.grade_cells) + list(notebook.task_cells)}

    def find_source_cell(self, name, notebook, assignment):
        if name not in self._source:
            raise self._missing()
        return self._source[name]

    def find_graded_cell(self, name, notebook, assignment):
        if name not in self._graded:
            raise self._missing()
        return self._graded[name]

    def __getattr__(self, name):
        return getattr(self._gb, name)


from nbgrader.preprocessors import OverwriteCells as _OverwriteCells


class OverwriteCellsAtOnce(_OverwriteCells):
    """nbgrader's OverwriteCells with the notebook's cells read in one query."""

    def preprocess(self, nb, resources):
        self.notebook_id = resources["nbgrader"]["notebook"]
        self.assignment_id = resources["nbgrader"]["assignment"]
        self.db_url = resources["nbgrader"]["db_url"]
        with Gradebook(self.db_url) as gradebook:
            self.gradebook = _CellsAtOnce(gradebook, self.notebook_id, self.assignment_id)
            nb, resources = super(_OverwriteCells, self).preprocess(nb, resources)
            if self.add_missing_cells:
                nb, resources = self.add_missing_grade_cells(nb, resources)
                nb, resources = self.add_missing_task_cells(nb, resources)
        return nb, resources


def _restored(source, points, is_solution):
    """A deleted grade cell, made again from the gradebook as nbgrader's OverwriteCells makes it."""
    import nbformat
    from nbgrader.nbgraderformat import MetadataValidator
    import uuid
    note = f"This cell (id:{source.name}) was missing from the submission. It was added back by nbgrader.\n\n"
    cell = {"cell_type": source.cell_type,
            "metadata": {"deletable": False, "editable": False,
                         "nbgrader": {"grade": True, "grade_id": source.name, "locked": source.locked,
                                      "checksum": source.checksum, "cell_type": source.cell_type,
                                      "points": points, "solution": bool(is_solution)}},
            "source": note + source.source}
    if is_solution:
        del cell["metadata"]["editable"]
    if source.cell_type == "code":
        cell.update(execution_count=None, outputs=[], source="# " + cell["source"])
    cell["id"] = f"restored-{source.name}"[:64] if len(source.name) < 55 else uuid.uuid4().hex[:8]
    cell = nbformat.from_dict(cell)
    return MetadataValidator().upgrade_cell_metadata(cell)


class SandboxedTests(NbGraderPreprocessor):
    """Autograde's execution step, done without running the learner's code in the grader."""

    timeout = Integer(verdict.DEFAULT_TIMEOUT, help="CPU seconds each learner cell may take while it "
                      "defines its functions, and each check cell less its tests; code that waits "
                      "without computing is stopped at three times this in wall time (less the time "
                      "spent waiting for a CPU).").tag(config=True)
    test_seconds = Float(engine.TEST_SECONDS, help="CPU seconds each test of a check cell may take, "
                         "and wall seconds (less the time spent waiting for a CPU): "
                         "the notebook's own limit of a test, so that a grade says what the "
                         "notebook's check said; a test over it fails, and the tests after it in "
                         "its cell are not run, as in the notebook.").tag(config=True)
    memory_mb = Integer(1024, help="Address space of the sandboxed worker, in MiB.").tag(config=True)
    verdict_dir = Unicode("", help="A directory of verdicts computed ahead of time by "
                          "`python -m lab.grader autograde` (relative to the course root).").tag(config=True)

    def limits(self):
        return worker_world.Limits(memory_mb=self.memory_mb, cpu_seconds=4 * self.timeout + 30)

    def _course_roots(self):
        """The course directory this preprocessor works for (kept from the worker's reads)."""
        roots, owner = [], self
        while owner is not None:
            coursedir = getattr(owner, "coursedir", None)
            if coursedir is not None and getattr(coursedir, "root", None):
                roots.append(os.path.abspath(coursedir.root))
            owner = getattr(owner, "parent", None)
        return roots or [os.getcwd()]

    def verdict_for(self, nb, resources):
        """(key, verdict) for a sanitized notebook: computed ahead, saved, or computed now."""
        info = resources["nbgrader"]
        book = BOOKS.get((info["notebook"], info["assignment"])) or \
            book_of(info["db_url"], info["notebook"], info["assignment"])
        return self.verdict_from(info["notebook"], verdict.learner_cells(nb), book)

    def verdict_from(self, notebook_id, code_cells, book):
        lesson = lesson_of(notebook_id)
        grade_cells = grade_cells_of(book)
        limits = self.limits()
        key = verdict.verdict_key(lesson, code_cells, grade_cells, [self.timeout, self.test_seconds], limits)
        result = None
        path = Path(self.verdict_dir, f"{key}.json") if self.verdict_dir else None
        if path is not None and path.exists():
            try:
                result = json.loads(path.read_text(encoding="utf-8"))
            except ValueError:
                result = None
        if result is None:
            result = verdict.grade(lesson, code_cells, grade_cells, timeout=self.timeout, limits=limits,
                                   protect=self._course_roots(), test_seconds=self.test_seconds)
            if path is not None:
                save(path, result)
        return key, result

    def preprocess(self, nb, resources):
        key, result = self.verdict_for(nb, resources)
        failed = [g for g, v in result["cells"].items() if not v["passed"]]
        self.log.info("Sandboxed tests of %s: %d check cells, %d failed", resources["nbgrader"]["notebook"],
                      len(result["cells"]), len(failed))
        return apply(nb, result), resources


def save(path, result):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
    os.replace(temporary, path)


HIDDEN = re.compile(r"^([ \t]*)### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[^\n]*$",
                    re.MULTILINE | re.DOTALL)


class HideTestSource(NbGraderPreprocessor):
    """Feedback without the hidden tests' code: each hidden region of a cell becomes one line
    saying so. Their results stay in the cell's output, one line a test."""

    note = Unicode("# (hidden tests: their results are below; their code is not shown)",
                   help="What stands in a cell's source where its hidden tests were.").tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        if "### BEGIN HIDDEN TESTS" in cell.get("source", ""):
            cell.source = HIDDEN.sub(lambda m: m.group(1) + self.note, cell.source)
            if "### BEGIN HIDDEN TESTS" in cell.source:   # an unclosed region: drop the rest
                cell.source = cell.source.split("### BEGIN HIDDEN TESTS")[0] + self.note
        return cell, resources
