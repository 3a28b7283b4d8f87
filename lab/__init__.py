"""The stage around the harness: a scripted model, an in-memory disk, message builders, and ways
to look at what happened. Importing it loads no plotting or widget library."""

from .builders import call, reply, say, text, tool_result, user
from .display import big_log, count_tokens, render_request, shape, show, validate
from .model import Request, ScriptError, ScriptedModel, fail, forever, summariser
from .shell import Shell
from .workspace import Workspace
from .checkcell import check
from .takeover import install, running_on, use_reference
from .notebook import draw_log, hints, progress, require_pass, rung, show_diff, trying
