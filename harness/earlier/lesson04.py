"""Definitions as lesson 4 leaves them, for those that lesson 6 rewrites: the read tool and the bash
tool before either had a budget for what it returns."""

from harness.tools import str_arg


def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of the file the model names. The
    path goes through str_arg, so a missing or non-string path raises ValueError. A path with no
    file behind it raises FileNotFoundError, and its text lists the names at the top of the
    workspace: the model that mistyped a name is shown the right one."""
    def execute(arguments):
        path = str_arg(arguments, "path")
        if not ws.exists(path):
            raise FileNotFoundError(
                f"File not found: {path}. Files here: {', '.join(ws.listdir('.'))}")
        return ws.read_text(path)

    return {
        "name": "read",
        "description": "Return the whole text of one file.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Which file, e.g. src/app.py."}},
            "required": ["path"],
        },
        "execute": execute,
    }


def make_bash_tool(shell):
    """The `bash` tool: one command line, read through str_arg, run in `shell`, and answered with
    everything it printed. A command that exits non-zero did run, and its exit code is something
    the model should know, so it is an ordinary result ending in a status line, not a tool error."""
    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        if code != 0:
            output += f"\nCommand exited with code {code}"
        return output

    return {
        "name": "bash",
        "description": "Run one command line and return everything it printed, stdout and "
                       "stderr together.",
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string", "description": "The command line."}},
            "required": ["command"],
        },
        "execute": execute,
    }
