"""benchmarks/mutants.py, the audit of verdicts by mutants: a mutant changes its answer in exactly
one place, and the audit says so, and exits 1, when the notebook and the grader disagree."""

import ast
import importlib.util
import io
from pathlib import Path

from lab.checks import engine

ROOT = Path(__file__).resolve().parents[1]


def _audit():
    spec = importlib.util.spec_from_file_location("mutants_audit", ROOT / "benchmarks" / "mutants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ANSWER = '''
def f(rows, budget):
    """A docstring, never mutated."""
    kept = 0
    if kept < budget and rows:
        kept = kept + 1
    return "done"
'''


def test_every_mutant_changes_one_place():
    audit = _audit()
    definition = ast.parse(ANSWER).body[0]
    changes = [change for _, change in audit.sites(definition)]
    assert set(changes) == {"and/or", "empty", "leave out", "None", "one more", "sign", "turn"}
    original = ast.unparse(definition)
    for index in range(len(changes)):
        changed, said = audit.mutant(definition, index)
        text = ast.unparse(changed)
        assert text != original and "A docstring, never mutated." in text, said
        moved = [a for a, b in zip(original.splitlines(), text.splitlines()) if a != b]
        assert len(moved) == 1 or said.startswith("leave out"), (said, moved)
    assert ast.unparse(definition) == original   # the answer itself is left as it was


def test_two_verdicts_are_reported_and_fail_the_audit(monkeypatch):
    audit = _audit()
    monkeypatch.setattr(engine, "TEST_SECONDS", engine.TEST_SECONDS)   # main() sets it
    out = io.StringIO()
    differ, _, tried = audit.audit(1, 1, 2.0, out)
    assert tried and differ == [], out.getvalue()

    def a_grader_that_passes_everything(lesson, lab, cells, seconds):
        return {f"lab{lab}-tests": f"Lab {lab} of lesson {lesson}, tests: 9 of 9 pass."}, True
    monkeypatch.setattr(audit, "graded", a_grader_that_passes_everything)
    differ, _, _ = audit.audit(1, 1, 2.0, out)
    assert differ and "DIFFER  lesson 01" in out.getvalue()
    assert audit.main(["1", "--per-gap", "1"]) == 1


def test_the_command_line_is_judged_too_and_a_disagreement_is_reported(monkeypatch):
    audit = _audit()
    monkeypatch.setattr(engine, "TEST_SECONDS", engine.TEST_SECONDS)
    out = io.StringIO()
    differ, _, tried = audit.audit(1, 1, 2.0, out, command_line=True)
    assert tried and differ == [], out.getvalue()
    real = audit.on_the_command_line

    def a_command_line_that_turns_every_verdict(lesson, lab, text, seconds):
        return {title: "✓" if mark == "✗" else "✗" for title, mark in real(lesson, lab, text, seconds).items()}
    monkeypatch.setattr(audit, "on_the_command_line", a_command_line_that_turns_every_verdict)
    differ, _, _ = audit.audit(1, 1, 2.0, out, command_line=True)
    assert differ and "(the notebook and lab_check)" in out.getvalue()


def test_only_the_learners_lines_are_mutated_and_all_of_them():
    audit = _audit()
    definition = ast.parse(ANSWER).body[0]
    written = range(4, 8)   # the body below the docstring, as between a cell's solution markers
    found = audit.sites(definition, written)
    lines = {(getattr(where[0], where[1])[where[2]] if isinstance(where, tuple) else where).lineno
             for where, _ in found}
    assert lines <= set(written) and {4, 5, 7} <= lines, lines
    assert any(change == "leave out" for _, change in found), "the statements of the body were never left out"
