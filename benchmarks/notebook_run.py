"""How long the lesson 12 master notebook takes to run top to bottom, kernel start included.

    .venv/bin/python benchmarks/notebook_run.py [--repeat N]

Target: under 10 s on 2 cores. Prints one line per run and the best of them.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import nbformat  # noqa: E402

from lab.lessons import build  # noqa: E402

TARGET = 10.0


def run_once(path):
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    build.execute(nb)  # starts a fresh kernel, runs every cell, shuts the kernel down
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    path = build.notebook_path(12)
    times = []
    for n in range(1, args.repeat + 1):
        times.append(run_once(path))
        print(f"run {n}: {times[-1]:.2f} s")
    best = min(times)
    print(f"{path.name}: {best:.2f} s top to bottom, kernel start included "
          f"(best of {len(times)}, {os.cpu_count()} CPUs; target under {TARGET:.0f} s: "
          f"{'met' if best < TARGET else 'MISSED'})")


if __name__ == "__main__":
    main()
