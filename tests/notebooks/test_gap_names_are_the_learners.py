"""A check reads the learner's functions by name from the notebook's namespace, so only the
learner's gap cells may bind a gap's name there. No demonstration, figure, setup or try-it cell of
any lesson binds one at the notebook's top level: not by assignment, loop, import, def, class,
with or walrus. Otherwise re-running a demo would hand the check the demo's function (a pass the
learner did not earn) or replace the learner's own (a failure they did not cause)."""

import ast

import nbformat
import pytest

from lab import lessons
from lab.course import manifest
from lab.lessons import build


def _gap_names(lesson):
    return {manifest.bare(name) for lab in manifest.labs(lesson) for name in manifest.names(lesson, lab)}


def _python(source):
    """A cell's source as Python: IPython's magics and shell lines blanked, top-level await allowed."""
    lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()]
    return compile("\n".join(lines), "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


def _targets(node):
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, (ast.Tuple, ast.List)):
        for element in node.elts:
            yield from _targets(element)
    elif isinstance(node, ast.Starred):
        yield from _targets(node.value)


def top_level_bindings(tree):
    """Every name a module-level statement binds, in blocks (if, for, while, try, with) included;
    function and class bodies are their own scopes and are not entered."""
    out = []

    def visit(statements):
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append(node.name)
                continue
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    out.extend(_targets(target))
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                out.extend(_targets(node.target))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                out.extend(_targets(node.target))
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        out.extend(_targets(item.optional_vars))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    # `from m import *` may bind any name: it counts as binding all of them
                    out.append("*" if alias.name == "*" else (alias.asname or alias.name).split(".")[0])
            elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
                for handler in node.handlers:
                    if handler.name:
                        out.append(handler.name)
            for walrus in (n for n in ast.walk(node) if isinstance(n, ast.NamedExpr)):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                    out.extend(_targets(walrus.target))
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    visit(block)
            for handler in getattr(node, "handlers", []) or []:
                visit(handler.body)
    visit(tree.body)
    return out


def _is_solution(cell):
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("solution"))


@pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
def test_no_cell_but_the_learners_binds_a_gap_name(lesson):
    nb = nbformat.read(build.notebook_path(lesson), as_version=4)
    gaps = _gap_names(lesson)
    found = []
    for cell in nb.cells:
        if cell.cell_type != "code" or _is_solution(cell):
            continue
        names = set(top_level_bindings(_python(cell.source)))
        bound = gaps if "*" in names else names & gaps
        found += [f"{cell.get('id')}: {name}" for name in sorted(bound)]
    assert found == [], f"lesson {lesson}: cells that bind a gap's name at the top level: {found}"


@pytest.mark.parametrize("code,name", [
    ("for label, run_agent in {}.items():\n    pass\n", "run_agent"),
    ("from x import run_agent\n", "run_agent"),
    ("import run_agent\n", "run_agent"),
    ("from harness import *\n", "*"),
    ("run_agent = 1\n", "run_agent"),
    ("a, (b, run_agent) = 1, (2, 3)\n", "run_agent"),
    ("with open('x') as run_agent:\n    pass\n", "run_agent"),
    ("if True:\n    def run_agent():\n        pass\n", "run_agent"),
    ("try:\n    pass\nexcept Exception as run_agent:\n    pass\n", "run_agent"),
    ("print(run_agent := 3)\n", "run_agent"),
    ("x = [run_agent for run_agent in range(3)]\n", None),
    ("def f():\n    run_agent = 1\n", None),
    ("await thing()\nrun_agent = 2\n", "run_agent"),
])
def test_the_scan_sees_every_way_to_bind_a_name(code, name):
    bound = top_level_bindings(_python(code))
    if name is None:
        assert "run_agent" not in bound, bound
    else:
        assert name in bound, bound
