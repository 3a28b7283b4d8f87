"""Definitions as lesson 2 leaves them, for those that a later lesson rewrites: one round of tools,
a run_tool that trusts its tools, and a read tool that takes its path as it comes."""

from harness.messages import tool_calls, user_message
from harness.tools import tool_specs


def run_tool(tools, call):
    """Carry out one tool call and return the toolResult message that answers it: the tool in
    `tools` whose name is call["name"] runs execute(call["arguments"]), and the message carries
    the call's id as tool_call_id, its name as tool_name, what execute returned as content, and
    is_error False. One call in, one result out, tied to its call by id and by nothing else.

    This version trusts its tools. When no tool has that name, or execute raises, it makes no
    result: the exception goes up to the caller as it was raised, so a failure is never passed
    off as a success. Lesson 4 gives every path a result."""
    ### BEGIN SOLUTION
    by_name = {tool["name"]: tool for tool in tools}
    content = by_name[call["name"]]["execute"](call["arguments"])  # unknown name: KeyError, for now
    return {"role": "toolResult", "content": content, "tool_call_id": call["id"],
            "tool_name": call["name"], "is_error": False}
    ### END SOLUTION


def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of the file the model names. It
    takes arguments["path"] as it comes; a missing file raises the workspace's
    FileNotFoundError."""
    def execute(arguments):
        return ws.read_text(arguments["path"])

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


def run_agent(model, system, messages, tools, prompt):
    """Put `prompt` to the model, carry out the tool calls its reply asks for, and return the
    model's answer.

    `messages` is the caller's list, i.e. the record: the user message for `prompt` is appended
    to it, then the whole list goes out with `system` and tool_specs(tools), the tools as the
    model is told of them, in every request. The reply is appended exactly as it came back.
    Each call of tool_calls(reply) is then carried out by run_tool, in the order the reply asked
    for them, and its result appended straight away, so that the results follow the reply and
    each answers its call by id. If there was a call, the model is asked once more with the
    whole list, and that reply is appended and returned; if not, the first reply is returned
    and the model was asked once. One round only: calls in the second reply are not carried out."""
    ### BEGIN SOLUTION
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, tool_specs(tools))
    messages.append(reply)
    calls = tool_calls(reply)
    if not calls:
        return reply
    for call in calls:
        messages.append(run_tool(tools, call))
    reply = model.complete(system, messages, tool_specs(tools))
    messages.append(reply)
    return reply
    ### END SOLUTION
