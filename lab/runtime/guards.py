"""What a check refuses of the learner's code, and in which words: while a lab's tests run
(lab.runtime.takeover.answers_out_of_reach), the learner's functions under test, and the other
functions of the notebook's cells, may not reach what graded code would find a stub in place of,
or not find at all. The guards that stand in for harness's definitions and for lab's functions
that hand over the course's answers, wherever the learner's code keeps them; the sentences they
fail a test with, which the grader's worker says too (refusals, door_refusals)."""

import functools
import inspect
import sys

from lab.checks import ReferenceCalled
from lab.course import manifest


def unwrapped(value):
    """A property's getter, a method's function, or `value` itself."""
    value = value.fget if isinstance(value, property) else value
    return getattr(value, "__func__", value)


def handed_back(name):
    """The sentence for a gap that is harness's own definition of its name; graded, the
    sandbox says it of the starter's stub (refusals)."""
    bare = manifest.bare(name)
    return (f"{bare} is the course's own harness.{bare}, which graded code does not have: write "
            f"{bare} yourself")


# lab's functions that hand over the course's own answers. Graded, lab serves none of them
# (lab.grader.sandbox.LAB_NAMES), so the learner's code under test may not call them here either.
DOORS = ("harness_at", "harness_now", "now", "use_reference")


def door_refusal(caller, door):
    """The sentence that fails a test where the learner's function `caller` calls lab.`door`;
    graded, the sandbox's lab says the same (HELPER for the caller)."""
    return (f"your {manifest.bare(caller)} calls lab.{door}, which hands over the course's own "
            f"answers and which graded code does not have: use your own code instead")


def door_refusals():
    """{door: its sentence, HELPER where the caller's name goes}: what the grader's worker says of
    a call to each of lab's DOORS from the learner's code (lab.grader.wire._refused_door)."""
    return {door: door_refusal(HELPER, door) for door in DOORS}


def guard_doors(codes, stand_ins):
    """Put a stand-in for each of lab's DOORS in lab and in the module that defines it, refusing
    the learner's code under test (`codes`) as guarded does; add each to `stand_ins` for
    guard_aliases. [(owner, attribute, what to put back)]."""
    lab = sys.modules.get("lab")
    saved = []
    for door in DOORS if lab is not None else ():
        value = vars(lab).get(door)
        if not inspect.isfunction(value):
            continue

        def stand_in(*args, _door=door, _value=value, **kwargs):
            caller = _caller(sys._getframe(1).f_code, codes)
            if caller is not None:
                raise ReferenceCalled(door_refusal(caller, _door))
            return _value(*args, **kwargs)
        functools.update_wrapper(stand_in, value)
        stand_ins[id(value)] = stand_in
        for owner in {id(m): m for m in (lab, sys.modules.get(value.__module__)) if m is not None}.values():
            if vars(owner).get(door) is value:
                saved.append((owner, door, value))
                setattr(owner, door, stand_in)
    return saved


WHOLE = "<harness.py as lesson "   # how the modules lab.harness_at and harness_now make name their file


def stand_in_for(lesson, stand_ins, codes):
    """What stands in, while the check runs, for a value the learner's code keeps under a name of
    its own (None: nothing): an answer's stand-in (stand_ins: {id(answer): stand-in}), or, for a
    copy of the course's answer to one of the lesson's functions taken from a module of the
    harness made whole (`ref = lab.harness_at(13).summarize` before the check), a guard like the
    one harness's own definition has."""
    gaps = {manifest.bare(n): n for n in manifest.names(lesson) if not manifest.owner_of(n)}

    def stand_in_for(value):
        stand_in = stand_ins.get(id(value))
        function = _function_of(value) if stand_in is None else None
        if function is not None and function.__code__.co_filename.startswith(WHOLE) \
                and function.__name__ in gaps:
            stand_in = guarded(gaps[function.__name__], value, codes)
        return stand_in
    return stand_in_for


def guard_aliases(objects, stand_in_for):
    """Put a stand-in (stand_in_for(value), or None) wherever the learner's code reaches an answer
    under a name of its own: a global of the namespace the learner's functions in `objects` were
    defined in (the notebook's), a closure cell of theirs, or a module of the harness made whole
    kept in such a global (`h = lab.harness_at(13)`). (A default argument cannot hold it:
    manifest.signature_problem refuses a parameter the gap does not have.) [function that puts
    each one back]."""
    undo = []
    scopes = {}
    for function in filter(None, map(_function_of, objects)):
        if not _course_module(function.__globals__):
            scopes[id(function.__globals__)] = function.__globals__
        for cell in function.__closure__ or ():
            try:
                stand_in = stand_in_for(cell.cell_contents)
            except ValueError:   # a cell not filled yet
                continue
            if stand_in is not None:
                undo.append(_swap_cell(cell, stand_in))
    for scope in list(scopes.values()):
        for value in list(scope.values()):
            if inspect.ismodule(value) and str(getattr(value, "__file__", "")).startswith(WHOLE):
                scopes[id(vars(value))] = vars(value)
    for scope in scopes.values():
        for name, value in list(scope.items()):
            stand_in = stand_in_for(value)
            if stand_in is not None:
                undo.append(_swap_item(scope, name, stand_in))
    return undo


def _course_module(scope):
    """True if `scope` is the namespace of one of the course's own modules (a function of the
    course's, written out anew, may keep it: tests do)."""
    name = scope.get("__name__")
    module = sys.modules.get(name) if isinstance(name, str) else None
    return module is not None and vars(module) is scope and name.split(".")[0] in ("harness", "lab")


def _function_of(value):
    value = unwrapped(value)
    return value if inspect.isfunction(value) else None


# Each puts its stand-in in and gives back what puts the old value back, unless the learner's
# code has since put something else there itself (then that stays).

def _swap_item(scope, name, stand_in):
    old = scope[name]
    scope[name] = stand_in

    def put_back():
        if scope.get(name) is stand_in:
            scope[name] = old
    return put_back


def _swap_cell(cell, stand_in):
    old = cell.cell_contents
    cell.cell_contents = stand_in

    def put_back():
        try:
            if cell.cell_contents is stand_in:
                cell.cell_contents = old
        except ValueError:
            pass
    return put_back


HELPER = "{caller}"   # in refusals: where the worker puts the name of a helper of the learner's


def refusal(caller, name, course=True):
    """The sentence that fails a test where the learner's function `caller` calls harness's
    definition of `name` (full names; the course's when `course`, else the learner's own put
    there), or None where that call is allowed (answers_out_of_reach says which are refused).
    Graded, the sandbox says the same (refusals)."""
    bare = manifest.bare(name)
    if course and caller == name:
        return (f"your {bare} calls harness.{bare}, the course's own answer, which graded code does "
                f"not have: write {bare} yourself")
    if manifest.owner_of(name):
        return None
    return (f"your {manifest.bare(caller)} calls harness.{bare}, which graded code does not have "
            f"(there every gap of the lesson is a stub): call your own {bare} instead")


def put_by_the_learners_cells(value):
    """True if `value`, a definition harness holds that lab did not put there, is a function of
    the notebook's cells (`harness.summarize = summarize` in a cell of the learner's): graded, that
    cell puts it into the worker's harness too, so a call of it through harness is no call of a
    stub there either."""
    code = getattr(value, "__code__", None)
    return code is not None and _cell_function(code) is not None


def _caller(code, codes):
    """The learner's function that `code` is of: one under test (`codes`: {id(code): full name}),
    or one of the notebook's cells; None for any other code."""
    return codes.get(id(code)) or _cell_function(code)


def _cell_function(code):
    """The name of the function of a notebook cell that `code` belongs to (its outermost name: a
    helper's lambda is the helper's), or None for code that no cell of this kernel defined, and
    for a cell's own top level. Outside IPython, None."""
    shell = running_shell()
    try:
        in_a_cell = shell is not None and shell.compile.format_code_name(code.co_filename) is not None
    except Exception:   # an IPython without that method: no cell is told apart
        return None
    outer = code.co_qualname.split(".")[0]
    return outer if in_a_cell and outer.isidentifier() else None


def running_shell():
    """The IPython shell this process runs, or None. A shell runs only where IPython is loaded
    already, so this never imports it: a command line's check, or `import lab`, would pay some
    50 ms to learn that none runs."""
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


def refusals(lesson):
    """What the grader's worker, whose harness is the starter, says where lab.check refuses
    harness's definitions in `lesson`, for its functions (a method of harness's is refused by
    manifest.find in both): {bare name: {"own": the learner's function of that name reaching its
    stub, "other": any other function of the learner's reaching it, HELPER where the caller's name
    goes, "handed_back": a gap that is the stub itself}}."""
    return {manifest.bare(name): {"own": refusal(name, name), "other": refusal(HELPER, name),
                                  "handed_back": handed_back(name)}
            for name in manifest.names(lesson) if not manifest.owner_of(name)}


def guarded(name, value, codes, course=True):
    """`value` (harness's definition of `name`: the course's when `course`, else the learner's
    own put there) as it stands in harness while a check runs: it refuses a call from the
    learner's functions under test (`codes`) as answers_out_of_reach says, and runs for any other
    caller."""

    @functools.wraps(value)
    def guarded(*args, **kwargs):
        caller = _caller(sys._getframe(1).f_code, codes)
        sentence = refusal(caller, name, course) if caller is not None else None
        if sentence is not None:
            raise ReferenceCalled(sentence)
        return value(*args, **kwargs)
    return guarded
