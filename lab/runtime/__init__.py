"""What a lesson notebook's kernel runs beside the stage: the check cell (checkcell.py), the
helpers other cells call (cells.py), figures (figures.py), the learner's code taking over the
harness once a lab passes (takeover.py), the harness as a lesson leaves it and whose code a
demonstration ran on (lesson_harness.py), the time limit on demonstrations (demo_guard.py), and
tracebacks without solution markers (sourcelines.py)."""
