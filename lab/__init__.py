"""The stage around the harness: a scripted model, an in-memory disk, message builders, and ways
to look at what happened. Importing it loads no plotting, widget, notebook, template or HTTP
library: those wait until a cell, lesson 16 or the agent's demonstration asks for them."""



def _the_course_harness():
    """Import the course's `harness` package before anything else can. `python -m lab starter 12 >
    harness.py` makes the learner's harness.py in the current folder before Python starts, and the
    current folder comes first on sys.path: without this, that (empty) file would stand in for the
    package."""
    import importlib.util
    import os
    import sys
    if "harness" in sys.modules:
        return
    spec = importlib.util.find_spec("harness")
    if spec is not None and spec.submodule_search_locations is not None:
        return   # the package itself comes first
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, root)
    try:
        import harness  # noqa: F401
    finally:
        sys.path.remove(root)


_the_course_harness()

from .runtime.sourcelines import hide_markers  # noqa: E402

hide_markers()   # a traceback through the reference quotes no solution markers

from .stage.builders import call, reply, say, text, tool_result, user
from .stage.display import big_log, count_tokens, render_request, shape, show, validate
from .stage.display import Captured, capture_stdout, event_types
from .stage.virtual_time import clock
from .stage.model import CACHED_RATE, Request, ScriptError, ScriptedModel, fail, forever
from .stage.props import guesser, summariser
from .stage.shell import Shell, reaches_network
from .stage.workspace import PowerCut, Workspace
from .stage.async_stage import (AsyncScriptedModel, AsyncShell, Deadlock, Keystroke, OutOfTime,
                                TimedShell, Timing, Unheard, cancel_at, keyboard, meanwhile, timing)
from .runtime.checkcell import check
from .runtime.takeover import install, running_on, use_reference
from .runtime.cells import draw_log, hints, progress, require_pass, rung, show_diff, trying
from .runtime.lesson_harness import harness_at, harness_now, now, ran_on
# The start page in the learner's folder follows every answer saved in this kernel (it hooks itself
# onto the answers store when imported).
from .learner import startpage as _startpage  # noqa: E402,F401
# In a kernel, a demonstration that runs the learner's code stops at the checks' time limit.
from .runtime import demo_guard as _demo_guard  # noqa: E402

_demo_guard.install()

# Loaded when first asked for: the chat server pulls in http.server and the template model jinja2,
# some 60 ms that every Python importing lab (a command line, a check's worker) would pay, and
# only lesson 16 and the agent's demonstration use them. Neither defines an exception class, so
# lab's exceptions are all in dir(lab) from the start (the grader reads them there).
_LATER = {"ChatServer": "chat_server", "answer_status": "chat_server",
          "ALTERNATING_TEMPLATE": "chat_template", "TemplateModel": "chat_template"}


def __getattr__(name):
    if name not in _LATER:
        raise AttributeError(f"module 'lab' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".stage.{_LATER[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LATER))

