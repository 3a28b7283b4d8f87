"""The reference harness, as it stands at the end of the newest lesson the course has written.

One module per region, in the order the course teaches them:

    messages.py    1 messages      what a conversation is made of
    tools.py       2 tools         what the model may ask this program to do
    loop.py        3 loop          the code that talks to the model
    owner.py       4 harness       the Harness, which owns the transcript
    frontends.py   5 frontends     what the user sees of a run
    sessionlog.py  6 environment   the session log on disk and its replay
    compaction.py  6 environment   outlasting the context window

syllabus.py says which lesson introduces each definition and whether it is given or a gap there;
earlier/ keeps the older versions of definitions a later lesson rewrites; gaps/ holds the text
that stands in a learner's starter where a gap is. `python -m lab starter N` builds the single
harness.py a learner starts lesson N from. This package never imports `lab`.
"""

from .messages import SYSTEM, error_message, render, text_of, tool_calls, user_message
from .tools import (MAX_BYTES, MAX_LINES, int_arg, make_bash_tool, make_read_tool,
                    make_write_tool, run_tool, str_arg, tool_specs, truncate_head, truncate_tail)
from .loop import INTERRUPTED, context_for_model, repair_tool_history, run_agent
from .owner import Harness
from .frontends import FinalTextRenderer, JsonRenderer
from .sessionlog import SessionLog, persist_to
from .compaction import (SUMMARY_SYSTEM, compact, estimate_tokens, find_cut, maybe_compact,
                         summarize)

__all__ = [
    "SYSTEM", "user_message", "text_of", "tool_calls", "error_message", "render",
    "str_arg", "int_arg", "tool_specs", "run_tool", "MAX_LINES", "MAX_BYTES", "truncate_head",
    "truncate_tail", "make_read_tool", "make_write_tool", "make_bash_tool",
    "run_agent", "context_for_model", "INTERRUPTED", "repair_tool_history",
    "Harness",
    "JsonRenderer", "FinalTextRenderer",
    "SessionLog", "persist_to",
    "estimate_tokens", "SUMMARY_SYSTEM", "summarize", "find_cut", "compact", "maybe_compact",
]
