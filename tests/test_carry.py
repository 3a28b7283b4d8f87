"""`python -m lab starter N --from FILE`: the learner's own earlier work is carried into lesson N's
starter where it passes the tests of the lesson that asked for it, and the report says, for every
part, whose it is and why."""

import subprocess
import sys
from pathlib import Path

from lab.course import carry, starters
from lab.course.starters import Stage

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


# ---------------------------------------------------------------------------------------------
# A learner's own work, carried from lesson 1 to the last lesson, one lab at a time.

import ast  # noqa: E402

from harness import syllabus  # noqa: E402
from lab import lessons  # noqa: E402
from lab.course import manifest

WORDS = 'SYSTEM = "Answer in one short paragraph, and say which file you read."'
HELPER = "def my_banner(text):\n    \"\"\"A helper of the learner's own.\"\"\"\n    return f\"== {text} ==\""


def mark(name, lesson):
    return f"# {name}: mine, written in lesson {lesson}"


def own_variant(text, name, lesson):
    """The reference's `text` of `name` with a comment that makes it recognisably the learner's,
    as the first line of its body."""
    lines = text.splitlines()
    offset = len(lines[0]) - len(lines[0].lstrip())
    node = ast.parse("\n".join(line[offset:] for line in lines)).body[0]
    first = node.body[0].lineno - 1
    indent = lines[first][:len(lines[first]) - len(lines[first].lstrip())]
    return "\n".join(lines[:first] + [indent + mark(name, lesson)] + lines[first:])


def solve(stage, starter_text):
    """The learner's file once they have written `stage`'s gaps their own way into `starter_text`."""
    kept = carry.read_text(starter_text)
    solved = carry.read_text(starters.text_at(stage, solved=True))
    own = dict(kept.units)
    for name in manifest.names(stage.lesson, stage.lab):
        own[name] = own_variant(solved.units[name], name, stage.lesson)
    own["SYSTEM"] = WORDS
    return carry._with_extras(starters.text_at(stage, solved=True, own=own), kept)


def stages():
    for lesson in lessons.written():
        for lab in manifest.labs(lesson):
            yield Stage(lesson, lab)


def test_a_learners_own_work_is_carried_from_lesson_1_to_the_last_lesson(tmp_path):
    mine = tmp_path / "mine.py"
    written = {}     # name -> the lesson of the version the learner wrote last
    previous = None
    for stage in stages():
        if previous is None:
            starter = starters.text_at(stage) + "\n\n" + HELPER + "\n"
        else:
            starter, report = carry.text_from(stage, mine)
            said = {c.name: c for c in report}
            reopened = set(carry.reopened(stage))
            superseded = carry.superseded(stage)
            for name, lesson in written.items():
                if name in superseded:
                    assert said[name].source == "reference" and "hands over a new version" in said[name].why
                    assert mark(name, lesson) not in starter
                    continue
                if name in reopened:
                    continue
                assert said[name].source == "yours", (stage, said[name])
                assert mark(name, lesson) in starter, f"{stage}: the starter lost {name} of lesson {lesson}"
            assert said["SYSTEM"].source == "yours" and WORDS in starter, stage
            assert said["my_banner"].source == "yours" and HELPER in starter, stage
            for name in reopened & set(written):
                assert said[name].source == "reference" and "asks you to write it again" in said[name].why
        text = solve(stage, starter)
        compile(text, "mine.py", "exec")
        mine.write_text(text)
        for name in manifest.names(stage.lesson, stage.lab):
            written[name] = stage.lesson
        previous = stage
    assert len(written) == len(manifest.names_every_lesson())


def test_a_correct_lesson_1_definition_is_judged_with_lesson_1s_harness(tmp_path):
    # The file's run_agent is lesson 3's; lesson 1's user_message is still tried with lesson 1's.
    mine = tmp_path / "mine.py"
    text = starters.text_at(Stage(3, 1), solved=True)
    mine.write_text(text.replace("def user_message(text):\n", "def user_message(text):\n    # mine\n", 1))
    assert "    # mine\n" in mine.read_text()
    starter, report = carry.text_from(Stage(4, 1), mine)
    said = {c.name: c for c in report}
    assert said["user_message"] == carry.Choice("user_message", "yours", "it passes lesson 1's lab 1")
    assert said["run_agent"] == carry.Choice("run_agent", "yours", "it passes lesson 3's lab 1")
    assert said["run_tool"].source == "reference" and "write it again" in said["run_tool"].why
    assert "    # mine\n" in starter


def test_one_wrong_name_of_a_lab_does_not_cost_the_others(tmp_path):
    # Lesson 2's lab asks for run_tool and run_agent; lesson 3 rewrites run_agent, so at lesson 3
    # only run_tool is carried from lesson 2: break it and the report names its failing test.
    mine = tmp_path / "mine.py"
    text = starters.text_at(Stage(2, 1), solved=True)
    broken = own_variant(starters.definition("run_tool", lesson=2), "run_tool", 2)
    body = broken.splitlines()
    broken = "\n".join(body[:2] + ["    return None"] + body[2:])
    mine.write_text(text.replace(starters.definition("run_tool", lesson=2).strip(), broken.strip()))
    starter, report = carry.text_from(Stage(3, 1), mine)
    said = {c.name: c for c in report}
    assert said["run_tool"].source == "reference" and said["run_tool"].why.startswith("it fails lesson 2's lab 1: ")
    assert said["user_message"].source == "yours"
    assert "return None" not in starter


def test_the_learners_words_are_kept_and_a_system_that_is_not_words_is_not(tmp_path):
    mine = tmp_path / "mine.py"
    text = starters.text_at(Stage(1, 1), solved=True)
    system = starters.definition("SYSTEM", lesson=1).strip()
    mine.write_text(text.replace(system, WORDS))
    starter, report = carry.text_from(Stage(2, 1), mine)
    assert WORDS in starter and carry.Choice("SYSTEM", "yours", "its words are yours to choose") in report
    mine.write_text(text.replace(system, "SYSTEM = 42"))
    starter, report = carry.text_from(Stage(2, 1), mine)
    assert "SYSTEM = 42" not in starter and system in starter
    assert carry.Choice("SYSTEM", "reference", "yours no longer sets SYSTEM to a string") in report


def test_the_starter_is_never_written_over_its_own_input(tmp_path):
    mine = tmp_path / "mine.py"
    kept = starters.text_at(Stage(3, 1), solved=True)
    mine.write_text(kept)
    done = run("starter", "4", "--from", str(mine), "-o", str(mine))
    assert done.returncode == 2 and "is the file given with --from" in done.stderr
    assert mine.read_text() == kept
    # `> mine.py` has emptied the file before the command runs: it says so, and writes nothing.
    with open(mine, "w") as out:
        done = subprocess.run([sys.executable, "-m", "lab", "starter", "4", "--from", str(mine)],
                              stdout=out, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert done.returncode == 2 and "already emptied" in done.stderr and "-o" in done.stderr
    assert mine.read_text() == ""
    done = run("starter", "4", "--from", str(mine))
    assert done.returncode == 2 and "mine.py is empty" in done.stderr and done.stdout == ""


def test_o_writes_the_file_and_the_report_names_every_part(tmp_path):
    mine, out = tmp_path / "mine.py", tmp_path / "harness.py"
    mine.write_text(starters.text_at(Stage(3, 1), solved=True))
    done = run("starter", "4", "--from", str(mine), "-o", str(out))
    assert done.returncode == 0 and done.stdout == ""
    compile(out.read_text(), "harness.py", "exec")
    lines = done.stderr.splitlines()
    assert "user_message: yours (it passes lesson 1's lab 1)" in lines
    assert any(line.startswith("run_tool: the reference (") for line in lines)
    assert lines[-1] == f"wrote {out}"


def test_a_method_of_the_learners_own_in_a_course_class_is_named_not_dropped_silently(tmp_path):
    mine = tmp_path / "mine.py"
    text = starters.text_at(Stage(8, 1), solved=True)
    head = "    def messages(self):\n"
    assert head in text
    mine.write_text(text.replace(head, "    def my_count(self):\n        return 1\n\n" + head, 1))
    _, report = carry.text_from(Stage(9, 1), mine)
    (choice,) = [c for c in report if c.name == "Harness.my_count"]
    assert choice.source == "reference" and "is not carried; it stays in mine.py" in choice.why
