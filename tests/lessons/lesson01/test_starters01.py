"""Lesson 1's end of the chain: before it the harness is an empty file (Stage 0), so its diff is
the whole starter, and the file it leaves holds only what lesson 1 has, imports included."""

import ast
import subprocess
import sys
from pathlib import Path

from lab.course import starters
from lab.course.starters import Stage

ROOT = Path(__file__).resolve().parents[3]


def test_before_lesson_one_the_harness_is_an_empty_file():
    assert starters.text_at(Stage(0)) == ""
    out = subprocess.run([sys.executable, "-m", "lab", "diff", "0", "1"], capture_output=True,
                         text=True, cwd=ROOT)
    assert out.returncode == 0 and out.stderr == ""
    lines = out.stdout.splitlines()
    assert lines[0] == "--- harness.py (before lesson 1: empty)"
    assert lines[1] == "+++ harness.py (lesson 1, lab 1)"
    body = lines[3:]
    assert body and all(line.startswith("+") for line in body)
    assert "".join(line[1:] + "\n" for line in body) == starters.text_at(Stage(1, 1))


def test_the_end_of_lesson_one_holds_only_lesson_one():
    text = starters.text_at(Stage(1))
    tree = ast.parse(text)
    names = [node.targets[0].id if isinstance(node, ast.Assign) else node.name for node in tree.body]
    assert names == ["SYSTEM", "user_message", "text_of", "run_agent"]
    assert "import" not in text  # nothing lesson 1 writes uses json or deque
    assert "def run_agent(model, system, messages, prompt):" in text


def test_an_import_arrives_with_the_first_definition_that_uses_it():
    assert "import json" in starters.text_at(Stage(12))
    assert "from collections import deque" in starters.text_at(Stage(12))
    for lesson in (1, 2, 3):
        try:
            text = starters.text_at(Stage(lesson))
        except starters.StarterError:
            continue  # a lesson not written yet
        for line in text.splitlines():
            if line.startswith(("import ", "from ")):
                bound = starters._binds(line)
                rest = text.replace(line, "")
                assert any(name in rest for name in bound), f"lesson {lesson} imports {line} and never uses it"
