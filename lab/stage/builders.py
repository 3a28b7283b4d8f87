"""Message builders: the dicts of the harness's protocol, written in one short call each.

The shapes are the harness's own: a user message holds a string; an assistant message holds a
list of blocks ("text" and "toolCall") and a stop_reason; a toolResult answers one call by id.
"""


def text(text):
    """A text block for an assistant message: {"type": "text", "text": text}."""
    if not isinstance(text, str):
        raise TypeError(f"text() takes a string, not {type(text).__name__}.")
    return {"type": "text", "text": text}


def call(name, arguments=None, id=None):
    """A toolCall block asking for the tool `name` with `arguments` (a dict, {} if left out).

    With id=None the block has no id yet, and the ScriptedModel that replies it gives it the
    model's next automatic id: "c1", "c2", ... counted per model. The counter lives on the model,
    not here, so the ids a cell prints do not depend on what ran before it in the notebook.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"call() takes a tool name as a non-empty string, not {name!r}.")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise TypeError(f"call() takes the arguments as a dict, not {type(arguments).__name__}.")
    if id is not None and (not isinstance(id, str) or not id):
        raise TypeError(f"call() takes an id as a non-empty string, not {id!r}.")
    return {"type": "toolCall", "id": id, "name": name, "arguments": arguments}


def reply(*blocks):
    """An assistant message made of `blocks` (from text() and call()), in the order given.

    Its stop_reason is "toolUse" if any block is a call, else "stop", as a provider would say.
    """
    if not blocks:
        raise ValueError("reply() needs at least one block, made by lab.text() or lab.call().")
    for block in blocks:
        if not isinstance(block, dict) or block.get("type") not in ("text", "toolCall"):
            raise TypeError(f"reply() takes blocks made by lab.text() or lab.call(), not {block!r}.")
    uses_tools = any(block["type"] == "toolCall" for block in blocks)
    return {"role": "assistant", "content": list(blocks),
            "stop_reason": "toolUse" if uses_tools else "stop"}


_text_block = text  # say() and user() name their parameter `text`, which hides the function


def say(text):
    """An assistant message that is only `text`: reply(text(text))."""
    return reply(_text_block(text))


def user(text):
    """A user message: {"role": "user", "content": text}."""
    if not isinstance(text, str):
        raise TypeError(f"user() takes a string, not {type(text).__name__}.")
    return {"role": "user", "content": text}


def tool_result(call, content, is_error=False):
    """The toolResult message that answers the toolCall block `call` with `content`.

    It has the same keys as the harness's run_tool result, so a hand-made transcript costs the
    same tokens as a real one.
    """
    if not isinstance(call, dict) or call.get("type") != "toolCall":
        raise TypeError("tool_result() takes the toolCall block it answers, as made by lab.call().")
    if call.get("id") is None:
        raise ValueError(f"tool_result() cannot answer the {call['name']} call: it has no id yet; "
                         "give it one with lab.call(..., id=...), or take it from a model's reply.")
    if not isinstance(content, str):
        raise TypeError(f"tool_result() takes the content as a string, not {type(content).__name__}.")
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": bool(is_error)}
