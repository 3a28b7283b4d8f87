"""Wrong answers to lesson 13's gaps: each is a design one of the lesson's rungs argues against,
and its docstring names that rung (its id in RUNGS). The lab tests must catch every one with a
visible test, in a sentence that names the function at fault (tests/lessons/test_checks.py)."""

import datetime
import itertools

from harness import SYSTEM, Harness, briefing, user_message

HAND_WRITTEN = {"read": "Read a file to see what it says.",
                "write": "Save text to a file, making it or replacing it.",
                "bash": "Run a shell command, such as the test suite.",
                "grep": "Search the files for a word."}


def _guideline(tool):
    return ((tool.get("guideline") or tool["description"]).splitlines() or [""])[0].strip()


def _workspace(facts):
    return ["", "Workspace:"] + [f"{k}: {facts[k]}" for k in sorted(facts)] if facts else []


def _tool_lines(tools):
    return [f"- {t['name']}: {_guideline(t)}" for t in sorted(tools, key=lambda t: t["name"])] \
        or ["(none)"]


# -- briefing -----------------------------------------------------------------------------------

def briefing_hand_written(tools, facts):
    """Lists the four tools a coding agent usually has, whatever this session was given
    (where-tools-come-from: a text written once by hand)."""
    lines = [f"- {name}: {text}" for name, text in sorted(HAND_WRITTEN.items())]
    return "\n".join([SYSTEM, "", "Tools:"] + lines + _workspace(facts))


def briefing_in_callers_order(tools, facts):
    """Keeps the order the caller passed the tools in (tool-order)."""
    lines = [f"- {t['name']}: {_guideline(t)}" for t in tools] or ["(none)"]
    return "\n".join([SYSTEM, "", "Tools:"] + lines + _workspace(facts))


def briefing_time_on_top(tools, facts):
    """Opens with the current time, so the model always knows it (where-now-goes, stamp-hits)."""
    stamp = datetime.datetime.now().strftime("%Y-%m-%d")
    return "\n".join([f"Today is {stamp}.", SYSTEM, "", "Tools:"] + _tool_lines(tools)
                     + _workspace(facts))


_built = itertools.count(1)


def briefing_rebuilt_and_numbered(tools, facts):
    """Says which rebuild of the briefing this is: built anew for every prompt, it changes every
    time (why-once)."""
    return "\n".join([SYSTEM, "", "Tools:"] + _tool_lines(tools) + _workspace(facts)
                     + ["", f"(briefing {next(_built)})"])


def briefing_names_only(tools, facts):
    """Names each tool and leaves its guideline out (what-is-stable: the guidelines belong in)."""
    lines = [f"- {t['name']}:" for t in sorted(tools, key=lambda t: t["name"])] or ["(none)"]
    return "\n".join([SYSTEM, "", "Tools:"] + lines + _workspace(facts))


def briefing_description_always(tools, facts):
    """Describes each tool by its description and never by its own guideline
    (what-is-stable)."""
    lines = [f"- {t['name']}: {t['description'].splitlines()[0].strip()}"
             for t in sorted(tools, key=lambda t: t["name"])] or ["(none)"]
    return "\n".join([SYSTEM, "", "Tools:"] + lines + _workspace(facts))


def briefing_facts_as_given(tools, facts):
    """Writes the facts in the order the caller gave them, so two callers with the same facts get
    different bytes (tool-order, for facts)."""
    lines = [f"{k}: {v}" for k, v in facts.items()]
    return "\n".join([SYSTEM, "", "Tools:"] + _tool_lines(tools) + ["", "Workspace:"] + lines)


# -- session ------------------------------------------------------------------------------------

def session_every_tool(model, tools, facts, messages=(), max_turns=None, *, now=None):
    """Briefs every tool a coding agent has, not the ones passed in (where-tools-come-from)."""
    known = [dict(name=n, description=d) for n, d in HAND_WRITTEN.items()]
    start = list(messages) + ([user_message(f"[Session started {now}]")] if now else [])
    return Harness(model, briefing(known, facts), tools, start, max_turns)


def session_now_on_top(model, tools, facts, messages=(), max_turns=None, *, now=None):
    """Puts the moment at the top of the system prompt (where-now-goes)."""
    system = briefing(tools, facts)
    if now:
        system = f"{now}\n{system}"
    return Harness(model, system, tools, list(messages), max_turns)


def session_now_at_the_end(model, tools, facts, messages=(), max_turns=None, *, now=None):
    """Puts the moment at the end of the system prompt, after the stable part but still inside it
    (where-now-goes)."""
    system = briefing(tools, facts) + (f"\n\nSession started {now}" if now else "")
    return Harness(model, system, tools, list(messages), max_turns)


def session_tools_in_callers_order(model, tools, facts, messages=(), max_turns=None, *, now=None):
    """Sorts the briefing's lines but hands the Harness the tools as the caller listed them, so a
    resume with [write, read] after [read, write] misses the cache (tool-order: the definitions
    sit in the same cached unit as the system prompt)."""
    start = list(messages) + ([user_message(f"[Session started {now}]")] if now else [])
    return Harness(model, briefing(tools, facts), tools, start, max_turns)


def session_sorts_in_place(model, tools, facts, messages=(), max_turns=None, *, now=None):
    """Sorts the caller's own list of tools instead of a copy, so the caller finds its list
    reordered (tool-order)."""
    tools.sort(key=lambda tool: tool["name"])
    start = list(messages) + ([user_message(f"[Session started {now}]")] if now else [])
    return Harness(model, briefing(tools, facts), tools, start, max_turns)


def session_on_the_callers_list(model, tools, facts, messages=(), max_turns=None, *, now=None):
    """Appends the moment to the caller's own messages list and hands that list on: no copy
    needed (where-now-goes: the moment belongs in this session's transcript, and the caller's
    list may open the next session too)."""
    tools = sorted(tools, key=lambda tool: tool["name"])
    if now:
        messages.append(user_message(f"[Session started {now}]"))
    return Harness(model, briefing(tools, facts), tools, messages, max_turns)


class _Rebriefing(Harness):
    def __init__(self, model, tools, facts, messages, max_turns):
        super().__init__(model, briefing(tools, facts), tools, messages, max_turns)
        self._facts = facts

    def prompt(self, text):
        # Fresh facts for every prompt, so the model is never told anything stale.
        self._system = briefing(self._tools, self._facts)
        return super().prompt(text)


def session_rebuilt_every_prompt(model, tools, facts, messages=(), max_turns=None, *, now=None):
    """Rebuilds the briefing before every prompt from the facts as they are then (why-once)."""
    start = list(messages) + ([user_message(f"[Session started {now}]")] if now else [])
    return _Rebriefing(model, tools, facts, start, max_turns)


WRONG = {
    1: {"briefing": [briefing_hand_written, briefing_in_callers_order, briefing_time_on_top,
                     briefing_rebuilt_and_numbered, briefing_names_only,
                     briefing_description_always, briefing_facts_as_given]},
    2: {"session": [session_every_tool, session_now_on_top, session_now_at_the_end,
                    session_rebuilt_every_prompt, session_tools_in_callers_order,
                    session_sorts_in_place, session_on_the_callers_list]},
}
