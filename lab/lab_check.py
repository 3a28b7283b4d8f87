"""Check a harness.py against a lesson's lab tests, from the command line.

    python lab/lab_check.py --lesson 12 --harness harness.py [tests.py]

Prints one line per test and a closing count. A lab whose every test met a gap still raising
NotImplementedError is reported in one line, "lab 2 not started", instead of test by test. Exit
status: 0 when every test passes, 1 when any fails or a lab is not started (or the file cannot be
loaded), 2 when the command itself is wrong. Each test runs under a time limit, so a harness that
loops for ever is reported, not waited for.
"""

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# Run as a script, this folder comes first on sys.path, and its packages would then stand in for
# any top-level package of the same name: the folder above is the one to use.
if sys.path and sys.path[0] and os.path.abspath(sys.path[0]) == HERE:
    sys.path.pop(0)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from lab import checks  # noqa: E402  (after the path is set, when run as a script)
from lab.checks import engine  # noqa: E402
from lab.stage import prose  # noqa: E402


# Starting Python and importing lab is not the learner's code: it gets this long, on a busy
# machine too, before the time limit starts with the learner's file.
STARTUP_SECONDS = 60


class Usage(Exception):
    pass


def parse(argv):
    parser = argparse.ArgumentParser(prog="lab_check", description="Run a lesson's lab tests on a harness.py.")
    parser.add_argument("--harness", required=True, help="the learner's harness.py")
    parser.add_argument("--lesson", required=True, type=int, help="the lesson whose tests to run, e.g. 12")
    parser.add_argument("--lab", type=int, action="append", help="only this lab (repeatable)")
    parser.add_argument("--visible-only", action="store_true", help="leave out the hidden tests")
    parser.add_argument("--timeout", type=float, default=engine.TEST_SECONDS,
                        help=f"seconds per test (default {engine.TEST_SECONDS:g})")
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
    lines = queue.Queue()
    reader = threading.Thread(target=_read_lines, args=(worker.stdout.fileno(), lines), daemon=True)
    reader.start()
    current = None
    deadline = time.monotonic() + max(args.timeout, STARTUP_SECONDS)
    try:
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                yield {"timeout": True, "current": current}
                return
            if line is None:
                err = worker.stderr.read().decode(errors="replace").strip().splitlines()
                yield {"crashed": err[-1] if err else f"exit status {worker.wait()}", "current": current}
                return
            message = json.loads(line)
            if message.get("started") or message.get("loading"):
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
        reader.join(1)
        if not reader.is_alive():     # else a process the harness started still holds the pipe
            worker.stdout.close()
        worker.stderr.close()


def _read_lines(fd, lines):
    """Put each complete line read from `fd` on `lines`, then None at the end of the stream.

    A thread rather than select(): on Windows select() waits on sockets only, never on a pipe."""
    buffer = b""
    try:
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                lines.put(line)
    except OSError:
        pass
    lines.put(None)


class Report:
    """Prints the engine's verdicts a lab at a time: a lab whose tests all met an unwritten gap is
    said in one line, "lab 2 not started", and a lab the file has not begun at all likewise."""

    def __init__(self, filename, lesson=None):
        self.filename, self.lesson = filename, lesson
        self.passed = self.failed = self.not_started = self.not_run = 0

    def raising(self, lab):
        """Lab `lab`'s names as the subject of "... still raise(s)": "run_tool still raises", "a and
        b still raise"; "its gaps still raise" when the lesson's manifest cannot say."""
        try:
            from lab.course import manifest
            names = list(manifest.names(self.lesson, lab))
        except Exception:  # an unknown lesson or lab: the plain words still hold
            names = []
        if not names:
            return "its gaps still raise"
        return f"{prose.joined(names, 'and')} still {'raises' if len(names) == 1 else 'raise'}"

    def lines(self, results, not_begun):
        """Yield the report's lines for the engine's `results` and the worker's `not_begun` labs."""
        begun = {}
        for r in results:
            begun.setdefault(r.test.lab, []).append(r)
        waiting = {entry["lab"]: entry for entry in not_begun}
        for lab in sorted(set(begun) | set(waiting), key=lambda lab: (lab == 0, lab)):
            if lab in waiting:
                entry = waiting[lab]
                self.not_started += 1
                yield (f"TODO  lab {lab} not started: {self.filename} has no "
                       f"{prose.joined(entry['missing'], 'or')} yet ({prose.plural(entry['tests'], 'test')} "
                       "waiting)")
                continue
            ran = [r for r in begun[lab] if not r.not_run]
            if lab and ran and engine.not_done(ran) and len(ran) == len(begun[lab]):
                self.not_started += 1
                yield (f"TODO  lab {lab} not started: {self.raising(lab)} NotImplementedError "
                       f"({prose.plural(len(ran), 'test')} waiting)")
                continue
            for r in ran:
                label = f"lab {lab}" if lab else "extra"
                if r.passed:
                    self.passed += 1
                    yield f"PASS  {label}  {r.title}"
                else:
                    self.failed += 1
                    yield f"FAIL  {label}  {r.title} -- {engine.why(r)}"
        self.not_run = sum(r.not_run for r in results)
        if self.not_run:
            yield engine.not_run_line(results)

    def count(self):
        """The closing count; and the exit status."""
        count = f"{self.passed} passed, {self.failed} failed"
        if self.not_run:
            count += f", {self.not_run} not run"
        if self.not_started:
            count += f", {prose.plural(self.not_started, 'lab')} not started"
        return count, 0 if self.failed == 0 and not self.not_started else 1


class Worker:
    """The worker process, as engine.run_tests's `run`: each call returns the next test's Result,
    waiting at most the time limit for it. A test that overruns or ends the process ends this
    worker; a later call (after a crash) starts another from the next test."""

    def __init__(self, args, labs):
        self.args, self.labs, self.stream = args, labs, None
        self.plan = []   # the Tests the worker runs, in its order

    def start(self, index):
        """Start a worker at test number `index`; its first message (the plan, or why not)."""
        self.stream = run_worker(self.args, self.labs, index)
        return next(self.stream)

    def close(self):
        if self.stream is not None:
            self.stream.close()   # its `finally` kills the process
            self.stream = None

    def __call__(self, t):
        if self.stream is None:
            self.start(next(index for index, planned in enumerate(self.plan) if planned is t))
        message = next(self.stream)
        if message.get("timeout"):
            self.close()
            return engine.overran(t, "your code", f"{self.args.timeout:g} s")
        if message.get("crashed"):
            self.close()
            return checks.Result(t, False, f"it ended the checking process ({message['crashed']})", False)
        return checks.Result(t, message["passed"], message["message"], message["not_done"])


def main(argv=None):
    try:
        args, labs = parse(sys.argv[1:] if argv is None else argv)
    except Usage as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    name = os.path.basename(args.harness)
    worker = Worker(args, labs)
    try:
        first = worker.start(0)
        if "load_error" in first:
            print(f"FAIL  {first['load_error']}")
            print("0 passed, 1 failed")
            return 1
        if "plan" not in first:   # importing the file overran or ended the process
            what = (f"did not finish within {args.timeout:g} s (an endless loop?)" if first.get("timeout")
                    else f"ended the checking process ({first['crashed']})")
            print(f"FAIL  importing {name} {what}")
            print("0 passed, 1 failed")
            return 1
        worker.plan = [checks.Test(args.lesson, entry["lab"], entry["name"], entry["title"],
                                   entry["hidden"], entry["points"], None)   # each runs in the worker
                       for entry in first["plan"]]
        results = engine.run_tests(worker.plan, worker)
    finally:
        worker.close()
    report = Report(name, args.lesson)
    for line in report.lines(results, first["not_started"]):
        print(line)
    count, status = report.count()
    print(count)
    return status


if __name__ == "__main__":
    sys.exit(main())
