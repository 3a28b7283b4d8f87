"""The learner's harness.py at each point of lessons 11 and 12 is generated, exact and honest."""

import ast
import re
import subprocess
import sys

import pytest

import harness
from harness import syllabus
from lab import starters
from lab.starters import Stage

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]

# The order of definitions, markers and gap blocks in the seed's two starters (lesson 12's text).
SEED_LAB1 = ("SYSTEM user_message text_of tool_calls error_message [given] render str_arg int_arg tool_specs "
             "run_tool MAX_LINES MAX_BYTES truncate_head truncate_tail make_read_tool execute make_write_tool "
             "execute make_bash_tool execute run_agent record ask context_for_model INTERRUPTED "
             "repair_tool_history Harness __init__ messages is_running prompt steer follow_up subscribe "
             "unsubscribe _notify _drain _run JsonRenderer __init__ render finish FinalTextRenderer __init__ "
             "render finish SessionLog __init__ entries append_message rows replay persist_to listener [given] "
             "estimate_tokens [given] SUMMARY_SYSTEM [gap] summarize [end]")
SEED_LAB2 = ("SYSTEM user_message text_of tool_calls error_message render str_arg int_arg tool_specs run_tool "
             "MAX_LINES MAX_BYTES truncate_head truncate_tail make_read_tool execute make_write_tool execute "
             "make_bash_tool execute run_agent record ask context_for_model INTERRUPTED repair_tool_history "
             "[given: replace_messages, and the docstring's words on it] Harness __init__ messages is_running "
             "prompt steer follow_up subscribe unsubscribe _notify replace_messages _drain _run JsonRenderer "
             "__init__ render finish FinalTextRenderer __init__ render finish SessionLog __init__ entries "
             "append_message [given] append_compaction rows [gap] [end] replay persist_to listener "
             "estimate_tokens SUMMARY_SYSTEM summarize [given: the walk back. The snap forward is yours] "
             "find_cut [gap] [end] [gap] compact [end] [given] maybe_compact")


def outline(text):
    items = []
    for line in text.splitlines():
        s = line.strip()
        m = re.match(r"(?:def|class) (\w+)|^([A-Z_]+) =", s)
        if s.startswith("# given in lesson 12"):
            items.append("[given" + s[len("# given in lesson 12"):] + "]")
        elif s == "# --- your code ---":
            items.append("[gap]")
        elif s == "# --- end ---":
            items.append("[end]")
        elif m and not line.startswith("#"):
            items.append(m.group(1) or m.group(2))
    return " ".join(items)


def test_lab_starters_follow_the_lessons_order():
    assert outline(starters.text_at(Stage(12, 1))) == SEED_LAB1
    assert outline(starters.text_at(Stage(12, 2))) == SEED_LAB2


def test_every_definition_of_the_reference_is_in_the_syllabus_and_back():
    names = {u.name for _, pieces in starters._reference() for kind, u in pieces if kind == "unit"}
    assert names == set(syllabus.UNITS)
    for name in harness.__all__:
        assert name in syllabus.UNITS


def test_lesson_12_introduces_what_the_lesson_says():
    new = {n for n, steps in syllabus.lesson_units(12).items()}
    assert new == {"render", "Harness", "Harness.replace_messages", "SessionLog.append_compaction",
                   "SessionLog.rows", "estimate_tokens", "SUMMARY_SYSTEM", "summarize", "find_cut",
                   "compact", "maybe_compact"}
    gaps = {n for n, steps in syllabus.lesson_units(12).items() if steps[-1].kind != "given"}
    assert gaps == {"summarize", "find_cut", "SessionLog.rows", "compact"}


@pytest.mark.parametrize("stage", [Stage(11), Stage(12), Stage(12, 1), Stage(12, 2)], ids=str)
def test_each_generated_file_is_python_and_loads(stage, tmp_path):
    text = starters.text_at(stage)
    ast.parse(text)
    path = tmp_path / "harness.py"
    path.write_text(text)
    subprocess.run([sys.executable, str(path)], check=True, cwd=tmp_path)


def test_the_end_of_lesson_12_is_the_reference_without_markers():
    text = starters.text_at(Stage(12))
    assert "BEGIN SOLUTION" not in text and "--- your code ---" not in text and "# given in" not in text
    for name in ("summarize", "find_cut", "compact", "maybe_compact"):
        assert starters.definition(name) in text


def test_the_end_of_lesson_11_has_no_lesson_12():
    text = starters.text_at(Stage(11))
    for absent in ("def render(messages)", "estimate_tokens", "SUMMARY_SYSTEM", "def summarize", "find_cut",
                   "def compact", "append_compaction", "replace_messages"):
        assert absent not in text
    assert 'return [(entry["id"], entry["message"]) for entry in self.entries()' in text


def test_the_diff_from_11_to_12_is_what_lesson_12_adds():
    out = subprocess.run([sys.executable, "-m", "lab", "diff", "11", "12"], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    added = [l[1:] for l in out.splitlines() if l.startswith("+") and not l.startswith("+++")]
    removed = [l for l in out.splitlines() if l.startswith("-") and not l.startswith("---")]
    assert removed == []
    assert "# given in lesson 12" in added and "def render(messages):" in added
    assert "def summarize(model, messages):" in added
    assert out == starters.diff(Stage(11), Stage(12, 1))


def test_the_cli_says_what_it_cannot_do():
    bad = subprocess.run([sys.executable, "-m", "lab", "starter", "4"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == "python -m lab: lesson 4's harness is not written yet: the course has lessons 11 and 12"
    bad = subprocess.run([sys.executable, "-m", "lab", "starter", "12", "--lab", "3"], capture_output=True,
                         text=True, cwd=ROOT)
    assert bad.returncode == 2 and "no lab 3" in bad.stderr


def _check(path, *extra):
    return subprocess.run([sys.executable, str(ROOT / "lab" / "lab_check.py"), "--harness", str(path),
                           "--lesson", "12", *extra], capture_output=True, text=True, cwd=path.parent)


@pytest.mark.parametrize("lab", [1, 2])
def test_the_starter_fails_and_the_filled_starter_passes(lab, tmp_path):
    path = tmp_path / "harness.py"
    path.write_text(starters.text_at(Stage(12, lab)))
    result = _check(path, "--lab", str(lab))
    assert result.returncode == 1
    assert "not done yet" in result.stdout
    path.write_text(starters.text_at(Stage(12, lab), solved=True))
    result = _check(path, "--lab", str(lab))
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1].endswith(" passed, 0 failed")


def test_an_earlier_version_runs_as_written():
    from harness.earlier import lesson11
    log = harness.SessionLog(__import__("lab").Workspace(), "s.jsonl")
    log.append_message(harness.user_message("hi"))
    log.append_compaction("summary", "e1")
    assert lesson11.SessionLog.rows(log) == [("e1", harness.user_message("hi"))]


def test_lesson_11s_harness_docstring_is_lesson_12s_without_replace_messages():
    from harness.earlier import lesson11
    now = harness.Harness.__doc__
    assert now.startswith(lesson11.Harness.__doc__.rstrip())
    assert now[len(lesson11.Harness.__doc__.rstrip()):].lstrip().startswith(".replace_messages(messages)")


def test_the_graders_starter_holds_no_answer_of_the_lesson():
    text = starters.text_at(Stage(12, 2), every_gap=True)
    assert text.count("# --- your code ---") == 4
    for answer in ("### BEGIN SOLUTION", "document = user_message(", "users = [i for i in range(cut",
                   "rows[start:]", "log.append_compaction(summary, rows[cut][0])"):
        assert answer not in text
