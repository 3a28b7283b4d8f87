"""The words of SYSTEM, which the learner types in lesson 1: the check under the SYSTEM cell
refuses every wrong answer wrong.py keeps, in one sentence that names SYSTEM, and lets the
course's own sentence through."""

import harness
import pytest

from lab.lessons.lesson01 import standing
from lab.lessons.lesson01.wrong import SYSTEM_WRONG


@pytest.mark.parametrize("text", list(SYSTEM_WRONG.values()), ids=list(SYSTEM_WRONG))
def test_each_wrong_system_is_refused_in_a_sentence_naming_system(text, capsys):
    problem = standing.system_problem(text)
    assert problem.startswith("SYSTEM "), problem
    assert problem.count(". ") == 0 and problem.endswith("."), problem  # one sentence
    standing.check_system(text)
    assert capsys.readouterr().out == f"Not yet: {problem}\n"


@pytest.mark.parametrize("text", [harness.SYSTEM, "You are a careful coding agent. You may read "
                                  "files in this project and nothing else."])
def test_words_that_say_what_the_agent_is_pass(text, capsys):
    assert standing.system_problem(text) == ""
    standing.check_system(text)
    assert capsys.readouterr().out.startswith("SYSTEM will do: ")
