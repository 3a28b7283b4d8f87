"""Speed of the lesson 12 checks: prints figures, asserts nothing.

    .venv/bin/python benchmarks/lab_checks.py [--make-test]

1. the ten visible lesson 12 lab tests, in-process, on the reference (target under 0.3 s)
2. lab/lab_check.py end to end on the reference harness.py, every test (target under 1.5 s)
3. with --make-test: `make test` after set-up (target under 60 s on 2 cores)
"""

import os
import subprocess
import sys
import tempfile
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import harness  # noqa: E402
from lab import checks  # noqa: E402
from lab.course import starters  # noqa: E402


def best_of(n, work):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    ns = types.SimpleNamespace(summarize=harness.summarize, find_cut=harness.find_cut,
                               rows=harness.SessionLog.rows, compact=harness.compact)
    visible = [t for lab in (1, 2) for t in checks.tests_for(12, lab, hidden=False)]
    seconds = best_of(5, lambda: [checks.run_one(t, ns) for t in visible])
    print(f"{len(visible)} visible lesson 12 lab tests, in-process: {seconds:.3f} s (target < 0.3 s)")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "harness.py")
        with open(path, "w") as f:
            f.write(starters.text_at(starters.Stage(12)))
        command = [sys.executable, os.path.join(ROOT, "lab", "lab_check.py"), "--harness", path, "--lesson", "12"]
        seconds = best_of(3, lambda: subprocess.run(command, capture_output=True, check=True))
        print(f"lab_check.py end to end, all {len(checks.tests_for(12))} tests: {seconds:.3f} s (target < 1.5 s)")
    if "--make-test" in sys.argv:
        start = time.perf_counter()
        subprocess.run(["make", "test"], cwd=ROOT, check=True, capture_output=True)
        print(f"make test after set-up: {time.perf_counter() - start:.1f} s (target < 60 s on 2 cores)")


if __name__ == "__main__":
    main()
