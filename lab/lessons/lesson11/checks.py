"""The lab tests of lesson 11, "Pull the plug": SessionLog.entries, SessionLog.append_message and
persist_to, one lab.

`ns.SessionLog` is a SessionLog class whose entries and append_message are the learner's, and
`ns.persist_to` is the learner's function. Each clause of a contract is tested first under its own
function's name, with the reference standing in for the other two (`alone`), and only then end to
end. The visible tests are the plan's seven and one for every wrong idea a rung of the lesson
warns about; the hidden ones hold each function to the edges of its docstring.
"""

import json
import re

import harness
import lab
from lab.checks import blame, expect, Failed, test
from lab.course import manifest
from lab.stage.prose import plural

PATH = "session.jsonl"


def _codes(function):
    """The code of `function` and of every function defined inside it (a listener, say)."""
    code = getattr(function, "__code__", None)
    found, todo = set(), [code] if code else []
    while todo:
        code = todo.pop()
        found.add(code)
        todo += [c for c in code.co_consts if hasattr(c, "co_consts")]
    return found


def whose(ns, error):
    """Where `error` came from among the learner's three functions, innermost first: "entries
    (called from append_message, from persist_to)", or "" when none of them is on the traceback."""
    owners = {"entries": _codes(getattr(ns.SessionLog, "entries", None)),
              "append_message": _codes(getattr(ns.SessionLog, "append_message", None)),
              "persist_to": _codes(getattr(ns, "persist_to", None))}
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code)
        tb = tb.tb_next
    chain = []
    for code in frames:
        for name, codes in owners.items():
            if code in codes and (not chain or chain[-1] != name):
                chain.append(name)
    inner, *outer = reversed(chain) if chain else [""]
    return inner + (f" (called from {', from '.join(outer)})" if outer else "")


def together(ns, function, *args):
    """function(*args) for a test of the three functions at once: anything raised is put in a
    sentence naming the learner's function it came out of."""
    try:
        return function(*args)
    except (NotImplementedError, Failed, RecursionError, lab.PowerCut):
        raise
    except Exception as error:
        name = whose(ns, error) or "your entries, append_message or persist_to"
        raise Failed(f"{name} raised {type(error).__name__}: {error}") from None


def alone(ns, name):
    """A SessionLog class in which only the learner's `name` ("entries" or "append_message") is
    used; the other method is the reference's, so a failure is that function's own."""
    other = "append_message" if name == "entries" else "entries"
    return type("SessionLog", (ns.SessionLog,), {other: manifest.reference(f"SessionLog.{other}")})


def line_of(entry_id, message):
    return json.dumps({"id": entry_id, "type": "message", "message": message}) + "\n"


def lines(ws, path=PATH):
    return ws.read_text(path).splitlines() if ws.exists(path) else []


def session():
    """The messages of a short job: a prompt, a write call, its result, and the answer."""
    call = lab.call("write", {"path": "a.py", "content": "print('a')\n"}, id="w1")
    return [lab.user("Write a.py."), lab.reply(call), lab.tool_result(call, "Successfully wrote to a.py."),
            lab.say("a.py is written.")]


def writer(files=None):
    """A model that writes the file each prompt names once, then says so; and its tool, over a
    workspace of its own (the log's disk is another one, so that only the log's writes count)."""
    disk = lab.Workspace(files)

    def answer(request):
        sent = request.messages
        prompts = [i for i, m in enumerate(sent) if m["role"] == "user"]
        name = sent[prompts[-1]]["content"].split()[-1].rstrip(".")
        if any(m["role"] == "toolResult" for m in sent[prompts[-1]:]):
            return lab.say(f"{name} is written.")
        return lab.reply(lab.call("write", {"path": name, "content": f"# {name}\n"},
                                  id=f"w{len(prompts)}"))
    return lab.ScriptedModel([lab.forever(answer)]), [harness.make_write_tool(disk)]


def new_harness(messages=(), max_turns=None):
    model, tools = writer()
    return harness.Harness(model, harness.SYSTEM, tools, messages=messages, max_turns=max_turns)


def run(h, text):
    for _ in h.prompt(text):
        pass


# -- append_message, on its own ----------------------------------------------------------------

@test(11, 1, "append_message writes one JSON line, {\"id\": \"e1\", \"type\": \"message\", "
             "\"message\": ...}, at the end of the file and returns \"e1\"; the next call returns \"e2\".")
def append_writes_one_line(ns):
    ws = lab.Workspace()
    log = alone(ns, "append_message")(ws, PATH)
    first, second = session()[:2]
    ids = [blame("append_message", log.append_message, first)]
    text = ws.read_text(PATH) if ws.exists(PATH) else ""
    expect(text.endswith("\n"), "append_message should end its line with \"\\n\"; after the first message the "
                                "file does not end with one, so the next line would be glued onto it")
    expect(len(text.splitlines()) == 1,
           f"append_message wrote the first message as {plural(len(text.splitlines()), 'line')}; an entry is one line")
    ids.append(blame("append_message", log.append_message, second))
    expect(ids == ["e1", "e2"], f"append_message should return \"e1\", then \"e2\"; it returned {ids[0]!r}, then {ids[1]!r}")
    text = ws.read_text(PATH)
    expect(len(text.splitlines()) == 2,
           f"append_message should write one line per message; two messages made {plural(len(text.splitlines()), 'line')}")
    expect(text.endswith("\n"), "append_message should end each line with \"\\n\"; the file does not end with one, "
                                "so the next line would be glued onto the last")
    for n, (line, message) in enumerate(zip(text.splitlines(), [first, second]), start=1):
        try:
            entry = json.loads(line)
        except ValueError:
            raise Failed(f"append_message wrote line {n} that is not one JSON object: {line[:60]!r}") from None
        expected = {"id": f"e{n}", "type": "message", "message": message}
        expect(entry == expected, f"append_message wrote line {n} as {json.dumps(entry)[:90]}; it should be "
                                  f"{json.dumps(expected)[:90]}")


@test(11, 1, "Two SessionLog objects over one file take turns appending and hand out e1, e2, e3, e4 "
             "between them: no id is handed out twice.")
def two_logs_share_the_numbering(ns):
    ws = lab.Workspace()
    cls = alone(ns, "append_message")
    a, b = cls(ws, PATH), cls(ws, PATH)
    messages = session()
    ids = [blame("append_message", log.append_message, message)
           for log, message in zip((a, b, a, b), messages)]
    expect(ids == ["e1", "e2", "e3", "e4"],
           f"append_message on two logs over one file returned {', '.join(ids)}; they should be e1, e2, e3, e4. "
           "Count the lines in the file each time, not appends made by this object")
    on_disk = [json.loads(line)["id"] for line in lines(ws)]
    expect(on_disk == ["e1", "e2", "e3", "e4"],
           f"append_message wrote the ids {', '.join(on_disk)} into the file; they should be e1, e2, e3, e4")


@test(11, 1, "A power cut during the third append leaves the first two lines exactly as they were: "
             "appending risks only the line being written.")
def a_cut_costs_one_line(ns):
    ws = lab.Workspace()
    log = alone(ns, "append_message")(ws, PATH)
    messages = session()
    blame("append_message", log.append_message, messages[0])
    blame("append_message", log.append_message, messages[1])
    before = ws.read_text(PATH)
    ws.cut_power(after_bytes=20)
    try:
        blame("append_message", log.append_message, messages[2])
    except lab.PowerCut:
        pass
    else:
        raise Failed("append_message made no write at all for the third message, so the power cut never came")
    after = ws.reboot().read_text(PATH)
    expect(after.startswith(before),
           f"append_message rewrote the whole file instead of adding to its end: a power cut 20 bytes into "
           f"the third save left {len(after)} bytes, and the two lines saved before it are gone")
    expect(len(after) == len(before) + 20,
           f"append_message made more than one write for one message: after the cut the file grew by "
           f"{len(after) - len(before)} bytes, not the 20 the cut let through")


# -- entries, on its own -----------------------------------------------------------------------

@test(11, 1, "entries() is [] when there is no file; reads back every line as a dict; and on a file "
             "whose last line is torn raises ValueError naming line 3, instead of skipping it.")
def entries_reads_and_refuses_a_torn_line(ns):
    ws = lab.Workspace()
    log = alone(ns, "entries")(ws, PATH)
    found = blame("entries", log.entries)
    expect(found == [], f"entries() should be [] when there is no file yet; it returned {found!r}")
    messages = session()
    whole = line_of("e1", messages[0]) + line_of("e2", messages[1])
    ws.write_text(PATH, whole)
    try:
        found = blame("entries", log.entries)
    except Failed as failure:
        raise Failed(f"on a file of two complete lines, each ending in a newline, {failure}") from None
    expect(found == [json.loads(line) for line in whole.splitlines()],
           f"entries() on a file of two lines should return those two entries as dicts; it returned {found!r:.120}")
    torn = whole + line_of("e3", messages[2])[:25]
    ws.write_text(PATH, torn)
    try:
        found = log.entries()
    except ValueError as error:
        expect(re.search(r"\bline 3\b", str(error)),
               f"entries() raised ValueError for the torn line, but its message does not name line 3: {error}")
        return
    except (NotImplementedError, RecursionError):
        raise
    except Exception as error:
        raise Failed(f"entries() raised {type(error).__name__} for a torn line 3; it should raise ValueError "
                     "naming the line") from None
    raise Failed(f"entries() returned {plural(len(found), 'entry')} for a file whose line 3 is torn; it should "
                 "raise ValueError naming line 3, because the next append would be glued onto that line")


# -- persist_to, on its own --------------------------------------------------------------------

@test(11, 1, "persist_to(log), subscribed, has saved every message by the time its message_end reaches "
             "the consumer: one line per message_end, in order, even when the consumer breaks out early.")
def persist_saves_each_message_as_it_ends(ns):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, PATH)
    h = new_harness()
    h.subscribe(ns.persist_to(log))
    seen = []
    for prompt in ("Write a.py.", "Write b.py."):
        for event in h.prompt(prompt):
            if event["type"] == "message_end":
                seen.append(event["message"])
            on_disk = lines(ws)
            expect(len(on_disk) <= len(seen),
                   f"persist_to's listener saved {plural(len(on_disk), 'line')} by the event {event['type']!r}, "
                   f"for only {plural(len(seen), 'message_end')}: it saves at events other than message_end")
            expect(len(on_disk) == len(seen),
                   f"when the consumer was handed the event {event['type']!r}, persist_to's listener had saved "
                   f"{plural(len(on_disk), 'line')} for {plural(len(seen), 'message_end')}; it should save each "
                   "message at its own message_end, before the consumer sees it")
            if prompt == "Write b.py." and event["type"] == "tool_execution_end":
                break  # a consumer that walks away mid-run
    saved = [json.loads(line)["message"] for line in lines(ws)]
    expect(saved == seen, "persist_to's listener saved other messages than the ones announced, or in another order")
    expect(len(saved) == 7, f"persist_to should have saved 7 messages before the consumer broke out; it saved {len(saved)}")


@test(11, 1, "On a full disk the append raises OSError, and persist_to lets it end the run: the consumer "
             "gets the OSError, is_running is False, and the lines saved before are intact.")
def persist_is_loud_on_a_full_disk(ns):
    dry = lab.Workspace()  # the same run on a roomy disk, to measure its lines
    rehearsal = new_harness()
    rehearsal.subscribe(harness.persist_to(harness.SessionLog(dry, PATH)))
    run(rehearsal, "Write a.py.")
    sizes = [len(line.encode()) + 1 for line in lines(dry)]
    ws = lab.Workspace()
    log = harness.SessionLog(ws, PATH)
    h = new_harness()
    h.subscribe(ns.persist_to(log))
    ws.fill_disk(after_bytes=sizes[0] + sizes[1] + sizes[2] // 2)  # room for two lines and a half
    ended = None
    try:
        run(h, "Write a.py.")
    except OSError as error:
        ended = error
    saved = len(lines(ws))
    expect(ended is not None,
           f"persist_to's listener kept quiet about a full disk: the run went on to the end while the log "
           f"stopped at {plural(saved, 'line')} of {len(h.messages)}. Let the OSError go up")
    expect(not h.is_running, "after the OSError ended the run, is_running should be False")
    expect(saved == 2, f"persist_to should have saved the 2 messages that fitted before the disk was full; the log holds {saved}")


# -- the three together ------------------------------------------------------------------------

@test(11, 1, "Three prompts saved by persist_to; after ws.reboot(), a Harness built from a new "
             "SessionLog's replay() holds exactly the old h.messages.")
def resume_replays_the_record(ns):
    ws = lab.Workspace()
    h = new_harness()
    h.subscribe(ns.persist_to(ns.SessionLog(ws, PATH)))
    for name in ("a.py", "b.py", "c.py"):
        together(ns, run, h, f"Write {name}.")
    resumed = new_harness(messages=together(ns, ns.SessionLog(ws.reboot(), PATH).replay))
    expect(list(resumed.messages) == list(h.messages),
           f"after a reboot, the log your persist_to and append_message wrote, read by your entries, replays "
           f"{plural(len(resumed.messages), 'message')}; the harness held {len(h.messages)}, and they should be equal")


@test(11, 1, "The file only grows: after more prompts, the text it held before is still the start of it, "
             "byte for byte.")
def the_file_only_grows(ns):
    ws = lab.Workspace()
    h = new_harness()
    h.subscribe(ns.persist_to(ns.SessionLog(ws, PATH)))
    together(ns, run, h, "Write a.py.")
    before = ws.read_text(PATH)
    together(ns, run, h, "Write b.py.")
    together(ns, run, h, "Write c.py.")
    after = ws.read_text(PATH)
    expect(after.startswith(before) and len(after) > len(before),
           "append_message changed text that was already in the file: what two prompts saved is no longer "
           "the start of the file after two more")


# -- hidden: the edges of each contract --------------------------------------------------------

@test(11, 1, "A torn line is an error that names its line wherever it is: the only line (line 1), and "
             "a torn line 2 with a whole line glued after it.", hidden=True)
def torn_lines_are_named(ns):
    ws = lab.Workspace()
    log = alone(ns, "entries")(ws, PATH)
    messages = session()
    cases = {1: line_of("e1", messages[0])[:30],
             2: line_of("e1", messages[0]) + line_of("e2", messages[1])[:30] + line_of("e3", messages[2])}
    for number, text in cases.items():
        ws.write_text(PATH, text)
        try:
            found = log.entries()
        except ValueError as error:
            expect(re.search(rf"\bline {number}\b", str(error)),
                   f"entries() raised for the torn line {number}, but its message does not name it: {error}")
            continue
        raise Failed(f"entries() returned {plural(len(found), 'entry')} for a file whose line {number} is torn; "
                     f"it should raise ValueError naming line {number}")


@test(11, 1, "An empty file is an empty session, and a message with newlines, tabs and non-ASCII "
             "text takes one line and comes back equal.", hidden=True)
def odd_text_round_trips(ns):
    ws = lab.Workspace({PATH: ""})
    found = blame("entries", alone(ns, "entries")(ws, PATH).entries)
    expect(found == [], f"entries() of an empty file should be []; it returned {found!r}")
    odd = lab.user("Zeile 1:\tÄrger\nline 2: naïve café — 東京\n")
    log = alone(ns, "append_message")(ws, PATH)
    blame("append_message", log.append_message, odd)
    blame("append_message", log.append_message, lab.say("ok"))
    expect(len(lines(ws)) == 2, f"append_message wrote {plural(len(lines(ws)), 'line')} for two messages, one with newlines in it")
    back = blame("entries", alone(ns, "entries")(ws, PATH).entries)
    expect([e.get("message") for e in back] == [odd, lab.say("ok")],
           "a message with newlines and non-ASCII text did not come back from entries() equal to what append_message was given")


@test(11, 1, "A log opened on a file an earlier process wrote goes on from its last line: after three "
             "lines, append_message returns \"e4\".", hidden=True)
def numbering_survives_a_reboot(ns):
    ws = lab.Workspace()
    messages = session()
    harness.SessionLog(ws, PATH).append_message(messages[0])
    harness.SessionLog(ws, PATH).append_message(messages[1])
    harness.SessionLog(ws, PATH).append_message(messages[2])
    got = blame("append_message", alone(ns, "append_message")(ws.reboot(), PATH).append_message, messages[3])
    expect(got == "e4", f"append_message on a file that already holds 3 lines returned {got!r}; it should return \"e4\"")


@test(11, 1, "A full disk loses nothing already written: append_message raises OSError, the file is "
             "unchanged, and once there is room the next message gets the next id.", hidden=True)
def full_disk_loses_nothing(ns):
    ws = lab.Workspace()
    log = ns.SessionLog(ws, PATH)
    messages = session()
    together(ns, log.append_message, messages[0])
    together(ns, log.append_message, messages[1])
    before = ws.read_text(PATH)
    ws.fill_disk(after_bytes=5)
    try:
        log.append_message(messages[2])
    except OSError:
        pass
    except (NotImplementedError, RecursionError):
        raise
    except Exception as error:
        raise Failed(f"append_message raised {type(error).__name__} on a full disk, not the disk's OSError: "
                     f"{error}") from None
    else:
        raise Failed("append_message returned normally on a full disk; the OSError should reach its caller")
    expect(ws.read_text(PATH) == before, "append_message changed the file when the disk was full")
    ws.fill_disk(after_bytes=None)
    got = together(ns, log.append_message, messages[2])
    expect(got == "e3", f"after a failed append, append_message returned {got!r} for the next one; nothing was "
                        "written by the failed one, so it is \"e3\"")
    ids = [e["id"] for e in together(ns, log.entries)]
    expect(ids == ["e1", "e2", "e3"], f"after the disk had room again, append_message and entries gave the ids {ids}, not e1, e2, e3")


@test(11, 1, "Two logs open on one file: a harness saving through persist_to while another SessionLog "
             "adds lines between prompts; every id in the file is different and in order.", hidden=True)
def two_logs_and_a_harness(ns):
    ws = lab.Workspace()
    h = new_harness()
    h.subscribe(ns.persist_to(ns.SessionLog(ws, PATH)))
    other = ns.SessionLog(ws, PATH)
    together(ns, run, h, "Write a.py.")
    together(ns, other.append_message, lab.user("A note from another window."))
    together(ns, run, h, "Write b.py.")
    ids = [e["id"] for e in together(ns, ns.SessionLog(ws, PATH).entries)]
    expect(ids == [f"e{n}" for n in range(1, len(ids) + 1)] and len(ids) == 9,
           f"with two logs open on one file, append_message wrote the ids {', '.join(ids)}; they should be e1 to e9")


@test(11, 1, "A resume after a power cut replays exactly what was written: a cut between two lines "
             "gives the messages before it, and the resumed harness carries on; a cut inside a line "
             "is an error, never a shorter session.", hidden=True)
def resume_after_a_cut(ns):
    for after_bytes in (0, 15):
        ws = lab.Workspace()
        h = new_harness()
        h.subscribe(ns.persist_to(ns.SessionLog(ws, PATH)))
        together(ns, run, h, "Write a.py.")
        ws.cut_power(after_bytes=after_bytes)
        try:
            run(h, "Write b.py.")  # its first message is the fifth line
        except lab.PowerCut:
            pass
        else:
            raise Failed("persist_to's listener wrote nothing during the second prompt, so the power cut never came")
        log = ns.SessionLog(ws.reboot(), PATH)
        if after_bytes:
            try:
                replayed = log.replay()
            except ValueError as error:
                expect(re.search(r"\bline 5\b", str(error)),
                       f"after a cut inside line 5, entries() raised without naming line 5: {error}")
                continue
            raise Failed(f"after a power cut tore line 5, replay() returned {plural(len(replayed), 'message')} "
                         "instead of entries() raising ValueError for line 5")
        replayed = together(ns, log.replay)
        expect(replayed == list(h.messages[:4]),
               f"after a power cut between lines 4 and 5, the log that persist_to and append_message wrote "
               f"replays {plural(len(replayed), 'message')}; it should replay exactly the 4 that were written")
        resumed = new_harness(messages=replayed)
        resumed.subscribe(ns.persist_to(log))
        together(ns, run, resumed, "Write b.py.")
        last = resumed.messages[-1]
        expect(last.get("stop_reason") != "error",
               f"the resumed session's next prompt failed: {last.get('error_message')}")
        expect(together(ns, log.replay) == list(resumed.messages),
               "after resuming, the log that persist_to and append_message wrote does not replay what the "
               "resumed harness holds")


@test(11, 1, "persist_to saves every completed message, a failed reply and a max_turns stop included: "
             "the log is the record, errors and all.", hidden=True)
def persist_saves_failures_too(ns):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, PATH)
    h = harness.Harness(lab.ScriptedModel([lab.fail("503 overloaded")]), harness.SYSTEM, [])
    h.subscribe(ns.persist_to(log))
    run(h, "Hello?")
    model, tools = writer()
    stopped = harness.Harness(model, harness.SYSTEM, tools, messages=h.messages, max_turns=1)
    stopped.subscribe(ns.persist_to(log))
    run(stopped, "Write a.py.")
    saved = log.replay()
    expect(saved == list(stopped.messages),
           f"persist_to saved {plural(len(saved), 'message')} of {len(stopped.messages)}: a failed reply or the "
           "max_turns stop is a completed message too, and the log must hold it")


@test(11, 1, "persist_to(log) itself writes nothing; its listener ignores every event but message_end, "
             "and once unsubscribed it saves nothing more.", hidden=True)
def persist_only_listens(ns):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, PATH)
    listener = ns.persist_to(log)
    expect(not ws.exists(PATH), "persist_to(log) wrote to the log before any event was heard")
    for event in ({"type": "agent_start"}, {"type": "turn_start"},
                  {"type": "turn_end", "message": lab.say("x")}, {"type": "agent_end", "messages": [lab.say("x")]}):
        listener(event)
    expect(not ws.exists(PATH), "persist_to's listener saved something for an event other than message_end")
    h = new_harness()
    stop = h.subscribe(listener)
    run(h, "Write a.py.")
    stop()
    run(h, "Write b.py.")
    expect(len(lines(ws)) == 4, f"persist_to's listener saved {plural(len(lines(ws)), 'line')}; after unsubscribing "
                                "following the first prompt's 4 messages, there should be 4")
