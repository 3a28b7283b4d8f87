"""Audit: do the notebook's check and the autograder say the same of wrong answers, and do the
tests hold every clause of a gap's contract? Each gap's answer (the part of the master notebook's
solution cell between its solution markers) is changed in one place at a time, as a slip would
change it: a comparison turned round, a whole number one more, a string emptied, + made - (or
back), `and` made `or` (or back), a returned value made None, a statement left out. Each mutant is
checked twice, by the notebook's lab.check (in this process, on a thread, as in a kernel; the
hidden tests too once the visible ones pass) and by the autograder (lab.grader.verdict.grade, in
the sandbox, the lab's two check cells); with --command-line, a third time by lab/lab_check.py on
the learner's harness.py with that answer in it.

Printed: every mutant on which any two differ, test by test (a verdict that one of them gets
wrong: there should be none), then every mutant that passes all the lab's tests, visible and
hidden (either it behaves as the answer does, or it is a clause of the contract no test holds it
to: read each one). Exit status 1 if any mutant got two verdicts.

    .venv/bin/python benchmarks/mutants.py [LESSON ...] [--per-gap N] [--seconds S] [--command-line]

Not part of `make test`: every lesson, every mutant, is several hundred gradings (minutes on 2
cores); --per-gap takes that many mutants of each gap, spread over its answer.
"""

import argparse
import ast
import contextlib
import copy
import io
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from lab import checks, lessons  # noqa: E402
from lab.checks import engine  # noqa: E402
from lab.course import manifest, starters  # noqa: E402
from lab.grader import fixtures, verdict  # noqa: E402
from lab.runtime import checkcell, takeover  # noqa: E402

TURNED = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
          ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot,
          ast.IsNot: ast.Is}
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


# -- the mutants ------------------------------------------------------------------------------------

def _docstrings(tree):
    return {id(node.body[0].value) for node in ast.walk(tree) if isinstance(node, DEFINITIONS)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def sites(definition, lines=None):
    """[(node, change)] of every place in `definition` one slip could change, in a fixed order;
    only those that start on `lines` (a range of line numbers) if given: the learner's part."""
    found, docstrings = [], _docstrings(definition)
    for node in ast.walk(definition):
        for field in ("body", "orelse"):   # a block's statements, each judged by its own line
            block = getattr(node, field, None)
            if isinstance(block, list) and len(block) > 1:
                found += [((node, field, i), "leave out") for i, statement in enumerate(block)
                          if not (isinstance(statement, ast.Expr) and id(statement.value) in docstrings)
                          and (lines is None or statement.lineno in lines)]
        if lines is not None and getattr(node, "lineno", None) not in lines:
            continue
        if isinstance(node, ast.Compare) and type(node.ops[0]) in TURNED:
            found.append((node, "turn"))
        elif isinstance(node, ast.Constant) and id(node) not in docstrings:
            if type(node.value) is int:
                found.append((node, "one more"))
            elif isinstance(node.value, str) and node.value:
                found.append((node, "empty"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            found.append((node, "sign"))
        elif isinstance(node, ast.BoolOp):
            found.append((node, "and/or"))
        elif isinstance(node, ast.Return) and node.value is not None:
            found.append((node, "None"))
    return found


def mutant(definition, index, lines=None):
    """(a copy of `definition` with site `index` of sites(definition, lines) changed, and what
    was changed)."""
    copied = copy.deepcopy(definition)
    where, change = sites(copied, lines)[index]
    if change == "leave out":
        node, field, i = where
        said = ast.unparse(getattr(node, field)[i]).splitlines()[0]
        getattr(node, field)[i] = ast.Pass()
        return copied, f"leave out {said}"
    said = ast.unparse(where).splitlines()[0]
    if change == "turn":
        where.ops[0] = TURNED[type(where.ops[0])]()
    elif change == "one more":
        where.value += 1
    elif change == "empty":
        where.value = ""
    elif change == "sign":
        where.op = ast.Sub() if isinstance(where.op, ast.Add) else ast.Add()
    elif change == "and/or":
        where.op = ast.Or() if isinstance(where.op, ast.And) else ast.And()
    elif change == "None":
        where.value = ast.Constant(None)
    return ast.fix_missing_locations(copied), f"{change}: {said}"


# -- the two verdicts --------------------------------------------------------------------------------

class Lesson:
    """A lesson's gaps as its master notebook answers them: the learner's cells, each gap's
    definition and the lines of it the learner writes (between the solution markers: the rest
    of the cell is given code), and the names a notebook's cells see (the harness's, as `from
    harness import *` gives them, then the learner's own definitions)."""

    def __init__(self, lesson):
        self.lesson = lesson
        master = fixtures.master_of(lesson)
        self.gaps = fixtures.solution_cells(lesson, master)
        self.cells = list(verdict.learner_cells(master))
        self.definitions, self.base, self.written = {}, {}, {}
        for name, grade_id in self.gaps.items():
            reference = manifest.reference(name, lesson)
            function = reference.fget if isinstance(reference, property) else reference
            self.base.update({k: v for k, v in getattr(function, "__globals__", {}).items()
                              if not k.startswith("__")})
            source = dict(self.cells)[grade_id]
            tree = ast.parse(source)
            self.definitions[name] = next(node for node in tree.body if isinstance(node, DEFINITIONS)
                                          and node.name == manifest.bare(name))
            marks = [n for n, line in enumerate(source.splitlines(), 1)
                     if line.strip() in ("### BEGIN SOLUTION", "### END SOLUTION")]
            self.written[name] = range(marks[0], marks[-1]) if len(marks) >= 2 else None

    def lab_of(self, name):
        return next(lab for lab in manifest.labs(self.lesson) if name in manifest.names(self.lesson, lab))

    def namespace(self, name, changed):
        """{full name: the learner's object} with `changed` in place of `name`'s definition."""
        scope = dict(self.base)
        for other, definition in self.definitions.items():
            text = ast.unparse(changed if other == name else definition)
            exec(compile(text, f"<cell {other}>", "exec"), scope)
        return {n: scope[manifest.bare(n)] for n in self.definitions}

    def submission(self, name, changed):
        """The learner's cells with `name`'s gap cell holding `changed`."""
        grade_id = self.gaps[name]
        tree = ast.parse(dict(self.cells)[grade_id])
        tree.body = [changed if isinstance(node, DEFINITIONS) and node.name == manifest.bare(name)
                     else node for node in tree.body]
        return [(g, ast.unparse(tree) if g == grade_id else source) for g, source in self.cells]


    def harness_file(self, name, changed):
        """The learner's harness.py at the end of the lesson, every gap answered, `name`'s by
        `changed` (a method in its class, with the decorators the file gives it)."""
        tree = ast.parse(starters.text_at(starters.Stage(self.lesson), solved=True))
        owner, bare = manifest.owner_of(name), manifest.bare(name)
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner).body \
            if owner else tree.body
        for i, node in enumerate(body):
            if isinstance(node, DEFINITIONS) and node.name == bare:
                body[i] = copy.deepcopy(changed)
                body[i].decorator_list = node.decorator_list
                return ast.unparse(tree)
        raise LookupError(f"{name} is not in lesson {self.lesson}'s harness.py")


def in_the_notebook(lesson, lab, found, seconds):
    """{cell: printed lines} of the lab's checks as a notebook runs them: the visible tests, then
    the hidden ones if those passed (as the notebook's hidden cell requires)."""
    learner = {n: found[n] for n in manifest.names(lesson, lab)}
    said = {}
    try:
        for hidden, cell in ((False, f"lab{lab}-tests"), (True, f"lab{lab}-hidden")):
            if hidden and (lesson, lab) not in checkcell.PASSED:
                break
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                checkcell.check(lesson, lab, hidden=hidden, timeout=seconds, **learner)
            said[cell] = out.getvalue()
    finally:
        checkcell.PASSED.clear()
        takeover.use_reference(lesson)
    return said


def graded(lesson, lab, cells, seconds):
    """{cell: printed lines} of the lab's two check cells as the autograder runs them."""
    check_cells = [
        {"grade_id": f"lab{lab}-tests", "points": 1, "source": f"import lab\nlab.check({lesson}, lab={lab})\n"},
        {"grade_id": f"lab{lab}-hidden", "points": 1,
         "source": f"import lab\nlab.require_pass({lesson}, lab={lab})\nlab.check({lesson}, lab={lab}, hidden=True)\n"}]
    result = verdict.grade(lesson, cells, check_cells, timeout=30, test_seconds=seconds)
    return {cell: "\n".join(v["lines"]) for cell, v in result["cells"].items()}, \
        all(v["passed"] for v in result["cells"].values())


def on_the_command_line(lesson, lab, text, seconds):
    """{test title: "✓" or "✗"} of the lab's tests, visible and hidden, as lab_check judges the
    harness.py `text` (a test it did not run has no entry)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "harness.py")
        path.write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, str(REPO / "lab" / "lab_check.py"), "--harness", str(path),
                               "--lesson", str(lesson), "--lab", str(lab), "--timeout", f"{seconds:g}"],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=folder)
    marks = {}
    for line in done.stdout.splitlines():
        for word, mark in (("PASS", "✓"), ("FAIL", "✗")):
            head = f"{word}  lab {lab}  "
            if line.startswith(head):
                marks[line[len(head):].split(" -- ")[0]] = mark
    return marks


def by_title(lesson, lab, said):
    """{test title: "✓" or "✗"} of the tests a notebook's check printed a verdict for (its lines
    are filled to a width, so each is matched by the words it starts with)."""
    marks = {}
    lines = [" ".join(line.split()) for text in said.values() for line in text.splitlines()]
    for t in checks.tests_for(lesson, lab):
        words = " ".join(t.title.split())[:60]
        for line in lines:
            if line[:1] in "✓✗" and line[2:].startswith(words):
                marks[t.title] = line[0]
    return marks


def verdicts(text):
    """The verdict lines of a check's output: its count, then ✓ or ✗ and each test's first words."""
    lines = [line.strip() for line in text.splitlines()]
    count = [re.sub(r"^.*?(tests: \d+ of \d+ pass).*$", r"\1", line) for line in lines if " of " in line and "pass" in line]
    return count[:1] + [line[:70] for line in lines if line.startswith(("✓", "✗"))]


def audit(lesson, per_gap, seconds, out, command_line=False):
    """(mutants that got two verdicts, mutants every test let through, mutants tried); with
    `command_line`, lab_check judges each mutant too, and must agree with the notebook."""
    answers = Lesson(lesson)
    differ, through, tried = [], [], 0
    for name, definition in answers.definitions.items():
        lab = answers.lab_of(name)
        lines = answers.written[name]
        count = len(sites(definition, lines))
        picks = range(count) if not per_gap or count <= per_gap else \
            sorted({i * count // per_gap for i in range(per_gap)})
        for index in picks:
            changed, what = mutant(definition, index, lines)
            try:
                found = answers.namespace(name, changed)
            except Exception:   # a mutant that does not even define its name: no verdict to compare
                continue
            tried += 1
            notebook = in_the_notebook(lesson, lab, found, seconds)
            grader, passed = graded(lesson, lab, answers.submission(name, changed), seconds)
            label = f"lesson {lesson:02d} lab {lab} {name}: {what}"
            if any(verdicts(notebook[cell]) != verdicts(grader.get(cell, "")) for cell in notebook):
                differ.append(label)
                print(f"DIFFER  {label}", file=out)
                for cell in notebook:
                    print(f"  notebook {cell}: {' '.join(notebook[cell].split())[:400]}", file=out)
                    print(f"  grader   {cell}: {' '.join(grader.get(cell, '').split())[:400]}", file=out)
                continue
            apart = _apart(lesson, lab, notebook, on_the_command_line(
                lesson, lab, answers.harness_file(name, changed), seconds)) if command_line else {}
            if apart:
                differ.append(label)
                print(f"DIFFER  {label} (the notebook and lab_check)", file=out)
                for title, (mine, theirs) in apart.items():
                    print(f"  {title[:70]}: notebook {mine}, lab_check {theirs}", file=out)
            elif passed:
                through.append(label)
    return differ, through, tried


def _apart(lesson, lab, notebook, command_line):
    """{title: (the notebook's mark, lab_check's)} of the tests both judged, and judged apart."""
    mine = by_title(lesson, lab, notebook)
    return {title: (mark, command_line[title]) for title, mark in mine.items()
            if title in command_line and command_line[title] != mark}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", type=int, help="lessons to audit (default: every written one)")
    parser.add_argument("--per-gap", type=int, default=0, help="mutants of each gap (default: all)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="each test's time, in every front end (default 5: the notebook and "
                             "lab_check count the wall clock, which a busy machine stretches)")
    parser.add_argument("--command-line", action="store_true",
                        help="have lab/lab_check.py judge each mutant too (one process each: slower)")
    args = parser.parse_args(argv)
    engine.TEST_SECONDS = args.seconds
    all_differ, all_through = [], []
    for lesson in args.lessons or lessons.written():
        started = time.monotonic()
        differ, through, tried = audit(lesson, args.per_gap, args.seconds, sys.stdout, args.command_line)
        all_differ += differ
        all_through += through
        print(f"lesson {lesson:02d}: {tried} mutants, {len(differ)} with two verdicts, "
              f"{len(through)} let through ({time.monotonic() - started:.0f} s)", flush=True)
    print(f"\n{len(all_through)} mutants pass every test of their lab (equivalent, or a clause no test holds):")
    for label in all_through:
        print(f"  {label}")
    return 1 if all_differ else 0


if __name__ == "__main__":
    sys.exit(main())
