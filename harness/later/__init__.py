"""Newer versions of definitions, for the lessons after the package's own: lessonNN.py holds the
text of each definition that lesson NN rewrites, as lesson NN leaves it, under the names of
syllabus.UNITS, with its solution markers. Real Python, so a test can run them.

Why a second folder beside earlier/: the package `harness` is the harness as lesson
syllabus.PACKAGE_LESSON (14) leaves it, the last synchronous one, because the notebooks, checks and
grader of lessons 01-14 import it and run it as it is. Lesson 15 makes the loop async; its rewrites
live here, so `python -m lab end 15` and lab.harness_at(15) are async while `import harness` still
means what fourteen lessons rely on."""
