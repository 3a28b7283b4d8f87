"""What each lab of each lesson asks of the learner, worked out from harness/syllabus.py and the
reference code. No other table says which names a lab covers, what they take, or where a
passing learner's code goes: everything here is derived, so a new lesson costs only its own rows
in the syllabus.

Names are full names, as in syllabus.UNITS: "summarize", "SessionLog.rows",
"FinalTextRenderer.render". A method is a gap on the same terms as a function.

    labs(12)                  [1, 2]
    names(12, 2)              ["SessionLog.rows", "find_cut", "compact"]
    parameters("find_cut")    ["rows", "keep_recent_tokens"]
    places("summarize")       every (owner, attribute) where the reference keeps it
    find(scope, "SessionLog.rows")   the learner's object for a name, in a notebook's namespace
"""

import importlib
import inspect
import types

import harness
from harness import syllabus
from lab.course import starters
# The syllabus's facts are part of what the manifest answers: manifest.names(12, 2) and the like.
from lab.course.labs import MODULES, bare, labs, last_lab, names, names_every_lesson, owner_of  # noqa: F401


class NotFound(LookupError):
    """A learner-written name that the namespace does not hold; the message says what to run."""


# -- the reference, as harness held it when lab was imported ------------------------------------
# Before any cell of the learner's ran. Later a cell may rebind harness's names
# (`harness.summarize = summarize`) and a check that passed puts the learner's code there, so the
# reference is read from this copy, never from harness as it is now: else the learner's function
# would pass for the course's own, and the course's own, left in a module, for nobody's.

def _copy_of_the_reference():
    owners = [harness] + [importlib.import_module(f"harness.{m}") for m in MODULES]
    owners += [getattr(harness, owner) for owner in sorted({owner_of(n) for n in names_every_lesson()} - {None, ""})]
    return {id(owner): (owner, dict(vars(owner))) for owner in owners}


_AS_IMPORTED = _copy_of_the_reference()


def as_imported(owner, attribute):
    """What `owner` (the harness package, one of its modules, or a class of it) held at
    `attribute` when lab was imported: the reference there. For a class, its bases are looked
    in too, as inspect.getattr_static does; AttributeError if none held it."""
    for space in ([owner] if not inspect.isclass(owner) else owner.__mro__):
        kept = _AS_IMPORTED.get(id(space))
        held = kept[1] if kept is not None else vars(space)
        if attribute in held:
            return held[attribute]
    raise AttributeError(f"harness held no {attribute} in {getattr(owner, '__name__', owner)}")


def reference(name, lesson=None):
    """The reference's object for a full name (for a property, the property itself): the
    package's, or, given `lesson`, the version that lesson leaves. An older one is made from its
    text in harness/earlier/ in the globals of the module that defines it; a newer one (a
    lesson after syllabus.PACKAGE_LESSON rewrote it) is taken from the whole harness.py of that
    lesson, run, so that it calls the other definitions of its own lesson."""
    owner, attribute = owner_of(name), bare(name)
    final = as_imported(as_imported(harness, owner), attribute) if owner else as_imported(harness, attribute)
    steps = syllabus.UNITS[name]
    past = [s for s in steps if lesson is None or s.lesson <= lesson]
    home = [s for s in steps if s.lesson <= syllabus.PACKAGE_LESSON] or steps[:1]
    if lesson is None or not past or past[-1] is home[-1]:
        return final
    if past[-1].lesson > home[-1].lesson:
        module = whole(lesson)
        value = getattr(module, owner).__dict__[attribute] if owner else getattr(module, attribute)
        return value
    text = starters.definition(name, lesson=lesson)
    home = inspect.getmodule(_function(final))
    scope = dict(vars(home)) if home is not None else {}
    exec(compile(text, f"<{name} as lesson {lesson} leaves it>", "exec"), scope)
    value = scope[attribute]
    return property(value) if isinstance(final, property) else value


def run_whole(lesson):
    """A new module holding the whole harness.py as lesson `lesson` leaves it, run: its
    definitions call each other as they do in the learner's own file."""
    module = types.ModuleType(f"harness_at_lesson_{lesson:02d}")
    module.__file__ = f"<harness.py as lesson {lesson} leaves it>"
    exec(compile(starters.text_at(starters.Stage(lesson)), module.__file__, "exec"), module.__dict__)
    return module


_WHOLE = {}


def whole(lesson):
    """The module run_whole(lesson) gives, run once a process and shared by every caller after:
    what the references of a lesson after the package's are taken from, and lab.harness_at."""
    if lesson not in _WHOLE:
        _WHOLE[lesson] = run_whole(lesson)
    return _WHOLE[lesson]


def kind(name):
    """"method", "class", "function" or "constant"."""
    if owner_of(name):
        return "method"
    value = reference(name)
    if inspect.isclass(value):
        return "class"
    return "function" if callable(value) else "constant"


def _function(value):
    return value.fget if isinstance(value, property) else value


def parameters(name, lesson=None):
    """The parameter names `name` takes (self included for a method) as lesson `lesson` leaves it
    (the final reference if None), or None for a constant or a class."""
    if kind(name) in ("constant", "class"):
        return None
    return list(inspect.signature(_function(reference(name, lesson))).parameters)


def places(name):
    """[(owner, attribute)] for every place the reference keeps `name`: the package, the module
    that defines it, and any module that imported it by name, since the given code calls it from
    there. A method has one place: its class."""
    if owner_of(name):
        return [(as_imported(harness, owner_of(name)), bare(name))]
    if name not in _places:   # asked again by every test (takeover.installed)
        value = reference(name)
        _places[name] = [(owner, name) for owner, held in _AS_IMPORTED.values()
                         if not inspect.isclass(owner) and name in held and held[name] is value]
    return list(_places[name])


_places = {}   # full name -> its places


def signature_problem(name, value, lesson=None):
    """"" if `value` can stand for the learner's `name` (as lesson `lesson` asks for it), else a
    sentence saying why not."""
    want = parameters(name, lesson)
    if want is None:
        return ""
    if isinstance(value, property):
        value = value.fget
    if not callable(value):
        return f"{name} should be a function; it is a {type(value).__name__}"
    try:
        params = list(inspect.signature(value).parameters.values())
    except (TypeError, ValueError):
        return ""
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return ""
    got = [p.name for p in params]
    if got != want:
        return f"{name} should take ({', '.join(want)}); yours takes ({', '.join(got)})"
    return ""


# -- finding the learner's code ----------------------------------------------------------------

def _given(value):
    """True for an object that came from the harness package, not from the learner's cells."""
    module = getattr(_function(value), "__module__", None) or ""
    return module == "harness" or module.startswith("harness.")


def find(scope, name):
    """The learner's object for full name `name` in `scope`, a notebook's namespace. A function
    or constant is found by its name. A method is found in a class of that name that the learner
    defined, or else as a function of its bare name whose first parameter is self: a notebook
    writes `def rows(self):` at the top level. Raises NotFound in a sentence."""
    owner, attribute = owner_of(name), bare(name)
    if not owner:
        if name not in scope:
            raise NotFound(f"{name} is not defined: run the cell that defines it first")
        return scope[name]
    cls = scope.get(owner)
    if inspect.isclass(cls) and not _given(cls) and attribute in vars(cls):
        return vars(cls)[attribute]
    value = scope.get(attribute)
    if value is not None and not _given(value):
        function = _function(value)
        try:
            first = next(iter(inspect.signature(function).parameters), None)
        except (TypeError, ValueError):
            first = None
        if first == "self":
            return value
    raise NotFound(f"{name} is not defined: run the cell that defines it (def {attribute}(self, ...)) first")


class Namespace:
    """A lab test's `ns`: the learner's definitions by name. ns.summarize is the learner's
    function; ns.SessionLog is the reference class with the learner's methods in place of its
    own, so a test builds logs with ns.SessionLog(ws, path)."""

    def __init__(self, found):
        self._found = dict(found)
        classes = {}
        for name, value in found.items():
            if owner_of(name):
                classes.setdefault(owner_of(name), {})[bare(name)] = _as_method(name, value)
        for owner, methods in classes.items():
            base = as_imported(harness, owner)
            # learner_state: under the grader, the learner's methods run in another process and
            # may keep state on the instance a test made (lab/grader/wire.py, WRITABLE).
            setattr(self, owner, type(owner, (base,), dict(methods, __module__=base.__module__,
                                                            __qualname__=base.__qualname__,
                                                            learner_state=True)))
        for name, value in found.items():
            if not owner_of(name):
                setattr(self, name, value)

    def __getattr__(self, name):
        raise AttributeError(f"the learner's namespace has no {name}: the lab does not ask for it")

    def learner(self):
        """{full name: the learner's object}, as given."""
        return dict(self._found)


def _as_method(name, value):
    """A learner's function made fit to sit in a class: where the reference has a property, a
    plain function becomes one; anything else callable is wrapped in a real function, so that it
    binds to the instance whatever it is."""
    if isinstance(reference(name), property) and not isinstance(value, property):
        return property(value)
    if isinstance(value, (property, staticmethod, classmethod, types.FunctionType)):
        return value

    def method(self, *args, **kwargs):
        return value(self, *args, **kwargs)
    method.__doc__ = getattr(value, "__doc__", None)
    return method
