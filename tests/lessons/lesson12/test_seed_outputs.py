"""The seed's thirteen demonstration cells of lesson 12, each printing exactly what the seed shows.

Every test does what one cell of the lesson does, against the reference harness and the lab, and
compares everything it printed with the seed's output for that cell, character for character.
"""

import json

import harness
import lab
from tests.lessons.lesson12.seed_outputs import expected


def seed(cell_id):
    """What the seed shows under that demonstration, as print() makes it."""
    return expected(cell_id)


def printed(capsys):
    return capsys.readouterr().out


PART_LINES = "".join(f"line {n:02d}: the quick brown fox jumps over it\n" for n in range(1, 13))
GOAL = "Our goal is to index every part file into INDEX.md."


def reads_named_file(request):
    """Reads the file the newest user message names (its last word) once, then says so."""
    messages = request.messages
    newest = max(i for i, m in enumerate(messages) if m["role"] == "user")
    name = messages[newest]["content"].split()[-1]
    if any(m["role"] == "toolResult" for m in messages[newest:]):
        return lab.say(f"{name} is noted.")
    return lab.reply(lab.call("read", {"path": name}))


def reads_when_asked(request):
    """Reads the file a user message at the end names; after a result, just 'Noted.'."""
    last = request.messages[-1]
    if last["role"] != "user":
        return lab.say("Noted.")
    return lab.reply(lab.call("read", {"path": last["content"].split()[-1]}))


def two_file_session():
    one = lab.call("read", {"path": "a.py"}, id="c1")
    two = lab.call("read", {"path": "b.py"}, id="c2")
    tests = lab.call("bash", {"command": "pytest"}, id="c3")
    return [
        lab.user("Our goal: make a.py and b.py agree. Read both."),
        lab.reply(one, two),
        lab.tool_result(one, "A = 1\n"),
        lab.tool_result(two, "B = 2\n"),
        lab.say("They differ in one name."),
        lab.user("Now run the tests."),
        lab.reply(tests),
        lab.tool_result(tests, "3 passed\n"),
        lab.say("Green."),
    ]


# 1. The opening: a hand deletes the last line of the log, and the session resumes.
def test_cell_01_deleted_line_resumes(capsys):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, "session.jsonl")
    first = lab.call("write", {"path": "a.py", "content": "A = 1\n"}, id="w1")
    second = lab.call("write", {"path": "b.py", "content": "B = 2\n"}, id="w2")
    history = [lab.user("Write a.py, then b.py."), lab.reply(first),
               lab.tool_result(first, "Successfully wrote to a.py."), lab.reply(second),
               lab.tool_result(second, "Successfully wrote to b.py.")]
    for message in history:
        log.append_message(message)
    kept = ws.read_text("session.jsonl").splitlines(keepends=True)[:-1]
    ws.write_text("session.jsonl", "".join(kept))

    model = lab.ScriptedModel([lab.say("Let me check b.py first.")])
    h = harness.Harness(model, harness.SYSTEM, [], messages=log.replay())
    for _ in h.prompt("Carry on."):
        pass
    sent = model.calls[0].messages
    print("lines in the file :", len(kept))
    print("the record        :", lab.shape(h.messages))
    print("the model was sent:", lab.shape(sent))
    print(lab.show(sent[4:5], clip=200))

    assert printed(capsys) == seed('demo-recall')


# 2. One big tool result, carried by every later request.
def test_cell_02_big_result_rides_along(capsys):
    ws = lab.Workspace({"big.log": lab.big_log(lines=3000)})

    def agent(request):
        if request.last_result is None:
            return lab.reply(lab.call("read", {"path": "big.log"}))
        return lab.say("Noted.")

    model = lab.ScriptedModel([lab.forever(agent)])
    h = harness.Harness(model, harness.SYSTEM, [harness.make_read_tool(ws)])
    for prompt in ["Read big.log."] + [f"Short question {n}." for n in range(1, 19)]:
        for _ in h.prompt(prompt):
            pass
    result = h.messages[2]
    carried = sum(1 for request in model.calls if request.last_result is not None)
    print("messages in the record:", len(h.messages))
    print("message 3 is a", result["role"], "of about", lab.count_tokens(result["content"]), "tokens")
    print("requests made:", len(model.calls), "| requests that carried it:", carried)
    print("bill for the session:", model.bill, "input tokens")

    assert printed(capsys) == seed('demo-bill')


# 3. The wall: lesson 11's harness under a 2,000-token window.
def test_cell_03_prompt_nine_hits_the_wall(capsys):
    ws = lab.Workspace({f"part{i}.txt": PART_LINES for i in range(1, 13)})
    model = lab.ScriptedModel([lab.forever(reads_named_file)], context_window=2000)
    h = harness.Harness(model, harness.SYSTEM, [harness.make_read_tool(ws)])
    for i in range(1, 13):
        prompt = f"Now read part{i}.txt"
        if i == 1:
            prompt = GOAL + " " + prompt
        for _ in h.prompt(prompt):
            pass
        last = h.messages[-1]
        outcome = last.get("error_message") or harness.text_of(last)
        print(f"prompt {i:2}: {last['usage']['input']:5} tokens sent | {outcome}")

    assert printed(capsys) == seed('demo-wall')


# 4. Three ways to make room, each tried against the next prompt.
def test_cell_04_three_ways_to_make_room(capsys):
    prompt = "Add the first line of the part you just read to INDEX.md."
    files = {f"part{i}.txt": "".join(f"part {i} line {n:02d}: the quick brown fox\n"
                                     for n in range(1, 13)) for i in range(1, 9)}
    record = []
    for i in range(1, 9):
        name = f"part{i}.txt"
        read = lab.call("read", {"path": name}, id=f"c{i}")
        ask = f"Now read {name}" if i > 1 else f"{GOAL} Now read {name}"
        record += [lab.user(ask), lab.reply(read), lab.tool_result(read, files[name]),
                   lab.say(f"{name} is noted.")]

    def worker(request):
        if "index every part file" not in request.user_text:
            return lab.say("Add it to what? Nothing here says what we are working on.")
        seen = [m for m in request.messages
                if m["role"] == "toolResult" and "part 8" in m["content"]]
        if seen:
            return lab.say("Indexed: " + seen[-1]["content"].splitlines()[0])
        return lab.reply(lab.call("read", {"path": "part8.txt"}, id="again"))

    def trial(label, view):
        ws = lab.Workspace(files)
        model = lab.ScriptedModel([lab.forever(worker)])
        h = harness.Harness(model, harness.SYSTEM, [harness.make_read_tool(ws)], messages=view)
        for _ in h.prompt(prompt):
            pass
        print(f"{label}: {lab.shape(view)}")
        print("    a provider on that list:", "; ".join(lab.validate(view)) or "accepts it")
        print("    your harness sent      :", lab.shape(model.calls[0].messages))
        print("    the agent              :", harness.text_of(h.messages[-1]))
        print("    model calls:", len(model.calls), "| files read again:", ws.reads)
        print()

    goal = "Previous summary: the goal is to index every part file into INDEX.md. "
    trial("(a) the newest 6 messages", record[-6:])
    trial("(b) a summary of everything", [lab.user(goal + "Parts 1 to 8 are read and noted.")])
    trial("(c) a summary, then the last prompt and its work",
          [lab.user(goal + "Parts 1 to 7 are read and noted.")] + record[-4:])

    assert printed(capsys) == seed('demo-three-ways')


# 5. A compaction entry is one more line, and replay() reads it as a rule.
def test_cell_05_compaction_appends_a_line(capsys):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, "session.jsonl")
    for message in two_file_session():
        log.append_message(message)
    before = ws.read_text("session.jsonl")
    log.append_compaction("Goal: make a.py and b.py agree. Both read; they differ in one name.", "e6")
    after = ws.read_text("session.jsonl")

    print("lines in the file:", len(before.splitlines()), "->", len(after.splitlines()))
    print("every old line still there, unchanged:", after.startswith(before))
    print("the new line:")
    for key, value in json.loads(after.splitlines()[-1]).items():
        print(f"    {key}: {value!r}")
    print()
    replayed = log.replay()
    print("replay():", len(replayed), "messages,", lab.shape(replayed))
    print(lab.show(replayed))
    print()
    tomorrow = harness.SessionLog(ws.reboot(), "session.jsonl")
    print("a new process replays the same list:", tomorrow.replay() == log.replay())

    assert printed(capsys) == seed('demo-entry')


# 6. A cut on a tool result: refused as it is, and repaired only by losing the result.
def test_cell_06_cut_on_a_tool_result(capsys):
    session = two_file_session()
    summary = lab.user("Previous conversation summary:\n"
                       "Goal: make a.py and b.py agree. The agent called read on a.py and on b.py.")
    question = lab.user("What did b.py say?")
    view = [summary] + session[3:] + [question]
    print("the view     :", lab.shape(view))

    def answers(request):
        seen = [m for m in request.messages
                if m["role"] == "toolResult" and "B = 2" in m["content"]]
        if not seen:
            return lab.say("I can't see b.py's text any more. Reading it again.")
        return lab.say("b.py says: " + seen[-1]["content"].strip())

    model = lab.ScriptedModel([lab.forever(answers)])
    print("sent as it is:", model.complete(harness.SYSTEM, view, []).get("error_message"))
    repaired = harness.context_for_model(view)
    answer = model.complete(harness.SYSTEM, repaired, [])
    print("through lesson 10's repair:", lab.shape(repaired))
    print("the model    :", harness.text_of(answer))
    answer = model.complete(harness.SYSTEM, session + [question], [])
    print("the same model, uncut list:", harness.text_of(answer))

    assert printed(capsys) == seed('demo-bad-cut')


# 7. Where the walk back stops, and where find_cut moves the cut.
def test_cell_07_find_cut_snaps_forward(capsys):
    def numbered(messages):
        return [(f"e{n}", m) for n, m in enumerate(messages, start=1)]

    def walk_back(rows, budget):
        cut, kept = len(rows), 0
        while cut > 0 and kept < budget:
            cut -= 1
            kept += harness.estimate_tokens([rows[cut][1]])
        return cut

    def report(rows, budget):
        messages = [m for _, m in rows]
        print(lab.shape(messages))
        print("    sizes in tokens      :", [harness.estimate_tokens([m]) for m in messages])
        print(f"    a budget of {budget} stops on:", rows[walk_back(rows, budget)][0])
        print("    find_cut keeps from  :", rows[harness.find_cut(rows, budget)][0])
        print()

    report(numbered(two_file_session()), 35)

    app = lab.call("read", {"path": "app.py"}, id="c1")
    util = lab.call("read", {"path": "util.py"}, id="c2")
    test = lab.call("read", {"path": "test_app.py"}, id="c3")
    report(numbered([
        lab.user("Our goal: find why add() is wrong. Read app.py."),
        lab.reply(app), lab.tool_result(app, "def add(a, b): return a - b\n"),
        lab.say("add() subtracts."),
        lab.user("Check the other two files as well."),
        lab.reply(util, test), lab.tool_result(util, "import app\n"),
        lab.tool_result(test, "assert app.add(2, 2) == 4\nassert app.add(0, 1) == 1\n"),
        lab.say("Nothing else is wrong."),
        lab.user("So what is the fix, in one line?"),
        lab.say("Return a + b."),
    ]), 35)

    assert printed(capsys) == seed('demo-find-cut')


# 8. Asking the agent's own model for a summary, in the agent's own voice.
def test_cell_08_summary_asked_in_the_wrong_voice(capsys):
    read = lab.call("read", {"path": "config.py"}, id="c1")
    conversation = [
        lab.user("Our goal is to move the service to port 8080. Start by reading config.py."),
        lab.reply(lab.text("Reading it."), read),
        lab.tool_result(read, "HOST = 'localhost'\nPORT = 9090\n"),
        lab.say("config.py sets PORT = 9090."),
        lab.user("Is config.py still on port 9090?"),
        lab.say("Yes, 9090."),
    ]
    tools = harness.tool_specs([harness.make_read_tool(lab.Workspace())])
    ask = lab.user("Summarise the conversation so far.")
    model = lab.ScriptedModel([lab.summariser()])

    answer = model.complete(harness.SYSTEM, conversation + [ask], tools)
    print(lab.show([answer]))
    print("cost of asking:", answer["usage"]["input"], "input tokens:",
          "all", len(conversation) + 1, "messages, sent again")
    print()
    younger = [lab.user("Our goal is to move the service to port 8080."), lab.say("Understood.")]
    print(lab.show([model.complete(harness.SYSTEM, younger + [ask], tools)]))

    assert printed(capsys) == seed('demo-who-writes')


# 9. Two lists again: editing the live list by hand, replaying, and swapping mid-run.
def test_cell_09_bring_the_live_list_up_to_date(capsys):
    def exchange(n):
        return [lab.user(f"Question {n}."), lab.say(f"Answer {n}.")]

    ws = lab.Workspace()
    log = harness.SessionLog(ws, "session.jsonl")
    for message in exchange(1) + exchange(2) + exchange(3):
        log.append_message(message)
    log.append_compaction("Questions 1 and 2 were answered.", "e5")
    for message in exchange(4) + exchange(5):
        log.append_message(message)

    live = log.replay()
    print("the live list:", lab.shape(live))
    print("               (a summary, then e5, e6, e8 .. e11)")
    newer = "Questions 1 to 4 were answered."
    log.append_compaction(newer, "e10")
    by_hand = [harness.user_message("Previous conversation summary:\n" + newer)] + live[9:]
    print("(a) by hand  :", lab.shape(by_hand))
    print("(b) replay() :", lab.shape(log.replay()))
    resumed = harness.SessionLog(ws.reboot(), "session.jsonl").replay()
    print("tomorrow's resume equals (a):", resumed == by_hand,
          "| equals (b):", resumed == log.replay())

    def meddle(arguments):
        try:
            h.replace_messages(log.replay())
        except RuntimeError as error:
            return f"refused: {error}"
        return "swapped"

    tool = {"name": "meddle", "description": "", "parameters": {}, "execute": meddle}
    model = lab.ScriptedModel([lab.reply(lab.call("meddle", id="m1")), lab.say("Done.")])
    h = harness.Harness(model, harness.SYSTEM, [tool], messages=live)
    for _ in h.prompt("Question 6."):
        pass
    print("(c) mid-run  :", h.messages[-2]["content"])

    assert printed(capsys) == seed('demo-two-lists')


# 10. The summary call fails with a 503 just before the user's prompt: three policies.
def test_cell_10_when_housekeeping_fails(capsys):
    def four_steps_in():
        log = harness.SessionLog(lab.Workspace(), "session.jsonl")
        log.append_message(lab.user("Our goal is port 8080. Step 1."))
        log.append_message(lab.say("Step 1 is done."))
        for n in (2, 3):
            log.append_message(lab.user(f"Step {n}."))
            log.append_message(lab.say(f"Step {n} is done."))
        return log

    def housekeeping(policy, log, writer):
        rows = log.rows()
        try:
            summary = harness.summarize(writer, [message for _, message in rows[:4]])
        except RuntimeError:
            if policy == "skip":
                return
            if policy == "raise":
                raise
            summary = ""
        log.append_compaction(summary, rows[4][0])

    for policy in ("raise", "write what we got", "skip"):
        log = four_steps_in()
        agent = lab.ScriptedModel([lab.say("Step 4 is done.")])
        writer = lab.ScriptedModel([lab.fail("503 overloaded")])
        try:
            housekeeping(policy, log, writer)
            h = harness.Harness(agent, harness.SYSTEM, [], messages=log.replay())
            for _ in h.prompt("Step 4."):
                pass
            outcome = harness.text_of(h.messages[-1])
        except RuntimeError as error:
            outcome = f"RuntimeError: {error}"
        print(f"{policy!r}:")
        print("    the user typed 'Step 4.' and got:", outcome)
        print("    model calls for the user:", len(agent.calls))
        print("    a resume tomorrow starts from:", lab.show(log.replay()[:1]))
        print()

    assert printed(capsys) == seed('demo-housekeeping')


# 11. Forty prompts under the same window, compacting before each prompt that needs it.
def test_cell_11_forty_prompts_under_the_wall(capsys):
    ws = lab.Workspace({f"part{i}.txt": PART_LINES for i in range(1, 41)})
    agent = lab.ScriptedModel([lab.forever(reads_named_file)], context_window=2000, max_calls=100)
    summaries = lab.ScriptedModel([lab.summariser()])
    h = harness.Harness(agent, harness.SYSTEM, [harness.make_read_tool(ws)])
    log = harness.SessionLog(ws, "session.jsonl")
    h.subscribe(harness.persist_to(log))

    compacted, replies = [], []
    for i in range(1, 41):
        if harness.maybe_compact(h, log, summaries, window=2000, reserve=900,
                                 keep_recent_tokens=300):
            compacted.append(i)
        prompt = f"Now read part{i}.txt"
        if i == 1:
            prompt = GOAL + " " + prompt
        replies += [event["message"] for event in h.prompt(prompt) if event["type"] == "turn_end"]

    refused = sum(1 for m in replies if m.get("stop_reason") == "error")
    print("prompts answered:", 40 - refused, "of 40")
    print("compacted before prompts:", compacted)
    print("largest request :", max(m["usage"]["input"] for m in replies), "tokens")
    print("lines in the log:", len(log.entries()), "| messages in the record:", len(h.messages))
    print("log replays as the record:", log.replay() == list(h.messages))
    print()
    first = agent.calls[-1].messages[0]["content"]
    print("the last request began with:", repr(first[:31]), f"({len(first)} characters)")
    at = first.find(GOAL)
    print("and inside it, six summaries deep:")
    print("   ", repr(first[at - 16:at + len(GOAL)]) if at > 0 else "no goal at all")

    assert printed(capsys) == seed('demo-forty')


# 12. What chars/4 over render() cannot see.
def test_cell_12_estimate_against_the_provider(capsys):
    ws = lab.Workspace({f"part{i}.txt": PART_LINES for i in range(1, 8)})
    model = lab.ScriptedModel([lab.forever(reads_when_asked)])
    h = harness.Harness(model, harness.SYSTEM, [harness.make_read_tool(ws)])
    for i in range(1, 8):
        for _ in h.prompt(f"Now read part{i}.txt"):
            pass
    extras = lab.render_request(harness.SYSTEM, [], model.calls[-1].tools)
    print("estimate_tokens(h.messages)       :", harness.estimate_tokens(h.messages))
    print("the provider counted, last request:", h.messages[-1]["usage"]["input"])
    print("system prompt and tool definitions:", lab.count_tokens(extras),
          "tokens that render() never sees")

    assert printed(capsys) == seed('demo-estimate')


# 13. A trigger that trusts the newest reported usage fires again and again.
def test_cell_13_stale_usage_keeps_firing(capsys):
    ws = lab.Workspace({f"part{i}.txt": PART_LINES for i in range(1, 9)})

    def provider_says(messages):
        return [m["usage"] for m in messages if "usage" in m][-1]["input"]

    agent = lab.ScriptedModel([lab.forever(reads_when_asked)])
    summaries = lab.ScriptedModel([lab.summariser()])
    h = harness.Harness(agent, harness.SYSTEM, [harness.make_read_tool(ws)])
    log = harness.SessionLog(ws, "session.jsonl")
    h.subscribe(harness.persist_to(log))
    for i in range(1, 9):
        for _ in h.prompt(f"Now read part{i}.txt"):
            pass

    for check in (1, 2, 3, 4):
        print(f"check {check}: the provider said", provider_says(h.messages), "tokens;",
              "the record holds", len(h.messages), "messages, about",
              harness.estimate_tokens(h.messages), "by chars/4")
        if provider_says(h.messages) > 2000 - 900:
            done = harness.compact(log, summaries, keep_recent_tokens=300)
            h.replace_messages(log.replay())
            print("         over the threshold ->", "compacted:", done)

    assert printed(capsys) == seed('demo-stale-usage')
