"""The lab tests of lesson 13, "The briefing".

Lab 1: briefing. Lab 2: session.
The visible tests are the ones the lesson lists, one at least for every wrong idea a question of
the lesson argues against; the hidden ones hold each gap to the edges of its contract.
"""

import time

import harness
import lab
from lab.checks import expect, Failed, test


def tools_for(ws=None):
    """The tools the tests pass around: read with a guideline of its own, write without one (so its
    description stands in), and grep, a made-up tool whose guideline runs to a second line."""
    ws = ws or lab.Workspace({"notes.md": "tests: not run yet\n"})
    read = dict(harness.make_read_tool(ws), guideline="Read a file to see what it says.")
    write = harness.make_write_tool(ws)
    grep = {"name": "grep", "description": "Search files.", "guideline": "Search the files for a word.\n"
            "It reads every file under the folder.", "parameters": {"type": "object"},
            "execute": lambda arguments: ""}
    return {"read": read, "write": write, "grep": grep}


FACTS = {"project": "shop", "language": "Python 3.11"}   # not in key order, on purpose


def system_of(function):
    """SYSTEM as the learner's own code sees it: the words are theirs to change since lesson 1."""
    return getattr(function, "__globals__", {}).get("SYSTEM", harness.SYSTEM)


def expected_briefing(system, tools, facts):
    """The contract's text, spelled out here on its own so that a test never trusts the
    function it is judging."""
    lines = [system, "", "Tools:"]
    for tool in sorted(tools, key=lambda t: t["name"]):
        guideline = tool.get("guideline") or tool["description"]
        lines.append(f"- {tool['name']}: {(guideline.splitlines() or [''])[0].strip()}")
    if not tools:
        lines.append("(none)")
    if facts:
        lines += ["", "Workspace:"] + [f"{k}: {facts[k]}" for k in sorted(facts)]
    return "\n".join(lines)


def brief(ns, tools, facts):
    text = ns.briefing(tools, facts)
    expect(isinstance(text, str), f"briefing should return the system prompt as a string; it "
                                  f"returned {type(text).__name__}")
    return text


def first_difference(got, wanted):
    """The first line where `got` and `wanted` part, as a phrase for a failure sentence."""
    a, b = got.split("\n"), wanted.split("\n")
    for n, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return f"line {n} is {x!r} where the contract has {y!r}"
    if len(a) > len(b):
        return f"it goes on after the contract's last line with {a[len(b)]!r}"
    if len(a) == len(b):
        return "the two are the same"   # only reached when a message is built for a pass
    return f"it stops before the contract's line {len(a) + 1}, {b[len(a)]!r}"


def named_tools(text):
    """The names on the "- <name>: ..." lines of a briefing, in order."""
    return [line[2:].split(":", 1)[0] for line in text.split("\n") if line.startswith("- ")]


# -- lab 1: briefing ----------------------------------------------------------------------------

@test(13, 1, "briefing([read, write], facts) is exactly the contract's text: SYSTEM, a blank line, "
             "Tools: with one \"- name: guideline\" line per tool, a blank line, Workspace: with one "
             "\"key: value\" line per fact, keys sorted.")
def briefing_is_the_contracts_text(ns):
    t = tools_for()
    facts = dict(FACTS)
    got = brief(ns, [t["read"], t["write"]], facts)
    wanted = expected_briefing(system_of(ns.briefing), [t["read"], t["write"]], FACTS)
    expect(got == wanted, f"briefing gave a different text from the contract's: {first_difference(got, wanted)}")
    expect(facts == FACTS, "briefing changed the facts dict it was given; it only reads its arguments")


@test(13, 1, "A tool that is absent is absent: the briefing for a read-only session names read and "
             "nothing else, and one for [write, grep] names exactly those two.")
def briefing_names_only_the_tools_present(ns):
    t = tools_for()
    for present in (["read"], ["write", "grep"]):
        text = brief(ns, [t[n] for n in present], {})
        names = named_tools(text)
        expect(sorted(names) == sorted(present),
               f"briefing for a session with only {', '.join(present)} names "
               f"{', '.join(names) or 'no tool'} on its tool lines"
               + "; a model that believes its briefing will call whatever it names")


@test(13, 1, "The same tools passed in another order give the same bytes: the tool lines are sorted "
             "by name, not kept in the caller's order.")
def briefing_order_is_fixed(ns):
    t = tools_for()
    one = brief(ns, [t["write"], t["read"], t["grep"]], FACTS)
    other = brief(ns, [t["grep"], t["write"], t["read"]], FACTS)
    expect(named_tools(one) == ["grep", "read", "write"],
           f"briefing listed the tools as {', '.join(named_tools(one))}; list them sorted by name "
           "(grep, read, write), so that the same tools always give the same bytes")
    expect(one == other, "briefing gave two different texts for the same three tools passed in "
                         f"another order: {first_difference(other, one)}")


@test(13, 1, "The briefing opens with SYSTEM and then the tool list: no date, time or other "
             "changing text comes before the stable part.")
def briefing_opens_with_the_stable_part(ns):
    t = tools_for()
    text = brief(ns, [t["read"]], FACTS)
    head = system_of(ns.briefing) + "\n\nTools:\n"
    expect(text.startswith(head),
           f"briefing begins {text.split(chr(10))[0]!r}, not SYSTEM followed by a blank line and "
           "\"Tools:\"; whatever stands first in the system prompt is the first byte of every "
           "request, and if it changes, no cached prefix survives")


@test(13, 1, "Built twice with the same tools and facts, a moment apart, the briefing is byte-identical: "
             "it holds no clock, no counter, nothing from outside its arguments.")
def briefing_is_the_same_every_time(ns):
    t = tools_for()
    texts = []
    for _ in range(3):
        texts.append(brief(ns, [t["read"], t["write"]], dict(FACTS)))
        time.sleep(0.002)   # long enough for any clock reading to move on
    expect(isinstance(texts[0], str) and texts[0].strip(),
           f"briefing returned {texts[0]!r:.60}; it returns the text of the system prompt")
    expect(texts[0] == texts[1] == texts[2],
           "briefing gave different texts for the same tools and facts when built again: "
           f"{first_difference(texts[1], texts[0])}; rebuilt for every prompt, it would change "
           "the first bytes of every request")


@test(13, 1, "Every tool line carries its guideline: the tool's own \"guideline\" when it has one, "
             "else its description, first line only, trimmed.")
def briefing_gives_each_tool_its_guideline(ns):
    t = tools_for()
    text = brief(ns, [t["read"], t["write"], t["grep"]], {})
    lines = {line[2:].split(":", 1)[0]: line for line in text.split("\n") if line.startswith("- ")}
    for name in ("grep", "read", "write"):
        tool = t[name]
        wanted = f"- {name}: {(tool.get('guideline') or tool['description']).splitlines()[0].strip()}"
        expect(lines.get(name) == wanted,
               f"briefing wrote {lines.get(name, 'no line')!r} for {name}, not {wanted!r}; "
               + ("a tool's own guideline wins over its description" if tool.get("guideline")
                  else "a tool with no guideline is described by its description's first line"))


# hidden

@test(13, 1, "No tools at all: the tool list says (none), and with no facts there is no Workspace "
             "section.", hidden=True)
def briefing_with_nothing(ns):
    got = brief(ns, [], {})
    wanted = expected_briefing(system_of(ns.briefing), [], {})
    expect(got == wanted, f"briefing with no tools and no facts: {first_difference(got, wanted)}")


@test(13, 1, "One tool, and two tools that share a guideline word for word: a line each, nothing "
             "merged.", hidden=True)
def briefing_one_tool_and_twins(ns):
    t = tools_for()
    twin = dict(t["write"], name="save", guideline="Read a file to see what it says.")
    for tools in ([t["grep"]], [twin, t["read"]]):
        got = brief(ns, tools, {"branch": "main"})
        wanted = expected_briefing(system_of(ns.briefing), tools, {"branch": "main"})
        expect(got == wanted, f"briefing for {', '.join(x['name'] for x in tools)}: "
                              f"{first_difference(got, wanted)}")


@test(13, 1, "Unicode in facts comes through as itself, and a fact that is not a string is written "
             "with str().", hidden=True)
def briefing_unicode_facts(ns):
    t = tools_for()
    facts = {"owner": "Zoë Åström", "motto": "naïve → café ✓", "python": 3.11}
    got = brief(ns, [t["read"]], facts)
    wanted = expected_briefing(system_of(ns.briefing), [t["read"]], facts)
    expect(got == wanted, f"briefing with unicode facts: {first_difference(got, wanted)}")


@test(13, 1, "An empty guideline falls back to the description, and the caller's list of tools "
             "keeps its order: briefing sorts a copy.", hidden=True)
def briefing_empty_guideline_and_no_mutation(ns):
    t = tools_for()
    blank = dict(t["read"], guideline="")
    tools = [t["write"], blank]
    got = brief(ns, tools, {})
    wanted = expected_briefing(system_of(ns.briefing), [t["write"], blank], {})
    expect([x["name"] for x in tools] == ["write", "read"],
           "briefing reordered the caller's list of tools; sort a copy, since the Harness is "
           "handed that same list")
    expect(got == wanted, f"briefing with an empty guideline: {first_difference(got, wanted)}")


@test(13, 1, "A guideline padded with spaces and followed by more lines gives its first line, "
             "trimmed, and nothing of the lines after it.", hidden=True)
def briefing_trims_the_first_line(ns):
    t = tools_for()
    padded = dict(t["grep"], guideline="   Search the files for a word.  \n  Then read them.\n")
    got = brief(ns, [padded], {})
    wanted = expected_briefing(system_of(ns.briefing), [padded], {})
    expect(got == wanted, f"briefing with a padded two-line guideline: {first_difference(got, wanted)}")


# -- lab 2: session -----------------------------------------------------------------------------

def open_session(ns, tools, facts, script=None, model=None, **kwargs):
    """A session of the learner's, on `model` (a new ScriptedModel of `script` if none is given:
    one model for two sessions shares one provider cache, as a resume on the same day does)."""
    model = model or lab.ScriptedModel(script or [lab.summariser()], max_calls=60)
    h = ns.session(model, tools, facts, **kwargs)
    # By its shape: in a learner's harness.py, Harness is their own class of that name.
    expect(callable(getattr(h, "prompt", None)) and hasattr(h, "messages"),
           f"session should return a Harness; it returned {type(h).__name__}")
    return model, h


def run(h, text):
    for _ in h.prompt(text):
        pass


@test(13, 2, "Two prompts in one session: every request carries the same system prompt, "
             "briefing(tools, facts), and the same tool definitions, and the second prompt's "
             "request shows cached tokens.")
def session_holds_the_briefing(ns):
    t = tools_for()
    tools = [t["read"], t["write"]]
    model, h = open_session(ns, tools, dict(FACTS))
    run(h, "Is the shop's checkout done?")
    run(h, "Are the tests green?")
    # In the grader the learner's functions are proxies into a sandbox, so the briefing is judged
    # by what reached the model, never by calling their briefing from here.
    systems = [c.system for c in model.calls]
    named = named_tools(systems[0]) if isinstance(systems[0], str) else []
    expect(named == ["read", "write"],
           f"session's system prompt names {', '.join(named) or 'no tool'} on its tool lines, not "
           "read and write: it should be briefing(tools, facts)")
    expect(len(set(systems)) == 1, f"session's requests carried {len(set(systems))} different system "
                                   "prompts in one session; build the briefing once and keep it")
    specs = [c.tools for c in model.calls]
    expect(all(s == specs[0] for s in specs), "session's requests offered different tool definitions "
                                              "from one prompt to the next")
    expect(model.calls[-1].cached > 0, "session's second prompt found nothing in the cache, though "
                                       "its request began as the first one did")


@test(13, 2, "A read-only session briefs read alone and offers read alone: the briefing is made "
             "from the very tools the Harness gets.")
def session_briefs_the_tools_it_has(ns):
    t = tools_for()
    model, h = open_session(ns, [t["read"]], {"project": "shop"})
    run(h, "Is the shop's checkout done?")
    request = model.calls[0]
    offered = [s["name"] for s in request.tools]
    named = named_tools(request.system)
    expect(offered == ["read"], f"session's Harness offered {', '.join(offered) or 'no tool'} to a "
                                "session given only read")
    expect(named == ["read"], f"session's briefing names {', '.join(named) or 'no tool'}, but the "
                              "session has only read; brief the tools you pass to the Harness")


@test(13, 2, "`now` stays out of the system prompt: sessions started at two moments have identical "
             "system prompts, and the moment comes after the given messages as "
             "\"[Session started <now>]\", in a new list: the caller's is only read.")
def session_keeps_now_after_the_stable_part(ns):
    t = tools_for()
    earlier = [lab.user("Our goal: ship the checkout."), lab.say("Noted.")]
    models = []
    for now in ("2026-12-01 09:00", "2026-12-01 09:07"):
        given = list(earlier)
        model, h = open_session(ns, [t["read"]], dict(FACTS), messages=given, now=now)
        expect(given == earlier,
               f"session added to the caller's messages list, which now holds {lab.shape(given)}; "
               "the moment goes into a new list, after the messages, and the caller's is only read")
        run(h, "Is the shop's checkout done?")
        models.append(model)
        system = model.calls[0].system
        if now in system:
            where = "at the top of" if system.startswith(now) or now in system.split("\n")[0] else "inside"
            raise Failed(f"session put now ({now!r}) {where} the system prompt, so each session's "
                         "requests begin with different bytes; it belongs after the stable part, "
                         "in the transcript")
        sent = model.calls[0].messages
        wanted = harness.user_message(f"[Session started {now}]")
        expect(sent[:3] == earlier + [wanted],
               f"session should start the transcript with the given messages and then "
               f"{wanted['content']!r}; the first request held {lab.shape(sent)}")
    expect(models[0].calls[0].system == models[1].calls[0].system,
           "session gave two sessions with the same tools and facts different system prompts")


@test(13, 2, "Held, not rebuilt: facts changed after the session began, between two prompts, leave "
             "the system prompt byte-identical.")
def session_is_built_once(ns):
    t = tools_for()
    facts = {"project": "shop", "branch": "main"}
    model, h = open_session(ns, [t["read"]], facts)
    run(h, "Is the shop's checkout done?")
    facts["branch"] = "hotfix"
    facts["files"] = "checkout.py, cart.py"
    run(h, "Are the tests green?")
    first, second = model.calls[0].system, model.calls[-1].system
    expect(first == second, "session's system prompt changed between two prompts after the facts "
                            f"dict did ({first_difference(second, first)}); make the briefing once, "
                            "when the session opens, and keep the string")


@test(13, 2, "Resumed from the record with the same tools in another order, [write, read] after "
             "[read, write], the session offers them in one order and its first request shows "
             "cached tokens.")
def session_resumed_in_another_order(ns):
    t = tools_for()
    model, first = open_session(ns, [t["read"], t["write"]], dict(FACTS))
    run(first, "Is the shop's checkout done?")
    record = [dict(m) for m in first.messages]
    asked = [t["write"], t["read"]]
    _, resumed = open_session(ns, asked, dict(FACTS), model=model, messages=record)
    run(resumed, "Are the tests green?")
    expect([x["name"] for x in asked] == ["write", "read"],
           "session reordered the caller's list of tools; give the Harness a sorted copy")
    orders = [[spec["name"] for spec in c.tools] for c in model.calls]
    expect(orders[0] == orders[-1],
           f"session offered the tools as {', '.join(orders[0])} and, resumed with them listed the "
           f"other way round, as {', '.join(orders[-1])}: hand the Harness the tools sorted by name, "
           "as the briefing lists them, so the cached prefix survives a resume")
    expect(model.calls[-1].cached > 0, "session's resumed request found nothing in the cache, though "
                                       "it held the same tools, facts and record as before")


# hidden

@test(13, 2, "No tools: the Harness offers none, and its system prompt is the briefing of none.",
      hidden=True)
def session_with_no_tools(ns):
    model, h = open_session(ns, [], {})
    run(h, "Is the checkout done?")
    request = model.calls[0]
    expect(request.tools == [], "session offered tools to a session given none")
    expect(named_tools(request.system) == [],
           f"session's system prompt names tools ({', '.join(named_tools(request.system))}) in a "
           "session given none")
    again, h2 = open_session(ns, [], {})
    run(h2, "Is the checkout done?")
    expect(again.calls[0].system == request.system,
           "session gave two sessions with no tools and no facts different system prompts")


@test(13, 2, "now=None and now=\"\" add nothing; messages are taken as given; max_turns reaches the "
             "Harness.", hidden=True)
def session_without_now(ns):
    t = tools_for()
    earlier = [lab.user("Our goal: ship the checkout."), lab.say("Noted.")]
    for now in (None, ""):
        model, h = open_session(ns, [t["read"]], {}, messages=earlier, now=now)
        expect(list(h.messages) == earlier,
               f"session with now={now!r} started the transcript as {lab.shape(h.messages)}, "
               "not as the messages given")
    always_read = [lab.forever(lambda request: lab.reply(lab.call("read", {"path": "notes.md"})))]
    model, h = open_session(ns, [t["read"]], {}, script=always_read, max_turns=2)
    try:
        run(h, "Read notes.md for ever.")
    except lab.ScriptError:
        raise Failed("session let a model that always calls read run past max_turns=2; pass "
                     "max_turns on to the Harness") from None
    expect(len(model.calls) == 2, f"session with max_turns=2 let the model be called {len(model.calls)} "
                                  "times; pass max_turns on to the Harness")


@test(13, 2, "The same bytes across a compaction: twenty prompts with maybe_compact before each, and "
             "every agent request opens with one system prompt, with cache hits after every "
             "compaction.", hidden=True)
def session_same_bytes_across_compaction(ns):
    t = tools_for()
    model = lab.ScriptedModel([lab.summariser()], context_window=2000, max_calls=60)
    log = harness.SessionLog(lab.Workspace(), "session.jsonl")
    h = ns.session(model, [t["read"]], {"project": "shop", "owner": "Zoë"})
    h.subscribe(harness.persist_to(log))
    compactions = 0
    for i in range(1, 21):
        compactions += harness.maybe_compact(h, log, model, window=2000, reserve=1200,
                                             keep_recent_tokens=250)
        run(h, f"Step {i}: the checkout module passes its lint and its new tests are green. "
               f"Is step {i} done?")
    agent = [c for c in model.calls if c.system != harness.SUMMARY_SYSTEM]
    expect(compactions >= 1, "the test's session never compacted; this is the test's fault")
    expect(len({c.system for c in agent}) == 1,
           "session's system prompt changed across a compaction")
    expect(all(c.cached > 0 for c in agent[1:]),
           "after a compaction session's requests found no cached prefix")
