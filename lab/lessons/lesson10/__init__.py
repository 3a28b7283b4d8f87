"""Lesson 10, "Loose ends": its questions, its hint ladder, and the demonstrations that run on the
learner's code once the lab passes.

Each question's wording is in the notebook's markdown (lesson.md); here are its options, which one
is right, and the feedback each earns. lab.rung(10, id) draws one of them. The sample scores and
the wrong answer only hidden tests catch are in samples.py.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Loose ends"
NOTEBOOK = "10-loose-ends.ipynb"

# The demonstrations that run on the learner's code once the lab passes: (cell id, the label its
# "ran on" note shows, the full names it runs on). Each ends with stage.ran_on(its id).
DEMOS = (
    ("demo-wall-again", "The broken-off job again",
     ("run_agent", "context_for_model", "repair_tool_history")),
    ("figure-10-1", "Figure 10.1", ("run_agent", "context_for_model", "repair_tool_history")),
)

RUNGS = (
    Choice(
        id="was-b-written",
        title="Whether b.py was written when the consumer walked away",
        options=(
            Option("Not this time, but the record would look the same if it had been.",
                   "Right. The disk says no, because the break came before run_tool. An interrupt "
                   "that lands inside the tool, after its write, leaves exactly the same record: "
                   "U A[w1] R(w1) A[w2]. The record shows a call that was asked for and never "
                   "answered; whether it ran is not in it. Line (a) of the cell below compares "
                   "the two records.",
                   right=True),
            Option("Yes: the event said the tool's execution had started.",
                   "The name promises more than the event does. tool_execution_start is yielded "
                   "before run_tool is called, and a generator that is not asked for its next "
                   "event does nothing at all: the consumer stopped asking at that very yield. "
                   "Line (b) of the cell below lists the disk."),
            Option("No: a run that is broken off undoes what it started.",
                   "It sounds like what a careful program would do, but nothing is undone: a.py, "
                   "written in the first turn, stays written, and had the interruption come a "
                   "moment later, inside the tool, b.py would be on the disk too. Line (c) of the "
                   "cell below shows both."),
        ),
    ),
    Number(
        id="wedged",
        title="Prompts answered after the break, out of five more",
        answer=0,
        right="None. Each prompt is appended after the dangling call, so each request still has "
              "A[w2] with no result after it, and the strict provider refuses every one with the "
              "same sentence. Worse, each refusal adds an empty failed reply to the record: a "
              "second hole of another kind.",
        wrong="Run the cell below. Look at where each new prompt lands in the record, and at what "
              "is still right after A[w2] in every request.",
        near={5: "That would hold if the provider looked only at the newest message. It reads the "
                 "whole request, and the whole request still holds A[w2] with nothing after it.",
              4: "The first refusal does not heal anything: the hole it complained about is still "
                 "there in the second request, and in every one after it.",
              1: "No prompt gets through: the hole is at messages[3], and every request carries "
                 "messages[3]."},
    ),
    Choice(
        id="what-for-w2",
        title="What the next request should carry for w2",
        options=(
            Option("Nothing: leave the unanswered call out of the request, so the transcript "
                   "stays valid.",
                   "It is tidy, and the provider accepts it. But the model is then told that it "
                   "never asked for w2, while on the disk the write may be done, or half done. "
                   "The next step it plans rests on a past that did not happen."),
            Option("A result that says the write succeeded, so that the model carries on where "
                   "it left off.",
                   "The model carries on smoothly, and on a falsehood: in the cell below b.py does "
                   "not exist. A result is the model's only window on what a tool did, so a made-up "
                   "success is the most damaging thing the harness can put there."),
            Option("The call, then a stand-in result marked is_error: interrupted, and it may "
                   "or may not have run.",
                   "Right. It is the truth, and all of it: the call was made, no result was "
                   "recorded, and nobody knows what happened in between. is_error makes the model "
                   "treat it as a failure to look into, not as done.",
                   right=True),
            Option("Run the write again before the next request is sent, so that the call gets "
                   "a real result of its own.",
                   "It looks like finishing the job. But the harness cannot know whether the tool "
                   "ran: for a write that appends, or sends an email, or pays, running it again "
                   "does it twice. In case B of the cell below, (d) appends one line to CHANGES.md and ends "
                   "with two."),
        ),
    ),
    Choice(
        id="record-or-view",
        title="Whether to fix the record or compute what is sent",
        options=(
            Option("Fix the record in place: add the stand-in to h.messages, delete the empty "
                   "failed reply. One list is simpler.",
                   "One list is simpler until someone reads it. After the fix, the record says a "
                   "tool answered \"interrupted\" (no tool did) and that no 503 ever happened. The "
                   "user scrolling back, a log written from the record, a later lesson that "
                   "summarises it: each now reads a past that was edited. The cell below shows the "
                   "record afterwards."),
            Option("Compute a view from the record for each request, and never change the record.",
                   "Right. The record keeps what happened, holes included; the view is made from it "
                   "before every request and thrown away after. A repair that is wrong, or a "
                   "provider with other rules, changes only how views are made, never the history.",
                   right=True),
            Option("Keep two lists in the harness, the record and a repaired copy, and append every "
                   "new message to both.",
                   "That is the second copy lesson 2 warned about. Two lists kept in step by hand "
                   "drift apart on the first path that forgets one of them, and then nobody knows "
                   "which to believe. And the copy is not repaired for good: in line (c) of the cell "
                   "below the 503's empty reply, appended to both, leaves the copy refused, so it "
                   "needs the repair again anyway. A view computed from the record cannot drift: "
                   "it has no state of its own."),
        ),
    ),
    Choice(
        id="orphan",
        title="What the view should do with a result whose call is nowhere",
        options=(
            Option("Leave it out of the view.",
                   "Right. Nobody knows what it answered, so it cannot be placed honestly, and the "
                   "record still has it for anyone who looks. Dropping it has a cost: whatever the "
                   "model learnt from it is gone from the view, which a later lesson makes sure is "
                   "never done on purpose.",
                   right=True),
            Option("Send it as it is: it is a real result, and the model may need it.",
                   "It keeps everything the model learnt, which is why it tempts. But the strict "
                   "provider refuses it: the cell below gets \"toolResult c2 has no "
                   "toolCall before it\". A result is an answer to a question, and without the "
                   "question a provider cannot place it."),
            Option("Make up a call for it, with the tool's name and empty arguments, so that it "
                   "is answered.",
                   "It satisfies the provider, and that is the trap: the request is accepted, and "
                   "it now holds a call nobody made. The arguments are "
                   "not empty, they are unknown: the model would read that it read no file in "
                   "particular and got b.py's text back."),
        ),
    ),
    Choice(
        id="two-results",
        title="Which of two results for one call the view keeps",
        options=(
            Option("The last one: it is the newest, so it is the most up to date.",
                   "Fresh data tempts, and config.py did change. But newest is not what the model saw. Earlier requests showed it the first result, "
                   "and it answered from it; swap in the second and the model's own earlier words "
                   "now contradict the result it is shown. The cell below runs both."),
            Option("Both, one after the other: let the model see the whole story.",
                   "Hiding nothing sounds honest, but a call gets exactly one result, and the strict provider says so: \"toolResult "
                   "c1 answers a toolCall that already has a result\"."),
            Option("The first one.",
                   "Right. It is the one earlier requests carried, so keeping it means the view of "
                   "the past never changes under the model; the second stays in the record for "
                   "anyone who wants to know why there were two.",
                   right=True),
        ),
    ),
    Multi(
        id="failed-replies",
        title="Which assistant messages the view leaves out",
        options=(
            ("a 503: stop_reason \"error\", content []", True,
             "It carries nothing the model said, and the strict provider refuses an empty "
             "assistant message, so sending it would wedge the session again."),
            ("lesson 5's brake: error_message(\"Agent stopped after max_turns=3\")", True,
             "It looks like a harness note worth keeping, but its content is [] and its reason is "
             "in error_message, which is never sent. It is as empty as the 503, and the record "
             "keeps it."),
            ("a reply that said \"I will start with a.py, then\" and then failed", False,
             "It failed, and that tempts you to drop it. But the model did say those words, and "
             "they are not empty: the provider takes them, and the model's next turn can build on "
             "them."),
            ("a reply that got a write call out and then failed", False,
             "It failed, and its call was never run. Keep it: it is not empty, and the repair "
             "then answers its call with INTERRUPTED, which is exactly what happened."),
            ("a normal reply, \"Done.\"", False,
             "Nothing is wrong with it; it is listed so that a rule like \"drop every assistant "
             "message without calls\" shows itself."),
        ),
        right="Two: the ones with nothing in them. Failed and empty is the rule: a failure that got "
              "words or a call out stays, because the model did produce them, and a provider takes "
              "them.",
        wrong="For each one, ask two things: did the model get anything out, and would a strict "
              "provider take this message? The cell below asks the provider.",
    ),
    Open(
        id="repair-when",
        title="Why the view is computed before every request",
        nudge="Where can a hole come from, and does the harness always get a chance to run code "
              "when it appears?",
        model_answer="Because most holes give the harness no moment to repair them. A consumer "
                     "that walks away does close the run, so a finally clause gets to run there; "
                     "but a 503 is recorded on a normal path, with nothing to catch; a record "
                     "handed to a new Harness (lesson 11 loads one from disk) arrives with its hole "
                     "already in it; and a power cut runs no code at all. A repair that runs once, "
                     "at the moment of the accident, misses every accident that has no moment, and "
                     "where it does run it edits the record.\n\n"
                     "Making the view just before each request covers every origin at once, "
                     "because it asks only what the record looks like now. It is a pure function "
                     "of the record, costs one pass over a list next to a model call that costs "
                     "seconds, and leaves the record as it was.",
        common=(
            ("\"Repair once, in a finally clause of _run, when the run is interrupted.\"",
             "It does catch the broken-off job, as the cell below shows. It writes the stand-in "
             "into the record, the fix-in-place the lesson argues against, misses the 503 and the "
             "handed-over record, and a finally clause does not run when the process dies."),
            ("\"Repair when a session is loaded from disk.\"",
             "That covers resuming, and misses the 503 and the broken-off run inside one live "
             "session, which wedge it just the same."),
            ("\"It is wasteful to check a valid list every time.\"",
             "The check is a pass over a list the request is about to serialise anyway, and a "
             "valid list comes back equal: there is nothing to save."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="For repair_tool_history: if you walk the list once and copy messages as you meet "
                 "them, where does a result recorded after a user message end up? What would you "
                 "need to know about every result before you start placing any of them?\n\n"
                 "For context_for_model: which two facts about an assistant message, taken "
                 "together, make it one to leave out? For run_agent: which of its lines is the "
                 "only one that sends anything?",
        approach="repair_tool_history in two passes. The first builds a dict from call id to the "
                 "first toolResult with that id. The second builds the new list from every message "
                 "that is not a toolResult; after each assistant message it adds, for each of its "
                 "calls, the result from the dict or a new stand-in. A result is only ever added "
                 "by the second pass, so orphans vanish and misplaced results move, with no "
                 "special case.\n\n"
                 "context_for_model is a list comprehension handed to repair_tool_history. run_agent "
                 "changes in one argument of model.complete.",
        outline="repair_tool_history: walk the list once to note, for every call id, the "
                "earliest result that answers it; ignore any later one. Then walk it again to "
                "build the new list, copying every message except the results. Each time you copy "
                "an assistant message, follow it at once with one result per call, in the order of "
                "its calls: the noted one, or a new error result that carries the call's id and "
                "tool name and INTERRUPTED as its text. Results you skipped and never put back are "
                "the orphans and the duplicates.\n\n"
                "context_for_model: keep every message except an assistant one that both failed "
                "and has no content, and hand what you kept to repair_tool_history.\n\n"
                "run_agent: find the one argument of the model call that carries the transcript, "
                "and give it the view of `messages` instead of `messages` itself.",
    ),
}
