"""Lesson 12's starters against the seed: the order of definitions, markers and gap blocks that the
seed's two starters print, and what lesson 12 adds to lesson 11's harness. The generic checks every
lesson passes are in tests/lessons/test_starters.py."""

import re
import subprocess
import sys


import harness
from harness import syllabus
from lab.course import starters
from lab.course.starters import Stage

ROOT = __import__("pathlib").Path(__file__).resolve().parents[3]

# The order of definitions, markers and gap blocks in the seed's two starters (lesson 12's text),
# with two changes the course made on purpose: each Harness method carries its own docstring, so
# lesson 12's marker stands on replace_messages instead of on the class, and the summary prefix is
# one named constant, SUMMARY_PREFIX, given in lab 2.
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
             "Harness __init__ messages is_running "
             "prompt steer follow_up subscribe unsubscribe _notify [given] replace_messages _drain _run JsonRenderer "
             "__init__ render finish FinalTextRenderer __init__ render finish [given] SUMMARY_PREFIX SessionLog __init__ entries "
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


def test_lesson_12_introduces_what_the_lesson_says():
    new = {n for n, steps in syllabus.lesson_units(12).items()}
    assert new == {"render", "SUMMARY_PREFIX", "Harness.replace_messages", "SessionLog.append_compaction",
                   "SessionLog.rows", "estimate_tokens", "SUMMARY_SYSTEM", "summarize", "find_cut",
                   "compact", "maybe_compact"}
    gaps = {n for n, steps in syllabus.lesson_units(12).items() if steps[-1].kind != "given"}
    assert gaps == {"summarize", "find_cut", "SessionLog.rows", "compact"}


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


def test_an_earlier_version_runs_as_written():
    from harness.earlier import lesson11
    log = harness.SessionLog(__import__("lab").Workspace(), "s.jsonl")
    log.append_message(harness.user_message("hi"))
    log.append_compaction("summary", "e1")
    assert lesson11.SessionLog.rows(log) == [("e1", harness.user_message("hi"))]

