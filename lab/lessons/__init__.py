"""The lessons as sources: each lessonNN.py holds a lesson's question data (RUNGS, HINTS, LABS),
and lessonNN.md the text its notebook is generated from. `python -m lab.lessons build 12` makes
notebooks/12-....ipynb from them and runs it to save its outputs; see build.py."""
