"""What a learner's starter holds where a gap is, one module per lesson: lessonNN.GAPS maps a name
of syllabus.UNITS to its text. For a "spec" gap the text stands in for the whole definition; for
a "gap" it stands in for the reference's ### BEGIN SOLUTION ... ### END SOLUTION part, indented
to match. Texts are written at the left margin; the generator indents them."""


def comments(lesson, name):
    """The comment lines of `name`'s gap text in `lesson`, markers and code left out: the words a
    notebook's solution cell shows above the definition, so that the learner's edition (nbgrader's
    stub under them) and the command-line starter say the same thing. "" when the lesson has no
    gap text for `name`."""
    import importlib
    try:
        texts = importlib.import_module(f"{__name__}.lesson{int(lesson):02d}").GAPS
    except ModuleNotFoundError:
        return ""
    lines = []
    for line in texts.get(name, "").splitlines():
        if line.strip() in ("# --- your code ---", "# --- end ---", "# YOUR CODE HERE"):
            continue
        if not line.startswith("#"):
            break  # the code of a gap ends its explanation
        lines.append(line)
    return "\n".join(lines)
