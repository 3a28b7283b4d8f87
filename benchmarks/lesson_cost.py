"""What each lesson adds to `make test`: the suites every lesson runs (tests/lessons, the grading
suite, the browser walk), timed with the course cut down to one lesson at a time, against the
same suites with no lesson at all (the fixed cost: starting a course and its gradebook, a
JupyterLab, a browser, and the one nbval run of the exemplar notebook).

    python benchmarks/lesson_cost.py [--lessons 11 12] [--browser]

Prints one line per lesson: its wall-clock seconds, and what that is over the fixed cost. The
course's budget is 30 s a lesson on 2 cores. Each run also reports its CPU seconds (this process's
children: pytest, its kernels and its sandboxed workers), which a busy machine does not inflate.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from lab import lessons  # noqa: E402

# Loaded into pytest with -p: the course as if only the lessons in LAB_BENCH_LESSONS were written.
PLUGIN = '''
import os
import lab.lessons as lessons
_every = lessons.written
_keep = {int(n) for n in os.environ["LAB_BENCH_LESSONS"].split(",") if n}
lessons.written = lambda: [n for n in _every() if n in _keep]
'''
SUITES = ["tests/lessons/test_checks.py", "tests/lessons/test_starters.py", "tests/lessons/test_notebook.py",
          "tests/lessons/test_notebook_runs.py",
          "tests/grading/test_scores.py::test_each_submission_gets_exactly_its_score",
          # Not a lesson's: it makes the graded course with whatever lessons there are, so that the
          # fixed cost holds the course's own set-up (its gradebook made by nbgrader's alembic
          # takes some 3 s), which would otherwise be counted against every lesson.
          "tests/grading/test_course_dir.py::test_the_config_loads_as_nbgrader_loads_it"]
BROWSER = ["tests/browser/test_every_lesson_in_browser.py"]
# Runs `python -m lab` in a process of its own, which sees the whole course, not the cut-down one.
LEFT_OUT = ["--deselect", "tests/lessons/test_starters.py::test_the_cli_says_what_it_cannot_do"]


def timed(keep, suites, plugin_dir):
    env = dict(os.environ, LAB_BENCH_LESSONS=",".join(str(n) for n in keep),
               PYTHONPATH=f"{plugin_dir}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    started, cpu = time.monotonic(), _children_cpu()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "lab_bench_only", *LEFT_OUT, *suites],
                          cwd=REPO, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    last = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    return seconds, done.returncode, f"{_children_cpu() - cpu:.1f} CPU s   {last}"


def _children_cpu():
    """User and system CPU seconds of every finished child process so far."""
    usage = os.times()
    return usage.children_user + usage.children_system


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=int, nargs="*", help="default: every written lesson")
    parser.add_argument("--browser", action="store_true", help="also time the browser walk")
    args = parser.parse_args(argv)
    chosen = args.lessons or lessons.written()
    suites = SUITES + (BROWSER if args.browser else [])
    with tempfile.TemporaryDirectory() as plugin_dir:
        Path(plugin_dir, "lab_bench_only.py").write_text(PLUGIN)
        fixed, code, last = timed([], suites, plugin_dir)
        print(f"no lesson (fixed cost): {fixed:6.1f} s   {last}")
        for lesson in chosen:
            seconds, code, last = timed([lesson], suites, plugin_dir)
            status = "" if code == 0 else f"   (exit {code}: the suites do not pass)"
            print(f"lesson {lesson:02d}: {seconds:6.1f} s, {seconds - fixed:+6.1f} s over the fixed cost   "
                  f"{last}{status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
