"""Region 2, tools: what the model may ask this program to do (lessons 2, 3, 4, 6, 13 and 14)."""

import re

from .messages import SYSTEM

# == 2 tools ==
# A tool is a dict: the model is shown its "name", "description" and "parameters"; its "execute",
# a function execute(arguments) -> str, is run by this program and by nothing else.


def str_arg(arguments, name):
    """The argument `name`, which must be a string. A schema asks the model for types but cannot
    make it obey, so every tool reads its arguments through a checker like this one. Raises
    ValueError("<name> must be a string") if the argument is absent or of another type."""
    value = arguments.get(name)
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string")
    return value


def int_arg(arguments, name, default):
    """The optional argument `name`, which must be a whole number; `default` when the model left it
    out. Raises ValueError("<name> must be an integer") for a value of any other type."""
    value = arguments.get(name)
    if value is None:
        return default
    if not isinstance(value, int):
        raise ValueError(f"{name} must be an integer")
    return value


def tool_specs(tools):
    """How the tools are described to the model: every key but the function itself."""
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]


def briefing(tools, facts):
    """The system prompt of a session that has `tools`, built from what is really there: SYSTEM,
    a blank line, "Tools:" and one line "- <name>: <guideline>" per tool, sorted by name, or the
    one line "(none)" when there are no tools. A tool's guideline is its "guideline" if it has
    one, else its description, in either case the first line only, trimmed. Then, if `facts` (a
    dict of things about the workspace that hold for the whole session) has any, a blank line,
    "Workspace:" and one line "<key>: <value>" per fact, keys sorted. Lines are joined by "\n".

    Made from its arguments alone: no clock, no disk, nothing that can differ between two calls.
    The same tools and facts, in any order, give the same string, byte for byte, so the request
    prefix a provider caches can stay the same for a whole session."""
    ### BEGIN SOLUTION
    lines = [SYSTEM, "", "Tools:"]
    for tool in sorted(tools, key=lambda tool: tool["name"]):
        guideline = tool.get("guideline") or tool["description"]
        lines.append(f"- {tool['name']}: {(guideline.splitlines() or [''])[0].strip()}")
    if not tools:
        lines.append("(none)")
    if facts:
        lines += ["", "Workspace:"] + [f"{key}: {facts[key]}" for key in sorted(facts)]
    return "\n".join(lines)
    ### END SOLUTION


def run_tool(tools, call):
    """Carry out one tool call and return the toolResult message that answers it: one call in,
    exactly one result out, whatever happens. Tools are free to raise; this is the only place a
    failure becomes a result the model can read, with is_error True when the tool could not do
    its job. No Exception escapes from here."""
    ### BEGIN SOLUTION
    tools_by_name = {tool["name"]: tool for tool in tools}
    tool = tools_by_name.get(call["name"])
    if tool is None:
        content, is_error = f"Tool {call['name']} not found", True
    else:
        try:
            content, is_error = tool["execute"](call["arguments"]), False
        except Exception as exc:  # a tool's failure is news for the model, not a crash
            content, is_error = str(exc), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}
    ### END SOLUTION


MAX_LINES = 2000    # One tool result's budget in lines: it rides again in every later request.
MAX_BYTES = 50_000  # One tool result's budget in UTF-8 bytes, not characters: "é" weighs two.


def truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The beginning of `text` that fits the budget, as (kept, lines_shown): the cut for files.
    Only whole lines are kept, each with its newline, measured in UTF-8 bytes. When the first
    line alone is over budget the answer is ("", 0), since half a line misleads more than none."""
    ### BEGIN SOLUTION
    kept, size = [], 0
    for line in text.splitlines(keepends=True):
        size += len(line.encode())
        if len(kept) == max_lines or size > max_bytes:
            break
        kept.append(line)
    return "".join(kept), len(kept)
    ### END SOLUTION


def truncate_tail(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The end of `text` that fits the budget, as (kept, lines_shown): the cut for command output,
    whose verdict is printed last. Only whole lines are kept, each with its newline, measured in
    UTF-8 bytes."""
    ### BEGIN SOLUTION
    kept, size = [], 0
    for line in reversed(text.splitlines(keepends=True)):
        size += len(line.encode())
        if len(kept) == max_lines or size > max_bytes:
            break
        kept.append(line)
    return "".join(reversed(kept)), len(kept)
    ### END SOLUTION


def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `read` tool over the workspace `ws`. A single call returns no more than the budget,
    and when it holds something back its last line says so and how to ask for the rest."""
    def execute(arguments):
        path = str_arg(arguments, "path")
        offset, limit = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if offset < 1 or (limit is not None and limit < 1):
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):
            raise FileNotFoundError(
                f"File not found: {path}. Files here: {', '.join(ws.listdir('.'))}")
        lines = ws.read_text(path).splitlines(keepends=True)
        wanted = lines[offset - 1:] if limit is None else lines[offset - 1:offset - 1 + limit]
        kept, shown = truncate_head("".join(wanted), max_lines, max_bytes)
        if offset > max(len(lines), 1):
            raise ValueError(f"offset {offset} is past the end of {path}: {len(lines)} lines")
        if wanted and shown == 0:
            skip = f" Use offset={offset + 1} to skip it." if offset < len(lines) else ""
            return (f"[Line {offset} of {path} is {len(wanted[0].encode())} bytes, over the "
                    f"{max_bytes}-byte budget of one read, so none of it is shown.{skip}]")
        last = offset + shown - 1
        if last < len(lines):
            kept += (f"[Showing lines {offset}-{last} of {len(lines)}. "
                     f"Use offset={last + 1} to continue.]")
        return kept

    return {
        "name": "read",
        "description": "Read a text file and return its contents. One call returns at most "
                       f"{max_lines} lines or {max_bytes} bytes; use offset to read on.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Path of the file to read."},
                           "offset": {"type": "integer", "description": "First line, from 1."},
                           "limit": {"type": "integer", "description": "How many lines."}},
            "required": ["path"],
        },
        "execute": execute,
    }


def make_write_tool(ws):
    """The `write` tool over the workspace `ws`: makes a file, or replaces everything in it."""
    def execute(arguments):
        path, content = str_arg(arguments, "path"), str_arg(arguments, "content")
        ws.write_text(path, content)
        return f"Successfully wrote to {path}."

    return {
        "name": "write",
        "description": "Write a text file. Creates the file, or replaces its whole contents.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Path of the file to write."},
                           "content": {"type": "string", "description": "The new contents."}},
            "required": ["path", "content"],
        },
        "execute": execute,
    }


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `bash` tool: one command line run in `shell`, answered with what it printed. A command
    that exits non-zero did run, and its exit code is something the model should know, so it is
    an ordinary result ending in a status line, not a tool error."""
    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        total = len(output.splitlines())
        output, shown = truncate_tail(output, max_lines, max_bytes)
        if shown < total:
            output += f"\n[Showing the last {shown} of {total} lines. Narrow the command for more.]"
        if code != 0:
            output += f"\nCommand exited with code {code}"
        return output

    return {
        "name": "bash",
        "description": "Run a shell command and return its output (stdout and stderr together). "
                       f"Only the last {max_lines} lines or {max_bytes} bytes come back.",
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string", "description": "The command line."}},
            "required": ["command"],
        },
        "execute": execute,
    }


CONSEQUENTIAL = ("bash", "write")  # tools whose calls change something: asked about before they run


def gate(tools, approve, consequential=CONSEQUENTIAL):
    """The same tools, with an approval gate in front of every one whose name is in
    `consequential`; the others come back as they were given.

    A gated tool's execute(arguments) first asks approve({"name": <its name>, "arguments": <a
    copy of arguments>}) and runs the tool only when the answer is True itself. Any other answer
    is a denial: execute raises PermissionError("<name> was not run: <reason>"), the reason being
    the answer when it is a non-empty string, else "not approved", and the tool is never called.
    An approve that raises denies too, with the exception's text as the reason: a broken gate
    stays shut. A denial is a tool failure like any other, so run_tool, the one place failures
    become results, hands the model an ordinary is_error result and the run goes on.

    A new list of new dicts comes back; `tools` and its dicts are not changed."""
    ### BEGIN SOLUTION
    def gated(tool):
        def execute(arguments):
            try:
                answer = approve({"name": tool["name"], "arguments": dict(arguments)})
            except Exception as exc:  # a gate that fails must fail shut
                answer = str(exc) or type(exc).__name__
            if answer is not True:
                reason = answer if isinstance(answer, str) and answer else "not approved"
                raise PermissionError(f"{tool['name']} was not run: {reason}")
            return tool["execute"](arguments)
        return dict(tool, execute=execute)

    return [gated(tool) if tool["name"] in consequential else dict(tool) for tool in tools]
    ### END SOLUTION


# Each rule: a pattern searched for anywhere in a command line, and why a match is refused.
COMMAND_RULES = (
    (r"\b(curl|wget|nc|ncat|ssh|scp|sftp|rsync|ftp|telnet)\b", "no network"),
    (r"[a-z][a-z0-9+.-]*://", "no network"),
    (r"\bgit\s+(clone|fetch|pull|push)\b", "no network"),
    (r"\bpip3?\s+install\b", "no network"),
    (r"\|\s*(sh|bash|zsh|python3?)\b", "nothing piped into an interpreter"),
    (r"\bsudo\b", "no sudo"),
    (r"\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*f?\s+(/|~)(\s|$)", "no deleting / or ~"),
)


def command_rules(call):
    """An approve function for gate(): the standing rules for bash, decided from the command
    line alone, with nobody asked. A call to any other tool is True (not these rules' business).
    For bash, the command is call["arguments"]["command"]; when that is missing or not a string
    the answer is "no command line to check". Otherwise each (pattern, why) of COMMAND_RULES is
    tried in order with re.search, ignoring case, and the first that matches gives the answer
    "<why>: <the text it matched>"; a command that no pattern matches is True.

    A rule list is a filter, and a filter misses what it was not written for (a download done
    from inside a script, say): these rules shrink what a call can reach, they prove nothing."""
    ### BEGIN SOLUTION
    if call["name"] != "bash":
        return True
    command = call["arguments"].get("command")
    if not isinstance(command, str):
        return "no command line to check"
    for pattern, why in COMMAND_RULES:
        found = re.search(pattern, command, re.IGNORECASE)
        if found:
            return f"{why}: {found.group(0)}"
    return True
    ### END SOLUTION
