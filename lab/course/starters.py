"""The learner's harness.py at any lesson and lab, generated from the reference in `harness/`.

    text_at(Stage(12, 1))        the file lesson 12's lab 1 starts from
    text_at(Stage(11))           the harness as lesson 11 leaves it (no gaps, no markers)
    diff(Stage(11), Stage(12, 1))  what changed between the two, as a unified diff

Nothing here is kept by hand: the reference's modules give the text of every definition,
harness/syllabus.py says which lesson brings each one in and whether it is given or a gap,
harness/earlier/ gives older versions, harness/later/ the versions of the lessons after the
package's own (syllabus.PACKAGE_LESSON), and harness/gaps/ the text that stands where a gap is.
"""

import ast
import difflib
import functools
import importlib
import re
import textwrap
from pathlib import Path
from typing import NamedTuple

from harness import syllabus
from lab import lessons
from lab.course import labs as lesson_labs
from lab.course.labs import MODULES  # the reference's modules, in the order the single file lists them
from lab.stage.prose import joined

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"


class StarterError(ValueError):
    """A starter or end state that cannot be generated, with the reason in one sentence."""


class Stage(NamedTuple):
    """A point in the course: the start of `lab` of `lesson`, or the end of `lesson` (lab None)."""
    lesson: int
    lab: int | None = None

    @classmethod
    def parse(cls, text):
        """"12" is the end of lesson 12 ... unless asked for as a starter; "12.2" is lab 2's start."""
        lesson, _, lab = str(text).partition(".")
        try:
            return cls(int(lesson), int(lab) if lab else None)
        except ValueError:
            raise StarterError(f"{text!r} is not a lesson: write 12 for a lesson, 12.2 for its lab 2") from None

    def key(self):
        return (self.lesson, 10**6 if self.lab is None else self.lab)

    def __str__(self):
        if self.lesson == 0:
            return "before lesson 1: empty"
        return f"lesson {self.lesson}" + ("" if self.lab is None else f", lab {self.lab}")


class Unit(NamedTuple):
    name: str     # as in syllabus.UNITS
    text: str     # its lines, comments above it included, without the leading blank lines
    blanks: int   # how many blank lines stood before it in its module


@functools.lru_cache(maxsize=128)
def _split(source, prefix=""):
    """The top-level pieces of `source`, in order, as a tuple of (kind, Unit): kind is "import",
    "banner" (a comment block standing alone) or "unit" (a definition or constant, with a class's
    heading and each of its methods as separate units). Kept by text: every starter, and every
    check that asks for the reference, splits the same modules again."""
    return tuple(_pieces(source, prefix))


def _pieces(source, prefix):
    lines = source.splitlines()
    tree = ast.parse(source)
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the module's docstring is for readers of the package, not the starter
    pieces, taken = [], (tree.body[0].end_lineno if body is not tree.body else 0)

    def claim(start, end, name, kind):
        # Comment lines right above a node (no blank line between) belong to it.
        nonlocal taken
        first = start
        while first - 1 > taken and lines[first - 2].strip().startswith("#"):
            first -= 1
        gap = lines[taken:first - 1]
        # Comment blocks that stand alone in the gap are banners.
        block, blanks = [], 0
        for line in gap:
            if line.strip():
                block.append(line)
                continue
            if block:
                pieces.append(("banner", Unit("", "\n".join(block), blanks)))
                block, blanks = [], 0
            blanks += 1
        if block:  # a comment block with no blank line under it was claimed above
            pieces.append(("banner", Unit("", "\n".join(block), blanks)))
            blanks = 0
        # Comment lines just below a node, indented deeper than it, are the end of its body.
        depth = len(_indent_of(lines[start - 1]))
        while end < len(lines) and lines[end].strip().startswith("#") \
                and len(_indent_of(lines[end])) > depth:
            end += 1
        pieces.append((kind, Unit(name, "\n".join(lines[first - 1:end]), blanks)))
        taken = end

    for node in body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            claim(start, node.end_lineno, "", "import")
        elif isinstance(node, ast.ClassDef):
            head_end = node.body[0].end_lineno if (
                isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
            ) else node.lineno
            claim(start, head_end, prefix + node.name, "unit")
            for member in node.body:
                if member.end_lineno <= head_end:
                    continue
                mstart = min([member.lineno] + [d.lineno for d in getattr(member, "decorator_list", [])])
                claim(mstart, member.end_lineno, f"{prefix}{node.name}.{member.name}", "unit")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            claim(start, node.end_lineno, prefix + node.name, "unit")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            claim(start, node.end_lineno, prefix + target.id, "unit")
        else:
            raise StarterError(f"line {node.lineno} of the reference is neither a definition nor a constant")
    return pieces


def _module_source(name):
    """The module's file as it is on disk, markers and all: read here, never through linecache,
    where lab.runtime.sourcelines serves the harness's lines to tracebacks with the markers blanked."""
    return Path(importlib.import_module(name).__file__).read_text(encoding="utf-8")


def _reference():
    """[(module, pieces)] for the reference harness, in teaching order."""
    return [(m, _split(_module_source(f"harness.{m}"))) for m in MODULES]


def _versions(folder, lesson):
    """{name: text} of the definitions as lesson `lesson` leaves them, from harness/<folder>/."""
    try:
        source = _module_source(f"harness.{folder}.lesson{lesson:02d}")
    except ModuleNotFoundError:
        return {}
    return {u.name: u.text for kind, u in _split(source) if kind == "unit"}


@functools.cache
def _later_imports():
    """The import lines of harness/later/'s modules: what their definitions need (inspect, say)
    that the package, as the last synchronous lesson leaves it, does not import. A tuple, read
    once a process, since every text_at asks for it."""
    found = []
    for step_lesson in sorted({s.lesson for steps in syllabus.UNITS.values() for s in steps
                               if s.lesson > syllabus.PACKAGE_LESSON}):
        try:
            source = _module_source(f"harness.later.lesson{step_lesson:02d}")
        except ModuleNotFoundError:
            continue
        found += [l for kind, u in _split(source) if kind == "import" and not u.text.startswith("from ")
                  for l in u.text.splitlines()]
    return tuple(found)


def _home(steps):
    """The step whose version the package itself holds: the last one at or before
    syllabus.PACKAGE_LESSON, or the first, for a definition brought in after that lesson."""
    held = [s for s in steps if s.lesson <= syllabus.PACKAGE_LESSON]
    return held[-1] if held else steps[0]


def _version(name, step, steps, package_text, cache):
    """The text of `name` as `step` leaves it: the package's, or earlier/'s or later/'s."""
    home = _home(steps)
    if step is home:
        return package_text
    folder = "later" if step.lesson > home.lesson else "earlier"
    texts = cache.setdefault((folder, step.lesson), _versions(folder, step.lesson))
    if name not in texts:
        raise _Missing(f"{name} as lesson {step.lesson} leaves it is not written yet "
                       f"(harness/{folder}/lesson{step.lesson:02d}.py)")
    return texts[name]


def _gaps(lesson):
    try:
        return importlib.import_module(f"harness.gaps.lesson{lesson:02d}").GAPS
    except ModuleNotFoundError:
        return {}


def _strip_markers(text):
    return "\n".join(line for line in text.splitlines() if line.strip() not in (BEGIN, END))


def _indent_of(line):
    return line[:len(line) - len(line.lstrip())]


def _fill_gap(text, gap):
    """`text` with its solution part replaced by `gap`, indented as the BEGIN line is."""
    lines = text.splitlines()
    try:
        begin = next(i for i, l in enumerate(lines) if l.strip() == BEGIN)
        end = next(i for i, l in enumerate(lines) if l.strip() == END)
    except StopIteration:
        raise StarterError("a gap's reference text has no ### BEGIN SOLUTION / ### END SOLUTION") from None
    filler = textwrap.indent(gap.rstrip("\n"), _indent_of(lines[begin]), lambda l: True)
    filler = "\n".join(l.rstrip() for l in filler.splitlines())
    return "\n".join(lines[:begin] + [filler] + lines[end + 1:])


def definition(name, markers=False, lesson=None):
    """The text of one definition (a name of syllabus.UNITS), with its solution markers when
    `markers` is True: as the package has it, or, given `lesson`, as that lesson leaves it (the
    package, harness/earlier/ or harness/later/, see _home). What a notebook's solution cell is
    made from."""
    text = None
    for _, pieces in _reference():
        for kind, unit in pieces:
            if kind == "unit" and unit.name == name:
                text = unit.text
    if text is None:
        raise StarterError(f"the reference harness has no definition named {name}")
    if lesson is not None:
        steps = syllabus.UNITS.get(name, [])
        past = [s for s in steps if s.lesson <= lesson]
        if not past:
            raise StarterError(f"{name} does not exist yet at lesson {lesson}")
        text = _version(name, past[-1], steps, text, {})
    return textwrap.dedent(text if markers else _strip_markers(text))


def gap_text(name, lesson):
    """What a starter of `lesson` holds in place of the learner's part of `name`."""
    gaps = _gaps(lesson)
    if name not in gaps:
        raise _Missing(f"harness/gaps/lesson{lesson:02d}.py has no text for {name}")
    return gaps[name]


def _check_stage(stage):
    try:
        labs = lesson_labs.labs(stage.lesson)
    except ValueError:
        labs = []
    if stage.lab is not None and stage.lab not in labs:
        if not labs and stage.lesson in lessons.PLANNED:
            raise _not_written(stage, f"lesson {stage.lesson}, {lessons.PLANNED[stage.lesson]}, is "
                                      "planned, not written yet")
        if not labs:
            raise StarterError(f"lesson {stage.lesson} is not in the course's plan (harness/syllabus.py)")
        raise StarterError(f"lesson {stage.lesson} has {len(labs)} lab{'s' if len(labs) > 1 else ''}, "
                           f"so there is no lab {stage.lab}")


def _not_written(stage, said=None):
    have = lessons.written()
    course = f"lesson{'s' if len(have) > 1 else ''} {joined(have)}" if have else "no lessons yet"
    said = said or f"lesson {stage.lesson}'s harness is not written yet"
    return StarterError(f"{said}: the course has {course}")


def text_at(stage, solved=False, every_gap=False, own=None):
    """The whole harness.py at `stage`: the start of a lab (given parts marked, gaps as spec
    blocks) or the end of a lesson (everything written, no markers). With `solved`, a lab's
    starter has the reference's answers where its gaps are, and nothing else changes. With
    `every_gap`, the gaps of the lesson's earlier labs are open again too: a file that holds no
    answer of the lesson at all, for the autograder's sandbox. `own` maps full names to the
    learner's own text of definitions from earlier work, which stands in place of the reference's
    (lab/course/carry.py decides which); with `solved` it also stands in place of a gap of the lab,
    which is how carry.py judges a definition against the lab that asked for it."""
    _check_stage(stage)
    try:
        return _text_at(stage, solved, every_gap, own or {})
    except _Missing:
        raise _not_written(stage) from None


class _Missing(StarterError):
    """An earlier version or a gap's text that the course has not written."""


def _text_at(stage, solved, every_gap, own):
    now = stage.key()
    imports, out = [], []
    cache = {}
    for module, pieces in _reference():
        chosen, banners = [], []
        for kind, unit in pieces:
            if kind == "import":
                if not unit.text.startswith("from ."):
                    imports += [l for l in unit.text.splitlines() if l not in imports]
                continue
            if kind == "banner":
                unit = unit._replace(blanks=max(unit.blanks, 1 if not out else 2))
                chosen.append(unit)
                banners.append(unit)
                continue
            steps = syllabus.UNITS.get(unit.name)
            if steps is None:
                raise StarterError(f"{unit.name} is in the reference but not in harness/syllabus.py")
            past = [s for s in steps if Stage(s.lesson, s.lab).key() <= now]
            if not past:
                continue
            step = past[-1]
            indent = _indent_of(unit.text.splitlines()[0])
            at_this_lab = stage.lab is not None and (step.lesson, step.lab) == (stage.lesson, stage.lab)
            if every_gap and stage.lab is not None and step.lesson == stage.lesson and step.kind != "given":
                at_this_lab = True
            text = _version(unit.name, step, steps, unit.text, cache)
            if unit.name in own and (solved or not at_this_lab):
                text = own[unit.name]
            elif at_this_lab and solved and step.kind in ("spec", "gap"):
                text = _strip_markers(text)
            elif at_this_lab and step.kind == "spec":
                text = textwrap.indent(gap_text(unit.name, step.lesson).rstrip("\n"), indent)
            elif at_this_lab and step.kind == "gap":
                text = _fill_gap(text, gap_text(unit.name, step.lesson))
            else:
                text = _strip_markers(text)
            if at_this_lab and step.kind != "spec" and step.marked and (step.kind == "given" or step.note):
                marker = f"{indent}# given in lesson {step.lesson}" + (f": {step.note}" if step.note else "")
                text = marker + "\n" + text
            chosen.append(unit._replace(text=text))
        if len(chosen) > len(banners):
            out += chosen
    # An import comes in with the first definition that uses it (json with lesson 7's renderer,
    # deque with lesson 9's queues), so an early lesson's file carries none it does not need.
    body = "\n".join(unit.text for unit in out)
    imports += [line for line in _later_imports() if line not in imports]
    imports = [line for line in imports if _binds(line) & set(re.findall(r"\w+", body))]
    imports.sort(key=lambda line: (line.startswith("from "), line))  # as isort would have them
    parts = ["\n".join(imports)] if imports else []
    for unit in out:
        parts.append("\n" * (max(unit.blanks, 1) if parts else 0) + unit.text)
    text = "\n".join(parts).rstrip("\n")
    return text + "\n" if text else ""  # before lesson 1 (Stage(0)) the file is empty


def _binds(line):
    """The names an import line binds: {"json"} for "import json", {"deque"} for "from
    collections import deque"."""
    node = ast.parse(line).body[0]
    return {(a.asname or a.name).split(".")[0] for a in node.names}


def diff(old, new, context=3):
    """A unified diff from the harness at `old` to the harness at `new` (two Stages)."""
    a, b = text_at(old).splitlines(keepends=True), text_at(new).splitlines(keepends=True)
    return "".join(difflib.unified_diff(a, b, f"harness.py ({old})", f"harness.py ({new})", n=context))
