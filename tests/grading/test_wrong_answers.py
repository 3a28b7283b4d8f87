"""The grader's world behaves as the notebook's: every wrong answer a lesson keeps
(lab/lessons/lessonNN/wrong.py: WRONG, HIDDEN_WRONG, HIDDEN_CAUGHT), put into the master's
correct notebook in place of its gap, fails under the grader exactly the check cells it fails
in the notebook, and fails them on a test, never on an import or a name the sandbox lacks.

Each wrong answer goes in as a learner would write it: the text of its wrong.py (the helpers it
uses, its imports of harness and lab) in a cell of the learner's own at the top, and its gap's
cell saying `name = variant`."""

import functools
import inspect
import re

import pytest

from lab import checks, lessons
from lab.course import manifest
from lab.grader import fixtures, verdict

KINDS = ("WRONG", "HIDDEN_WRONG", "HIDDEN_CAUGHT")


def _cases():
    for lesson in lessons.written():
        try:
            module = lessons.load(lesson, "wrong")
        except ModuleNotFoundError:
            continue
        seen = set()
        for kind in KINDS:
            for lab, by_name in getattr(module, kind, {}).items():
                for name, variants in by_name.items():
                    for variant in variants:
                        if (name, variant.__name__) in seen:
                            continue
                        seen.add((name, variant.__name__))
                        yield pytest.param(lesson, lab, name, variant,
                                           id=f"lesson{lesson:02d}-{variant.__name__}")


def check_cells(lesson, lab):
    """The two check cells of lab `lab` as the notebook holds them (their source is the
    instructor's, run in the grader)."""
    return [{"grade_id": f"lab{lab}-tests", "points": 1,
             "source": f"import lab\nlab.check({lesson}, lab={lab})\n"},
            {"grade_id": f"lab{lab}-hidden", "points": 1,
             "source": f"import lab\nlab.require_pass({lesson}, lab={lab})\n"
                       f"lab.check({lesson}, lab={lab}, hidden=True)\n"}]


def in_the_notebook(lesson, lab, name, variant):
    """{grade id: passed} of the lab's check cells, run as the notebook runs them."""
    found = {n: manifest.reference(n, lesson) for n in manifest.names(lesson)}
    found[name] = variant
    ns = manifest.Namespace(found)
    visible = all(r.passed for r in checks.run(lesson, lab, ns, hidden=False))
    hidden = visible and all(r.passed for r in checks.run(lesson, lab, ns, hidden=True))
    return {f"lab{lab}-tests": visible, f"lab{lab}-hidden": hidden}


@functools.cache
def _master(lesson):
    """({full name: grade id} of the gaps, [(grade id, source)] of the learner's cells) of the
    lesson's master, read once: every wrong answer of the lesson starts from them."""
    master = fixtures.master_of(lesson)
    return fixtures.solution_cells(lesson, master), tuple(verdict.learner_cells(master))


def submission(lesson, name, variant):
    """The learner's cells: the master's answers, the gap of `name` holding the wrong answer."""
    gaps, learner_cells = _master(lesson)
    gap = gaps[name]
    text = _own_answers(lesson, inspect.getsource(inspect.getmodule(variant)))
    cells = [(g, f"{manifest.bare(name)} = {variant.__name__}\n" if g == gap else source)
             for g, source in learner_cells]
    return gap, [("cell-wrong", text)] + cells


IMPORT = re.compile(r"^([ \t]*)from (harness(?:\.\w+)*) import ([^(\n]+)$", re.M)


def _own_answers(lesson, text):
    """wrong.py with its imports of the lesson's gaps from harness taken out: in the notebook they
    give the reference, in the grader the starter's stub, and in a learner's notebook the gap is
    the learner's own cell, which the names then reach."""
    gaps = {manifest.bare(n) for n in manifest.names(lesson)}

    def keep(match):
        indent, module, names = match.groups()
        kept = [n.strip() for n in names.split(",") if n.strip() not in gaps]
        return f"{indent}from {module} import {', '.join(kept)}" if kept else f"{indent}pass"

    return IMPORT.sub(keep, text)


@pytest.mark.parametrize("lesson,lab,name,variant", list(_cases()))
def test_the_grader_fails_what_the_notebook_fails(lesson, lab, name, variant):
    want = in_the_notebook(lesson, lab, name, variant)
    assert not all(want.values()), f"the notebook's checks pass {variant.__name__}: not a wrong answer"
    gap, cells = submission(lesson, name, variant)
    result = verdict.grade(lesson, cells, check_cells(lesson, lab), timeout=20)
    assert gap not in result["errors"], result["errors"][gap]
    got = {g: v["passed"] for g, v in result["cells"].items()}
    assert got == want, {g: v["reason"] for g, v in result["cells"].items()}
    for v in result["cells"].values():
        if not v["passed"] and "visible tests have not passed" not in v["reason"]:
            assert " is not done" not in v["reason"] and "is not defined" not in v["reason"], v["reason"]


def test_the_same_cells_with_the_reference_pass_in_the_grader():
    """The way these tests build a submission earns full marks when the gap holds the master's
    answer, so a failure above is the wrong answer's doing."""
    lesson = 4
    cells = verdict.learner_cells(fixtures.master_of(lesson))
    result = verdict.grade(lesson, cells, check_cells(lesson, 1), timeout=20)
    assert all(v["passed"] for v in result["cells"].values()), result["cells"]


def test_a_run_tool_that_leaves_a_future_is_told_so_graded_as_in_the_notebook():
    """Graded, the learner's run_agent calls their own run_tool, as in their notebook: a future
    left as a result's content reached the model's copy of the request before the test looked at
    the result, and the sentence was "run_tool raised TypeError: cannot pickle '_asyncio.Future'
    object". The test now says what is wrong with the result first."""
    wrong = lessons.load(15, "wrong").run_tool_awaits_only_coroutines
    gap, cells = submission(15, "run_tool", wrong)
    result = verdict.grade(15, cells, check_cells(15, 1), timeout=20)
    hidden = result["cells"]["lab1-hidden"]
    assert not hidden["passed"]
    assert hidden["reason"] == ("run_tool_takes_any_awaitable: run_tool gave <Future pending> "
                                "for a tool that returned a future; await whatever is awaitable."), hidden["reason"]
    found = {n: manifest.reference(n, 15) for n in manifest.names(15)}
    found["run_tool"] = wrong
    said = [r.message for r in checks.run(15, 1, manifest.Namespace(found), hidden=True) if not r.passed]
    assert said == ["run_tool gave <Future pending> for a tool that returned a future; await whatever "
                    "is awaitable"], said
