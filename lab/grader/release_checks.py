"""What an instructor checks before handing an assignment out (`python -m lab.grader check`),
and what `make test` checks on every lesson: the source passes `nbgrader validate`, every check
cell of the release fails `nbgrader validate --invert`, the release holds no solution and no
hidden test, and the points add up to what the headings say."""

import re
from pathlib import Path

from lab.grader import audit, course


def validate(root, notebook, invert=False):
    """(ok, output) of `nbgrader validate [--invert] NOTEBOOK`, run in the course directory."""
    args = ["validate"] + (["--invert"] if invert else []) + [str(notebook)]
    return course.nbgrader(root, *args)


def graded_cells(nb):
    return [c.metadata.nbgrader["grade_id"] for c in nb.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade") and c.cell_type == "code"]


def invert_problems(output, nb):
    """`nbgrader validate --invert` prints each graded cell that passed; every one must fail."""
    problems = []
    if "NOTEBOOK PASSED ON" in output or "Success!" not in output:
        passed = re.findall(r"The following cell passed:\s*\n\s*\n((?:    .*\n?)+)", output)
        names = ", ".join(p.strip().splitlines()[0] for p in passed) or "see its output"
        problems.append(f"validate --invert: some check cells pass on the release, where nothing is "
                        f"written yet ({names})")
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
    problems = []
    for assignment in assignments:
        source = Path(root, "source", assignment, f"{assignment}.ipynb")
        release = Path(root, "release", assignment, f"{assignment}.ipynb")
        if not release.exists():
            problems.append(f"{assignment} has no release yet: run python -m lab.grader release")
            continue
        master, released = audit.read(source), audit.read(release)
        ok, output = validate(root, source)
        if not ok or "Success! Your notebook passes all the tests." not in output:
            problems.append(f"{assignment}: nbgrader validate fails on the source notebook:\n{output[-1500:]}")
        ok, output = validate(root, release, invert=True)
        problems += [f"{assignment}: {p}" for p in invert_problems(output, released)]
        problems += [f"{assignment}: {p}" for p in static_problems(master, released)]
        if out is not None:
            out.write(f"checked {assignment}\n")
    return problems
