"""What an instructor checks before handing an assignment out (`python -m lab.grader check`),
and what `make test` checks on every lesson: the source passes `nbgrader validate`, every check
cell of the release fails `nbgrader validate --invert`, the release holds no solution and no
hidden test, and the points add up to what the headings say."""

import os
import shutil
import tempfile
from pathlib import Path

from lab.grader import audit, course


def validate(root, notebook, invert=False):
    """nbgrader's own Validator (what `nbgrader validate [--invert] NOTEBOOK` runs), with the
    course's configuration. Returns its results: {} when the source passes (or, with `invert`,
    when every check cell of a release fails), else {"failed" | "passed" | "changed" |
    "type_changed": [{"source", ...}]}. Answers the notebook stores go to a throwaway directory."""
    from nbgrader.validator import Validator
    application = course.app(root)
    answers = tempfile.mkdtemp(prefix="lab-grader-rungs-")
    saved = os.environ.get("LAB_RUNGS_DIR")
    os.environ["LAB_RUNGS_DIR"] = answers
    try:
        validator = Validator(parent=application)
        validator.invert = invert
        return validator.validate(str(notebook))
    finally:
        if saved is None:
            os.environ.pop("LAB_RUNGS_DIR", None)
        else:
            os.environ["LAB_RUNGS_DIR"] = saved
        shutil.rmtree(answers, ignore_errors=True)


def graded_cells(nb):
    return [c.metadata.nbgrader["grade_id"] for c in nb.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade") and c.cell_type == "code"]


def _first_line(cell):
    return (cell.get("source", "").strip().splitlines() or ["(empty)"])[0]


def validate_problems(results, invert):
    """Sentences for what a validation found wrong."""
    problems = []
    for cell in results.get("type_changed", []):
        problems.append(f"a cell changed type ({cell['old_type']} to {cell['new_type']}): {_first_line(cell)}")
    for cell in results.get("changed", []):
        problems.append(f"a read-only cell was changed: {_first_line(cell)}")
    if invert:
        for cell in results.get("passed", []):
            problems.append(f"validate --invert: a check cell passes on the release, where nothing is "
                            f"written yet: {_first_line(cell)}")
    else:
        for cell in results.get("failed", []):
            error = (cell.get("raw_error") or "").strip().splitlines()
            problems.append(f"validate: a check cell fails on the source: {_first_line(cell)}: "
                            f"{error[-1] if error else 'no error text'}")
    return problems


def static_problems(master, release):
    problems = []
    secrets = audit.secret_lines(master)
    text = audit.text_of_notebook(release)
    for kind, lines in secrets.items():
        found = audit.leaks(text, lines)
        if found:
            problems.append(f"the release holds {len(found)} line{'s' if len(found) > 1 else ''} of "
                            f"{'solution' if kind == 'solution' else 'hidden test'} code, e.g. {found[0]!r}")
    problems += audit.point_problems(master)
    return problems


def run(root, assignments, out=None):
    """Problems with the release of `assignments` ([] when all is well). A course with no
    assignment at all is a problem too: there is nothing to check, which is not a pass."""
    if not assignments:
        return [f"{root} has no assignments to check: run python -m lab.grader release first"]
    problems = []
    for assignment in assignments:
        source = Path(root, "source", assignment, f"{assignment}.ipynb")
        release = Path(root, "release", assignment, f"{assignment}.ipynb")
        if not release.exists():
            problems.append(f"{assignment} has no release yet: run python -m lab.grader release")
            continue
        master, released = audit.read(source), audit.read(release)
        problems += [f"{assignment}: {p}" for p in validate_problems(validate(root, source), invert=False)]
        problems += [f"{assignment}: {p}" for p in validate_problems(validate(root, release, invert=True), invert=True)]
        problems += [f"{assignment}: {p}" for p in static_problems(master, released)]
        if out is not None:
            out.write(f"checked {assignment}\n")
    return problems
