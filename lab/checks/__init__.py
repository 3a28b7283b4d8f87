"""The lab tests, defined once and used three ways: from a notebook's check cell against the
learner's functions, from the command line against a learner's harness.py (lab/lab_check.py),
and by the autograder.

A lesson's tests live in its own folder, lab/lessons/lessonNN/checks.py. A test is a function of
one argument, `ns`: the learner's definitions by name (ns.summarize for a function, ns.SessionLog
for a class whose methods the learner wrote; see lab.course.manifest.Namespace). Everything else it takes
from `harness` and `lab`.
It passes by returning and fails by raising Failed with one plain sentence that says what was
expected and what happened.
"""

from typing import Callable, NamedTuple

from lab import lessons


class Failed(AssertionError):
    """A lab test's verdict: the learner's code did something other than the contract says."""


class ReferenceCalled(BaseException):
    """Raised where the learner's function calls the course's own answer for its name
    (lab.runtime.takeover.answers_out_of_reach): graded, that answer is a stub. A BaseException,
    so that neither the learner's `except Exception` nor a test's check of what the code raises
    takes it for the code's own behaviour."""


def expect(condition, sentence):
    """Fail the test with `sentence` unless `condition` holds."""
    if not condition:
        raise Failed(sentence)


def blame(name, function, *args, **kwargs):
    """function(*args, **kwargs), with anything it raises put in a sentence that names `name`. A
    stub's NotImplementedError goes up untouched, so the gap is reported as not written."""
    try:
        return function(*args, **kwargs)
    except (NotImplementedError, Failed, RecursionError):
        raise
    except Exception as error:
        raise Failed(f"{name} raised {type(error).__name__}: {error}") from None


class Test(NamedTuple):
    lesson: int
    lab: int
    name: str         # a short id, stable, used for grade cells and feedback
    title: str        # what the test checks, in one sentence
    hidden: bool      # kept out of the learner's copy; run by the autograder
    points: int
    run: Callable


_REGISTRY = []


def test(lesson, lab, title, *, hidden=False, points=1):
    """Register the decorated function as a lab test."""
    def register(function):
        _REGISTRY.append(Test(lesson, lab, function.__name__, title, hidden, points, function))
        return function
    return register


def tests_for(lesson, lab=None, *, hidden=None):
    """The tests of `lesson` (and of `lab`, if given), in the order they are written. `hidden`
    None gives both kinds; True or False only that kind."""
    try:
        lessons.load(lesson, "checks")
    except lessons.NoSuchLesson as error:
        raise ValueError(str(error)) from None
    return [t for t in _REGISTRY if t.lesson == lesson and (lab is None or t.lab == lab)
            and (hidden is None or t.hidden == hidden)]


class Result(NamedTuple):
    """How one test went: what lab.checks.engine returns a list of, one per test."""
    test: Test
    passed: bool
    message: str      # "" when it passed; why it failed, or why it was not run
    not_done: bool    # the learner's code still raised NotImplementedError
    overran: bool = False    # stopped at the time limit
    not_run: bool = False    # never started: an earlier test overran, or the time was spent

    @property
    def title(self):
        return self.test.title

    @property
    def points(self):
        """What the test is worth."""
        return self.test.points

    @property
    def earned(self):
        """The test's points if it passed, else 0."""
        return self.test.points if self.passed else 0


def run_one(t, ns):
    """Run one test against `ns` and say how it went. Never raises for anything the learner's
    code does; a bug in the test itself (an exception outside the learner's code) is reported
    as such."""
    try:
        t.run(ns)
    except Failed as failure:
        return Result(t, False, str(failure), False)
    except NotImplementedError as error:
        refused = getattr(error, "refused_call", None)
        if isinstance(refused, str) and refused:   # graded: a stub the learner's code reached through harness
            return Result(t, False, refused, False)
        return Result(t, False, "not done yet: the gap still raises NotImplementedError", True)
    except RecursionError:
        return Result(t, False, "the code recursed without end (RecursionError)", False)
    except ReferenceCalled as refused:
        return Result(t, False, str(refused), False)
    except Exception as error:  # the learner's code raised where the contract says it must not
        return Result(t, False, f"it raised {type(error).__name__}: {error}", False)
    return Result(t, True, "", False)


def run(lesson, lab, ns, *, hidden=None):
    """[Result] for every test of the lab."""
    return [run_one(t, ns) for t in tests_for(lesson, lab, hidden=hidden)]
