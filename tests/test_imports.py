"""lab/ has no import cycle, counting every import, those inside functions too: so no import sits
in a function only to dodge one. Each lesson's own folder (lab/lessons/lessonNN/) is content on
top of the stage and is left out; the stage finds a lesson's modules by number, never by import.
And lab/ keeps its layout: one package a concern, nothing at the top but the entry points, no
module past 400 lines but a lesson's content and the grader's wire."""

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


# -- the layout ------------------------------------------------------------------------------------

TOP_FILES = {"__init__.py", "__main__.py", "lab_check.py"}


def strays(root=LAB):
    """What sits at the top of lab/ besides its entry points and its packages: modules belong in
    the package of their concern (README.md, "Where things live")."""
    return sorted(p.name for p in root.iterdir()
                  if p.name != "__pycache__" and not (p.is_dir() and (p / "__init__.py").exists())
                  and not (p.is_file() and p.name in TOP_FILES))


def test_the_top_of_lab_holds_its_entry_points_and_packages_alone():
    assert strays() == [], "lab/ holds modules of its own; put each in its concern's package"


def test_a_stray_module_at_the_top_of_lab_is_found(tmp_path):
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "stage").mkdir()
    (tmp_path / "stage" / "__init__.py").write_text("")
    assert strays(tmp_path) == []
    (tmp_path / "model.py").write_text("")
    (tmp_path / "notes").mkdir()
    assert strays(tmp_path) == ["model.py", "notes"]


def test_the_stage_imports_nothing_of_lab_but_the_stage():
    """The scripted world knows nothing of lessons, checks or notebooks (a lesson is found by its
    number, never imported by the stage)."""
    known = modules()
    found = sorted(f"{name} imports {target} (line {line})" for name, path in known.items()
                   if name.startswith("lab.stage") for target, line in imports(name, path, known)
                   if not target.startswith("lab.stage"))
    assert found == []


def test_no_module_but_lesson_content_and_the_wire_is_over_400_lines():
    def exempt(path):
        parts = path.relative_to(LAB).parts
        return (parts[0] == "lessons" and parts[1].startswith("lesson")) or parts == ("grader", "wire.py")
    long = sorted(f"{path.relative_to(ROOT)}: {n} lines" for path in LAB.rglob("*.py") if not exempt(path)
                  if (n := len(path.read_text(encoding="utf-8").splitlines())) > 400)
    assert long == [], "split these by what they hold"


HEAVY = ("IPython", "ipywidgets", "jinja2", "http.server")


def test_importing_lab_loads_no_notebook_template_or_http_library_until_asked():
    """Every command line, check worker and grader process imports lab and runs checks; what only
    a kernel, lesson 16 or the agent's demonstration needs waits until it is asked for, and then
    is what it was."""
    import subprocess
    import sys
    probe = ("import contextlib, io, sys, lab\n"
             "def summarize(model, messages):\n    return ''\n"
             "with contextlib.redirect_stdout(io.StringIO()):   # a check, as a command line runs one\n"
             "    lab.check(12, lab=1, summarize=summarize)\n"
             f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
             "from lab import TemplateModel\n"
             "from lab.stage import chat_server, chat_template\n"
             "print(lab.ChatServer is chat_server.ChatServer, TemplateModel is chat_template.TemplateModel,\n"
             "      lab.answer_status is chat_server.answer_status, 'ChatServer' in dir(lab))\n"
             "try:\n    lab.no_such_name\nexcept AttributeError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    loaded, same, missing = done.stdout.splitlines()
    assert loaded == "[]", f"import lab and a check loaded {loaded}: import it where it is used"
    assert same == "True True True True"
    assert missing == "module 'lab' has no attribute 'no_such_name'"
