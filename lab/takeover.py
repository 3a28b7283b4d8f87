"""The learner's code takes over: once a lab passes, its functions go into `harness`, so the
lesson's demonstration cells (which call harness.find_cut and so on) run on the learner's code.
use_reference() puts the reference back."""

import contextlib

import harness
from harness import compaction, sessionlog

# Where each learner-written name lives in the reference: (module, attribute) pairs to replace.
# A module-level function is replaced in its own module too, because the given code calls it
# from there (maybe_compact calls compaction.compact, compact calls compaction.summarize).
PLACES = {
    "summarize": [(harness, "summarize"), (compaction, "summarize")],
    "find_cut": [(harness, "find_cut"), (compaction, "find_cut")],
    "compact": [(harness, "compact"), (compaction, "compact")],
    "rows": [(sessionlog.SessionLog, "rows")],
}
LESSON_NAMES = {12: ["summarize", "find_cut", "rows", "compact"]}

_REFERENCE = {name: [getattr(owner, attr) for owner, attr in places] for name, places in PLACES.items()}
_installed = {}  # name -> the learner's function now in harness


def _as_installed(name, function):
    if name == "rows":  # a method: bind through a real function, whatever the learner passed
        def rows(self):
            return function(self)
        rows.__doc__ = getattr(function, "__doc__", None)
        return rows
    return function


def install(**functions):
    """Put the learner's `functions` (by name: summarize=..., rows=...) into harness."""
    for name, function in functions.items():
        if name not in PLACES:
            raise ValueError(f"{name} is not a name the learner writes; known: {', '.join(PLACES)}")
        for owner, attr in PLACES[name]:
            setattr(owner, attr, _as_installed(name, function))
        _installed[name] = function


def use_reference(lesson=12):
    """Put the reference's versions of `lesson`'s learner-written names back into harness."""
    for name in LESSON_NAMES.get(lesson, []):
        for (owner, attr), original in zip(PLACES[name], _REFERENCE[name]):
            setattr(owner, attr, original)
        _installed.pop(name, None)


def running_on():
    """{name: "yours" or "reference"} for every learner-written name."""
    return {name: "yours" if name in _installed else "reference" for name in PLACES}


@contextlib.contextmanager
def installed(ns):
    """For the length of a `with`: harness runs on whichever learner-written names `ns` has."""
    saved = {name: [getattr(owner, attr) for owner, attr in places] for name, places in PLACES.items()}
    try:
        for name, places in PLACES.items():
            function = getattr(ns, name, None)
            if function is not None:
                for owner, attr in places:
                    setattr(owner, attr, _as_installed(name, function))
        yield
    finally:
        for name, places in PLACES.items():
            for (owner, attr), original in zip(places, saved[name]):
                setattr(owner, attr, original)
