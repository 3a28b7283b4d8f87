"""Wrong answers to lesson 1's gaps. Each is a design that a rung of the lesson argues against (its
docstring names the idea and the rung), and the visible lab tests must catch every one with a
sentence that names the function at fault."""

from harness import user_message

HISTORY = []  # the one list a forgetful design keeps for every conversation


# -- user_message ---------------------------------------------------------------------------------

def user_message_as_blocks(text):
    """Gives the user's words the reply's shape, a list of text blocks: tempting because replies
    look like that, but a user's content is one plain string (the wall; Figure 1.1's table)."""
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def user_message_with_a_speaker_prefix(text):
    """Writes who spoke into the text as well, "user: ...": the role as prose (roles-or-string)."""
    return {"role": "user", "content": f"user: {text}"}


def user_message_as_human(text):
    """Names the speaker "human", as some chat formats do; the provider knows only "user"
    (who-said-what)."""
    return {"role": "human", "content": text}


# -- run_agent ------------------------------------------------------------------------------------

def run_agent_newest_prompt_only(model, system, messages, prompt):
    """Sends only the new prompt, as if the model remembered the earlier ones (what-can-it-know)."""
    messages.append(user_message(prompt))
    reply = model.complete(system, [messages[-1]], [])
    messages.append(reply)
    return reply


def run_agent_last_exchange(model, system, messages, prompt):
    """Sends the last exchange and the prompt, "enough context" (how-many-go)."""
    messages.append(user_message(prompt))
    reply = model.complete(system, messages[-3:], [])
    messages.append(reply)
    return reply


def run_agent_pasted_history(model, system, messages, prompt):
    """Pastes the conversation into one user string, "user: ... assistant: ..." (roles-or-string)."""
    lines = [f"{m['role']}: {m['content'] if isinstance(m['content'], str) else ''.join(b.get('text', '') for b in m['content'])}"
             for m in messages]
    messages.append(user_message(prompt))
    reply = model.complete(system, [user_message("\n".join(lines + [f"user: {prompt}"]))], [])
    messages.append(reply)
    return reply


def run_agent_system_as_message(model, system, messages, prompt):
    """Puts the standing instructions in the list as a message of role "system" (where-instructions-go)."""
    if not messages:
        messages.append({"role": "system", "content": system})
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, [])
    messages.append(reply)
    return reply


def run_agent_system_as_first_user_message(model, system, messages, prompt):
    """Says the instructions first, as the user: then they are a turn of the conversation
    (where-instructions-go)."""
    if not messages:
        messages.append(user_message(system))
    messages.append(user_message(prompt))
    reply = model.complete("", messages, [])
    messages.append(reply)
    return reply


def run_agent_system_prepended(model, system, messages, prompt):
    """Prepends the instructions to every prompt, for reliability (where-instructions-go)."""
    messages.append(user_message(system + "\n" + prompt))
    reply = model.complete(system, messages, [])
    messages.append(reply)
    return reply


def run_agent_returns_a_new_list(model, system, messages, prompt):
    """Leaves its argument alone and returns a longer copy, as a style rule advises (who-owns-it)."""
    sent = messages + [user_message(prompt)]
    reply = model.complete(system, sent, [])
    return sent + [reply]


def run_agent_on_a_copy(model, system, messages, prompt):
    """Works on a copy and returns the reply: the caller's record never grows (who-owns-it)."""
    mine = list(messages)
    mine.append(user_message(prompt))
    reply = model.complete(system, mine, [])
    mine.append(reply)
    return reply


def run_agent_forgets_the_reply(model, system, messages, prompt):
    """Records the prompt but not the reply, so the next request never shows what the model said
    (how-many-go)."""
    messages.append(user_message(prompt))
    return model.complete(system, messages, [])


def run_agent_offers_tools(model, system, messages, prompt):
    """Offers a tool already, "to be ready for lesson 2": lesson 1's harness has none to run, so
    a call would go unanswered (no-tools)."""
    messages.append(user_message(prompt))
    read = {"name": "read", "description": "Read a file.", "parameters": {"type": "object", "properties": {}}}
    reply = model.complete(system, messages, [read])
    messages.append(reply)
    return reply


def run_agent_tools_none(model, system, messages, prompt):
    """Passes None for the tools, "nothing to offer": a provider wants a list (no-tools)."""
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, None)
    messages.append(reply)
    return reply


def run_agent_one_history(model, system, messages, prompt):
    """Keeps one list of its own for every conversation, the way a chat app seems to (two lists,
    who-owns-it)."""
    HISTORY.append(user_message(prompt))
    reply = model.complete(system, HISTORY, [])
    HISTORY.append(reply)
    messages[:] = HISTORY
    return reply


# -- SYSTEM ---------------------------------------------------------------------------------------
# Words a learner might leave in SYSTEM. They are not functions, so the generic suite does not run
# them: tests/lessons/lesson01/test_system.py holds each to standing.check_system, the cell under
# SYSTEM in the notebook, which must refuse it in a sentence that names SYSTEM.
SYSTEM_WRONG = {
    "left empty": "",
    "only spaces": "   \n",
    "too short to say anything": "Be helpful.",
    "a role written into the text (roles-or-string)": "system: You are a helpful assistant.",
    "not addressed to the model": "The assistant helps with Python questions.",
    "not a string": ["You are a helpful assistant."],
}

WRONG = {1: {
    "user_message": [user_message_as_blocks, user_message_with_a_speaker_prefix, user_message_as_human],
    "run_agent": [run_agent_newest_prompt_only, run_agent_last_exchange, run_agent_pasted_history,
                  run_agent_system_as_message, run_agent_system_as_first_user_message,
                  run_agent_system_prepended, run_agent_returns_a_new_list, run_agent_on_a_copy,
                  run_agent_forgets_the_reply, run_agent_offers_tools, run_agent_tools_none,
                  run_agent_one_history],
}}
