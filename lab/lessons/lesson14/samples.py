"""What lesson 14's sample submissions must score in the grader (lab.grader.fixtures.samples).
One lab: a visible and a hidden check cell, each worth a point a test."""

SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 10, "lab1-hidden": 3},
    # the tests that ran before the loop was stopped, and did not call the looping gap, pass
    "loops-forever": {"lab1-tests": 2},
    "does-not-parse": (),
}

# Passes every visible test and fails a hidden one: approve is handed the caller's own arguments,
# so an approve that edits them changes what runs.
HIDDEN_ONLY = {"gate": '''\
def gate(tools, approve, consequential=CONSEQUENTIAL):
    def gated(tool):
        def execute(arguments):
            try:
                answer = approve({"name": tool["name"], "arguments": arguments})
            except Exception as exc:
                answer = str(exc) or type(exc).__name__
            if answer is not True:
                reason = answer if isinstance(answer, str) and answer else "not approved"
                raise PermissionError(f"{tool['name']} was not run: {reason}")
            return tool["execute"](arguments)
        return dict(tool, execute=execute)

    return [gated(tool) if tool["name"] in consequential else dict(tool) for tool in tools]
'''}
