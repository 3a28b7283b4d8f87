"""What lesson 14's sample submissions must score in the grader (lab.grader.fixtures.samples).
One lab: 10 visible points and 3 hidden."""

SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    "hidden-only": ("lab1-tests",),
    "loops-forever": (),
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
