"""Lesson 12, "Memory that outlives the process": its questions, hint ladders and labs.

The wording of each question is in the notebook's markdown (lesson12.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(12, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Memory that outlives the process"
NOTEBOOK = "12-memory-that-outlives-the-process.ipynb"

LABS = {1: "summarize",
        2: "find_cut (the snap forward), SessionLog.rows, compact"}

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
                   "That puts the memory at the provider. [general] Many providers do give a "
                   "discount on a prefix they cached a short while ago, but it is a discount on "
                   "the price, not on the size. The providers we know of still bill cached "
                   "tokens, at a lower rate, and a cached prefix still uses up its whole share "
                   "of the request's limit."),
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
            Option("The oldest messages: keep only the newest six.",
                   "Cutting by age assumes that old means unimportant, and the oldest message "
                   "here is the one that says what the whole job is for. A rule that counts "
                   "messages can also stop anywhere at all, between a call and its result "
                   "included. [general] After the lesson 10 repair, the list this leaves starts "
                   "with an assistant message, and some providers refuse that too."),
            Option("All of it: put one summary where the whole list was.",
                   "A summary keeps the gist, and the agent needed more than the gist. It was "
                   "halfway through using the exact words of a tool result, and exact words "
                   "are the first thing a summary drops."),
            Option("The old part, as a summary; the last prompt and the work it caused stay "
                   "exactly as they were.",
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
        model_answer="Append one line of a new kind. It is not a message: it is an instruction "
                     "to whoever reads the file, saying that the lines before a given id are to "
                     "be read as this summary. So it carries two things, the summary and the id "
                     "of the first line to keep word for word.\n\n"
                     "`replay()` learns one rule for it: on meeting such a line, it swaps the "
                     "messages gathered so far for the summary followed by the ones from that id "
                     "on. Lines after it are read as before.",
        common=(
            ("\"Rewrite the file as the summary plus the recent messages.\"",
             "That reopens lesson 11's crash window, and it is worse: if the summary turns out "
             "poor, the text it was made from no longer exists."),
            ("\"Append the summary as an ordinary user message.\"",
             "Then replay returns all 32 messages and one more. The new line has to say where "
             "word-for-word reading starts, and that is the job of first_kept_id."),
            ("\"Leave the log alone and keep the short list in a second file.\"",
             "Now two files each claim to be the session. Lesson 2 kept a second copy of the "
             "tool calls, and you saw what happened on the day the copies disagreed."),
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
              9: "Nine is the file before compacting. What did compacting write?"},
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
            Option("It refuses: the list holds a result whose call is not in the request.",
                   "The call went into the summary, and its result was left behind without it.",
                   right=True),
            Option("It accepts: the summary says the read happened, so the result has "
                   "something to answer.",
                   "That asks a sentence to do the job of a toolCall block. Lesson 2: prose is "
                   "not protocol. A result is matched to its call by id, and a summary has no "
                   "ids in it."),
            Option("It never sees the problem: lesson 10's repair runs before every request "
                   "and fixes it.",
                   "The repair does run, and it does avoid the 400: by throwing the result away. "
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
              9: "e9 satisfies a provider, but it is the last sentence of an answer whose "
                 "question and evidence would be cut away.",
              11: "e11 is the answer to the prompt in e10; starting there splits a question "
                  "from its answer."},
    ),
    Multi(
        id="no-entry",
        title="Which cuts must not be written as an entry",
        options=(("0", True),
                 ("an index in the middle, on a user message", False),
                 ("len(rows)", True)),
        right="A cut at 0 summarises nothing, and an entry that summarises nothing gains nothing. "
              "A cut at len(rows) keeps nothing, and an entry that keeps nothing is option (b) "
              "from the start of the lesson: a summary on its own. Neither earns an entry. Say no "
              "to both before any model is asked for a summary.",
        wrong="Ask two things of each answer: what would the entry summarise, and what would it "
              "keep word for word? If either is nothing, writing the entry is a mistake.",
    ),
    Choice(
        id="summary-request",
        title="What comes back when the summary is asked for like a prompt",
        options=(
            Option("A summary: the newest message asks for one.",
                   "That counts on the model to tell your instruction apart from the "
                   "conversation it sits in. Both come down one channel, a list of messages, "
                   "and a list of messages reads as a conversation to carry on. Lesson 1 laid "
                   "this down; lesson 14 is where it turns dangerous."),
            Option("More conversation: the model carries on as the agent it was told to be.",
                   "Everything in the request says: you are an assistant with tools, partway "
                   "through a job. So that is what it is.",
                   right=True),
            Option("A summary, and a cheap one, because the provider has read this "
                   "conversation before.",
                   "The model kept nothing, so a summary of the whole conversation means sending "
                   "the whole conversation once more, and the lab bills every token of it. "
                   "[general] A provider that caches prefixes may charge less for the part it "
                   "saw a moment ago. It is still sent, it still counts toward the limit, and it "
                   "is still not free."),
        ),
    ),
    Choice(
        id="live-list",
        title="How the running harness catches up with a new compaction entry",
        options=(
            Option("Edit the live list to match: the summary first, then a slice from the "
                   "first kept message on.",
                   "That writes the replay rule a second time, in memory, and relies on the two "
                   "copies agreeing from now on. It can be done correctly today. The cell below "
                   "shows an ordinary way it goes wrong: the live list has no ids to slice by."),
            Option("Replay the log and hand the harness what comes out, between prompts.",
                   "One rule, kept in one place, used by this process and by tomorrow's.",
                   right=True),
            Option("Replay the log and swap the list in at once, even while a run is going on.",
                   "Lesson 8: one writer at a time. A run in progress appends to that list and "
                   "sends it on its next turn. Nobody gets to change the transcript at any moment "
                   "they like, and that holds for you just as it does for the user."),
        ),
    ),
    Choice(
        id="compaction-fails",
        title="What becomes of the prompt when the summary call fails",
        options=(
            Option("Raise: compaction failed, and somebody ought to know.",
                   "Somebody ought to know, yes, and a log line or an event tells them without "
                   "eating the prompt. Lesson 11's saver had to be loud, because silence there "
                   "loses data. Silence here loses nothing: every line is still in the file, "
                   "and there is another chance before the next prompt."),
            Option("Write the entry anyway with whatever came back: a thin summary beats none.",
                   "That pretends the call worked. The entry is permanent, and from then on it "
                   "stands in for everything before the cut."),
            Option("Skip the compaction, append nothing, and send the prompt.",
                   "The session carries on a little fuller than you wanted, and there is another "
                   "chance before the next prompt.",
                   right=True),
        ),
    ),
    Open(
        id="colleague",
        title="What compaction did to the file, and to what is sent",
        nudge="How many lines did the file hold before and after? What does replay() do "
              "differently now?",
        model_answer="Nothing was deleted. One line was appended, and it changes how the lines "
                     "before it are read: up to a certain id, as a summary; from that id on, word "
                     "for word.\n\n"
                     "It is lesson 10's \"the record is not the view\" one level up: the file keeps "
                     "everything that happened, and the list in the harness is computed from it.",
        common=(
            ("\"It deletes the old messages and keeps a summary of them.\"",
             "Count the lines: 166 after forty prompts, and none of them changed. If a summary "
             "is bad, the text it was made from is still there."),
            ("\"It shrinks the log.\"",
             "The log grew. What shrank is what is read out of it and sent."),
            ("\"The summary replaces the history.\"",
             "Only in the view, and never on its own: it stands in front of a tail kept word "
             "for word, cut where a user prompt begins. A summary on its own was option (b)."),
        ),
    ),
    Choice(
        id="count-tokens",
        title="Knowing you are near the wall without a tokenizer",
        optional=True,
        options=(
            Option("Count the transcript's characters and divide by four. Close enough.",
                   "It costs nothing and always gives the same answer, and it counts low: it "
                   "never sees the system prompt, the tool definitions or the JSON wrapped round "
                   "each message. Lesson 2: tool definitions travel in every request, and here "
                   "too they are not free."),
            Option("Read usage on the newest reply: the provider counted exactly.",
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
                   "The figure describes a request made before the compaction, and it is still "
                   "the newest figure there is.",
                   right=True),
            Option("Nothing: after compacting, the usage reflects the shorter list.",
                   "Usage is stored on a message and describes the request that produced that "
                   "message. Nothing recomputes it when the view changes."),
            Option("Nothing: the message that carried that figure was deleted.",
                   "Compaction deletes nothing, and this message sits in the kept tail anyway."),
        ),
    ),
    Open(
        id="exact-error",
        title="Getting back exact text after a compaction",
        nudge="Where is the exact text now? Who can reach it, and with what?",
        model_answer="As things stand the model sees the summary and the tail. If the summary "
                     "kept the error, the model can quote it; that is why SUMMARY_SYSTEM asks "
                     "for exact file paths and errors. If it did not, the agent can run the tests "
                     "again, paying for a tool call with no promise that today's error is the "
                     "first one, or it can say that it no longer has the text. What it must not "
                     "do is what lesson 2's model did: write a plausible one.\n\n"
                     "A harness can offer more, because nothing was deleted: line e3 is still in "
                     "session.jsonl. A tool that searches the session's own log would let the "
                     "agent fetch the exact text when it needs it, and pay only then. The user "
                     "could be shown the whole history, which the file still holds. A harness "
                     "that had deleted the line could offer neither.",
        common=(
            ("\"Nothing. It was compacted away.\"",
             "Away from the view. The record still has it, and the record is a file your tools "
             "can read."),
            ("\"The model still knows it: it read that output once.\"",
             "It knows what this request shows it, and this request shows a summary."),
            ("\"Make the summary keep everything important.\"",
             "Nobody knows in advance what will turn out to matter. A summary is a bet, and the "
             "log is what makes it safe to lose one."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="In \"Who writes the summary?\" the model had three reasons to carry on the "
                 "conversation: who it was told it is, whose move it was, and what it could do. "
                 "`model.complete(system, messages, tools)` has three arguments. Which argument "
                 "takes away which reason?",
        approach="Make one string: the opening tag on a line of its own, the rendered "
                 "conversation, the closing tag on a line of its own. Send that string as a "
                 "user message, the only message, with the summary's system prompt and an "
                 "empty tool list. Append nothing to `messages`, and keep `run_agent` out of it: "
                 "this is a question put to a model, not a step of the agent.\n\n"
                 "Then look at the reply before you trust it. There are two ways it can be no "
                 "good.",
        outline="`wrapped` = a user message whose text is three parts joined by newlines: "
                "`<conversation>`, `render(messages)`, `</conversation>`.\n\n"
                "`reply` = one `model.complete(SUMMARY_SYSTEM, [wrapped], [])`.\n\n"
                "`summary` = the reply's text with white space trimmed from both ends.\n\n"
                "If the reply's `stop_reason` is `\"error\"`, or `summary` is empty, raise "
                "`RuntimeError` and say why (the reply's `error_message` helps). Otherwise "
                "return `summary`.",
    ),
    2: Hints(
        lab=2,
        question="One question for each gap. `find_cut`: if the tail must never grow past the "
                 "budget, which way is the cut allowed to move? `rows()`: when the loop meets a "
                 "compaction entry, which of the rows gathered so far survive, and what goes in "
                 "front of them? `compact`: if it returns False, what must be true of the file?",
        approach="`find_cut`: search from the cut to the end for a user message and stop at the "
                 "first one. Only when there is none, step the cut forward while it sits on a "
                 "tool result.\n\n"
                 "`rows()`: build the list one entry at a time. A message entry adds a row. A "
                 "compaction entry replaces what you have built so far: find `first_kept_id` "
                 "among the ids gathered, keep the rows from there on (none if it is missing), "
                 "and put the summary row in front. Return a list, not a generator.\n\n"
                 "`compact`: get the rows, get the cut, turn down both ends before any model "
                 "call, summarise the messages before the cut with the failure caught, then "
                 "append once.",
        outline="`rows()`: start from an empty list. For each entry: a message appends "
                "`(entry id, message)`; a compaction computes `kept` = the rows from the one whose "
                "id is `first_kept_id` (or none), then sets rows to `[(the entry's id, "
                "user_message(\"Previous conversation summary:\\n\" + its summary))] + kept`.\n\n"
                "`compact()`: if the cut is 0 or `len(rows)`, return False without asking the "
                "model. Summarise the messages of `rows[:cut]`; on `RuntimeError` return False "
                "with nothing appended. Then `log.append_compaction(summary, rows[cut][0])` and "
                "return True.\n\n"
                "That id is `rows[cut][0]`, not `f\"e{cut + 1}\"`: after one compaction, ids and "
                "positions stop matching.",
    ),
}
