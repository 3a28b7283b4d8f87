"""What a learner's starter holds where a gap is, one module per lesson: lessonNN.GAPS maps a name
of syllabus.UNITS to its text. For a "spec" gap the text stands in for the whole definition; for
a "gap" it stands in for the reference's ### BEGIN SOLUTION ... ### END SOLUTION part, indented
to match. Texts are written at the left margin; the generator indents them."""
