"""Benchmark: the same 40 submissions autograded by plain `nbgrader autograde` (one process, one
submission after another, each notebook run in a kernel) and by `python -m lab.grader autograde`
(parallel, sandboxed, one gradebook writer). Checks that every check cell gets the same score from
both, then prints both times and the ratio (target: at least 1.8x on 2 cores).

    .venv/bin/python benchmarks/autograde.py [--submissions 40] [--jobs N] [--keep DIR]

The submissions are honest ones on which both must agree: untouched, fully right, lab 1 only,
right except a hidden test, a cell that does not parse. Each carries its student's name in a
comment, so no two are the same code and neither grader can reuse one verdict for another.
Attacks are left out on purpose: plain nbgrader gives them points they did not earn
(tests/grading/test_scores.py shows what ours gives them).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from lab.grader import autograde, course, fixtures, grades  # noqa: E402

LESSON = 12   # the lesson whose assignment is graded: the largest, and the one with attacks
ASSIGNMENT = fixtures.assignment(LESSON)
VARIANTS = ["correct", "unchanged", "lab1-only", "hidden-only", "does-not-parse"]
PLAIN_CONFIG = '''c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "{course_id}"
'''


def make_course(root, count):
    """A course with the lesson released and `count` submissions in submitted/."""
    import nbformat
    course.setup(root)
    api = course.api(course.app(root))
    result = api.generate_assignment(ASSIGNMENT, force=True, create=True)
    if not result["success"]:
        raise SystemExit(f"generate_assignment failed:\n{result.get('error')}")
    release = nbformat.read(root / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    master = nbformat.read(course.NOTEBOOKS / f"{ASSIGNMENT}.ipynb", as_version=4)
    ctx = fixtures.context(root)
    expected = {}
    for n in range(count):
        fixture = fixtures.by_name(LESSON)[VARIANTS[n % len(VARIANTS)]]
        student = f"s{n:02d}-{fixture.name}"
        nb = fixtures.build(fixture, release, master, ctx)
        for cell in nb.cells:   # every submission its own code
            if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
                cell.source += f"\n# handed in by {student}"
        folder = root / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / f"{ASSIGNMENT}.ipynb").write_text(nbformat.writes(nb), encoding="utf-8")
        (folder / "timestamp.txt").write_text(fixtures.TIMESTAMP, encoding="utf-8")
        expected[student] = fixture.score
    return expected


def timed(command, cwd, env):
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return time.monotonic() - started, done


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--submissions", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=autograde.default_jobs())
    parser.add_argument("--keep", type=Path, help="build the two courses here and keep them")
    args = parser.parse_args(argv)
    base = args.keep or Path(tempfile.mkdtemp(prefix="autograde-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    ours, plain = base / "ours", base / "plain"
    for folder in (ours, plain):
        shutil.rmtree(folder, ignore_errors=True)
    print(f"making {args.submissions} submissions ...", flush=True)
    expected = make_course(ours, args.submissions)
    shutil.copytree(ours, plain)
    (plain / "nbgrader_config.py").write_text(PLAIN_CONFIG.format(course_id=course.COURSE_ID))
    answers = tempfile.mkdtemp(prefix="bench-rungs-")
    env = dict(os.environ, PATH=course._path_with_this_python(), PYTHONPATH=str(REPO), LAB_RUNGS_DIR=answers)

    print("plain nbgrader autograde, one submission after another ...", flush=True)
    plain_seconds, done = timed([sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT], plain, env)
    if done.returncode != 0:
        print(done.stdout[-3000:])
        raise SystemExit("plain nbgrader autograde failed")
    print(f"python -m lab.grader autograde --jobs {args.jobs} ...", flush=True)
    our_seconds, done = timed([sys.executable, "-m", "lab.grader", "--course", str(ours), "autograde",
                               "--jobs", str(args.jobs), "--quiet"], REPO, env)
    if done.returncode != 0:
        print(done.stdout[-3000:])
        raise SystemExit("python -m lab.grader autograde failed")

    a, b = grades.scores(plain, ASSIGNMENT), grades.scores(ours, ASSIGNMENT)
    differ = [s for s in expected if a.get(s, {}).get("cells") != b.get(s, {}).get("cells")]
    wrong = [s for s in expected if b.get(s, {}).get("total") != expected[s]]
    shutil.rmtree(answers, ignore_errors=True)
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    if differ or wrong:
        for s in differ:
            print(f"  {s}: plain nbgrader {a.get(s)}, ours {b.get(s)}")
        for s in wrong:
            print(f"  {s}: ours {b.get(s, {}).get('total')}, expected {expected[s]}")
        raise SystemExit("the two graders disagree")
    print(f"scores identical for all {len(expected)} submissions ({len(expected) * 4} check cells)")
    print(f"plain nbgrader autograde:       {plain_seconds:7.1f} s")
    print(f"python -m lab.grader autograde: {our_seconds:7.1f} s  ({args.jobs} jobs, {os.cpu_count()} CPUs)")
    print(f"ratio: {plain_seconds / our_seconds:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
