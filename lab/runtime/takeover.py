"""The learner's code takes over: once a lab passes, its definitions go into `harness`, so the
lesson's demonstration cells (which call harness.find_cut, build harness.SessionLog and so on)
run on the learner's code. use_reference() puts the reference back.

Where each name goes is lab.course.manifest.places: a function goes into the package and into every
module of the reference that holds it (the given code calls it from there), a method into its
class.

While a check runs, the course's own answers are kept out of the learner's reach
(answers_out_of_reach, the_courses_own): graded, the learner's code sees a stub where harness
holds the answer, so a gap that hands the work back to harness must not pass here either."""

import contextlib
import inspect
import sys

from lab.course import manifest
from lab.runtime.guards import (guard_aliases, guard_doors, guarded, handed_back,
                                put_by_the_learners_cells, stand_in_for, unwrapped)

_installed = {}   # full name -> the learner's object now in harness
# While a check runs (answers_out_of_reach): {id(code): full name} of the learner's functions
# under test, whose calls into harness must find there what graded code would.
_under_test = None


def _put(name, value):
    if _under_test is not None and not manifest.owner_of(name) and inspect.isfunction(value):
        # A test puts the learner's code into harness for a while: given code runs on it, while
        # the learner's functions under test still may not reach it through harness.
        value = guarded(name, value, _under_test, course=False)
    for owner, attribute in manifest.places(name):
        setattr(owner, attribute, manifest._as_method(name, value) if manifest.owner_of(name) else value)


def _restore(name):
    for owner, attribute in manifest.places(name):
        setattr(owner, attribute, manifest.as_imported(owner, attribute))


def reference_of(name):
    """The reference's object for a full name, whatever harness holds now (a check that passed
    put the learner's code there, or a cell of the learner's put something there itself)."""
    return manifest.reference(name)


def install(**functions):
    """Put the learner's definitions into harness, by full name: install(summarize=f) or
    install(**{"SessionLog.rows": rows})."""
    every = set(manifest.names_every_lesson())
    for name, value in functions.items():
        if name not in every:
            raise ValueError(f"{name} is not a name the learner writes in any lesson")
        _put(name, value)
        _installed[name] = value


def use_reference(lesson=None):
    """Put the reference back for `lesson`'s learner-written names (every lesson's if None)."""
    names = manifest.names_every_lesson() if lesson is None else manifest.names(lesson)
    for name in names:
        _restore(name)
        _installed.pop(name, None)


def use_names(names):
    """Put the reference back for these full names alone (a lab that no longer passes)."""
    for name in names:
        _restore(name)
        _installed.pop(name, None)


def running_on(lesson=None):
    """{full name: "yours" or "reference"} for `lesson`'s learner-written names (every lesson's
    if None)."""
    names = manifest.names_every_lesson() if lesson is None else manifest.names(lesson)
    return {name: "yours" if name in _installed else "reference" for name in names}


@contextlib.contextmanager
def installed(ns):
    """For the length of a `with`: harness runs on the learner's definitions in `ns` (anything
    with a .learner() that gives them by full name, as manifest.Namespace has), and afterwards on
    whatever it ran on before, even if something inside installed more."""
    learner = getattr(ns, "learner", None)
    found = learner() if callable(learner) else {}
    saved = {}
    for name in manifest.names_every_lesson():
        for owner, attribute in manifest.places(name):
            saved[(id(owner), attribute)] = (owner, attribute, vars(owner)[attribute])
    try:
        for name, value in found.items():
            _put(name, value)
        yield
    finally:
        for owner, attribute, value in saved.values():
            setattr(owner, attribute, value)


# -- the course's answers, out of the learner's reach while a check runs ---------------------

def codes_of(found):
    """{code object: full name} of the learner's functions in `found` ({full name: object})."""
    codes = {}
    for name, value in found.items():
        code = _code_of(value)
        if code is not None:
            codes[code] = name
    return codes


def _code_of(value):
    return getattr(unwrapped(value), "__code__", None)


def the_courses_own(name, value):
    """A sentence if `value` is the course's own definition of `name` (`summarize =
    harness.summarize`), else "". Graded, harness holds a stub there: it would score nothing."""
    code = _code_of(value)
    if code is None or code is not _code_of(reference_of(name)):
        return ""
    return handed_back(name)


def _nested_codes(code):
    """`code` and every code object defined inside it (its lambdas, closures and comprehensions)."""
    found = [code]
    for const in code.co_consts:
        if isinstance(const, type(code)):
            found += _nested_codes(const)
    return found


@contextlib.contextmanager
def answers_out_of_reach(lesson, found):
    """While a lab's tests run, the learner's functions under test may not call what graded code
    would find a stub in place of: graded, `harness` is the lesson's starter, where every gap of
    the lesson is one, so a call that works here on harness's definition would score nothing
    there. Each such call fails its test:
    - the course's own definition of the function's own name, reached through harness
      (`return harness.summarize(...)`) or under a name of the learner's own kept before the
      check (`from harness import summarize as ref`, a closure); it would also call itself once
      installed;
    - harness's definition of any other function the lesson asks for, the course's or the
      learner's own put there by a check that passed (`harness.find_cut(...)` in compact): the
      learner's own name is the one to call.
    The same holds for the learner's other code in the notebook's cells (a helper of theirs,
    another lab's function): graded, it reaches the same stubs. Given code and the tests may
    still call all of it (a test of one gap runs it beside the reference of the others, so that
    a failure is that gap's own). A definition the learner's own cell put into harness
    (`harness.summarize = summarize`) is not refused: graded, that cell puts it there too. A
    method is only refused to its own name: a test hands the learner's code objects of the
    course's classes, whose methods it may call. `found` is {full name: the learner's object} of
    the names under test."""
    learner = codes_of(found)
    codes = {id(c): name for c0, name in learner.items() for c in _nested_codes(c0)}
    saved, stand_ins, standing = [], {}, {}   # standing: id(definition) -> its stand-in
    for name in manifest.names(lesson):
        if name in _installed and name in found:
            continue   # the learner's own, put there by a check that passed, under test again
        # Each place on its own: a cell of the learner's may have rebound one of them
        # (`harness.summarize = summarize`) and left the course's own in another.
        for owner, attribute in manifest.places(name):
            value = vars(owner).get(attribute)
            course = value is not _installed.get(name, _installed)
            if not inspect.isfunction(value) or (course and put_by_the_learners_cells(value)):
                continue
            # One stand-in for one definition wherever it is: a name of the learner's that
            # keeps it gets the same one (guard_aliases)
            if id(value) not in standing:
                standing[id(value)] = guarded(name, value, codes, course=course)
                if course:
                    stand_ins[id(value)] = standing[id(value)]
            saved.append((owner, attribute, value))
            setattr(owner, attribute, standing[id(value)])
    saved += guard_doors(codes, stand_ins)
    undo = guard_aliases(found.values(), stand_in_for(lesson, stand_ins, codes))
    global _under_test
    outer, _under_test = _under_test, codes
    try:
        yield
    finally:
        _under_test = outer
        for put_back in reversed(undo):
            put_back()
        for owner, attribute, value in reversed(saved):
            setattr(owner, attribute, value)
