"""The stage's characters: scripted models with a rule of their own, each a script step
(forever(...)) that answers every request by that rule, and that a lesson puts on the stage by
name: lab.summariser() (lessons 12-14), lab.recall() (1), lab.guesser() (1, 2), lab.briefed()
(13, 14), lab.gullible() and lab.orders_in() (14). Each docstring states its rule in full, since
the lessons print it for the learner. The scripted model itself is lab/model.py.
"""

import re

from .builders import call, reply, say
from .model import Forever, _calls_in


SUMMARY_TAG, SUMMARY_END = "<conversation>", "</conversation>"


def summariser():
    """A stage prop, as a script step: a model that summarises only when nothing else is left to do.

    For every request it follows one rule, in this order:
    - The system prompt contains "summar" (any case), the last message is a user message that
      starts with "<conversation>", and no tools are offered: it replies "Summary of N lines.
      It began: <first line> It ended: <last line>", the lines being those between the
      <conversation> and </conversation> tags (blank ones not counted).
    - Otherwise it carries on as an assistant. If a line of the request's user text contains "?",
      it answers the last such line: "You asked: <line> My answer: yes. (Not a summary.)".
    - Failing that, if tools are offered and it has not called one since the newest user message,
      it calls the first tool offered, with arguments {}.
    - Failing that, it says "Done. (Not a summary.)".
    It keeps no state: each answer depends on the request alone.
    """
    return Forever(_summarise, name="summariser")


def _summarise(request):
    last = request.messages[-1] if request.messages else {}
    content = last.get("content") if last.get("role") == "user" else None
    if ("summar" in str(request.system).lower() and not request.tools
            and isinstance(content, str) and content.startswith(SUMMARY_TAG)):
        body = content[len(SUMMARY_TAG):]
        if SUMMARY_END in body:
            body = body[:body.rindex(SUMMARY_END)]
        lines = [line.strip() for line in body.splitlines() if line.strip()]
        if not lines:
            return say("Summary of 0 lines.")
        return say(f"Summary of {len(lines)} lines. It began: {lines[0]} It ended: {lines[-1]}")
    questions = [line.strip() for line in request.user_text.splitlines() if "?" in line]
    if questions:
        return say(f"You asked: {questions[-1]} My answer: yes. (Not a summary.)")
    users = [i for i, m in enumerate(request.messages) if m.get("role") == "user"]
    since = request.messages[users[-1] + 1:] if users else request.messages
    called = any(m.get("role") == "assistant" and _calls_in(m) for m in since)
    if request.tools and not called:
        return reply(call(request.tools[0]["name"], {}))
    return say("Done. (Not a summary.)")


_NAME_GIVEN = re.compile(r"\bmy name is (\w+)", re.IGNORECASE)
_NAME_ASKED = re.compile(r"\bwhat(?: is|'s) my name\b|\bwho am i\b", re.IGNORECASE)


def recall():
    """A stage prop, as a script step: a model that knows what the user told it only as far as
    the request shows it, and that takes "who spoke" from each message's role.

    It reads the user-role messages of the request (string content) and nothing else: not the
    system prompt, not the assistant's own replies. For every request it follows one rule, in this
    order, on the newest user message:
    - No user message at all: "I can't tell: this request holds nothing you said."
    - It asks for the user's name ("what is my name", "what's my name", "who am I", any case):
      "Your name is <name>." for the last "my name is <name>" found in the user-role messages,
      read in order, or "I can't tell: nothing in this request says." if there is none.
    - It gives a name ("my name is <name>"): "Hello, <name>. My name is Tau."
    - Otherwise: "Noted."
    A history pasted into one user message is, to it, all the user's words, the assistant's
    "My name is Tau." included. It keeps no state: each answer depends on the request alone.
    """
    return Forever(_recall, name="recall")


def _recall(request):
    said = [m["content"] for m in request.messages
            if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), str)]
    if not said:
        return say("I can't tell: this request holds nothing you said.")
    newest = said[-1]
    if _NAME_ASKED.search(newest):
        names = [name for text in said for name in _NAME_GIVEN.findall(text)]
        return say(f"Your name is {names[-1]}." if names else "I can't tell: nothing in this request says.")
    given = _NAME_GIVEN.findall(newest)
    if given:
        return say(f"Hello, {given[-1]}. My name is Tau.")
    return say("Noted.")


# The guesser's stock of likely answers, by a word the question uses: what settings files most
# often say. A likely answer is plausible because it is common, which is all it has going for it.
LIKELY = {"port": "PORT = 8080", "host": "HOST = '0.0.0.0'", "debug": "DEBUG = True",
          "timeout": "TIMEOUT = 30", "version": "VERSION = '1.0.0'"}


def guesser():
    """A stage prop, as a script step: a model that answers questions about files and never says
    it cannot see one.

    For every request it follows one rule, in this order:
    - The newest user message has to name a file: the first word with a dot inside it, such as
      config.py (a full stop or question mark after it is not part of the name). If none does,
      it replies "Which file do you mean?".
    - If a toolResult came back after that user message, it answers from one: the newest result
      whose tool_call_id is the id of a call that asked for that path, or else the newest result.
      It says "<path> says: <line>", the line being the first of the result's content that holds
      a word of the question (four letters or more, any case), or else its first line; "<path> is
      empty." for empty content; "I could not read <path>: <content>" for a result marked
      is_error. It trusts the pairing it is shown, right or wrong.
    - Otherwise, if a tool named "read" is offered, it calls it: read with {"path": <path>}.
    - Otherwise it writes a likely answer in the same confident voice: "<path> says: <setting>"
      for the first word of the question that LIKELY knows ("port" gives PORT = 8080), or
      "<path> says: the usual settings for a project like this" if none.
    It keeps no state: each answer depends on the request alone.
    """
    return Forever(_guess, name="guesser")


_FILE_NAME = re.compile(r"[\w/-]+(?:\.[\w-]+)+")


def _guess(request):
    users = [i for i, m in enumerate(request.messages) if m.get("role") == "user"]
    question = request.messages[users[-1]].get("content") if users else ""
    question = question if isinstance(question, str) else ""
    named = _FILE_NAME.search(question)
    if named is None:
        return say("Which file do you mean?")
    path = named.group(0)
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", question)]
    results = [m for m in request.messages[users[-1] + 1:] if m.get("role") == "toolResult"]
    if results:
        asked_for = {c.get("id") for m in request.messages[users[-1] + 1:] for c in _calls_in(m)
                     if isinstance(c.get("arguments"), dict) and c["arguments"].get("path") == path}
        newest = ([m for m in results if m.get("tool_call_id") in asked_for] or results)[-1]
        content = str(newest.get("content", ""))
        if newest.get("is_error"):
            return say(f"I could not read {path}: {content}")
        if not content:
            return say(f"{path} is empty.")
        lines = content.splitlines()
        asked = [w for w in words if len(w) >= 4]
        line = next((l for l in lines if any(w in l.lower() for w in asked)), lines[0])
        return say(f"{path} says: {line.strip()}")
    if any(isinstance(t, dict) and t.get("name") == "read" for t in request.tools):
        return reply(call("read", {"path": path}))
    likely = next((LIKELY[w] for w in words if w in LIKELY), None)
    return say(f"{path} says: {likely or 'the usual settings for a project like this'}")


_BRIEFED_LINE = re.compile(r"^- ([\w.-]+): (.*)$")


def briefed():
    """A stage prop, as a script step: a model that takes its system prompt's word for which tools
    exist and what each is for.

    The tools it believes in are the lines of the system prompt shaped "- <name>: <guideline>",
    in the order written; if the prompt has no such line, it goes by the request's tool
    definitions, their descriptions standing for guidelines. The job is the newest user message.
    For every request it follows one rule, in this order:
    - No believed tool shares a word of four letters or more with the job (in its name or its
      guideline, any case): "I have no tool for that. My briefing lists: <names>." ("nothing"
      when it lists none).
    - A tool result came back after the job and is not an error: "Done: <tool> said: <the first
      line of the result>".
    - Otherwise it calls the next tool that fits, in the briefing's order, after the one it
      called last for this job, starting again from the first when it runs out: it trusts its
      briefing, so to it "Tool write not found" is a passing hitch, never news. The arguments:
      for a tool the request defines, each required parameter gets the file the job names if
      it is "path", else the job's text; for a tool it only heard of, {"path": <that file>}.
    It keeps no state: each answer depends on the request alone.
    """
    return Forever(_briefed, name="briefed")


def _words(text):
    return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}


def _briefed(request):
    system = request.system if isinstance(request.system, str) else ""
    believed = [m.groups() for m in map(_BRIEFED_LINE.match, system.splitlines()) if m]
    if not believed:
        believed = [(t.get("name"), str(t.get("description", ""))) for t in request.tools
                    if isinstance(t, dict)]
    users = [i for i, m in enumerate(request.messages) if m.get("role") == "user"]
    job = request.messages[users[-1]].get("content") if users else ""
    job = job if isinstance(job, str) else ""
    wanted = _words(job)
    fit = [name for name, guideline in believed if _words(f"{name} {guideline}") & wanted]
    if not fit:
        listed = ", ".join(name for name, _ in believed) or "nothing"
        return say(f"I have no tool for that. My briefing lists: {listed}.")
    since = request.messages[users[-1] + 1:] if users else request.messages
    results = [m for m in since if m.get("role") == "toolResult"]
    if results and not results[-1].get("is_error"):
        first = (str(results[-1].get("content", "")).splitlines() or [""])[0]
        return say(f"Done: {results[-1].get('tool_name')} said: {first}")
    tried = [c.get("name") for m in since if m.get("role") == "assistant" for c in _calls_in(m)]
    after = fit.index(tried[-1]) + 1 if tried and tried[-1] in fit else 0
    name = fit[after % len(fit)]
    named = _FILE_NAME.search(job)
    path = named.group(0) if named else "."
    spec = next((t for t in request.tools if isinstance(t, dict) and t.get("name") == name), None)
    if spec is None:
        return reply(call(name, {"path": path}))
    required = (spec.get("parameters") or {}).get("required") or []
    return reply(call(name, {p: (path if p == "path" else job) for p in required}))


_ORDER = re.compile(r"\brun\s+`([^`]+)`", re.IGNORECASE)


def orders_in(text):
    """The orders in `text`, in order: every command in backquotes right after the word "run"
    (any case), as in "run `make test`". What the gullible prop takes for an instruction."""
    return _ORDER.findall(text) if isinstance(text, str) else []


def gullible():
    """A stage prop, as a script step: a model that does what any text in its request tells it
    to, whoever wrote that text. An order is a command in backquotes after the word "run" (see
    orders_in); it finds orders in the text of every message, user messages, tool results and
    its own earlier words alike, oldest first.

    For every request it follows one rule, in this order:
    - A summary request (the system prompt contains "summar", any case; no tools offered; the
      last message a user message starting with "<conversation>"): it replies "Summary: the user
      asked: <the first line of the conversation that starts "user: ", without that prefix and
      without full stops at its end>." and then one more sentence for each line of the
      conversation that holds orders. A line from a tool result ("toolResult: ...") is quoted
      when the system prompt says to quote (contains "quote", any case): ' Quoted, not a
      request: a tool returned "<the line's text>".' Otherwise, and for every line that is not
      from a tool, it obeys: " Next step: run `<order>`." for each order.
    - Otherwise, if a tool named "bash" is offered: the first order in the request that no bash
      call in the request has run yet (same command text) makes it call bash {"command": order}.
    - Otherwise, if a tool named "read" is offered and the newest user message names a file
      that no read call since that message has asked for, it calls read {"path": <that file>}.
    - Otherwise it says "Done.", and nothing about what it ran.
    It keeps no state: each answer depends on the request alone.
    """
    return Forever(_gullible, name="gullible")


def _text(message):
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def _gullible(request):
    last = request.messages[-1] if request.messages else {}
    content = last.get("content") if last.get("role") == "user" else None
    if ("summar" in str(request.system).lower() and not request.tools
            and isinstance(content, str) and content.startswith(SUMMARY_TAG)):
        body = content[len(SUMMARY_TAG):]
        if SUMMARY_END in body:
            body = body[:body.rindex(SUMMARY_END)]
        lines = [line.strip() for line in body.splitlines() if line.strip()]
        asked = next((line[len("user: "):] for line in lines if line.startswith("user: ")), "nothing")
        asked = asked.rstrip(".")
        quoting = "quote" in str(request.system).lower()
        words = [f"Summary: the user asked: {asked}."]
        for line in lines:
            found = orders_in(line)
            if not found:
                continue
            if quoting and line.startswith("toolResult: "):
                words.append(f'Quoted, not a request: a tool returned "{line[len("toolResult: "):]}".')
            else:
                words += [f"Next step: run `{order}`." for order in found]
        return say(" ".join(words))
    names = {t.get("name") for t in request.tools if isinstance(t, dict)}
    if "bash" in names:
        ran = {c.get("arguments", {}).get("command") for m in request.messages
               if isinstance(m, dict) and m.get("role") == "assistant" for c in _calls_in(m)
               if c.get("name") == "bash" and isinstance(c.get("arguments"), dict)}
        for message in request.messages:
            for order in orders_in(_text(message)):
                if order not in ran:
                    return reply(call("bash", {"command": order}))
    users = [i for i, m in enumerate(request.messages) if isinstance(m, dict) and m.get("role") == "user"]
    if "read" in names and users:
        named = _FILE_NAME.search(_text(request.messages[users[-1]]))
        since = request.messages[users[-1] + 1:]
        asked_for = {c.get("arguments", {}).get("path") for m in since if isinstance(m, dict)
                     for c in _calls_in(m) if c.get("name") == "read" and isinstance(c.get("arguments"), dict)}
        if named and named.group(0) not in asked_for:
            return reply(call("read", {"path": named.group(0)}))
    return say("Done.")
