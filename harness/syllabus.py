"""Which lesson brings in each definition of the harness, and how: the one table tools read.

UNITS maps a definition's name ("find_cut", "Harness" for a class's heading and docstring,
"Harness.prompt" for a method) to its history: one Step for the lesson that introduces it and one
for every later lesson that rewrites it, oldest first. Every public definition of the reference
harness has a row; a test checks that the table and the code agree.

A Step's kind is what the learner meets at that lesson and lab:
    "given"  written for them, marked "# given in lesson N" in their starter;
    "gap"    the definition is there, but the part between ### BEGIN SOLUTION and ### END SOLUTION
             in the reference is theirs: the starter holds gaps/lessonNN.py's text in its place;
    "spec"   the whole definition is theirs: the starter holds only its spec from gaps/.

The package holds each definition as lesson PACKAGE_LESSON leaves it. The text of a definition as
an earlier lesson left it lives in earlier/lessonNN.py, and as a lesson after PACKAGE_LESSON rewrites
it in later/lessonNN.py (later/__init__.py says why), named as here.
Which labs a lesson has, and which names each lab asks for, follow from this table alone
(lab/course/manifest.py works them out); nothing else lists them.
"""

from typing import NamedTuple


# The lesson whose end state the package itself holds: the last synchronous harness, which the
# notebooks, checks and grader of lessons 01-14 import and run as it is.
PACKAGE_LESSON = 14


class Step(NamedTuple):
    lesson: int
    lab: int
    kind: str            # "given", "gap" or "spec"
    note: str = ""       # added to the "# given in lesson N" marker, after a colon
    marked: bool = True  # False where an enclosing definition's marker already says it


def _g(lesson, lab=1, note="", marked=True):
    return Step(lesson, lab, "given", note, marked)


def _gap(lesson, lab=1, note=""):
    return Step(lesson, lab, "gap", note)


def _spec(lesson, lab=1):
    return Step(lesson, lab, "spec")


UNITS = {
    # 1 messages
    # SYSTEM is a constant: it has no body for nbgrader to stub, and a stub at a notebook's top
    # level would stop Run All, so lesson 1 hands over its line and the learner words it.
    "SYSTEM": [_g(1, note="your standing instructions; the words are yours to change")],
    "user_message": [_spec(1)],
    "text_of": [_g(1)],
    "tool_calls": [_g(2)],
    "error_message": [_g(5)],
    "render": [_g(12, 1)],
    # 2 tools
    "str_arg": [_g(4)],
    "int_arg": [_g(6)],
    "tool_specs": [_g(2)],
    "briefing": [_spec(13, 1)],
    "run_tool": [_gap(2), _gap(4), _gap(15)],
    "MAX_LINES": [_g(6)],
    "MAX_BYTES": [_g(6)],
    "truncate_head": [_gap(6)],
    "truncate_tail": [_gap(6)],
    "make_read_tool": [_g(2), _g(4), _g(6)],
    "make_write_tool": [_g(3), _g(4)],
    "make_bash_tool": [_g(4), _g(6), _g(15)],
    "CONSEQUENTIAL": [_g(14)],
    "gate": [_spec(14)],
    "COMMAND_RULES": [_g(14)],
    "command_rules": [_spec(14)],
    # 3 loop
    "run_agent": [_gap(1), _gap(2), _gap(3), _gap(5), _gap(7), _gap(9), _gap(10), _gap(15)],
    "context_for_model": [_gap(10)],
    "INTERRUPTED": [_g(10)],
    "repair_tool_history": [_gap(10)],
    # 4 harness
    "Harness": [_g(8)],
    "Harness.__init__": [_g(8), _g(9), _g(11)],
    "Harness.messages": [_gap(8)],
    "Harness.is_running": [_g(8)],
    "Harness.prompt": [_gap(8), _gap(9)],
    "Harness.steer": [_gap(9)],
    "Harness.follow_up": [_gap(9)],
    "Harness.subscribe": [_g(11)],
    "Harness._notify": [_g(11), _gap(15, 2)],
    "Harness.replace_messages": [_g(12, 2)],
    "Harness._drain": [_gap(9)],
    "Harness._run": [_gap(8), _gap(9), _g(11),
                     _gap(15, 2, "all but the line before the yield, which is yours")],
    "session": [_spec(13, 2)],
    # 5 frontends
    "JsonRenderer": [_g(7)],
    "JsonRenderer.__init__": [_g(7)],
    "JsonRenderer.render": [_g(7)],
    "JsonRenderer.finish": [_g(7)],
    "FinalTextRenderer": [_g(7, note="its heading; the three methods below are yours")],
    "FinalTextRenderer.__init__": [_gap(7)],
    "FinalTextRenderer.render": [_gap(7)],
    "FinalTextRenderer.finish": [_gap(7)],
    # 6 environment
    "SUMMARY_PREFIX": [_g(12, 2)],
    "SessionLog": [_g(11)],
    "SessionLog.__init__": [_g(11)],
    "SessionLog.entries": [_gap(11)],
    "SessionLog.append_message": [_gap(11)],
    "SessionLog.append_compaction": [_g(12, 2)],
    "SessionLog.rows": [_g(11), _gap(12, 2)],
    "SessionLog.replay": [_g(11)],
    "persist_to": [_gap(11)],
    "estimate_tokens": [_g(12, 1)],
    "SUMMARY_SYSTEM": [_g(12, 1)],
    "summarize": [_spec(12, 1), _g(15, note="now async: it awaits the model")],
    "find_cut": [_gap(12, 2, "the walk back. The snap forward is yours")],
    "compact": [_spec(12, 2), _g(15, note="now async: it awaits summarize")],
    "maybe_compact": [_g(12, 2), _g(15, note="now async: it awaits compact")],
    "DATA_RULE": [_g(14)],
    "QuotingWriter": [_g(14)],
    "QuotingWriter.__init__": [_g(14)],
    "QuotingWriter.complete": [_gap(14)],
    # 7 adapters
    "PORTABLE_ID": [_g(16)],
    "portable_id": [_gap(16, 1)],
    "merge_runs": [_gap(16, 1)],
    "tool_call_line": [_g(16)],
    "tools_prompt": [_g(16)],
    "template_messages": [_gap(16, 1)],
    "chat_request": [_gap(16, 2)],
    "TOO_LONG": [_g(16, 2)],
    "STOP_REASONS": [_g(16, 2)],
    "provider_error": [_g(16, 2)],
    "chat_reply": [_gap(16, 2)],
    "ChatTemplate": [_g(16)],
    "ChatTemplate.to_request": [_g(16, marked=False)],
    "ChatTemplate.from_response": [_g(16, marked=False)],
    "ChatCompletions": [_g(16, 2)],
    "ChatCompletions.__init__": [_g(16, 2, marked=False)],
    "ChatCompletions.to_request": [_g(16, 2, marked=False)],
    "ChatCompletions.from_response": [_g(16, 2, marked=False)],
    "AdapterModel": [_g(16)],
    "AdapterModel.__init__": [_g(16, marked=False)],
    "AdapterModel.complete": [_g(16, marked=False)],
}

def lesson_units(lesson):
    """The names whose history has a step at `lesson`, as {name: [steps at that lesson]}."""
    return {name: [s for s in steps if s.lesson == lesson]
            for name, steps in UNITS.items() if any(s.lesson == lesson for s in steps)}
