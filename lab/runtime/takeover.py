"""The learner's code takes over: once a lab passes, its definitions go into `harness`, so the
lesson's demonstration cells (which call harness.find_cut, build harness.SessionLog and so on)
run on the learner's code. use_reference() puts the reference back.

Where each name goes is lab.course.manifest.places: a function goes into the package and into every
module of the reference that holds it (the given code calls it from there), a method into its
class."""

import contextlib

from lab.course import manifest

_REFERENCE = {}   # (owner, attribute) -> the reference's object, the first time it is replaced
_installed = {}   # full name -> the learner's object now in harness


def _put(name, value):
    for owner, attribute in manifest.places(name):
        key = (id(owner), attribute)
        if key not in _REFERENCE:
            _REFERENCE[key] = (owner, attribute, vars(owner)[attribute])
        setattr(owner, attribute, manifest._as_method(name, value) if manifest.owner_of(name) else value)


def _restore(name):
    for owner, attribute in manifest.places(name):
        saved = _REFERENCE.get((id(owner), attribute))
        if saved is not None:
            setattr(owner, attribute, saved[2])


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
