"""lab/ has no import cycle, counting every import, those inside functions too: so no import sits
in a function only to dodge one. Each lesson's own folder (lab/lessons/lessonNN/) is content on
top of the stage and is left out; the stage finds a lesson's modules by number, never by import."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAB = ROOT / "lab"


def modules(root=LAB):
    """{dotted name: path} of every module of lab/ outside the lessons' own folders."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if len(parts) > 2 and parts[1] == "lessons" and parts[2].startswith("lesson"):
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(name, path, known):
    """{(module it imports, line)}: `from lab import x` counts as importing lab.x where x is a
    module, and as importing the package lab where x is a name the package defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        found |= {(target, node.lineno) for target in targets if target in known and target != name}
    return found


def cycles(graph):
    """The strongly connected parts of `graph` ({node: {node}}) with more than one node."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def import_cycles(root=LAB):
    """Each cycle as lines "a imports b (line n)"; [] when there is none."""
    known = modules(root)
    edges = {name: imports(name, path, known) for name, path in known.items()}
    graph = {name: {target for target, _ in found} for name, found in edges.items()}
    return [[f"{a} imports {b} (line {line})" for a in part for b, line in sorted(edges[a]) if b in part]
            for part in cycles(graph)]


def test_lab_has_no_import_cycle():
    found = import_cycles()
    assert found == [], "lab/ has an import cycle; move what both sides need below them:\n" + "\n".join(
        "  " + "; ".join(part) for part in found)


def test_a_cycle_is_found_even_through_an_import_inside_a_function(tmp_path):
    package = tmp_path / "lab"
    (package / "lessons" / "lesson01").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from lab import b\n")
    (package / "b.py").write_text("def later():\n    from lab.a import thing\n")
    (package / "lessons" / "__init__.py").write_text("")
    (package / "lessons" / "lesson01" / "__init__.py").write_text("import lab.a\n")   # content: left out
    assert import_cycles(package) == [["lab.a imports lab.b (line 1)", "lab.b imports lab.a (line 2)"]]
    (package / "b.py").write_text("def later():\n    return 1\n")
    assert import_cycles(package) == []
