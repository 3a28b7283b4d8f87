"""Lesson 05, "Brakes": its questions, hint ladder and demonstrations.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(5, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Brakes"
NOTEBOOK = "05-brakes.ipynb"

# The demonstrations that run on the learner's run_agent once lab 1 passes, in notebook order:
# (cell id, the label its "ran on" line shows, the full names it runs on). Each ends with
# lab.lessons.lesson05.stage.ran_on(its id).
DEMOS = (
    ("demo-wall-again", "The two walls again", ("run_agent",)),
    ("figure-5-1", "Figure 5.1", ("run_agent",)),
)

RUNGS = (
    Choice(
        id="who-sees-it",
        title="Which function meets a failed model reply",
        options=(
            Option("`run_agent`: the failure comes back as the reply, like any other.",
                   "The loop receives it from `model.complete`, exactly where it receives a good "
                   "reply. Lesson 4's loop never looks at stop_reason, so to it the failed reply "
                   "is just a reply, and you will see below what it does with one.",
                   right=True),
            Option("`run_tool`: lesson 4 made it answer every failure.",
                   "It answers every failure of a tool, and only those: it is handed a call and "
                   "the tools, never the model. A reply that failed has already come and gone "
                   "before `run_tool` is asked anything, if it is asked at all."),
            Option("Nobody: the model raises an exception and the run ends there.",
                   "Tempting, because the SDKs of real providers do raise on a 503. The lab's "
                   "model behaves like the adapter that sits in front of an SDK: it hands back an "
                   "assistant message marked as failed. Nothing is raised for anyone to catch."),
        ),
    ),
    Choice(
        id="limit-3",
        title="What max_turns=3 does to a model that never stops",
        options=(
            Option("Four model calls, then a stop: the count is checked once each call has "
                   "come back.",
                   "An off-by-one that looks harmless. It is what you get when the count is tested "
                   "after the call: the fourth call is made and paid for, and then thrown away."),
            Option("Three calls, then an assistant message with stop_reason \"error\" saying "
                   "\"Agent stopped after max_turns=3\".",
                   "Three calls are made, all three are acted on, and the stop is written into "
                   "the record where everyone who reads it will find it.",
                   right=True),
            Option("Three model calls, then an exception saying that the limit was reached, "
                   "raised to whoever called run_agent.",
                   "It stops at the right moment, in the Pythonic way. But the exception leaves "
                   "the record as it was, and whoever reads the list later, a screen, the next "
                   "prompt, a log, finds no word on why the run ended."),
        ),
    ),
    Choice(
        id="before-after",
        title="Why the limit is tested before a model call",
        options=(
            Option("It makes no difference: the count is the same either way.",
                   "Run the cell: it is not the same. Tested after, you have already paid for a "
                   "reply you will not act on; and if you stop there, its calls are recorded "
                   "with no results, a transcript a strict provider refuses."),
            Option("After: you can only know that a run is running away once the reply is in.",
                   "A runaway is not seen in any one reply; it is the count of them. The count is "
                   "known before the call, and that is the moment it can still save something."),
            Option("Before: the stop takes the place of a call, so no reply is bought and left "
                   "unanswered.",
                   "The stop goes where the next call would have gone. Every reply the run paid "
                   "for has had its calls carried out, and the record is whole up to the stop.",
                   right=True),
        ),
    ),
    Number(
        id="what-a-turn-is",
        title="Model calls under max_turns=3 when every reply asks for two reads",
        answer=3,
        right="Three. A turn is one model call: a reply and the results of all its calls. Two "
              "reads in one reply are one turn, because it took one request to get them.",
        wrong="Count requests to the model, not tools run: max_turns limits what you pay for, and "
              "you pay per request.",
        near={2: "Two is what you get by counting each tool call as a turn: two reads, then two "
                 "more, and four is already past three. The reads cost nothing at the provider.",
              4: "Four is one call too many: that is the count tested after the call.",
              6: "Six is the number of results, two for each of three replies. The limit counts "
                 "the replies."},
    ),
    Multi(
        id="no-limit",
        title="Settings that let the agent run for as long as the model keeps asking",
        options=(("run_agent(..., max_turns=None)", True,
                  "None can look like a mistake, a value nobody filled in. Here that is exactly "
                  "what it says: nobody has set a number, so there is no limit."),
                 ("run_agent(...), with no max_turns at all", True,
                  "Leaving it out takes the default, and the default is None: the same as "
                  "passing None, so no limit."),
                 ("run_agent(..., max_turns=0)", False,
                  "0 looks like \"nothing set\", and code that writes `if not max_turns` treats "
                  "it so. But 0 is a number, the smallest limit there is: not one call."),
                 ("run_agent(..., max_turns=1000)", False,
                  "So large you would never see it reached, so it feels like no limit. It is a "
                  "limit all the same: a model that keeps asking is stopped at call 1000.")),
        right="None, whether passed or left as the default, means no limit. 0 is a limit, the "
              "smallest there is: not one call. 1000 is a limit too, only a large one.",
        wrong="None and 0 are different answers to \"how many calls?\": None says nobody has set a "
              "number, 0 says the number is zero. Code that writes `max_turns or 0`, or `if not "
              "max_turns`, mixes them up, and then either every default run stops before it "
              "starts or a run told 0 never stops.",
    ),
    Choice(
        id="half-a-reply",
        title="A 503 after the reply got a whole-looking bash call out",
        options=(
            Option("Do not run it. Record the reply as it came and end the run.",
                   "Nothing in a failed reply is acted on. It stays in the record, so anyone can "
                   "see what the model got out before the failure, and the user can ask again.",
                   right=True),
            Option("Run it: the call is complete, and the model clearly wanted it.",
                   "It does look complete. But the provider itself says this reply failed, and "
                   "you cannot see from the call what was cut: arguments can stop half way, and "
                   "the model may have meant more after it. Here the command deletes things."),
            Option("Run it, but only if its arguments parse as JSON.",
                   "Parsing proves the arguments are well formed, not that they are what the "
                   "model meant. `rm -rf build` parses, and so does `rm -rf` cut short of the "
                   "rest of its line."),
        ),
    ),
    Choice(
        id="record-or-raise",
        title="Whether a failed reply is recorded or raised",
        options=(
            Option("Raise it: the caller should decide what a failure means.",
                   "That is what exceptions are for, and it is tempting. But then the list ends "
                   "on the last good message, with no word of why, and every reader of the record "
                   "has to be told about the failure by some other road."),
            Option("Record it and return it, as the message that ended the run.",
                   "The record is where the screen, the next prompt and, from lesson 11, the log "
                   "all look. The caller still learns how the run ended: from the reply it is "
                   "handed, stop_reason \"error\".",
                   right=True),
            Option("Record it and raise it: the record is complete, and the caller still hears.",
                   "Better for the record, but the caller now needs a try around every run, and "
                   "the two ways of hearing (the record and the exception) must always agree. "
                   "Returning the failed reply says the same thing once."),
        ),
    ),
    Choice(
        id="retry",
        title="Whether the harness should retry a 503 by itself",
        options=(
            Option("Yes, at once, until a reply comes back that works.",
                   "It feels resilient. But a provider that stays down for a minute turns it into "
                   "a loop with no limit, paying for every request: a runaway of its own, with "
                   "max_turns no help if failed calls are not counted."),
            Option("Leave the failed reply out of the record and stop, as if it had not "
                   "happened: the user can simply prompt again.",
                   "A clean list is tempting, and the user can indeed ask again. But the record "
                   "is then a story with a gap in it: nobody can tell the user or the log that "
                   "the provider failed, or what the reply had got out before it did."),
            Option("Not in this loop: record it, stop, and let the user prompt again.",
                   "The loop's job is to say what happened. Waiting and retrying is a policy, with "
                   "a wait and a limit of its own, and it belongs outside the loop, where the "
                   "user can see and stop it.",
                   right=True),
        ),
    ),
    Open(
        id="adapter",
        title="Where a real SDK's exception should become a failed reply",
        nudge="Your loop never has a `try` around model.complete. With a real provider's SDK, "
              "which raises on a 503, something must still hand the loop a reply. What, and "
              "where does it sit?",
        model_answer="In a thin adapter right around the SDK call: the object you pass to "
                     "run_agent as `model`. Its complete() calls the SDK, catches the provider's "
                     "errors (overloaded, rate limited, a refused request) and returns them as an "
                     "assistant message with stop_reason \"error\" and the reason in "
                     "error_message, with whatever content had already arrived.\n\n"
                     "Then run_agent has one shape to handle, a reply, and one rule for it: a "
                     "failed reply is recorded and ends the run. The lab's ScriptedModel plays "
                     "exactly this adapter, which is why your loop needs no try. Lesson 16 builds "
                     "adapters for real.",
        common=(
            ("\"Put a try around model.complete inside run_agent.\"",
             "It works, but the loop now has to know every provider's exceptions, and it grows a "
             "second path that builds failed replies by hand. One adapter per provider keeps the "
             "loop the same for all of them."),
            ("\"Let the caller of run_agent catch it.\"",
             "Then the failure never reaches the record: the list ends on the last good message, "
             "and the user's screen, the next prompt and the log do not know it happened."),
            ("\"Retry inside the adapter until it works.\"",
             "A bounded retry with a wait may belong there, but an unbounded one is the runaway "
             "again, one level down. When it gives up, it still returns a failed reply."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Lesson 3's loop has one way out: a reply with no calls. Where, in that loop, "
                 "does each of the two new ways out have to be tested, and what goes into "
                 "`messages` on each?",
        approach="Keep a count of the model calls this run has made. At the top of the loop, "
                 "before the call, compare it with max_turns (only when max_turns is not None); "
                 "if it has been reached, append error_message(...) and return it.\n\n"
                 "After appending a reply, look at its stop_reason before anything else: \"error\" "
                 "means return it now, with its calls untouched.",
        outline="Start as lesson 3 did: the prompt goes into the record, and a counter of model "
                "calls starts at nothing.\n\n"
                "At the top of each round, before anything is sent, ask whether a limit was set at "
                "all and, if so, whether the counter has reached it. If it has, the stop note "
                "(built with the given helper, worded as the spec says) goes into the record and "
                "is what the run hands back.\n\n"
                "Otherwise make the call, count it, and record the reply before you read it. Then "
                "the reply's stop_reason decides first: a failed reply is handed back there and "
                "then, its calls untouched. Only a reply that did not fail goes on to lesson 3's "
                "test, calls or none.",
    ),
}
