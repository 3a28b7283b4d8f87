"""What the grader's sample submissions of lesson 1 must score (lab.grader.fixtures.samples).

One lab: a check cell for the visible tests and one for the hidden, each worth a point a test. A gap that loops
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
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 8, "lab1-hidden": 7},
    "loops-forever": (),
    "does-not-parse": (),
}
