"""Every lesson's harness.py, as the learner gets it: generated, loadable, chained to the lesson
before (the starter of N is the end of N-1 with N's additions), failed by its starter and passed
by the reference, through the same command line a learner uses. The standard these tests enforce is
written out in docs/lesson-standard.md."""

import ast
import contextlib
import io
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from harness import syllabus
from lab import lab_check, lessons
from lab.course import manifest, starters
from lab.course.starters import Stage

ROOT = Path(__file__).resolve().parents[2]
LABS = [(lesson, lab) for lesson in lessons.written() for lab in manifest.labs(lesson)]


def definitions(text):
    """{name: source} of each top-level definition and each method, by full name."""
    tree, lines = ast.parse(text), text.splitlines()
    found = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found[f"{node.name}.{member.name}"] = "\n".join(lines[member.lineno - 1:member.end_lineno])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found[node.name] = "\n".join(lines[node.lineno - 1:node.end_lineno])
        elif isinstance(node, ast.Assign):
            found[node.targets[0].id] = "\n".join(lines[node.lineno - 1:node.end_lineno])
    return found


def test_every_definition_of_the_reference_is_in_the_syllabus_and_back():
    import harness
    names = {u.name for _, pieces in starters._reference() for kind, u in pieces if kind == "unit"}
    assert names == set(syllabus.UNITS)
    assert set(harness.__all__) <= set(syllabus.UNITS)


def test_earlier_versions_hold_only_what_a_later_lesson_changes():
    """harness/earlier/lessonNN.py keeps a definition only if a later lesson rewrites it, and
    then only that definition (a method, never its whole class)."""
    import pkgutil
    import harness.earlier as earlier
    for info in pkgutil.iter_modules(earlier.__path__):
        number = int(info.name[len("lesson"):])
        for kind, unit in starters._split(starters._module_source(f"harness.earlier.{info.name}")):
            if kind != "unit" or unit.text.strip() == f"class {unit.name}:":
                continue   # a bare class line only holds the methods below it
            steps = syllabus.UNITS[unit.name]
            past = [s for s in steps if s.lesson <= number]
            later = [s for s in steps if s.lesson > number]
            assert past and later, f"earlier/{info.name}.py keeps {unit.name}, which no later lesson changes"


def test_later_versions_hold_exactly_what_their_lesson_rewrites():
    """harness/later/lessonNN.py holds a definition only if lesson NN rewrites it after the
    package's own lesson, and every such rewrite is there: the package itself never changes."""
    import pkgutil
    import harness.later as later
    held = {}
    for info in pkgutil.iter_modules(later.__path__):
        number = int(info.name[len("lesson"):])
        assert number > syllabus.PACKAGE_LESSON, f"later/{info.name}.py is not after the package's lesson"
        for kind, unit in starters._split(starters._module_source(f"harness.later.{info.name}")):
            if kind == "unit" and unit.text.strip() != f"class {unit.name}:":
                held.setdefault(number, set()).add(unit.name)
    rewrites = {}
    for name, steps in syllabus.UNITS.items():
        home = starters._home(steps)
        for step in steps:
            if step.lesson > home.lesson:
                rewrites.setdefault(step.lesson, set()).add(name)
    assert held == rewrites


def test_the_package_is_the_harness_its_own_lesson_leaves():
    """`import harness` runs exactly as lesson PACKAGE_LESSON's harness.py, so the lessons up to it
    see their own harness whatever later lessons rewrite."""
    end = definitions(starters.text_at(Stage(syllabus.PACKAGE_LESSON)))
    for name in syllabus.UNITS:
        if starters._home(syllabus.UNITS[name]).lesson > syllabus.PACKAGE_LESSON:
            continue   # brought in after it: the package holds its first version
        if name in end:
            assert manifest.reference(name) is manifest.reference(name, syllabus.PACKAGE_LESSON), name


@pytest.mark.parametrize("lesson,lab", LABS, ids=[f"lesson{n:02d}-lab{l}" for n, l in LABS])
def test_each_generated_file_is_python_and_loads(lesson, lab, tmp_path):
    for stage in (Stage(lesson, lab), Stage(lesson)):
        path = tmp_path / "harness.py"
        path.write_text(starters.text_at(stage))
        subprocess.run([sys.executable, str(path)], check=True, cwd=tmp_path)


@pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
def test_the_starter_is_the_end_of_the_lesson_before(lesson):
    """Every definition of lesson N-1's end stands unchanged in lesson N's starter, unless lesson
    N's syllabus rows say it changes there."""
    before = definitions(starters.text_at(Stage(lesson - 1)))
    start = definitions(starters.text_at(Stage(lesson, manifest.labs(lesson)[0])))
    changed = set(syllabus.lesson_units(lesson))
    for name, text in before.items():
        owner = name.rpartition(".")[0]
        if name in changed or owner in changed and name not in syllabus.UNITS:
            continue
        assert name in start, f"lesson {lesson}'s starter has lost {name}"
        strip = lambda t: "\n".join(l for l in t.splitlines() if not l.strip().startswith("# given in"))
        assert strip(start[name]) == strip(text), f"lesson {lesson}'s starter changed {name}, which its syllabus does not"


@pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
def test_the_diff_from_the_lesson_before_only_adds_or_rewrites_the_lessons_names(lesson):
    out = subprocess.run([sys.executable, "-m", "lab", "diff", str(lesson - 1), str(lesson)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert out.stdout == starters.diff(Stage(lesson - 1), Stage(lesson, 1))
    assert "+# given in lesson" in out.stdout.replace("+    # given", "+# given") or \
        all(s.kind != "given" for steps in syllabus.lesson_units(lesson).values() for s in steps)


def _check(path, lesson, lab):
    """lab_check on `path`, its own code run in this process (the harness runs in the worker
    process it starts, as always); tests/test_lab_check_cli.py runs the command itself."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = lab_check.main(["--harness", str(path), "--lesson", str(lesson), "--lab", str(lab)])
    return SimpleNamespace(returncode=status, stdout=out.getvalue())


@pytest.mark.parametrize("lesson,lab", LABS, ids=[f"lesson{n:02d}-lab{l}" for n, l in LABS])
def test_the_starter_fails_the_lab_and_the_reference_passes_it(lesson, lab, tmp_path):
    path = tmp_path / "harness.py"
    path.write_text(starters.text_at(Stage(lesson, lab)))
    result = _check(path, lesson, lab)
    assert result.returncode == 1, result.stdout
    assert "not done yet" in result.stdout or "not started" in result.stdout
    path.write_text(starters.text_at(Stage(lesson, lab), solved=True))
    result = _check(path, lesson, lab)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1].endswith(" passed, 0 failed")


@pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
def test_the_graders_starter_holds_no_answer_of_the_lesson(lesson):
    """The autograder's worker loads the last lab's starter with every gap of the lesson open:
    no line of any reference answer of the lesson is in it."""
    text = starters.text_at(Stage(lesson, manifest.last_lab(lesson)), every_gap=True)
    assert starters.BEGIN not in text
    assert text.count("# --- your code ---") == len(manifest.names(lesson))
    for name in manifest.names(lesson):
        answer = starters.definition(name, markers=True, lesson=lesson)
        if starters.BEGIN in answer:
            answer = answer.split(starters.BEGIN, 1)[1].split(starters.END, 1)[0]
        for line in answer.splitlines():
            line = line.strip()
            if len(line) > 24 and not line.startswith(("#", '"""')) and line not in starters.text_at(Stage(lesson - 1)):
                assert line not in text, f"the grader's starter of lesson {lesson} holds {name}'s line: {line}"


def test_the_cli_says_what_it_cannot_do():
    from harness import syllabus
    from lab.learner import startpage
    have = lessons.written()
    planned = sorted({step.lesson for steps in syllabus.UNITS.values() for step in steps})
    beyond = max(planned + list(startpage.PLANNED)) + 1
    # A lesson of the plan with no row in the syllabus yet says what the start page says of it.
    for n in [n for n in startpage.PLANNED if n not in planned][:1]:
        bad = subprocess.run([sys.executable, "-m", "lab", "starter", str(n)], capture_output=True,
                             text=True, cwd=ROOT)
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr.startswith(f"python -m lab: lesson {n}, {startpage.PLANNED[n]}, is planned, "
                                     "not written yet: the course has lesson"), bad.stderr
        assert "planned, not written yet" in startpage.text()
    bad = subprocess.run([sys.executable, "-m", "lab", "starter", str(beyond)], capture_output=True,
                         text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == (f"python -m lab: lesson {beyond} is not in the course's plan "
                          "(harness/syllabus.py)\n")
    # A planned lesson whose folder is not there yet, while some are: once every planned
    # lesson is written there is none left to ask for.
    missing = [n for n in planned if n not in have and n + 1 not in have]
    for n in missing[:1]:
        bad = subprocess.run([sys.executable, "-m", "lab", "starter", str(n)], capture_output=True,
                             text=True, cwd=ROOT)
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr.startswith(f"python -m lab: lesson {n}'s harness is not written yet: "
                                     "the course has lesson")
    last = have[-1]
    bad = subprocess.run([sys.executable, "-m", "lab", "starter", str(last), "--lab", "9"],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "no lab 9" in bad.stderr
