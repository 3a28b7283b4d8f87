"""Definitions as lesson 1 leaves them, for those that a later lesson rewrites: run_agent before
it knew about tools."""

from harness.messages import user_message


def run_agent(model, system, messages, prompt):
    """Put `prompt` to the model once, and return the model's reply.

    `messages` is the caller's list, i.e. the record of the conversation: the user message for
    `prompt` is appended to it, then the whole list goes out with `system` in one request that
    offers no tools, then the reply is appended, exactly as it came back, failed or not. Nothing
    else is added and no new list is made. The model keeps nothing between calls, so it knows
    only what this list shows it."""
    ### BEGIN SOLUTION
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, [])
    messages.append(reply)
    return reply
    ### END SOLUTION
