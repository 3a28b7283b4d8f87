"""Region 1, messages: what a conversation is made of (lessons 1, 2, 5 and 12)."""

import json

# == 1 messages ==
# The model remembers nothing, so a conversation is a list of messages, each naming who spoke.

SYSTEM = "You are a helpful assistant."  # the standing instructions, sent with every request


def user_message(text):
    """A message the user sends. Its content is one plain string."""
    ### BEGIN SOLUTION
    return {"role": "user", "content": text}
    ### END SOLUTION


def text_of(message):
    """The words an assistant message says. Its content is a list of blocks (lesson 2 says why),
    and only the blocks of type "text" hold words; they are joined with nothing between them."""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")


def tool_calls(message):
    """The tool-call blocks of an assistant message, in the order the model wrote them. Computed
    from `content` every time it is asked, never kept in a second place."""
    return [block for block in message["content"] if block["type"] == "toolCall"]


def error_message(text):
    """An assistant message recording why a run stopped: empty `content`, stop_reason "error",
    and the reason as `error_message`. Stops are written into the record; they are not raised."""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}


def render(messages):
    """The transcript as plain text: one line per message, "role: words", with each tool call
    written name(arguments as JSON) and newlines inside a message turned into spaces. This is the
    text a summary is made from, and the text estimate_tokens measures."""
    lines = []
    for m in messages:
        if m["role"] == "assistant":
            calls = [f"{c['name']}({json.dumps(c['arguments'])})" for c in tool_calls(m)]
            words = " ".join([text_of(m)] + calls)
        else:
            words = m["content"]
        lines.append(f"{m['role']}: {words}".replace("\n", " "))
    return "\n".join(lines)
