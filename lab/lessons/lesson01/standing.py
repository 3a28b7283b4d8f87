"""Lesson 1's check of the standing instructions the learner types, `SYSTEM`.

    system_problem(text)   "" if `text` will do as SYSTEM, else one sentence saying what is wrong
    check_system(text)     prints the verdict in one line, for the notebook cell under SYSTEM

The rules are the lesson's: SYSTEM is one string, in the learner's own words, that speaks to the
model and says what it is and what it may do; who is speaking is the argument it travels in, never
a label inside the text. The check reads words, so it can only hold the learner to the form of
that contract (enough words, addressed to the model, no role label); what the words promise is the
learner's to judge.
"""

import re

MIN_WORDS = 4  # "You are an assistant." is the shortest sentence that says what the model is
_ROLE_LABEL = re.compile(r"\s*(system|user|assistant|developer)\s*:", re.IGNORECASE)
_YOU = re.compile(r"\byou(r|rs|'re|'ll)?\b", re.IGNORECASE)


def system_problem(text):
    """"" if `text` can stand as SYSTEM, else one sentence that names SYSTEM, says what is wrong
    and what to write instead. Checks, in order: a string; not blank; no role label at its start;
    at least MIN_WORDS words; addressed to the model (a "you" in it)."""
    if not isinstance(text, str):
        return (f"SYSTEM is a {type(text).__name__}, not a string: it travels as the `system` "
                "argument, so write your instructions in quotes.")
    if not text.strip():
        return ("SYSTEM is empty: write a sentence or two that tell the model what it is and "
                "what it may do, in your own words.")
    label = _ROLE_LABEL.match(text)
    if label:
        return (f"SYSTEM begins with {label.group(0).strip()!r}, a role written as text: the "
                "`system` argument already says who is speaking, so leave the label out.")
    words = text.split()
    if len(words) < MIN_WORDS:
        return (f"SYSTEM has {len(words)} word{'s' if len(words) != 1 else ''}: say what the agent "
                f"is and what it may do, in a sentence of at least {MIN_WORDS} words.")
    if not _YOU.search(text):
        return ("SYSTEM does not speak to the model: standing instructions address it "
                "(\"You are ...\", \"You may ...\"), so tell it what it is and what it may do.")
    return ""


def check_system(text):
    """Print one line: SYSTEM's problem, or that it will do and how long it is."""
    problem = system_problem(text)
    if problem:
        print("Not yet:", problem)
    else:
        print(f"SYSTEM will do: {len(text.split())} words, sent as the `system` argument of "
              "every request from here on.")
