"""Older versions of definitions that a later lesson rewrites, one module per lesson that left
them so: lessonNN.py holds the text as lesson NN's end state has it, under the same names as
syllabus.UNITS. Real Python, so a test can run them."""
