"""`python -m lab starter N --from FILE`: the learner's own earlier work is carried into lesson N's
starter where it passes the tests of the lesson that asked for it, and the report says, for every
part, whose it is and why."""

import subprocess
import sys
from pathlib import Path

from lab import carry, starters
from lab.starters import Stage

ROOT = Path(__file__).resolve().parents[1]


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "lab", *args], capture_output=True, text=True, cwd=cwd)


def test_a_passing_lab_1_is_carried_into_lab_2(tmp_path):
    mine = tmp_path / "mine.py"
    solved = starters.text_at(Stage(12, 1), solved=True)
    marker = "    # my own summarize, kept as I wrote it\n"
    mine.write_text(solved.replace("def summarize(model, messages):\n", "def summarize(model, messages):\n" + marker))
    text, report = carry.text_from(Stage(12, 2), mine)
    assert marker in text
    assert [c for c in report if c.name == "summarize"] == [carry.Choice("summarize", "yours", "it passes lesson 12's lab 1")]
    assert text.replace(marker, "") == starters.text_at(Stage(12, 2))


def test_a_failing_definition_is_replaced_by_the_reference_and_the_report_says_why(tmp_path):
    mine = tmp_path / "mine.py"
    solved = starters.text_at(Stage(12, 1), solved=True)
    wrong = solved.replace("reply = model.complete(SUMMARY_SYSTEM, [document], [])",
                           "reply = model.complete(SYSTEM, [document], [])")
    assert wrong != solved
    mine.write_text(wrong)
    text, report = carry.text_from(Stage(12, 2), mine)
    assert "model.complete(SYSTEM, [document], [])" not in text
    (choice,) = [c for c in report if c.name == "summarize"]
    assert choice.source == "reference" and choice.why.startswith("it fails lesson 12's lab 1: ")


def test_the_command_reports_on_stderr_and_writes_the_file_on_stdout(tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text(starters.text_at(Stage(12, 1), solved=True))
    done = run("starter", "12", "--lab", "2", "--from", str(mine))
    assert done.returncode == 0
    compile(done.stdout, "harness.py", "exec")
    assert "summarize: yours (it passes lesson 12's lab 1)" in done.stderr.splitlines()


def test_bad_files_get_a_sentence(tmp_path):
    done = run("starter", "12", "--from", str(tmp_path / "nope.py"))
    assert done.returncode == 2 and "there is no file" in done.stderr and "--from" in done.stderr
    broken = tmp_path / "broken.py"
    broken.write_text("def summarize(:\n")
    done = run("starter", "12", "--from", str(broken))
    assert done.returncode == 2 and "does not parse (line 1" in done.stderr and done.stdout == ""
