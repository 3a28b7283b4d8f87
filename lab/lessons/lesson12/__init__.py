"""Lesson 12, "Memory that outlives the process": its questions, hint ladders and labs.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(12, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Memory that outlives the process"
NOTEBOOK = "12-memory-that-outlives-the-process.ipynb"


# The demonstrations that run on code the learner writes, in notebook order: (cell id, the label
# its "ran on" line shows, the full names it runs on). Each such cell ends with
# lab.lessons.lesson12.figures.ran_on(its id), and lab.check names the ones a passing lab
# switches over. tests/notebooks/test_lesson12_notebook.py holds this to the notebook.
DEMOS = (
    ("demo-entry", "The compaction line and its replay", ("SessionLog.rows",)),
    ("demo-find-cut", "The walk back and the cut", ("find_cut",)),
    ("figure-12-1", "Figure 12.1", ("find_cut", "SessionLog.rows")),
    ("figure-12-1-slider", "Figure 12.1 with its budget slider", ("find_cut", "SessionLog.rows")),
    ("demo-two-lists", "The live list and the replay", ("SessionLog.rows",)),
    ("demo-housekeeping", "Housekeeping when the summary fails", ("summarize", "SessionLog.rows")),
    ("demo-forty", "The forty-file run", ("summarize", "find_cut", "SessionLog.rows", "compact")),
    ("figure-12-2", "Figure 12.2", ("summarize", "find_cut", "SessionLog.rows", "compact")),
    ("demo-stale-usage", "The stale usage figure", ("summarize", "find_cut", "SessionLog.rows", "compact")),
)

_FEWER_THAN_NINE = ("Fewer than nine means a line went missing on the way, and the log takes "
                    "appends only.")

RUNGS = (
    Choice(
        id="what-is-sent",
        title="What a resumed session sends after its last line was lost",
        options=(
            Option("Every one of the five messages, then my prompt: the session remembers "
                   "what happened.",
                   "That needs a memory kept somewhere other than the file, and after a restart "
                   "nothing else is left. `replay()` can return only what the lines in the file "
                   "say, and four lines remain."),
            Option("The four messages still in the file, a stand-in result saying the call was "
                   "interrupted, then my prompt.",
                   "Two lessons are each doing their own part here. Run the cell and compare the "
                   "two shapes it prints: the record, and what went to the model.",
                   right=True),
            Option("The four messages, ending on a call that has no result, so a strict "
                   "provider answers 400.",
                   "That is the record sent exactly as it is stored. Since lesson 10 the harness "
                   "computes what it sends: `context_for_model` gives every call a result before "
                   "each request goes out."),
        ),
    ),
    Choice(
        id="result-paid",
        title="How often one big tool result is sent and paid for",
        options=(
            Option("Once, in the request that needed it.",
                   "That is the paid-once picture. The model holds nothing from one call to the "
                   "next, so anything it should still know has to travel in every later request."),
            Option("Sent 19 times but paid for once, because the provider has seen it already.",
                   "That credits the provider with remembering your session. [general] Plenty of "
                   "providers charge less for a prefix they cached recently. What shrinks is "
                   "the rate, never the token count: as far as we know every such provider "
                   "still bills those tokens, only more cheaply, and a cached prefix takes up "
                   "just as much of the request's limit as an uncached one."),
            Option("19 times: it rides along in every request made after it arrived.",
                   "There were twenty requests, and only the first one went out before the file "
                   "had been read.",
                   right=True),
        ),
    ),
    Number(
        id="wall-count",
        title="How many of the twelve prompts get an answer",
        answer=8,
        right="Eight fit. The ninth request is over the limit, and so is every one after it: "
              "the refused prompt and its error stay in the list, and the list only grows.",
        wrong="Run the cell below and count. Keep in mind that a refused prompt and its error "
              "stay in the list, so no request after a refusal is any smaller.",
        near={9: "The ninth is the first to be refused. Count the prompts before it.",
              11: "Only one refusal would need the tenth request to be smaller than the ninth. "
                  "Does anything take messages out of the list?",
              12: "All twelve would need the list to stop growing somewhere. Nothing in the "
                  "lesson 11 harness removes a message."},
    ),
    Choice(
        id="throw-away",
        title="What to throw away when the list reaches the wall",
        options=(
            Option("The oldest messages: keep only the newest six, since those are what the "
                   "agent is working on.",
                   "Cutting by age assumes that old means unimportant, yet message 1 is where "
                   "the purpose of the entire job was stated. A rule that counts "
                   "messages can also stop anywhere at all, between a call and its result "
                   "included. [general] After the lesson 10 repair, the list this leaves starts "
                   "with an assistant message, and some providers refuse that too."),
            Option("All of it: put one summary where the whole list was, so the context is as "
                   "small as it can be.",
                   "A summary keeps the gist, and the agent needed more than the gist. It was "
                   "halfway through using the exact words of a tool result, and exact words "
                   "are the first thing a summary drops."),
            Option("The old part, as a summary; the last prompt and the work it caused stay "
                   "word for word.",
                   "The summary carries the goal, and the tool result the agent is working from "
                   "is kept word for word. It has a price: someone has to write the summary, "
                   "and whatever it leaves out is gone from what the model sees. Both costs come "
                   "due further down the notebook.",
                   right=True),
        ),
    ),
    Open(
        id="what-to-append",
        title="What to append so that tomorrow's replay comes up compacted",
        nudge="The summary's text is one part of it. How will whoever reads the file know which "
              "old lines that summary stands in for?",
        model_answer="Append one line of a new kind. Rather than a message, think of it as a note "
                     "addressed to the reader of the file, saying that the lines before a given "
                     "id are to be read as this summary. So it carries two things, the summary and the id "
                     "of the first line to keep word for word.\n\n"
                     "`replay()` learns one rule for it: on meeting such a line, it swaps the "
                     "messages gathered so far for the summary followed by the ones from that id "
                     "on. Lines after it are read as before.",
        common=(
            ("\"Rewrite the file as the summary plus the recent messages.\"",
             "That reopens lesson 11's crash window, and it is worse: if the summary turns out "
             "poor, the text it was made from no longer exists."),
            ("\"Add the summary to the log as one more user message.\"",
             "replay() would then hand back 33 messages: the 32 old ones plus the summary. The "
             "new line has to say where word-for-word reading starts, and that is the job of "
             "first_kept_id."),
            ("\"Don't touch the log; write the shortened list to another file.\"",
             "Now two files each claim to be the session. Back in lesson 2 the tool calls "
             "were stored twice, and you watched what went wrong once the two disagreed."),
        ),
    ),
    Number(
        id="lines-after",
        title="Lines in the nine-line file after compacting it",
        answer=10,
        right="Ten: the nine lines, untouched, and one new one. The name is misleading: nothing "
              "on disk gets more compact, and the file is a line longer than before.",
        wrong="Count again with the rule in mind: lines may be added, never changed or removed.",
        near={**{n: _FEWER_THAN_NINE for n in range(0, 9)},
              5: "Five is what replay() will return, which is the next question. This one asks "
                 "about lines in the file, and the file takes appends only.",
              9: "Nine is the file before compacting. What did compacting write?",
              11: "One too many. Compacting writes a single line, the compaction entry: the "
                  "summary does not get a line of its own, because it lives inside that entry.",
              **{n: "That counts more than one new line. Compacting appends exactly one entry, "
                    "which holds both the summary and first_kept_id; nothing is copied."
                 for n in range(12, 20)},
              14: "Fourteen is nine plus the five kept messages copied again. Nothing is copied: "
                  "the kept lines stay where they are, and one entry says where reading "
                  "resumes.",
              15: "Fifteen would be the nine lines, a summary line, and e1 to e5 rewritten. "
                  "Compacting neither copies nor rewrites: it appends one entry."},
    ),
    Number(
        id="replay-count",
        title="Messages replay() returns after the compaction line",
        answer=5,
        right="Five: the summary, then e6, e7, e8 and e9. The compaction line is not a message "
              "in the file; it turns into one when the file is read.",
        wrong="Which lines are now read word for word, and what stands in for the ones before "
              "e6?",
        near={4: "Four is e6 to e9. The summary is read out as a message of its own, in front of "
                 "them.",
              6: "The compaction line becomes the summary message; it does not add a message on "
                 "top of it.",
              9: "That would mean replay() still returns e1 to e5 word for word. The new line "
                 "says to read them another way.",
              10: "Ten is the number of lines in the file. The compaction line is an "
                  "instruction, and e1 to e5 are read through it."},
    ),
    Choice(
        id="strict-cut",
        title="What a strict provider makes of a cut on a tool result",
        options=(
            Option("It refuses: the request holds a tool result with no call of its own in front "
                   "of it.",
                   "Yes. Its call was folded into the summary, and the result stayed behind on its "
                   "own.",
                   right=True),
            Option("It accepts: the summary mentions the read, which gives the result a call to "
                   "belong to.",
                   "That asks a sentence to do the job of a toolCall block. As lesson 2 showed, "
                   "protocol is not prose: results find their calls by id, and a summary "
                   "carries none."),
            Option("It never sees the problem: lesson 10's repair runs before every request "
                   "and fixes it.",
                   "The repair runs, yes, and the 400 is avoided, because the result gets thrown away. "
                   "Fixed, here, means the agent no longer knows what b.py said. Repair exists "
                   "for accidents; a cut you make on purpose should never need it."),
        ),
    ),
    Number(
        id="tail-start",
        title="The line a kept tail should start on",
        answer=10,
        right="e10, the next place where the user speaks. The prompt, the work it caused and "
              "its answer then all land on one side of the cut.",
        wrong="Weigh each line against two rules: the tail may never be bigger than the budget, "
              "and it may never open on a result whose call was summarised.",
        near={6: "e6 keeps the calls together with their results, but it lies behind where the "
                 "walk stopped, so the tail would be bigger than the budget. The wall is why "
                 "there is a budget: the cut moves forward only.",
              7: "e7 lies behind where the walk stopped, so the tail would be bigger than the "
                 "budget, and it is a result whose call, in e6, would be cut off.",
              8: "e8 is the result for c3. Its call is in e6, which the summary would swallow.",
              9: "e9 would satisfy a provider, but it is the closing sentence of a reply, and "
                 "the prompt it answers and the results it rests on would be summarised away.",
              11: "e11 is the answer to the prompt in e10; starting there splits a question "
                  "from its answer."},
    ),
    Multi(
        id="no-entry",
        title="Which cuts must not be written as an entry",
        options=(("0", True,
                  "It looks like an ordinary cut that happens to come early. With nothing "
                  "before it there is nothing to summarise: the entry would stand in for "
                  "nothing, and a model call would be paid for it."),
                 ("an index in the middle, on a user message", False,
                  "This is the case an entry is for: older rows to condense and a tail to keep "
                  "word for word, starting at a prompt. Leave it unticked."),
                 ("len(rows)", True,
                  "It looks like the most thorough compaction there is. With the cut past the "
                  "last row nothing is kept word for word, and the session becomes a bare "
                  "summary, option (b) of the opening.")),
        right="With the cut at 0 there is nothing before it to summarise, so the entry would buy "
              "you nothing. With the cut at len(rows) there is nothing after it to keep, so the "
              "entry would turn the session into a bare summary, which was option (b) in the "
              "opening. Neither earns an entry. Say no to both before any model is asked for a "
              "summary.",
        wrong="Right about one end only? The other end fails for the mirror-image reason.",
    ),
    Choice(
        id="summary-request",
        title="What comes back when the summary is asked for like a prompt",
        options=(
            Option("A summary: the newest message asks for one.",
                   "That counts on the model to separate your instruction from the "
                   "transcript around it. Instruction and transcript arrive by the same route, "
                   "as messages in a list, and such a list looks like a dialogue waiting for "
                   "its next reply. Lesson 1 laid this down; lesson 14 is where it turns "
                   "dangerous."),
            Option("More conversation: it keeps playing the agent its system prompt describes.",
                   "Every part of the request describes a tool-using assistant halfway through a "
                   "job, so that is the part it plays.",
                   right=True),
            Option("A summary, and a cheap one, because the provider has read this "
                   "conversation before.",
                   "Nothing was kept between calls, so to summarise everything the model must be "
                   "sent everything again, and the lab charges for every token. [general] A "
                   "provider with a prefix cache may charge less for what it read a moment "
                   "before; those tokens travel all the same, count toward the limit all the "
                   "same, and cost something all the same."),
        ),
    ),
    Choice(
        id="live-list",
        title="How the running harness catches up with a new compaction entry",
        options=(
            Option("Patch the list in memory: put the summary at the front and slice off "
                   "everything before the first kept message.",
                   "Now the replay rule exists twice, once on disk and once as an edit in memory, "
                   "and the two must stay in agreement for good. Getting it right today is possible. The cell below "
                   "shows an everyday way to get it wrong: nothing in the live list carries an "
                   "id, so the slice has to guess."),
            Option("Replay the log and hand the harness what comes out, between prompts.",
                   "One rule, kept in one place, used by this process and by tomorrow's.",
                   right=True),
            Option("Replay the log and swap the list in at once, even while a run is going on.",
                   "Remember lesson 8: only one writer at once. While a run is going, it adds to "
                   "that list and ships it with its next turn. Nobody gets to change the transcript at any moment "
                   "they like, and that holds for you just as it does for the user."),
        ),
    ),
    Choice(
        id="compaction-fails",
        title="What becomes of the prompt when the summary call fails",
        options=(
            Option("Raise: the compaction failed, and that should reach someone.",
                   "It should reach someone, and a log line or an event gets it there while "
                   "the prompt goes ahead. Lesson 11's saver had to be loud because keeping "
                   "quiet there meant lost data. Keeping quiet here costs nothing: the file "
                   "still holds every line, and the next prompt brings another try."),
            Option("Append the entry regardless, with whatever text the call returned: some "
                   "summary is better than no summary.",
                   "That pretends the call worked. The entry is permanent, and from then on it "
                   "stands in for everything before the cut."),
            Option("Skip the compaction, append nothing, and send the prompt.",
                   "The session goes on somewhat fuller than you would like, and the next prompt "
                   "brings another try.",
                   right=True),
        ),
    ),
    Open(
        id="colleague",
        title="What compaction did to the file, and to what is sent",
        nudge="Count the file's lines before and after. What has changed in the way replay() "
              "reads them?",
        model_answer="Nothing was deleted. One line was appended, and it changes how the earlier "
                     "lines are read: those before a certain id through a summary, the rest "
                     "exactly as written.\n\n"
                     "It is lesson 10's \"the record is not the view\" one level up: the file records "
                     "all of it, and what the harness holds is derived from the file. Compaction "
                     "does not delete history; it is a rule for reading history.",
        common=(
            ("\"Old messages get thrown out and a summary is kept instead.\"",
             "After the forty-file run the file has 166 lines and not one was altered. A poor "
             "summary loses nothing for good: its source text is all still on disk."),
            ("\"It makes the log smaller.\"",
             "The log got longer. The part that got smaller is the list read out of it and "
             "sent to the model."),
            ("\"The summary takes the place of the history.\"",
             "Only in the view, and never alone: a tail of exact messages follows it, and that "
             "tail starts where the user last spoke. A lone summary was option (b)."),
        ),
    ),
    Choice(
        id="count-tokens",
        title="Knowing you are near the wall without a tokenizer",
        optional=True,
        options=(
            Option("Take the transcript's length in characters, divide by four, and call it "
                   "near enough.",
                   "It costs nothing and always gives the same answer, and it counts low: the "
                   "system prompt, the tool definitions and the JSON framing of every message "
                   "are all invisible to it. Lesson 2: tool definitions travel in every request, and here "
                   "too they are not free."),
            Option("Use the usage figure on the latest reply; the provider's count is exact.",
                   "Exactly, for the request it measured. The tool results and the prompt added "
                   "since then are not in that number: the list that was measured and the list "
                   "you are about to send are different lists."),
            Option("Both: the provider's count for the part it measured, and an estimate for "
                   "what came after.",
                   "Each one covers what the other cannot see.",
                   right=True),
        ),
    ),
    Choice(
        id="stale-usage",
        title="A trigger that trusts the newest usage figure, after compacting",
        optional=True,
        options=(
            Option("It fires again, and again.",
                   "The figure belongs to a request sent before the compaction, and no request "
                   "since has produced a newer one.",
                   right=True),
            Option("Nothing: after compacting, the usage reflects the shorter list.",
                   "A usage figure lives on one message and measures the request that message "
                   "came back from. Changing the view does not recompute it."),
            Option("Nothing: the message that carried that figure was deleted.",
                   "Compaction deletes nothing, and this message sits in the kept tail anyway."),
        ),
    ),
    Open(
        id="exact-error",
        title="Getting back exact text after a compaction",
        nudge="Where does the exact text live now, and who could get at it, using what?",
        model_answer="Today the model is shown two things: the summary and the kept tail. "
                     "When the summary held on to the error, the model can quote it, which is "
                     "the reason SUMMARY_SYSTEM asks it to keep exact paths and errors. When it "
                     "did not, the agent may rerun the tests, at the cost of a tool call and "
                     "with no guarantee that the error now matches the one from back then; or "
                     "it may admit the text is gone from its view. The one thing it must never "
                     "do is invent a believable error, as lesson 2's model did.\n\n"
                     "The harness could do better, and only because it deleted nothing: e3 still "
                     "sits in session.jsonl. Give the agent a tool for searching its own session "
                     "log and it can pull up exact text on demand, paying for it only then. The "
                     "user, too, could page through the full history on disk. Had the line been "
                     "deleted, neither would be possible.",
        common=(
            ("\"Nothing: compaction threw it away.\"",
             "It left the view, not the record, and the record is a file that tools can open."),
            ("\"The model read that output earlier, so it remembers.\"",
             "A model only has what the current request contains, and this one contains a "
             "summary."),
            ("\"Write summaries that keep everything that matters.\"",
             "What will matter later cannot be known now. Every summary is a wager; keeping the "
             "log is what lets you lose one without harm."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Go back to \"Who writes the summary?\". Three things in that request pushed the "
                 "model to keep chatting: the identity its system prompt gave it, a list that "
                 "made the next reply its turn, and tools it could use. Now look at the "
                 "signature `model.complete(system, messages, tools)`. Which argument can you "
                 "use against which push?",
        approach="Quote the conversation instead of continuing it. Put `<conversation>`, the "
                 "rendered transcript and `</conversation>` on separate lines of a single "
                 "string, and make that string the text of the one and only message you send. "
                 "Pair it with SUMMARY_SYSTEM and with no tools at all. `messages` stays "
                 "untouched, and `run_agent` has no part in this: you are asking a model one "
                 "question, not taking an agent step.\n\n"
                 "Before returning, inspect what came back. A reply can fail you in two "
                 "different ways.",
        outline="1. `wrapped` is `user_message(...)` of the three pieces joined with `\"\\n\"`: "
                "the opening tag, `render(messages)`, the closing tag.\n\n"
                "2. `reply` comes from a single `model.complete(SUMMARY_SYSTEM, [wrapped], [])`.\n\n"
                "3. `summary` is `text_of(reply).strip()`.\n\n"
                "4. When `reply[\"stop_reason\"] == \"error\"` or `summary` is the empty "
                "string, raise `RuntimeError` with a reason (use `error_message` when the reply "
                "has one). In every other case, return `summary`.",
    ),
    2: Hints(
        lab=2,
        question="A question for each gap. `find_cut`: the kept tail can never be allowed to "
                 "exceed its budget, so in which direction may the cut travel? `rows()`: at a "
                 "compaction entry, which rows already collected live on, and what is placed "
                 "ahead of them? `compact`: whenever it answers False, what has to hold for the "
                 "file on disk?",
        approach="`find_cut`: scan forward from `cut`, up to the last row, for the first user "
                 "message, and return its index. If the scan finds none, advance `cut` for as "
                 "long as the row under it is a tool result.\n\n"
                 "`rows()`: go through `self.entries()` in order, keeping a list. Message "
                 "entries are appended to it. A compaction entry throws away the front of that "
                 "list: locate `first_kept_id` among the collected ids, keep what starts there "
                 "(or nothing, if the id is absent), and stand the summary row ahead of it. "
                 "Hand back a real list.\n\n"
                 "`compact`: rows, then cut; refuse 0 and `len(rows)` before the model is ever "
                 "called; summarise `rows[:cut]`'s messages inside a `try`; then exactly one "
                 "append.",
        outline="`rows()`: start from no rows and walk the entries in order. A message entry "
                "adds the pair of its id and its message. A compaction entry keeps the rows from "
                "the one whose id is its first_kept_id onwards (none, if no row has that id), and "
                "puts in front of them one new row: the compaction's own id with a user message "
                "made of the protocol string `\"Previous conversation summary:\\n\"` and its "
                "summary.\n\n"
                "`compact()`: cut in (0, len(rows)) means return False, model untouched. "
                "`summarize(model, messages of rows[:cut])`, and on `RuntimeError` return False "
                "with the file as it was. Otherwise `log.append_compaction(summary, "
                "rows[cut][0])`, return True.\n\n"
                "Why `rows[cut][0]` and never `f\"e{cut + 1}\"`: once a compaction has "
                "happened, a row's id and its position are different numbers.",
    ),
}
