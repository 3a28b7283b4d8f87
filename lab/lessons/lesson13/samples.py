"""What lesson 13's sample submissions must score in the grader (lab.grader.fixtures.samples).
Two labs, each with a visible and a hidden check cell, each worth a point a test."""

# Lab 2's session calls the learner's own briefing, so lab 2 alone earns nothing; a lab 2 that
# loops or does not parse leaves lab 1's points standing.
SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden", "lab2-tests", "lab2-hidden"),
    "lab1-only": ("lab1-tests", "lab1-hidden"),
    "lab2-only": (),
    "hidden-only": {"lab1-tests": 6, "lab1-hidden": 4, "lab2-tests": 5, "lab2-hidden": 3},
    "loops-forever": ("lab1-tests", "lab1-hidden"),
    "does-not-parse": ("lab1-tests", "lab1-hidden"),
}

# Passes lab 1's visible tests and fails a hidden one: with no tools it writes an empty tool list
# instead of saying "(none)", which leaves the model to guess whether it has tools at all.
HIDDEN_ONLY = {"briefing": '''\
def briefing(tools, facts):
    lines = [SYSTEM, "", "Tools:"]
    for tool in sorted(tools, key=lambda tool: tool["name"]):
        guideline = tool.get("guideline") or tool["description"]
        lines.append(f"- {tool['name']}: {guideline.splitlines()[0].strip()}")
    if facts:
        lines += ["", "Workspace:"] + [f"{key}: {facts[key]}" for key in sorted(facts)]
    return "\\n".join(lines)
'''}
