"""Sample submissions, made from the release and the master notebook by small edits, never kept
as hand-written JSON. Each states what every check cell must score: all its points, part of them, or none.

Samples are what learners hand in: nothing done, everything right, half right, a loop that never
ends, a cell that does not parse, a check cell deleted or pasted twice, a file that is not a
notebook, a correct gap that makes Python print a warning. Attacks try to get points they did not
earn, or to change someone else's: each scores exactly what its honest part earns.

    python -m lab.grader fixtures [--course DIR] [--only NAME ...]   writes them into submitted/
"""

import copy
import re
from pathlib import Path
from typing import Callable, NamedTuple

import nbformat

from lab import lessons
from lab.course import manifest, starters
from lab.lessons.build import NOTEBOOKS, ROOT, notebook_path

TIMESTAMP = "2026-03-02 09:00:00.000000 UTC"


class Fixture(NamedTuple):
    name: str
    earns: object           # what each check cell must score: a tuple of cells that earn all their
                            # points, or {cell: points} where a cell earns part; every other cell 0
    kind: str               # "sample" or "attack"
    about: str
    make: Callable          # make(release nb, master nb, context) -> nb, or str for a broken file
    score: float = None     # the exact total, worked out from `earns` and the master's points

    def resolved(self, master):
        """This fixture with `earns` as {cell: points} for every check cell of the master, and
        `score` their total. A cell it names that the master lacks, or a part larger than the
        cell's points, is a mistake in the fixture and raises."""
        cells = {c.metadata["nbgrader"]["grade_id"]: float(c.metadata["nbgrader"]["points"])
                 for c in master.cells
                 if c.get("metadata", {}).get("nbgrader", {}).get("grade")
                 and not c.metadata["nbgrader"].get("solution")}
        given = self.earns if isinstance(self.earns, dict) else {cell: None for cell in self.earns}
        unknown = sorted(set(given) - set(cells))
        if unknown:
            raise ValueError(f"the fixture {self.name} names check cells the notebook lacks: {', '.join(unknown)}")
        earns = {}
        for cell, points in cells.items():
            part = given.get(cell, 0.0)
            part = points if part is None else float(part)
            if not 0 <= part <= points:
                raise ValueError(f"the fixture {self.name} gives {cell} {part:g} of its {points:g} points")
            earns[cell] = part
        return self._replace(earns=earns, score=sum(earns.values()))


# -- small edits --------------------------------------------------------------------------------

def _cell(nb, grade_id):
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id:
            return cell
    raise KeyError(f"the notebook has no cell {grade_id}")


def master_source(master, grade_id):
    return _cell(master, grade_id).source


def solve(nb, master, *grade_ids):
    """Fill the named solution cells with the master's answer."""
    for grade_id in grade_ids:
        _cell(nb, grade_id).source = master_source(master, grade_id)
    return nb


def edit(text, old, new):
    """`text` with `old` replaced by `new`, where `old` must occur exactly once: a fixture whose
    edit no longer applies fails loudly instead of silently testing something else."""
    if text.count(old) != 1:
        raise ValueError(f"a fixture's edit expects {old!r} exactly once; found {text.count(old)}")
    return text.replace(old, new)


def change(nb, master, grade_id, old, new):
    _cell(nb, grade_id).source = edit(master_source(master, grade_id), old, new)
    return nb


def append(nb, grade_id, code):
    cell = _cell(nb, grade_id)
    cell.source = cell.source.rstrip("\n") + "\n\n" + code.strip("\n")
    return nb


def prepend_to_body(nb, master, grade_id, code):
    """Put `code` first in the solution part of the solved definition, at that part's indentation
    (a method's, or a branch's where the solution is one line inside an if)."""
    source = master_source(master, grade_id)
    marker = re.search(r"^([ \t]*)### BEGIN SOLUTION\n", source, re.M)
    if marker is None:
        raise ValueError(f"{grade_id} has no ### BEGIN SOLUTION line to put code after")
    indented = "".join(f"{marker.group(1)}{line}\n" for line in code.strip("\n").splitlines())
    _cell(nb, grade_id).source = source[:marker.end()] + indented + source[marker.end():]
    return nb


def all_stubs_plus(grade_id, code):
    def make(nb, master, ctx):
        return append(nb, grade_id, code)
    return make


# -- the samples every lesson has --------------------------------------------------------------

def assignment(lesson):
    """The nbgrader assignment of `lesson`: its notebook's name."""
    return notebook_path(lesson).stem


def master_of(lesson):
    return nbformat.read(NOTEBOOKS / f"{assignment(lesson)}.ipynb", as_version=4)


def solution_cells(lesson, master=None):
    """{full name: grade id} of the lesson's solution cells, found by the reference definition
    each one ends with (lab/lessons/build.py writes them so)."""
    master = master or master_of(lesson)
    found = {}
    for cell in master.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if not meta.get("solution"):
            continue
        for name in manifest.names(lesson):
            if cell.source.endswith(starters.definition(name, markers=True, lesson=lesson).rstrip("\n")):
                found[name] = meta["grade_id"]
    return found


def lab_cells(lesson, lab, master=None):
    """The grade ids of lab `lab`'s solution cells, in the notebook's order."""
    cells = solution_cells(lesson, master)
    return tuple(cells[name] for name in manifest.names(lesson, lab) if name in cells)


def _solve_labs(lesson, *labs):
    def make(nb, master, ctx):
        return solve(nb, master, *[g for lab in labs for g in lab_cells(lesson, lab, master)])
    return make


def _hidden_only(lesson, name, source):
    def make(nb, master, ctx):
        solve(nb, master, *[g for lab in manifest.labs(lesson) for g in lab_cells(lesson, lab, master)])
        _cell(nb, solution_cells(lesson, master)[name]).source = source
        return nb
    return make


def _loops_forever(lesson):
    def make(nb, master, ctx):
        labs = manifest.labs(lesson)
        solve(nb, master, *[g for lab in labs for g in lab_cells(lesson, lab, master)])
        first = lab_cells(lesson, labs[-1], master)[0]
        return prepend_to_body(nb, master, first, "while True:  # waits for something that never comes\n    pass")
    return make


def _does_not_parse(lesson):
    def make(nb, master, ctx):
        labs = manifest.labs(lesson)
        solve(nb, master, *[g for lab in labs for g in lab_cells(lesson, lab, master)])
        return append(nb, lab_cells(lesson, labs[-1], master)[-1], "def half_written(:")
    return make


def samples(lesson):
    """The samples every lesson's assignment is graded on, each with the score and passing cells
    that the lesson's data (SAMPLES in lab/lessons/lessonNN/) says it must get: the release
    untouched, everything right, each lab alone, failing only hidden tests, a gap of the last lab
    that loops for ever, and one that does not parse."""
    data = _lesson_samples(lesson)
    expected = data.SCORES
    labs = manifest.labs(lesson)
    made = {
        "unchanged": ("the release as it was handed out", _unchanged),
        "correct": ("every gap filled with the master's answer", _solve_labs(lesson, *labs)),
        "hidden-only": ("passes every visible test and fails a hidden one", _hidden_only(lesson, *next(iter(data.HIDDEN_ONLY.items())))),
        "loops-forever": (f"lab {labs[-1]}'s first gap loops for ever", _loops_forever(lesson)),
        "does-not-parse": (f"lab {labs[-1]}'s last gap has a syntax error", _does_not_parse(lesson)),
    }
    if len(labs) > 1:
        for lab in labs:
            made[f"lab{lab}-only"] = (f"lab {lab} right, every other lab untouched", _solve_labs(lesson, lab))
    missing = sorted(set(made) - set(expected))
    if missing:
        raise ValueError(f"lesson {lesson}'s SAMPLES gives no score for {', '.join(missing)}: add them")
    return [Fixture(name, expected[name], "sample", about, make) for name, (about, make) in made.items()]


def _lesson_samples(lesson):
    """lab/lessons/lessonNN/samples.py, or the lesson's package where it has no such module."""
    try:
        data = lessons.load(lesson, "samples")
    except ModuleNotFoundError:
        data = lessons.load(lesson)
    if not hasattr(data, "SCORES") or not hasattr(data, "HIDDEN_ONLY"):
        raise ValueError(f"lesson {lesson} does not say what its sample submissions must score: give "
                         f"lab/lessons/lesson{lesson:02d}/samples.py a SCORES and a HIDDEN_ONLY")
    return data


def fixtures_of(lesson):
    """Every submission the grader's tests make for `lesson`: its samples, then whatever more the
    lesson keeps in lab/lessons/lessonNN/samples.py (EXTRA)."""
    master = master_of(lesson)
    return [f.resolved(master) for f in samples(lesson) + list(getattr(_lesson_samples(lesson), "EXTRA", []))]


def by_name(lesson):
    return {f.name: f for f in fixtures_of(lesson)}


def _unchanged(nb, master, ctx):
    return nb


def context(root):
    """The paths an attack aims at: real files, so that outside a sandbox the attack would work."""
    root = Path(root).resolve()
    return {"compaction": str(ROOT / "harness" / "compaction.py"),
            "checks": str(ROOT / "lab" / "checks" / "__init__.py"),
            "gradebook": str(root / "gradebook.db"),
            "others": str(root / "submitted" / "*" / "*" / "*.ipynb"),
            "pwned": str(root / "PWNED")}


def _format(nb, ctx):
    """Attack code names paths as {placeholders}; fill them in every solution cell."""
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("solution") and "{" in cell.source:
            for key, value in ctx.items():
                cell.source = cell.source.replace("{" + key + "!r}", repr(value)).replace("{" + key + "}", value)
    return nb


def build(fixture, release, master, ctx):
    """The submission `fixture` makes: a notebook node, or text for a file that is not one."""
    made = fixture.make(copy.deepcopy(release), master, ctx)
    if isinstance(made, str):
        return made
    return _format(made, ctx)


def write(root, lesson, names=None, student_prefix=""):
    """Write `lesson`'s fixtures into `root`/submitted/ as nbgrader's collect would. Returns the
    {student id: Fixture} written."""
    root = Path(root)
    name = assignment(lesson)
    release = nbformat.read(root / "release" / name / f"{name}.ipynb", as_version=4)
    master = master_of(lesson)
    ctx = context(root)
    written = {}
    for fixture in fixtures_of(lesson):
        if names and fixture.name not in names:
            continue
        student = student_prefix + fixture.name
        folder = root / "submitted" / student / name
        folder.mkdir(parents=True, exist_ok=True)
        made = build(fixture, release, master, ctx)
        text = made if isinstance(made, str) else nbformat.writes(made)
        (folder / f"{name}.ipynb").write_text(text, encoding="utf-8")
        (folder / "timestamp.txt").write_text(TIMESTAMP, encoding="utf-8")
        written[student] = fixture
    return written


def points(master, grade_id):
    return float(_cell(master, grade_id).metadata["nbgrader"]["points"])
