"""Every sample and every attack submission gets exactly its score, from one parallel autograde
into one gradebook, and no attack reaches anything outside its own sandbox."""

import json

import nbformat
import pytest

from lab import lessons
from lab.grader import fixtures, release_checks, verdict

CASES = [(lesson, f) for lesson in lessons.written() for f in fixtures.fixtures_of(lesson)]


@pytest.mark.parametrize("lesson,fixture", CASES, ids=[f"lesson{n:02d}-{f.name}" for n, f in CASES])
def test_each_submission_gets_exactly_its_score(graded, lesson, fixture):
    part = graded.lessons[lesson]
    master = nbformat.read(part.master, as_version=4)
    checks = release_checks.graded_cells(master)
    assert set(fixture.earns) == set(checks), f"the fixture {fixture.name} does not say what every check cell earns"
    got = part.scores[fixture.name]
    assert got["total"] == fixture.score, (
        f"lesson {lesson}: {fixture.name} ({fixture.about}) scored {got['total']}, not {fixture.score}: {got['cells']}")
    want = fixture.earns
    assert {c: got["cells"][c] for c in checks} == want


@pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
def test_correct_earns_every_point_and_the_release_none(graded, lesson):
    part = graded.lessons[lesson]
    master = nbformat.read(part.master, as_version=4)
    total = sum(fixtures.points(master, c) for c in release_checks.graded_cells(master))
    assert part.scores["correct"]["total"] == total and part.scores["unchanged"]["total"] == 0


def test_every_fixture_is_in_the_one_gradebook_and_the_export(graded):
    """nbgrader's export has a row for every student and every assignment; one that a student never
    handed in scores 0."""
    import csv
    everyone = {(graded.lessons[n].assignment, f.name): float(f.score) for n, f in CASES}
    for lesson, part in graded.lessons.items():
        assert set(part.scores) == {f.name for f in fixtures.fixtures_of(lesson)}
    with open(graded.root / "grades.csv", newline="") as f:
        exported = {(row["assignment"], row["student_id"]): float(row["score"]) for row in csv.DictReader(f)}
    assert {key: exported.get(key) for key in everyone} == everyone
    assert all(score == 0 for key, score in exported.items() if key not in everyone)
    students = {name for _, name in everyone}
    assert graded.rows == len(students) * len(graded.lessons) == len(exported)


def test_a_broken_file_is_a_clear_error_and_nobody_else_is_held_up(graded):
    failed = {name: s.error for name, s in graded.submissions.items() if s.status == "error"}
    assert list(failed) == ["not-a-notebook"]
    assert failed["not-a-notebook"].startswith(
        f"{graded.assignment}.ipynb is not valid JSON (line "), failed["not-a-notebook"]
    assert failed["not-a-notebook"].endswith("so it is not a notebook; it was not graded")
    assert all(s.status == "graded" for n, s in graded.submissions.items() if n != "not-a-notebook")


def test_the_progress_display_names_every_submission(graded):
    lines = graded.progress.splitlines()
    assert len(lines) == len(CASES)
    assert lines[-1].startswith(f"[{len(CASES)}/{len(CASES)}] ")
    total = fixtures.by_name(graded.lesson)["correct"].score
    assert any(line.endswith(f"correct/{graded.assignment}: {total:g}/{total:g}") for line in lines)


def test_no_attack_changed_the_course_code_or_the_lessons(graded):
    assert graded.protected_after == graded.protected_before


def test_no_attack_ran_a_command_outside_its_sandbox(graded):
    assert not (graded.root / "PWNED").exists()


def test_the_gradebook_was_not_written_by_anyone_but_the_grader(graded):
    gradebook = graded.root / "gradebook.db"
    assert gradebook.exists() and gradebook.read_bytes().startswith(b"SQLite format 3\x00")
    assert b"run_one = lambda" not in gradebook.read_bytes()


def _autograded(graded, student):
    return nbformat.read(graded.root / "autograded" / student / graded.assignment / f"{graded.assignment}.ipynb",
                         as_version=4)


def _outputs(nb, grade_id):
    cell = next(c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id)
    return cell.outputs


def test_a_check_cell_shows_each_test_and_nothing_the_learner_printed(graded):
    nb = _autograded(graded, "prints-passed")
    text = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    assert "3 of 3 pass" not in text and "Success!" not in text
    lines = "".join(o.get("text", "") for o in _outputs(nb, "lab1-tests"))
    assert lines.startswith("Lab 1 is not done yet: summarize still raises NotImplementedError, so there "
                            "is nothing to test.")
    nb = _autograded(graded, "lab2-cut-backwards")
    lab2 = "".join(o.get("text", "") for o in _outputs(nb, "lab2-tests"))
    assert lab2.startswith("Lab 2 of lesson 12, tests: 6 of 7 pass.")
    assert lab2.count("  ✓ ") == 6 and lab2.count("  ✗ ") == 1
    lines = lab2.splitlines()
    after = lines[next(i for i, line in enumerate(lines) if line.startswith("  ✗ ")) + 1:]
    assert next(line for line in after if not line.startswith("        ")).startswith("      why: ")
    # 6 of its 7 tests passed: the cell's result is its partial score, which nbgrader reads
    outputs = _outputs(nb, "lab2-tests")
    assert [o.output_type for o in outputs] == ["stream", "execute_result"]
    assert outputs[1]["data"]["text/plain"] == "6"
    assert [o.output_type for o in _outputs(nb, "lab1-tests")] == ["stream"]


def test_a_warning_reaches_no_output_and_costs_nothing(graded):
    nb = _autograded(graded, "warns")
    assert not any(o.get("name") == "stderr" for c in nb.cells for o in c.get("outputs", []))
    assert graded.scores["warns"]["total"] == fixtures.by_name(graded.lesson)["correct"].score


def test_a_cell_that_does_not_parse_says_so_on_that_cell(graded):
    nb = _autograded(graded, "does-not-parse")
    source = next(c.source for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "lab2-compact")
    line = source.splitlines().index("def half_written(:") + 1
    errors = _outputs(nb, "lab2-compact")
    assert [(e.ename, e.evalue.split(":")[0]) for e in errors] == [("SyntaxError", f"line {line}")]
    lab2 = "".join(o.get("text", "") for o in _outputs(nb, "lab2-tests"))
    assert "not yet: compact is not defined: run the cell that defines it first." in lab2


def test_a_loop_is_stopped_at_the_tests_limit_and_says_so(graded):
    nb = _autograded(graded, "loops-forever")
    lab2 = "".join(o.get("text", "") for o in _outputs(nb, "lab2-tests"))
    from .conftest import TIMEOUT
    assert (f"why: your code did not finish within {TIMEOUT:g} s, so the check stopped it: "
            "an endless loop?") in " ".join(lab2.split())
    assert "were not run: after an endless loop the time limit would only stop them too." in lab2


def test_an_ended_process_costs_only_the_cell_it_ended(graded):
    nb = _autograded(graded, "os-exit-at-top-level")
    (error,) = _outputs(nb, "lab2-rows")
    assert error.ename == "ProcessEnded" and "ended the Python process" in error.evalue
    from lab import checks
    assert graded.scores["os-exit-at-top-level"]["cells"]["lab1-tests"] == len(checks.tests_for(12, 1, hidden=False))


def test_each_verdict_was_computed_once_and_kept(graded):
    """Submissions with the same learner code share one verdict; a broken file has none."""
    import hashlib
    verdicts = list((graded.root / ".autograde" / "verdicts").glob("*.json"))
    distinct = set()
    for part in graded.lessons.values():
        for name in part.written:
            if part.submissions[name].status != "graded":
                continue
            path = graded.root / "autograded" / name / part.assignment / f"{part.assignment}.ipynb"
            nb = nbformat.read(path, as_version=4)
            code = verdict.learner_cells(nb)   # the solution cells and the learner's own
            distinct.add((part.assignment, hashlib.sha256(json.dumps(code).encode()).hexdigest()))
    assert len(verdicts) == len(distinct)
    sample = json.loads(verdicts[0].read_text())
    assert set(sample) == {"cells", "errors"}


@pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
def test_the_looping_sample_parses_and_loops_where_its_gap_runs(lesson):
    # Its score is 0 either way; what must hold is why: a gap that never returns, not a syntax
    # error (a loop put at the wrong indentation under a method or inside a branch).
    import copy
    master = fixtures.master_of(lesson)
    fixture = fixtures.by_name(lesson)["loops-forever"]
    nb = fixture.make(copy.deepcopy(master), master, None)
    changed = [c for c, m in zip(nb.cells, master.cells) if c.source != m.source and "while True" in c.source]
    assert len(changed) == 1, f"lesson {lesson}: the looping sample changed {len(changed)} cells, not 1"
    source = changed[0].source
    compile(source, f"<lesson {lesson} loops-forever>", "exec")
    loop = next(line for line in source.splitlines() if "while True" in line)
    marker = source.splitlines()[source.splitlines().index(loop) - 1]
    assert marker.strip() == "### BEGIN SOLUTION" and \
        len(loop) - len(loop.lstrip()) == len(marker) - len(marker.lstrip()), \
        f"lesson {lesson}: the loop is not at the indentation of the solution it opens:\n{source}"
