"""Lesson 09, "A word in edgeways": its questions, its hint ladder, and the demonstrations that run
on the learner's code once the lab passes.

Each question's wording is in the notebook's markdown (lesson.md); here are its options, which one
is right, and the feedback each earns. lab.rung(9, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "A word in edgeways"
NOTEBOOK = "09-a-word-in-edgeways.ipynb"

DEMOS = (
    ("demo-again", "The six-file job with steering and a follow-up", ("run_agent", "Harness.prompt", "Harness.steer", "Harness.follow_up", "Harness._drain", "Harness._run")),
    ("figure-9-1", "Figure 9.1", ("run_agent", "Harness.steer", "Harness.follow_up", "Harness._drain", "Harness._run")),
)

RUNGS = (
    Choice(
        id="where-today",
        title="Where the user's words can go in lesson 8's harness",
        options=(
            Option("Nowhere yet: the user has to wait for the run to end.",
                   "One writer, and the user is not it. The harness has no door for words that "
                   "arrive mid-run, so the run finishes what it was told: all six files with tabs.",
                   right=True),
            Option("Append them to `h.messages`: the transcript is right there.",
                   "It looks like a list, and in lesson 7 it was one. Lesson 8 made it a tuple, a "
                   "snapshot, exactly so that code outside the run cannot write into the list the "
                   "run is writing. The cell below tries, and the tuple has no append."),
            Option("Call `h.prompt(\"Use spaces.\")`: that is how words reach the model.",
                   "It is how words reach the model between runs. During a run it would start a "
                   "second writer on the same list, and lesson 8's prompt refuses on the spot with "
                   "RuntimeError. The cell below shows the refusal."),
        ),
    ),
    Choice(
        id="where-steering",
        title="Where steering belongs in the transcript",
        options=(
            Option("At once, at the very point in the record where the user typed it, because "
                   "the message is urgent.",
                   "Urgent, yes, but at once can be between a call and its result, and lesson 4's "
                   "pairing does not bend for urgency. The cell below splices it in at once; the "
                   "next request is refused with a 400 and the run dies."),
            Option("At the end of the run, after the last reply, where it cannot get in the way "
                   "of any tool call.",
                   "Safe, and too late: the run has written all six files with tabs by then. "
                   "Words for the end of a run are a different thing, a follow-up."),
            Option("At the next turn's start: every call of this turn answered, the next model "
                   "call not yet made.",
                   "Every call is answered there, so a user message keeps the transcript valid, "
                   "and the very next request carries it. Only the files already under way keep "
                   "their tabs.",
                   right=True),
        ),
    ),
    Choice(
        id="steer-or-follow",
        title="\"Now run the tests\": steer or follow up",
        options=(
            Option("Steer: it is an instruction, and the sooner the better.",
                   "Steering is for changing the work in progress, and it goes in at the next gap. "
                   "The model obeys it there: in the cell below it runs the tests on the two "
                   "modules written so far, in the middle of the job."),
            Option("Follow up: it should happen when the work is done.",
                   "A follow-up waits in its own queue until the run would otherwise end, a reply "
                   "with no calls. Then the tests see all six modules, and the run takes one more "
                   "turn to answer.",
                   right=True),
            Option("Neither: wait for the run to end, then prompt again.",
                   "That works if someone is there to notice the end. The follow-up queue lets you "
                   "say it now and walk away; the run carries on into it without a gap."),
        ),
    ),
    Number(
        id="two-steers",
        title="Files with spaces and no docstring, after two steers in a row",
        answer=1,
        right="One: c.py. The loop takes one steering message per ask. \"Use spaces.\" opened the "
              "third turn, which wrote c.py, and \"Add a docstring.\" opened the fourth. Nothing in "
              "the queue is part of the transcript before the loop takes it.",
        wrong="Both messages were queued while b.py was being written. Count how many gaps each "
              "needs: the loop asks once per gap and gets the oldest waiting message.",
        near={0: "Zero would be right if both went in at one gap, the third turn. The loop asks "
                 "once per gap and `_drain` hands out one message per ask, so the second waits "
                 "for the gap after.",
              2: "b.py was already being written when you spoke, so it keeps its tabs. The first "
                 "gap after that takes \"Use spaces.\" alone.",
              4: "Four counts c.py to f.py, as if the docstring never arrived. It opens the "
                 "fourth turn, so only c.py is written under \"Use spaces.\" alone."},
    ),
    Choice(
        id="failed-reply",
        title="What happens to queued steering when a reply fails",
        options=(
            Option("Nobody asks for it; it stays queued and goes in with the next prompt.",
                   "The loop asks nobody anything after a failed reply, and the queues live on the "
                   "harness, not in the run. The next prompt's first turn takes the steering right "
                   "behind the prompt.",
                   right=True),
            Option("It is dropped with the failed run: it belonged to that run.",
                   "The words belong to the user, not to a run. Dropping them means the user, who "
                   "saw the 503 and typed \"Carry on.\", gets tabs again without knowing why. The "
                   "cell below runs a harness that empties its queues at the end of a run."),
            Option("The harness retries the request with the steering added.",
                   "There is no retry (lesson 5): a failed reply ends the run, and whether to try "
                   "again is the user's call. A loop that takes the queue after a failure and asks "
                   "the model again has made that call for them."),
        ),
    ),
    Choice(
        id="idle-steering",
        title="Steering sent while no run is going",
        options=(
            Option("It is lost: there is no run to steer.",
                   "Tempting, since steering means changing a run under way. But the queue is on "
                   "the harness, and the next run's loop asks it before its first model call."),
            Option("It waits for the first gap of the next run, after the first reply.",
                   "That would let the first turn run without it: a.py with tabs again. The top of "
                   "the first turn is a gap too, and nothing stops the words from going in there."),
            Option("It goes in with the next prompt, right behind it, in the first turn.",
                   "The first turn opens with the prompt and whatever steering is waiting, so the "
                   "very first request carries both, and no file gets tabs.",
                   right=True),
        ),
    ),
    Multi(
        id="safe-points",
        title="Places where a user message keeps the transcript valid",
        options=(("after the prompt, before the first reply", True,
                  "No call is waiting for a result there: two user messages in a row are fine for "
                  "this provider. It is where idle steering goes."),
                 ("between A[c1,c2] and R(c1)", False,
                  "Both calls are waiting. This is the wall's splice: c1 has no result after it."),
                 ("between R(c1) and R(c2)", False,
                  "It looks like a gap, one tool finished. But c2 is still waiting, and the user "
                  "message cuts it off from its result."),
                 ("after R(c2), before the next reply", True,
                  "Every call of the turn is answered: the top of the next turn, where steering "
                  "goes."),
                 ("after the final reply", True,
                  "That reply asked for nothing, so nothing waits: this is where a follow-up goes, "
                  "and it opens one more turn.")),
        right="Before a model call and after a final reply; never inside the batch of results. "
              "Those are the only moments the loop asks.",
        wrong="For each place, ask whether some call is still waiting for its result. The cell "
              "below runs validate on all five.",
    ),
    Open(
        id="why-steer-is-safe",
        title="Why steer is not a second writer",
        nudge="Who appends the message to the list in each case, and when?",
        model_answer="A second `prompt` would start a second run, a second loop appending to the "
                     "same list at moments of its own: two writers, and nothing to stop one "
                     "writing between the other's call and result.\n\n"
                     "`steer` writes nothing to the transcript. It puts the words in a queue, and "
                     "the one run that is going takes them out itself, at a point it chose, the "
                     "top of a turn. There is still one writer; the user has become one of its "
                     "sources, like the model and the tools.",
        common=(
            ("\"steer is shorter, so it cannot go wrong.\"",
             "The wrong steer in this lesson was one line too: appending to the list at once. "
             "Length is not what makes it safe; not writing is."),
            ("\"steer is safe because it checks is_running.\"",
             "It does not check anything, and it does not need to: idle or busy, it only queues. "
             "The check lives in prompt, which would write."),
            ("\"The queue is thread-safe.\"",
             "Everything here runs in one thread. What makes it safe is who reads the queue, the "
             "loop, and when: at the top of a turn."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Two questions. In the loop: at which points of a turn does every call already "
                 "have its result, and which of them comes before the next model call? On the "
                 "harness: which code may append to self._messages, and what may everyone else "
                 "touch instead?",
        approach="`run_agent`: keep lesson 7's loop, whose turn opens by recording the messages in "
                 "`waiting`. Add `ask(get)` next to `record`. Start `waiting` as the prompt plus "
                 "`ask(get_steering)`. At the bottom of a turn (after turn_end), set `waiting` to "
                 "`ask(get_steering)`; if there were no calls and it is empty, try "
                 "`ask(get_follow_ups)`. The failed reply already breaks out before that.\n\n"
                 "The methods: `steer` and `follow_up` append `user_message(text)` to their deque; "
                 "`_drain` uses `popleft`; `_run` gives `run_agent` two lambdas that call "
                 "`self._drain` on each queue; `prompt` changes only its message.",
        outline="In `run_agent`, give the loop a small helper that asks a getter for its "
                "messages and treats a getter that was not passed as having none. The first turn's "
                "waiting messages are the prompt followed by whatever steering is queued.\n\n"
                "The turn itself stays as in lesson 7. The change is at its bottom, after turn_end: "
                "a turn that did not fail asks for steering, and only when that turn had no calls "
                "and no steering came does it ask for follow-ups. Whatever it got becomes the next "
                "turn's waiting messages, and an empty answer ends the run as before. A failed reply "
                "has already left the loop, so it asks nobody.\n\n"
                "On the harness, `steer` and `follow_up` each put one user message at the back of "
                "their own queue. `_drain` takes the oldest message off the front, one per ask, "
                "inside a list, or gives an empty list. `_run` is lesson 8's, with two getters that "
                "drain the two queues passed to the loop; `prompt` changes only the words of its "
                "refusal.",
    ),
}
