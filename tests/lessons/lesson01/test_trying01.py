"""Lesson 01's try-it cells speak of the function that raised: text_of, given something that is not
a reply, is named as the one that raised, and the learner's own function when it raised itself."""

import harness
import lab


def test_a_course_function_that_raises_is_the_one_named(capsys):
    def run_agent(model, system, messages, prompt):
        return {"role": "assistant", "content": "not a list of blocks"}
    with lab.trying("run_agent"):
        harness.text_of(run_agent(None, "", [], "Hello."))
    said = capsys.readouterr().out
    assert said.startswith("text_of raised TypeError: "), said


def test_the_learners_own_function_is_named_when_it_raised(capsys):
    def run_agent(model, system, messages, prompt):
        raise ValueError("no model yet")
    with lab.trying("run_agent"):
        harness.text_of(run_agent(None, "", [], "Hello."))
    said = capsys.readouterr().out
    assert said.startswith("run_agent raised ValueError: no model yet"), said
