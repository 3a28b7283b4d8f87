"""lab/lab_check.py: one line per test, exit 0/1/2, and a sentence for every bad harness.py."""

import subprocess
import sys
from pathlib import Path

from lab.course import starters
from lab.course.starters import Stage

ROOT = Path(__file__).resolve().parents[1]
CHECK = ROOT / "lab" / "lab_check.py"


def run(*args, cwd=None):
    return subprocess.run([sys.executable, str(CHECK), *map(str, args)], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=120)


def write(tmp_path, text, name="harness.py"):
    path = tmp_path / name
    path.write_text(text)
    return path


def solved(tmp_path):
    return write(tmp_path, starters.text_at(Stage(12)))


def test_the_reference_passes_with_one_line_per_test(tmp_path):
    result = run("--harness", solved(tmp_path), "--lesson", "12")
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and result.stderr == ""
    assert all(l.startswith("PASS  lab ") for l in lines[:-1])
    assert lines[-1] == f"{len(lines) - 1} passed, 0 failed"


def test_bad_usage_exits_2(tmp_path):
    assert run("--lesson", "12").returncode == 2
    missing = run("--harness", tmp_path / "nope.py", "--lesson", "12")
    assert missing.returncode == 2
    assert "there is no file" in missing.stderr and "--harness" in missing.stderr
    other = run("--harness", solved(tmp_path), "--lesson", "99")
    assert other.returncode == 2 and "there is no lesson 99" in other.stderr


def test_a_file_that_does_not_parse(tmp_path):
    result = run("--harness", write(tmp_path, "def summarize(:\n"), "--lesson", "12")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == "FAIL  harness.py does not parse: line 1: invalid syntax"


def test_a_file_that_raises_on_import(tmp_path):
    result = run("--harness", write(tmp_path, "import json\nraise KeyError('x')\n"), "--lesson", "12")
    assert result.returncode == 1
    assert "importing harness.py raised KeyError" in result.stdout and "line 2" in result.stdout


def test_a_file_that_exits_on_import(tmp_path):
    result = run("--harness", write(tmp_path, "import sys\nsys.exit(0)\n"), "--lesson", "12")
    assert result.returncode == 1 and "raised SystemExit" in result.stdout


def test_a_missing_name_is_named(tmp_path):
    text = starters.text_at(Stage(12)).replace("def compact(", "def compact_later(")
    result = run("--harness", write(tmp_path, text), "--lesson", "12", "--lab", "2")
    assert result.returncode == 1 and "harness.py defines no compact" in result.stdout


def test_a_loop_for_ever_is_stopped_once_and_the_rest_are_not_run(tmp_path):
    """The loop is in summarize, which every later test runs too: one time limit, not one a test."""
    text = starters.text_at(Stage(12)).replace(
        '    document = user_message(', '    while not messages:\n        pass\n    document = user_message(', 1)
    result = run("--harness", write(tmp_path, text), "--lesson", "12", "--timeout", "1")
    assert result.returncode == 1
    assert "your code did not finish within 1 s, so the check stopped it: an endless loop?" in result.stdout
    assert result.stdout.count("did not finish") == 1
    from lab import checks
    tests = checks.tests_for(12)
    looped = next(i for i, t in enumerate(tests) if t.title in result.stdout.split("did not finish")[0].splitlines()[-1])
    rest = len(tests) - looped - 1
    assert rest > 0
    assert (f"The other {rest} tests were not run: after an endless loop the time limit would only stop "
            "them too. Fix the loop and check again.") in result.stdout
    assert result.stdout.splitlines()[-1] == f"{looped} passed, 1 failed, {rest} not run"


def test_a_loop_at_import_is_stopped(tmp_path):
    result = run("--harness", write(tmp_path, "while True:\n    pass\n"), "--lesson", "12", "--timeout", "1")
    assert result.returncode == 1
    assert "FAIL  importing harness.py did not finish within 1 s" in result.stdout


def test_prints_from_the_learner_do_not_garble_the_report(tmp_path):
    text = "print('hello from the learner')\n" + starters.text_at(Stage(12))
    result = run("--harness", write(tmp_path, text), "--lesson", "12")
    assert result.returncode == 0 and "hello" not in result.stdout


def test_extra_tests_run_after_the_lessons(tmp_path):
    extra = write(tmp_path, "def test_render_is_there(ns):\n    assert ns.summarize\n"
                            "def test_wrong(ns):\n    from lab.checks import Failed\n"
                            "    raise Failed('always')\n", name="tests.py")
    result = run("--harness", solved(tmp_path), "--lesson", "12", extra)
    assert result.returncode == 1
    assert "PASS  extra  tests.py: test_render_is_there" in result.stdout
    assert "FAIL  extra  tests.py: test_wrong -- always." in result.stdout


def test_visible_only_runs_the_ones_the_lesson_lists(tmp_path):
    from lab import checks
    visible = len(checks.tests_for(12, hidden=False))
    result = run("--harness", solved(tmp_path), "--lesson", "12", "--visible-only")
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == f"{visible} passed, 0 failed"


def test_a_lab_not_begun_is_one_line_not_a_list_of_failures(tmp_path):
    """Lab 1's starter checked against both labs: lab 2's names are not in it yet, and lab 1's gap
    still raises; lab 2's starter: its gaps all raise. Each such lab is one line, "not started"."""
    from lab import checks
    from lab.course import manifest
    counts = {lab: len(checks.tests_for(12, lab)) for lab in (1, 2)}
    raising = {lab: " and ".join(", ".join(manifest.names(12, lab)).rsplit(", ", 1))
               for lab in (1, 2)}
    first = write(tmp_path, starters.text_at(Stage(12, 1)), "first.py")
    result = run("--harness", first, "--lesson", "12")
    assert result.returncode == 1 and "FAIL" not in result.stdout
    assert result.stdout.splitlines() == [
        f"TODO  lab 1 not started: {raising[1]} still raise{'s' if ' ' not in raising[1] else ''} "
        f"NotImplementedError ({counts[1]} tests waiting)",
        f"TODO  lab 2 not started: first.py has no find_cut or compact yet ({counts[2]} tests waiting)",
        "0 passed, 0 failed, 2 labs not started"]
    second = write(tmp_path, starters.text_at(Stage(12, 2)), "second.py")
    result = run("--harness", second, "--lesson", "12", "--lab", "2")
    assert result.returncode == 1 and result.stdout.splitlines()[-2:] == [
        f"TODO  lab 2 not started: {raising[2]} still raise{'s' if ' ' not in raising[2] else ''} "
        f"NotImplementedError ({counts[2]} tests waiting)",
        "0 passed, 0 failed, 1 lab not started"]


def test_a_gap_handed_back_to_the_courses_harness_fails_each_of_its_tests(tmp_path):
    """The command line finds the course's `harness` importable, as the notebook does; a
    summarize that is the course's (assigned, called, or kept under a name of its own) would pass here and score nothing graded."""
    text = starters.text_at(Stage(12))
    start = text.index("def summarize(model, messages):")
    end = text.index("\ndef ", start + 1)
    forms = {"assigned": ("import harness as course\nsummarize = course.summarize\n",
                          "summarize is the course's own harness.summarize"),
             "called": ("def summarize(model, messages):\n    import harness\n"
                        "    return harness.summarize(model, messages)\n",
                        "your summarize calls harness.summarize, the course's own answer"),
             "kept": ("from harness import summarize as course_summarize\n\n"
                      "def summarize(model, messages):\n"
                      "    return course_summarize(model, messages)\n",
                      "your summarize calls harness.summarize, the course's own answer")}
    for form, (gap, says) in forms.items():
        result = run("--harness", write(tmp_path, text[:start] + gap + text[end:], f"{form}.py"),
                     "--lesson", "12", "--lab", "1")
        lab1 = [line for line in result.stdout.splitlines() if line.startswith(("PASS", "FAIL"))]
        assert result.returncode == 1 and lab1 and all(line.startswith("FAIL  lab 1") for line in lab1), \
            f"lab_check passed a summarize {form} from the course's harness:\n{result.stdout}"
        assert all(says in line for line in lab1), result.stdout
