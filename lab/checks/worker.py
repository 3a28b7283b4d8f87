"""Runs a lesson's lab tests against a learner's harness.py, for lab/lab_check.py.

It is a separate process so that the caller can stop it when a test runs too long: the command
line's isolation of a test, around lab.checks.engine. It writes JSON lines to the stream it was
handed: the plan (the tests it will run, and the labs the file has not begun), then for each test
from number `start` on a line when it starts and one with its result; it keeps the learner's own
printing away from that stream.

    python -m lab.checks.worker HARNESS_PY LESSON LABS START [EXTRA_TESTS_PY] [--visible-only]
"""

import importlib.util
import json
import os
import sys
import traceback

from harness import syllabus
from lab import checks
from lab.course import manifest
from lab.runtime import takeover

class Learner:
    """The learner's module seen as a lab test's `ns`: ns.summarize and ns.SessionLog are the
    file's own. A name the file lacks fails the test in a sentence."""

    def __init__(self, module, filename, names):
        self._module, self._filename, self._names = module, filename, names

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if not hasattr(self._module, name):
            raise checks.Failed(f"{self._filename} defines no {name}")
        return getattr(self._module, name)

    def learner(self):
        """{full name: the file's object} for the names the lesson asks of the learner."""
        found = {}
        for name in self._names:
            owner, _, attribute = name.rpartition(".")
            holder = getattr(self._module, owner, None) if owner else self._module
            if holder is not None and attribute in vars(holder):
                found[name] = vars(holder)[attribute]
        return found


def load(path, name):
    """Import the file at `path` as module `name`; a sentence instead of a traceback if it fails."""
    filename = os.path.basename(path)
    try:
        source = open(path, encoding="utf-8").read()
        code = compile(source, path, "exec")
    except SyntaxError as error:
        raise RuntimeError(f"{filename} does not parse: line {error.lineno}: {error.msg}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RuntimeError(f"{filename} cannot be read: {error}") from None
    spec = importlib.util.spec_from_loader(name, loader=None, origin=path)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = path
    sys.modules[name] = module
    try:
        exec(code, module.__dict__)
    except BaseException as error:  # SystemExit included: importing must not end the check
        frame = traceback.extract_tb(error.__traceback__)[-1]
        raise RuntimeError(f"importing {filename} raised {type(error).__name__}: {error} "
                           f"(line {frame.lineno})") from None
    return module


def absent(module, lesson, lab):
    """The names that lab `lab` of `lesson` brings in for the first time, if the file defines none of
    them (a file from before that lab's starter, such as lab 1's starter checked against lab 2);
    else []."""
    new = [name for name in manifest.names(lesson, lab) if syllabus.UNITS[name][0].lesson == lesson]
    defined = []
    for name in new:
        owner, _, attribute = name.rpartition(".")
        holder = getattr(module, owner, None) if owner else module
        if holder is not None and attribute in vars(holder):
            defined.append(name)
    return [] if defined else new


def extra_tests(path):
    module = load(path, "extra_lab_tests")
    return [checks.Test(0, 0, name, f"{os.path.basename(path)}: {name}", False, 0, function)
            for name, function in vars(module).items()
            if name.startswith("test_") and callable(function)]


def main(argv):
    visible_only = "--visible-only" in argv
    argv = [a for a in argv if a != "--visible-only"]
    harness_py, lesson, labs, start = argv[0], int(argv[1]), argv[2], int(argv[3])
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)          # whatever the learner's code prints goes nowhere
    sys.stdout = open(os.devnull, "w")

    def send(**fields):
        out.write(json.dumps(fields) + "\n")

    tests = [t for lab in labs.split(",")
             for t in checks.tests_for(lesson, int(lab), hidden=False if visible_only else None)]
    send(loading=True)   # the time limit starts here: what came before is Python's and lab's start-up
    try:
        module = load(harness_py, "learner_harness")
        if len(argv) > 4:
            tests += extra_tests(argv[4])
    except RuntimeError as error:
        send(load_error=str(error))
        return 0
    filename = os.path.basename(harness_py)
    not_started = []
    for lab in sorted({t.lab for t in tests if t.lab}):
        missing = absent(module, lesson, lab)
        if missing:
            not_started.append({"lab": lab, "missing": missing, "tests": sum(t.lab == lab for t in tests)})
            tests = [t for t in tests if t.lab != lab]
    # The plan first: the caller runs the engine over these tests, one result line each.
    send(plan=[{"name": t.name, "lab": t.lab, "title": t.title, "hidden": t.hidden, "points": t.points}
               for t in tests], not_started=not_started)
    ns = Learner(module, filename, manifest.names(lesson))
    found = ns.learner()
    # The course's own answer is not the learner's, here as in the notebook (takeover says why).
    refused = {lab: sentence for name, value in found.items()
               if (sentence := takeover.the_courses_own(name, value))
               for lab in manifest.labs(lesson) if name in manifest.names(lesson, lab)}
    with takeover.answers_out_of_reach(lesson, found):
        for index, t in enumerate(tests):
            if index < start:
                continue
            send(index=index, started=True)
            result = (checks.Result(t, False, refused[t.lab], False) if t.lab in refused
                      else checks.run_one(t, ns))
            send(index=index, passed=result.passed, message=result.message, not_done=result.not_done)
    send(done=len(tests))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
