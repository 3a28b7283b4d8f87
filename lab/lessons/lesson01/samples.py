"""What the grader's sample submissions of lesson 1 must score (lab.grader.fixtures.samples).

One lab: a check cell of 8 points (the visible tests) and a hidden cell of 4. A gap that loops
(user_message, the lab's first) or a cell that does not parse (run_agent's, the last) sinks it.
"""

# A wrong answer that every visible test accepts and a hidden one refuses: it keeps failed
# replies out of the record, as if an error were not something that happened.
HIDDEN_ONLY = {
    "run_agent": '''\
def run_agent(model, system, messages, prompt):
    """Records only replies that worked; a failed one is returned but left out of the list."""
    messages.append(user_message(prompt))
    answer = model.complete(system, messages, [])
    if answer.get("stop_reason") != "error":
        messages.append(answer)
    return answer
''',
}

SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    "hidden-only": ("lab1-tests",),
    "loops-forever": (),
    "does-not-parse": (),
}
