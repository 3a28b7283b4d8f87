"""Wrong answers to lesson 08's gaps. Each is a design that a rung of the lesson argues against (its
docstring names the rung), and the lab tests must catch every one with a sentence that names the
method at fault. They are written as the learner writes them, methods taking `self`, and they call
run_agent as lesson 7 leaves it, whose signature the final one keeps."""

import copy

from harness.earlier.lesson07 import run_agent


# -- Harness.messages ---------------------------------------------------------------------------

def messages_the_list(self):
    """Hands out the list itself: convenient, and it is the wall. Whoever holds it can pop the
    call a paused run is answering (why-a-tuple)."""
    return self._messages


def messages_a_deep_copy(self):
    """Safe, and wasteful: every read copies every message of the transcript, although a tuple
    already stops appends and pops (why-a-tuple)."""
    return tuple(copy.deepcopy(self._messages))


def messages_a_list_copy(self):
    """A copy, but a list: an append to it is taken without a word and lost, so the caller
    believes the transcript changed (why-a-tuple)."""
    return list(self._messages)


# -- Harness.prompt -----------------------------------------------------------------------------

def prompt_as_a_generator(self, text):
    """One function instead of two: prompt is itself the generator, so none of its lines run
    until someone asks for the first event, and the check fires then, on whoever iterates
    (plain-def)."""
    if self._running:
        raise RuntimeError("already running")
    self._running = True
    yield from self._run(text)


def prompt_without_the_check(self, text):
    """Lets every prompt through: a tool, or a keyboard handler, can start a second run over the
    list while the first is paused (the wall, and tool-prompts)."""
    self._running = True
    return self._run(text)


def prompt_refusing_quietly(self, text):
    """Refuses a second prompt by handing back an empty run: the caller's words vanish and nobody
    is told why (plain-def: refused in a sentence)."""
    if self._running:
        return iter(())
    self._running = True
    return self._run(text)


def prompt_leaving_the_flag_to_run(self, text):
    """Checks the flag but leaves setting it to the generator, which sets nothing before its first
    event: two prompts in a row both pass the check (plain-def)."""
    if self._running:
        raise RuntimeError("already running")
    return self._run(text)


def prompt_running_it_all(self, text):
    """Runs the whole run before returning and hands back its events: the check is on time, but
    the consumer can no longer stop the run, and nothing is shown until it is over (lesson 7's
    recall: a frontend sees events while the run goes on)."""
    if self._running:
        raise RuntimeError("already running")
    self._running = True
    return iter(list(self._run(text)))


# -- Harness._run -------------------------------------------------------------------------------

def run_clearing_after_the_loop(self, text):
    """Clears the flag where the run seems to end, after the loop: a consumer that stops early, or a
    model that raises, never gets there, and the harness is "running" for good (when-cleared)."""
    for event in run_agent(self._model, self._system, self._messages, self._tools, text,
                           max_turns=self._max_turns):
        yield event
    self._running = False


def run_clearing_on_agent_end(self, text):
    """Clears the flag when agent_end goes by: the run says it is over, so it must be. A consumer
    that stops before agent_end, or a model that raises, never sends it (when-cleared)."""
    for event in run_agent(self._model, self._system, self._messages, self._tools, text,
                           max_turns=self._max_turns):
        if event["type"] == "agent_end":
            self._running = False
        yield event


def run_over_a_copy(self, text):
    """Gives run_agent a copy of the list, so that nothing outside can meddle with it: the run
    writes its messages into the copy, and the harness's own record never changes
    (what-the-harness-keeps)."""
    run = run_agent(self._model, self._system, list(self._messages), self._tools, text,
                    max_turns=self._max_turns)
    try:
        yield from run
    finally:
        run.close()
        self._running = False


def run_forgetting_max_turns(self, text):
    """Leaves the harness's max_turns at home: every run is unlimited, whatever the harness was
    built with (what-the-harness-keeps)."""
    run = run_agent(self._model, self._system, self._messages, self._tools, text)
    try:
        yield from run
    finally:
        run.close()
        self._running = False


def run_with_the_default_system(self, text):
    """Sends harness.SYSTEM, the standing instructions every starter has, instead of the ones
    this harness was built with. Caught by a hidden test: the run uses the harness's own settings."""
    import harness
    run = run_agent(self._model, harness.SYSTEM, self._messages, self._tools, text,
                    max_turns=self._max_turns)
    try:
        yield from run
    finally:
        run.close()
        self._running = False


def prompt_refusing_in_other_words(self, text):
    """Refuses on the caller's line, but with RuntimeError("busy"): the words the contract gives,
    and that a frontend may look for, are "already running"."""
    if self._running:
        raise RuntimeError("busy")
    self._running = True
    return self._run(text)


WRONG = {1: {
    "Harness.messages": [messages_the_list, messages_a_deep_copy, messages_a_list_copy],
    "Harness.prompt": [prompt_as_a_generator, prompt_without_the_check, prompt_refusing_quietly,
                       prompt_leaving_the_flag_to_run, prompt_running_it_all,
                       prompt_refusing_in_other_words],
    "Harness._run": [run_clearing_after_the_loop, run_clearing_on_agent_end, run_over_a_copy,
                     run_forgetting_max_turns],
}}

# Wrong answers that only a hidden test catches: clauses no question of the lesson argues about
# (tests/lessons/lesson08 shows each caught, in a sentence naming the function).
HIDDEN_WRONG = {1: {"Harness._run": [run_with_the_default_system]}}
