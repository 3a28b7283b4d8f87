"""Make a lesson's notebook from its one source, and run it so that its outputs are real.

    python -m lab.lessons build 12          write notebooks/12-....ipynb, executed
                                            (python -m lab build 12 also rewrites docs/grade-ids.md)
    python -m lab.lessons build 12 --check  exit 1 if the committed notebook is stale
    python -m lab.lessons learner 12 OUT    write the learner's copy (solutions and hidden tests
                                            out, outputs cleared) to OUT, the way nbgrader does

The source is lab/lessons/lessonNN/lesson.md: plain text cut into cells by lines that start with "%% ".
What follows "%% " says what the cell is:

    %% md                       a markdown cell (read-only)
    %% code [id=ID] [tags=a,b]  a code cell (read-only), for demonstrations
    %% try id=ID                a code cell the learner may edit; no nbgrader role
    %% rung ID                  the question ID: the cell imports lab and shows lab.rung(N, "ID")
    %% hints LAB                the hint ladder of lab LAB
    %% diff OLD NEW             what changed between two harness.py files (lab.show_diff)
    %% testlist LAB             markdown: the visible tests of lab LAB, as numbered lines below
                                the header; their number must match lab/checks
    %% harnessnow NAME ...      markdown: each name and the lesson that brought it in, from
                                harness/syllabus.py
    %% solution id=ID def=NAME  an nbgrader solution cell: the reference's definition NAME, its
                                ### BEGIN/END SOLUTION markers kept (lab.course.starters.definition),
                                with any text written under the header placed above it
    %% tests id=ID              an nbgrader autograder-tests cell, worth the points of the tests
                                its lab.check calls run (each test's points are declared once,
                                in its @lab.checks.test, and never typed here)

Every cell gets a stable id (ID, or one made from its position) and nbgrader metadata: markdown
and demonstrations locked, solutions unlocked, tests graded. The solution cells are never typed
by hand: they are the reference harness's own text, so the notebook cannot drift from it.
"""

import copy
import os
import re
import sys
import tempfile
from pathlib import Path

import nbformat

from harness import gaps, syllabus
from lab import checks, lessons
from lab.course import starters
from lab.lessons import kernels
from lab.learner.jupyter_hooks import keep_widget_text

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE = {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
            "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
            "pygments_lexer": "ipython3"}
CELL_SECONDS = 120  # the most one cell of a notebook may take while it is built


class SourceError(ValueError):
    """The lesson source cannot be turned into a notebook; the message says where and why."""


def _data(lesson):
    return lessons.load(lesson)


def source_path(lesson):
    lessons.load(lesson)  # a lesson the course does not have is a sentence, not a missing file
    return lessons.folder(lesson) / "lesson.md"


def notebook_path(lesson):
    return NOTEBOOKS / _data(lesson).NOTEBOOK


def definition(name, lesson):
    """`name` as lesson `lesson` leaves it, with its solution markers: what a solution cell holds.
    One function, so the builder depends on lab.course.starters in one place only."""
    return starters.definition(name, markers=True, lesson=lesson).rstrip("\n")


def _parse(text, lesson):
    """[(header words, options dict, body, line number)] from the source text."""
    cells, current = [], None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("%% "):
            if current:
                cells.append(current)
            words = line[3:].split()
            opts = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            args = [w for w in words[1:] if "=" not in w]
            current = [words[0], args, opts, [], number]
        elif current is None:
            if line.strip():
                raise SourceError(f"{source_path(lesson).name}, line {number}: text before the first %% header")
        else:
            current[3].append(line)
    if current:
        cells.append(current)
    return cells


def _meta(kind, grade_id, points=None):
    base = {"grade": False, "grade_id": grade_id, "locked": True, "schema_version": 3,
            "solution": False, "task": False}
    if kind == "solution":
        base.update(locked=False, solution=True)
    elif kind == "tests":
        base.update(grade=True, points=int(points))
    return {"nbgrader": base}


def cell_points(source, where="a tests cell"):
    """What a tests cell is worth: the points of every test its lab.check(LESSON, lab=N[,
    hidden=True]) calls run, as the registry declares them. A cell that runs no test, or names
    its lab in a way the builder cannot read, is refused: its points would be a guess."""
    import ast
    found = []
    for node in ast.walk(ast.parse(source.replace("### BEGIN HIDDEN TESTS", "").replace("### END HIDDEN TESTS", ""))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "check"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "lab"):
            try:
                args = [ast.literal_eval(a) for a in node.args]
                kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
                lesson, lab = (args + [kwargs.get("lab")])[:2]
                found.append((int(lesson), int(lab), bool(kwargs.get("hidden", False))))
            except (ValueError, TypeError):
                raise SourceError(f"{where}: write lab.check with literal numbers, as "
                                  "lab.check(12, lab=1) or lab.check(12, lab=1, hidden=True)") from None
    if not found:
        raise SourceError(f"{where}: a tests cell must call lab.check(LESSON, lab=N); it runs no test")
    points = 0
    for lesson, lab, hidden in found:
        tests = checks.tests_for(lesson, lab, hidden=hidden)
        if not tests:
            raise SourceError(f"{where}: lab.check({lesson}, lab={lab}{', hidden=True' if hidden else ''}) "
                              "runs no test; register some in the lesson's checks.py")
        points += sum(t.points for t in tests)
    return points


def _testlist(lesson, lab, body, where):
    """Markdown: the lab's test list as the source words it (one numbered line per visible test),
    under a heading that counts the hidden ones. The count must match lab/checks."""
    tests = checks.tests_for(lesson, lab, hidden=False)
    hidden = checks.tests_for(lesson, lab, hidden=True)
    items = [line for line in body.splitlines() if re.match(r"\d+\. ", line)]
    if len(items) != len(tests):
        raise SourceError(f"{where}: the test list of lab {lab} has {len(items)} items, but "
                          f"lab/checks has {len(tests)} visible tests")
    head = (f"**What the check cell tests:** {len(tests)} tests you can see, and "
            f"{len(hidden)} edge cases more that run only when the notebook is graded.")
    return head + "\n\n" + body


def _harness_now(lesson, names):
    """Markdown: each name with the lesson whose version of it the harness now holds (the last
    that brought it in or rewrote it, by `lesson`), from harness/syllabus.py."""
    lines = []
    for name in names:
        steps = [s for s in syllabus.UNITS[name] if s.lesson <= lesson]
        last = steps[-1]
        whose = "given" if last.kind == "given" else "yours"
        if last.lesson != lesson:
            note = f"lesson {last.lesson}, {whose}"
        elif last.kind == "given":
            note = f"lesson {lesson}, given"
        else:
            note = f"lesson {lesson}, yours: lab {last.lab}"
        if steps[0].lesson != last.lesson:
            note += f"; first written in lesson {steps[0].lesson}"
        lines.append(f"- `{name}` ({note})")
    return "\n".join(lines)


def cells(lesson):
    """The notebook's cells, made from the source: a list of nbformat cells, not yet run."""
    path = source_path(lesson)
    out, seen = [], set()
    for kind, args, opts, body, number in _parse(path.read_text(encoding="utf-8"), lesson):
        where = f"{path.name}, line {number}"
        text = "\n".join(body).strip("\n")
        cell_id = opts.get("id")
        if kind == "md":
            cell = nbformat.v4.new_markdown_cell(text)
        elif kind == "testlist":
            cell = nbformat.v4.new_markdown_cell(_testlist(lesson, int(args[0]), text, where))
            cell_id = cell_id or f"lab{args[0]}-testlist"
        elif kind in ("code", "try"):
            cell = nbformat.v4.new_code_cell(text)
        elif kind == "rung":
            cell = nbformat.v4.new_code_cell(f'import lab\n\nlab.rung({lesson}, "{args[0]}")')
            cell_id = cell_id or f"rung-{args[0]}"
        elif kind == "hints":
            cell = nbformat.v4.new_code_cell(f"import lab\n\nlab.hints({lesson}, lab={args[0]})")
            cell_id = cell_id or f"lab{args[0]}-hints"
        elif kind == "diff":
            cell = nbformat.v4.new_code_cell(f'import lab\n\nlab.show_diff("{args[0]}", "{args[1]}")')
            cell_id = cell_id or f"diff-{args[0]}-{args[1]}".replace(".", "-")
        elif kind == "harnessnow":
            cell = nbformat.v4.new_markdown_cell(_harness_now(lesson, args))
            cell_id = cell_id or "harness-now"
        elif kind == "solution":
            if "def" not in opts or not cell_id:
                raise SourceError(f"{where}: a solution cell needs id=... and def=...")
            # The gap's own words (harness/gaps) go above the definition: nbgrader keeps them
            # when it stubs the solution, so the learner's edition says what the starter says.
            above = "".join(part + "\n\n" for part in (text, gaps.comments(lesson, opts["def"])) if part)
            cell = nbformat.v4.new_code_cell(above + definition(opts["def"], lesson))
        elif kind == "tests":
            if not cell_id:
                raise SourceError(f"{where}: a tests cell needs id=...")
            if "points" in opts:
                raise SourceError(f"{where}: a tests cell's points are the sum of its tests' points "
                                  "(@lab.checks.test(..., points=N)); remove points= from the line")
            opts["points"] = cell_points(text, where)
            cell = nbformat.v4.new_code_cell(text)
        else:
            raise SourceError(f"{where}: unknown cell kind {kind!r}")
        cell_id = cell_id or f"c{len(out) + 1:03d}"
        if cell_id in seen:
            raise SourceError(f"{where}: the id {cell_id} is used twice")
        seen.add(cell_id)
        cell.id = cell_id
        if kind != "try":
            cell.metadata.update(_meta(kind, cell_id, opts.get("points")))
        tags = [t for t in opts.get("tags", "").split(",") if t]
        if tags:
            cell.metadata["tags"] = tags
        out.append(cell)
    return out


def notebook(lesson):
    """The notebook, made from its source and not yet run."""
    nb = nbformat.v4.new_notebook()
    nb.nbformat_minor = 5
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": copy.deepcopy(LANGUAGE)}
    nb.cells = cells(lesson)
    return nb


def _run(nb, cwd, allow_errors, stderr):
    """A copy of `nb` run in a new kernel whose stderr goes to `stderr`: a copy, because a start
    that fails is tried again (lab.lessons.kernels) and must find the notebook as it was."""
    from nbclient import NotebookClient
    nb = copy.deepcopy(nb)
    # The kernel's own log (its start-up notice about plain TCP on loopback) is not part of the
    # lesson; keeping it quiet keeps a clean build free of stderr.
    NotebookClient(nb, timeout=CELL_SECONDS, kernel_name="python3", store_widget_state=False,
                   allow_errors=allow_errors, record_timing=False,
                   extra_arguments=["--IPKernelApp.log_level=ERROR"],
                   resources={"metadata": {"path": str(cwd)}}).execute(stderr=stderr)
    return nb


def execute(nb, cwd=NOTEBOOKS, env=None, allow_errors=False):
    """Run `nb` top to bottom in a fresh kernel, in `cwd`, and return it with its outputs. Any
    question answers it makes are kept in a throwaway directory, not beside the real notebook."""
    with tempfile.TemporaryDirectory() as answers:
        saved = {k: os.environ.get(k) for k in ("LAB_RUNGS_DIR", "NBGRADER_EXECUTION")}
        os.environ["LAB_RUNGS_DIR"] = answers
        os.environ.pop("NBGRADER_EXECUTION", None)
        if env:
            os.environ.update(env)
        try:
            nb = kernels.started(lambda stderr: _run(nb, cwd, allow_errors, stderr))
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    nb.metadata["language_info"] = copy.deepcopy(LANGUAGE)  # without the machine's Python version
    nb.metadata.pop("widgets", None)
    # A widget's view names a model that lived only in the build's kernel, under a random id:
    # saved, it would change with every build and show "model not found" when the notebook is
    # opened. Its text form stays, and running the cell brings the widget back.
    keep_widget_text({"type": "notebook", "content": nb})
    # How a kernel splits what it prints into messages varies from run to run; the text does not.
    from nbconvert.preprocessors import CoalesceStreamsPreprocessor
    nb, _ = CoalesceStreamsPreprocessor().preprocess(nb, {})
    return nb


def _sources(nb):
    """What a notebook is made of, outputs aside: for the staleness check."""
    return [(c.cell_type, c.get("id"), c.source, dict(c.metadata)) for c in nb.cells]


def stale(lesson):
    """"" if the committed notebook is what its source makes, else a sentence saying what differs."""
    path = notebook_path(lesson)
    if not path.exists():
        return f"{path.relative_to(ROOT)} does not exist"
    committed = nbformat.read(path, as_version=4)
    fresh = _sources(notebook(lesson))
    old = _sources(committed)
    if len(old) != len(fresh):
        return f"{path.name} has {len(old)} cells; its source makes {len(fresh)}"
    for n, (a, b) in enumerate(zip(old, fresh)):
        if a != b:
            return f"{path.name}, cell {n} ({b[1]}) differs from what its source makes"
    unrun = [c.id for c in committed.cells if c.cell_type == "code" and c.source.strip()
             and c.execution_count is None]
    if unrun:
        return f"{path.name} has cells that were never run: {', '.join(unrun[:5])}"
    return ""


def build(lesson, run=True):
    """Write the lesson's notebook, executed unless `run` is False. Returns its path."""
    nb = notebook(lesson)
    if run:
        nb = execute(nb)
    path = notebook_path(lesson)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.validate(nb)
    path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    return path


def learner_copy(nb):
    """The learner's copy of a master notebook, made by nbgrader's own preprocessors, as
    generate_assignment makes it: solutions become stubs, hidden tests go, outputs are cleared."""
    from nbgrader.preprocessors import ClearHiddenTests, ClearOutput, ClearSolutions
    nb = copy.deepcopy(nb)
    resources = {}
    for step in (ClearSolutions(), ClearHiddenTests(), ClearOutput()):
        nb, resources = step.preprocess(nb, resources)
    return nb


def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(prog="python -m lab.lessons", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="make the lesson's notebook from its source and run it")
    p.add_argument("lesson", type=int)
    p.add_argument("--check", action="store_true", help="only say whether the notebook is stale")
    p.add_argument("--no-run", action="store_true", help="write it without running it")
    p = sub.add_parser("learner", help="write the learner's copy of the lesson's notebook")
    p.add_argument("lesson", type=int)
    p.add_argument("out")
    args = parser.parse_args(argv)
    if args.command == "learner":
        nb = learner_copy(nbformat.read(notebook_path(args.lesson), as_version=4))
        Path(args.out).write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
        return 0
    try:
        if args.check:
            problem = stale(args.lesson)
            print(problem or f"{notebook_path(args.lesson).name} is up to date with its source")
            return 1 if problem else 0
        print(build(args.lesson, run=not args.no_run).relative_to(ROOT))
    except (SourceError, LookupError) as error:
        print(f"python -m lab build: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
