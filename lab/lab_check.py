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
    lines = queue.Queue()
    reader = threading.Thread(target=_read_lines, args=(worker.stdout.fileno(), lines), daemon=True)
    reader.start()
    current = None
    deadline = time.monotonic() + args.timeout
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
    """Prints the verdicts a lab at a time: a lab is held back until its last test is in, so that a
    lab whose tests all met an unwritten gap can be said in one line, "lab 2 not started"."""

    def __init__(self, lesson=None):
        self.lesson = lesson
        self.lab, self.held, self.shown, self.waiting = None, [], set(), []
        self.passed = self.failed = self.not_started = 0

    def add(self, message):
        if message["lab"] != self.lab:
            self.flush()
            self.lab = message["lab"]
            self._say_waiting(before=message["lab"])
        self.held.append(message)

    def _say_waiting(self, before=None):
        """Print the "not started" lines of the labs before lab `before` (all, if None)."""
        for lab, line in sorted(self.waiting):
            if before is None or (before and lab < before):
                print(line)
                self.waiting.remove((lab, line))

    def gaps(self, lab, every=False):
        """Which of lab `lab`'s names still raise, as the subject of a sentence: "run_tool still
        raises", "a and b still raise" (`every`), "a or b still raises"; "its gaps still raise"
        when the lesson's manifest cannot say."""
        try:
            from lab import manifest
            names = list(manifest.names(self.lesson, lab))
        except Exception:  # an unknown lesson or lab: the plain words still hold
            names = []
        if not names:
            return "its gaps still raise"
        joined = f" {'and' if every else 'or'} ".join(", ".join(names).rsplit(", ", 1))
        return f"{joined} still {'raise' if every and len(names) > 1 else 'raises'}"

    def flush(self):
        held, self.held = self.held, []
        if not held:
            return
        if self.lab and self.lab not in self.shown and all(m.get("not_done") for m in held):
            self.not_started += 1
            print(f"TODO  lab {self.lab} not started: {self.gaps(self.lab, every=True)} NotImplementedError "
                  f"({len(held)} test{'s' if len(held) > 1 else ''} waiting)")
            return
        self.shown.add(self.lab)
        for m in held:
            label = f"lab {m['lab']}" if m["lab"] else "extra"
            if m["passed"]:
                self.passed += 1
                print(f"PASS  {label}  {m['title']}")
            else:
                self.failed += 1
                why = (f"not written yet: {self.gaps(m['lab'])} NotImplementedError"
                       if m.get("not_done") else m["message"])
                print(f"FAIL  {label}  {m['title']} -- {why}")

    def not_begun(self, message, filename):
        """A lab whose new names the file does not define at all: one line for the whole lab."""
        self.not_started += 1
        self.shown.add(message["not_started"])
        missing = " or ".join(", ".join(message["missing"]).rsplit(", ", 1))
        self.waiting.append((message["not_started"], f"TODO  lab {message['not_started']} not started: "
                             f"{filename} has no {missing} yet ({message['tests']} tests waiting)"))

    def finish(self, passed, failed):
        """Print the closing count; the exit status."""
        self.flush()
        self._say_waiting()
        passed, failed = passed + self.passed, failed + self.failed
        count = f"{passed} passed, {failed} failed"
        if self.not_started:
            count += f", {self.not_started} lab{'s' if self.not_started > 1 else ''} not started"
        print(count)
        return 0 if failed == 0 and not self.not_started else 1


def main(argv=None):
    try:
        args, labs = parse(sys.argv[1:] if argv is None else argv)
    except Usage as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    passed = failed = 0
    start, name = 0, os.path.basename(args.harness)
    report = Report(args.lesson)
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
                    report.flush()
                    report._say_waiting()
                    print(f"FAIL  importing {name} {what}")
                    print(f"{passed + report.passed} passed, {failed + report.failed + 1} failed")
                    return 1
                report.flush()
                report.shown.add(current["lab"])
                print(f"FAIL  lab {current['lab']}  {current['title']} -- it {what}")
                failed += 1
                restart = current["index"] + 1
                break
            if "not_started" in message:
                report.not_begun(message, name)
                continue
            report.add(message)
        if restart is None:
            break
        start = restart
    return report.finish(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
