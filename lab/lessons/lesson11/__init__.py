"""Lesson 11, "Pull the plug": its questions, its hint ladder, and the one wrong answer that only
the hidden tests catch.

Each question's wording is in the notebook's markdown (lesson.md); here are its options, which one
is right, and the feedback each earns. lab.rung(11, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Pull the plug"
NOTEBOOK = "11-pull-the-plug.ipynb"

RUNGS = (
    Choice(
        id="where-is-the-record",
        title="Where the record is after a reboot",
        options=(
            Option("In `h.messages`, where lesson 10 left it.",
                   "The name is still in the code, which is why it tempts. It was there while the process ran. `h` was an object in that process's "
                   "memory, and a reboot starts a process that never had it: line (a) of the cell "
                   "below counts the new process's h.messages."),
            Option("Nowhere: it lived in the memory of a process that no longer exists.",
                   "A record held in memory lasts exactly as long as the process that holds it. "
                   "Lesson 10 made the view a function of the record; this lesson has to put the "
                   "record somewhere a reboot cannot reach. Line (b) of the cell below asks the "
                   "new process what it remembers.",
                   right=True),
            Option("On the disk: the agent wrote a.py and b.py there, so the conversation must "
                   "be there too.",
                   "The files the tools wrote are on the disk, because writing them was the job. "
                   "Nobody wrote the conversation anywhere. Line (c) of the cell below lists the "
                   "disk after the reboot: the work is there, the talk that did it is not."),
        ),
    ),
    Number(
        id="prompts-recoverable",
        title="Prompts a new process gets back after a power cut during a save",
        answer=0,
        right="None of them. The cut came during the tenth save, and a save that replaces the "
              "file throws the ninth copy away before the tenth is complete. What is left is the "
              "start of one JSON document, and half a document is not JSON.",
        wrong="Run the cell and read its last line. Think about what `write_text` does to the "
              "copy that was already on the disk before it writes the new one.",
        near={9: "Nine would be right if the ninth save were still on the disk. `write_text` "
                 "replaces the file: the ninth copy was gone the moment the tenth save began.",
              10: "The tenth save was the one the power cut tore. Even the nine complete saves "
                  "before it are not on the disk any more: each save replaced the one before.",
              1: "There is no whole prompt in the file at all: what survived is the opening "
                 "bytes of one JSON document, and json.loads refuses all of it, not just the end."},
    ),
    Choice(
        id="rewrite-cut",
        title="What a cut during a whole-file save loses",
        options=(
            Option("Possibly everything: each save opens a window in which no complete copy "
                   "exists.",
                   "That window is the crash window, and a rewrite opens it on every save, "
                   "however often you save: line (a) of the cell below cuts the power during "
                   "each of the ten saves in turn. An append puts only the new line at risk: the bytes "
                   "already on the disk are never touched again.",
                   right=True),
            Option("Only the last prompt: that is the one being saved.",
                   "That would be true if the old copy stayed until the new one was complete. "
                   "`write_text` empties the file first and then writes, so for the length of "
                   "every save there is no complete copy anywhere. Line (b) of the cell below looks "
                   "for the ninth copy."),
            Option("Nothing: the operating system finishes the write after the power returns.",
                   "Systems do hold writes for a while, which makes this sound plausible. But a "
                   "write that had not reached the disk when the power went is not finished by "
                   "anyone: the process that held the rest of the bytes is gone. [general] Even "
                   "completed writes can sit in a cache and be lost unless the program asks the "
                   "system to flush them (fsync). Line (c) of the cell below measures the file "
                   "after the reboot."),
        ),
    ),
    Choice(
        id="when-to-save",
        title="When a message should be saved",
        options=(
            Option("At agent_end: one write per run.",
                   "Fewer writes, and a run is a natural unit. But a run can take many turns and "
                   "minutes of tool calls, and a cut before its end loses every one of them. Line "
                   "(a) of the cell below cuts the power in the middle of a run."),
            Option("After prompt() returns and the consumer's loop is done, from the code that "
                   "called it.",
                   "It keeps saving out of the harness altogether, which looks clean. But that is agent_end again, one level up, and it also depends on the consumer "
                   "running its loop to the end. A run that dies or is abandoned never gets there: "
                   "see line (b) of the cell below."),
            Option("As each message completes: at its message_end.",
                   "A message is finished at its message_end, and lesson 7 made that the moment "
                   "the record has already changed. Saving there means a cut can cost at most the "
                   "message being written.",
                   right=True),
        ),
    ),
    Choice(
        id="who-saves",
        title="Who should save",
        options=(
            Option("The frontend's for loop: it already sees every event.",
                   "It sees every event only if it runs to the end, and only this frontend does "
                   "it. A different frontend forgets, and a consumer that breaks out early (an "
                   "interrupt, a UI closed mid-run) stops saving at the same moment. In line (a) "
                   "of the cell below, a consumer stops as the first tool result arrives."),
            Option("A listener subscribed to the harness: it hears every event of every run, "
                   "before the consumer does.",
                   "The harness notifies its listeners and only then hands the event on, so by "
                   "the time any consumer sees a message_end, the message is on the disk, "
                   "whatever that consumer does next.",
                   right=True),
            Option("run_agent: it appends to the record, so it can append to the file too.",
                   "That ties the loop to a disk. Region 3 knows nothing of files, and a loop "
                   "that saves could not be run in a test, a notebook or a second harness without "
                   "one: line (c) of the cell below lists what run_agent is given. It is tempting "
                   "because the loop is where messages are born, and it is still the wrong place: "
                   "saving is something around the harness, not inside its loop."),
        ),
    ),
    Choice(
        id="full-disk",
        title="What a run should do when the saver hits a full disk",
        options=(
            Option("End the run: a saver that cannot save must not keep quiet.",
                   "Line (a) of the cell below: the listener raises, the harness ends the run, and the person at the "
                   "keyboard finds out now, while the record on disk is still complete up to "
                   "that line.",
                   right=True),
            Option("Print a warning and carry on: the user can keep working.",
                   "The user keeps working, and the session on disk has silently stopped. The "
                   "next reboot resumes from wherever the disk filled up, and the work since then "
                   "is gone without anyone having decided that. A warning scrolls away: line (b) of "
                   "the cell below."),
            Option("Keep the unsaved messages in memory and write them when there is room.",
                   "It sounds like patience, and it would work if the process were sure to live. "
                   "Then the only copy of those messages is in memory again, which is the problem "
                   "this lesson started from, and a cut before the disk frees up loses them: line "
                   "(c) of the cell below."),
        ),
    ),
    Choice(
        id="torn-line",
        title="What entries() should do with a torn last line",
        options=(
            Option("Skip it and read on: only one message is lost.",
                   "One message, for now. The torn line has no newline at its end, so the next "
                   "append lands on the same line, glued to it. That line is not JSON either, and "
                   "now two messages are gone. Line (a) of the cell below shows it happen."),
            Option("Stop reading there and return the entries before it.",
                   "It loses nothing that decoded, which makes it look careful. But the session would look shorter than it is without anyone being told, and the "
                   "next append would still be glued onto the torn bytes: line (b) of the cell "
                   "below."),
            Option("Raise ValueError naming the line, and never skip it.",
                   "A person can look at line N, decide what it was, and cut it off by hand. "
                   "Nothing is lost that was not already lost, and nothing is glued to it. It is "
                   "the least pleasant of the three to meet, and line (c) of the cell below shows "
                   "why it is the only one that tells the truth.",
                   right=True),
        ),
    ),
    Multi(
        id="two-windows",
        title="Ways of numbering entries that never hand out one id twice",
        options=(("a counter kept in the SessionLog object, starting at 1", False,
                  "Simple, and right while one log is alone. A second SessionLog on the same "
                  "file keeps a counter of its own, also starting at 1, so both hand out e1."),
                 ("count the file's lines at each append, and use that number plus one", True,
                  "Reading the file at every append looks wasteful, but the file is the one "
                  "thing both logs share: each count includes the other log's lines, so no id "
                  "comes out twice."),
                 ("count the file's lines once, when the log is opened, then add 1 per append",
                  False,
                  "It starts from the file, so it looks as safe as counting each time. After "
                  "the other log appends, its count is out of date, and its next id is one "
                  "already taken."),
                 ("a random id, such as uuid4().hex, for each entry", True,
                  "It gives up what the course's ids say, where the line is, so it can look "
                  "wrong. It still never hands out one id twice, which is all the question "
                  "asks, and it is what Tau does.")),
        right="Counting the lines at each append asks the one place two logs share, the file, so "
              "two logs over one file agree. A random id never clashes either, which is what Tau "
              "does; it just no longer says where the line is, and this course's ids do. Both "
              "counters fail the same way: each SessionLog remembers only its own appends.",
        wrong="Picture two SessionLog objects over one file, each appending in turn. For each "
              "option, ask what the second one knows about the first one's lines when it picks "
              "its id.",
    ),
    Open(
        id="cache-the-state",
        title="Why not keep a snapshot of the state beside the log",
        nudge="How many files now claim to be the session, and how is the snapshot written?",
        model_answer="The snapshot is a second copy of the session, and it is written by replacing "
                     "a file, so it brings the crash window back. On any day the two can "
                     "disagree, and then something has to decide which one is the session.\n\n"
                     "The log already answers that: the state is what replay() makes of the "
                     "lines. Nothing about the state is saved; only what happened is. Replay is "
                     "a rule for reading lines, so a new process that follows the rule gets the "
                     "same transcript as the old one had.",
        common=(
            ("\"It is faster to load one file than to replay every line.\"",
             "Reading a few thousand lines takes milliseconds, and a speed-up that can disagree "
             "with the truth has to be checked against it anyway."),
            ("\"Save the snapshot at agent_end only, so it costs one write per run.\"",
             "Then it is stale during every run, and a cut during its save leaves a torn snapshot "
             "next to a good log: the wall of this lesson, kept as a spare."),
            ("\"Keep only the snapshot, and drop the log.\"",
             "That is the rewrite saver from the wall, which lost 0 of 10 prompts, except it lost "
             "all of them."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Three questions, one per gap. `entries`: if a line will not decode, what "
                 "happens to the line the next append writes? `append_message`: which object can "
                 "tell you how many lines the file already has, when another SessionLog may have "
                 "added some? `persist_to`: at which event is a message finished, and what should "
                 "happen to an error the disk raises?",
        approach="`entries`: start from `[]` when `self.ws.exists(self.path)` is False. Otherwise "
                 "split the text into lines and decode each with `json.loads`, counting from 1; "
                 "catch the `ValueError` it raises and raise your own, with the path and the "
                 "number in its message.\n\n"
                 "`append_message`: the id comes from `len(self.entries())`, read now. Build the "
                 "entry dict, turn it into one line with `json.dumps` and a newline, and give it "
                 "to `self.ws.append_text`.\n\n"
                 "`persist_to`: define a listener inside it that looks at `event[\"type\"]` and "
                 "return that listener. No `try`: the disk's error is the message.",
        outline="entries: with no file, there is nothing to read. Otherwise go through the "
                "file's lines, numbering them from 1, and decode each; keep what decodes, in "
                "order. The first line that will not decode ends the reading with your own "
                "ValueError, whose message carries the log's path and that number.\n\n"
                "append_message: the new line's number is one more than the number of entries the "
                "file holds at this moment, asked of the file, not remembered. Build the entry "
                "from that id, the type and the message, write it as one JSON line with its "
                "newline in a single append, and hand the id back.\n\n"
                "persist_to: the outer function only makes and returns a listener. The listener "
                "does one thing, at one kind of event, and lets anything the append raises go on "
                "up.",
    ),
}

# A wrong answer that every visible test accepts and a hidden one refuses: it leaves failed
# replies out of the log, as if an error were not part of what happened.
HIDDEN_ONLY = {
    "persist_to": '''\
def persist_to(log):
    """Saves each message that completed well; a failed reply is left out as noise."""
    def save(update):
        finished = update.get("message") if update["type"] == "message_end" else None
        if finished is not None and finished.get("stop_reason") != "error":
            log.append_message(finished)
    return save
''',
}

# What the grader's sample submissions must score (lab.grader.fixtures.samples), and which check
# cells pass. The lab has one check cell of 8 points and one hidden cell of 4; a gap that loops or
# does not parse sinks the only lab.
SCORES = {
    "unchanged": (),
    "correct": ("lab1-tests", "lab1-hidden"),
    # every visible test passes, and the hidden tests it fails cost a point each
    "hidden-only": {"lab1-tests": 8, "lab1-hidden": 7},
    # the tests that ran before the loop was stopped, and did not call the looping gap, pass
    "loops-forever": {"lab1-tests": 3},
    "does-not-parse": (),
}
