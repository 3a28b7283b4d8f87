"""Definitions as lesson 3 leaves them, for those that a later lesson rewrites: the loop before it
had brakes or events, and the write tool before it checked the types of its arguments."""

from harness.messages import tool_calls, user_message
from harness.tools import run_tool, tool_specs


def make_write_tool(ws):
    """The `write` tool over the workspace `ws`: makes a file, or replaces everything in it."""
    def execute(arguments):
        path, content = arguments["path"], arguments["content"]
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


def run_agent(model, system, messages, tools, prompt):
    """Put `prompt` to the model, and carry out the tool calls it asks for, round after round,
    until a reply asks for none; return that reply.

    `messages` is the caller's list, i.e. the record: the user message for `prompt` is appended
    to it, then the whole list goes out with `system` and tool_specs(tools), the tools as the
    model is told of them, in every request. Each reply is appended exactly as it came back.
    Each call of tool_calls(reply) is then carried out by run_tool, in the order the reply asked
    for them, and its result appended straight away, so that the results follow the reply and
    each answers its call by id. Only once every call of the reply has its result is the model
    asked again, so no request ends on a call that has none. A reply with no call ends the run:
    the model says the work is done by asking for nothing, whatever its text says and however
    many rounds that took."""
    ### BEGIN SOLUTION
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            return reply
        for call in calls:
            messages.append(run_tool(tools, call))
    ### END SOLUTION
