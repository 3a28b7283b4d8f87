"""Check a harness.py against a lesson's lab tests, from the command line.

    python lab/lab_check.py --harness harness.py --lesson 12 [tests.py]

Prints one line per test and a closing count. Exit status: 0 when every test passes, 1 when any
fails (or the file cannot be loaded), 2 when the command itself is wrong. Each test runs under a
time limit, so a harness that loops for ever is reported, not waited for.
"""

import argparse
import json
import os
import selectors
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from lab import checks  # noqa: E402  (after the path is set, when run as a script)


class Usage(Exception):
    pass


def parse(argv):
    parser = argparse.ArgumentParser(prog="lab_check", description="Run a lesson's lab tests on a harness.py.")
    parser.add_argument("--harness", required=True, help="the learner's harness.py")
    parser.add_argument("--lesson", required=True, type=int, help="the lesson whose tests to run, e.g. 12")
    parser.add_argument("--lab", type=int, action="append", help="only this lab (repeatable)")
    parser.add_argument("--visible-only", action="store_true", help="leave out the hidden tests")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per test (default 10)")
    parser.add_argument("tests", nargs="?", help="a file of extra tests: functions test_x(ns)")
    args = parser.parse_args(argv)
    if not os.path.isfile(args.harness):
        raise Usage(f"there is no file {args.harness}: pass the path of your harness.py with --harness")
    if args.tests and not os.path.isfile(args.tests):
        raise Usage(f"there is no file {args.tests}: the optional last argument is a file of extra tests")
    try:
        checks.tests_for(args.lesson)
    except ValueError as error:
        raise Usage(str(error)) from None
    labs = args.lab or sorted({t.lab for t in checks.tests_for(args.lesson)})
    known = {t.lab for t in checks.tests_for(args.lesson)}
    if any(lab not in known for lab in labs):
        raise Usage(f"lesson {args.lesson} has labs {', '.join(map(str, sorted(known)))}")
    return args, labs


def run_worker(args, labs, start):
    """Yield the worker's messages from test number `start` on; a dict with "timeout" when one
    test overran, after which the worker is gone."""
    command = [sys.executable, "-P", "-m", "lab.checks.worker", os.path.abspath(args.harness),
               str(args.lesson), ",".join(map(str, labs)), str(start)]
    if args.tests:
        command.append(os.path.abspath(args.tests))
    if args.visible_only:
        command.append("--visible-only")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONDONTWRITEBYTECODE="1")
    worker = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, env=env, cwd=os.path.dirname(os.path.abspath(args.harness)))
    selector = selectors.DefaultSelector()
    selector.register(worker.stdout, selectors.EVENT_READ)
    buffer, current = b"", None
    deadline = time.monotonic() + args.timeout
    try:
        while True:
            if b"\n" not in buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    yield {"timeout": True, "current": current}
                    return
                chunk = os.read(worker.stdout.fileno(), 65536)
                if not chunk:
                    err = worker.stderr.read().decode(errors="replace").strip().splitlines()
                    yield {"crashed": err[-1] if err else f"exit status {worker.wait()}", "current": current}
                    return
                buffer += chunk
                continue
            line, buffer = buffer.split(b"\n", 1)
            message = json.loads(line)
            if message.get("started"):
                current = message
                deadline = time.monotonic() + args.timeout
                continue
            yield message
            if "done" in message or "load_error" in message:
                return
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.wait()
        worker.stdout.close()
        worker.stderr.close()


def main(argv=None):
    try:
        args, labs = parse(sys.argv[1:] if argv is None else argv)
    except Usage as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    passed = failed = 0
    start, name = 0, os.path.basename(args.harness)
    while True:
        restart = None
        for message in run_worker(args, labs, start):
            if "load_error" in message:
                print(f"FAIL  {message['load_error']}")
                print("0 passed, 1 failed")
                return 1
            if "done" in message:
                break
            if message.get("timeout") or message.get("crashed"):
                current = message.get("current")
                what = (f"did not finish within {args.timeout:g} s (an endless loop?)" if message.get("timeout")
                        else f"ended the checking process ({message['crashed']})")
                if current is None:
                    print(f"FAIL  importing {name} {what}")
                    print(f"{passed} passed, {failed + 1} failed")
                    return 1
                print(f"FAIL  lab {current['lab']}  {current['title']} -- it {what}")
                failed += 1
                restart = current["index"] + 1
                break
            label = f"lab {message['lab']}" if message["lab"] else "extra"
            if message["passed"]:
                passed += 1
                print(f"PASS  {label}  {message['title']}")
            else:
                failed += 1
                print(f"FAIL  {label}  {message['title']} -- {message['message']}")
        if restart is None:
            break
        start = restart
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
