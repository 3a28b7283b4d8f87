"""The reference harness, as lesson 14 leaves it: the last synchronous harness, the one lessons 01-14
import and run (syllabus.PACKAGE_LESSON). Lesson 15's async rewrites are in later/.

One module per region, in the order the course teaches them:

    messages.py    1 messages      what a conversation is made of
    tools.py       2 tools         what the model may ask this program to do, and what it may reach
    loop.py        3 loop          the code that talks to the model
    harness.py     4 harness       the Harness, which owns the transcript, and session()
    frontends.py   5 frontends     what the user sees of a run
    sessionlog.py  6 environment   the session log on disk and its replay
    compaction.py  6 environment   outlasting the context window
    adapters.py    7 adapters      one record, translated for each provider (lesson 16)

syllabus.py says which lesson introduces each definition and whether it is given or a gap there;
earlier/ keeps the older versions of definitions a later lesson rewrites, and later/ the newer
versions of the lessons after 14 (`python -m lab end 16` is the whole final harness); gaps/ holds
the text that stands in a learner's starter where a gap is. `python -m lab starter N` builds the
single harness.py a learner starts lesson N from. This package never imports `lab`.
"""

from .messages import SYSTEM, error_message, render, text_of, tool_calls, user_message
from .tools import (COMMAND_RULES, CONSEQUENTIAL, MAX_BYTES, MAX_LINES, briefing, command_rules,
                    gate, int_arg, make_bash_tool, make_read_tool, make_write_tool, run_tool,
                    str_arg, tool_specs, truncate_head, truncate_tail)
from .loop import INTERRUPTED, context_for_model, repair_tool_history, run_agent
from .harness import Harness, session
from .frontends import FinalTextRenderer, JsonRenderer
from .sessionlog import SUMMARY_PREFIX, SessionLog, persist_to
from .compaction import (DATA_RULE, SUMMARY_SYSTEM, QuotingWriter, compact, estimate_tokens,
                         find_cut, maybe_compact, summarize)
from .adapters import (PORTABLE_ID, STOP_REASONS, TOO_LONG, AdapterModel, ChatCompletions,
                       ChatTemplate, chat_reply, chat_request, merge_runs, portable_id,
                       provider_error, template_messages, tool_call_line, tools_prompt)

__all__ = [
    "SYSTEM", "user_message", "text_of", "tool_calls", "error_message", "render",
    "str_arg", "int_arg", "tool_specs", "briefing", "run_tool", "MAX_LINES", "MAX_BYTES", "truncate_head",
    "truncate_tail", "make_read_tool", "make_write_tool", "make_bash_tool",
    "CONSEQUENTIAL", "gate", "COMMAND_RULES", "command_rules",
    "run_agent", "context_for_model", "INTERRUPTED", "repair_tool_history",
    "Harness", "session",
    "JsonRenderer", "FinalTextRenderer",
    "SUMMARY_PREFIX", "SessionLog", "persist_to",
    "estimate_tokens", "SUMMARY_SYSTEM", "summarize", "find_cut", "compact", "maybe_compact",
    "DATA_RULE", "QuotingWriter",
    "PORTABLE_ID", "portable_id", "merge_runs", "tool_call_line", "tools_prompt", "template_messages",
    "chat_request", "TOO_LONG", "STOP_REASONS", "provider_error", "chat_reply",
    "ChatTemplate", "ChatCompletions", "AdapterModel",
]
