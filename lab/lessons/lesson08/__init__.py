"""Lesson 08, "One pen": its questions, its hint ladder and its demonstrations.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(8, id) draws one of them.
The grader's sample scores are in samples.py.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "One pen"
NOTEBOOK = "08-one-pen.ipynb"

# The demonstrations that run on the learner's Harness methods once the lab passes, in notebook
# order: (cell id, the label its "ran on" line shows, the full names it runs on). Each ends with
# lab.lessons.lesson08.stage.ran_on(its id).
_YOURS = ("Harness.messages", "Harness.prompt", "Harness._run")
DEMOS = (
    ("demo-wall-again", "The keyboard handler and the undo button again", _YOURS),
    ("figure-8-1", "Figure 8.1", _YOURS),
)

RUNGS = (
    Choice(
        id="recall-paused",
        title="Whether Python stops a second writer while a run is paused",
        options=(
            Option("No: while the generator is paused at a yield, any code may append to the list, and "
                   "the run carries on from there without noticing.",
                   "Nothing guards the list but convention. Lesson 7 made the loop a generator so that a "
                   "frontend could see each step; the price is that the frontend, and everything it "
                   "calls, also gets a turn between the steps.",
                   right=True),
            Option("Yes: Python runs one thing at a time, so nothing can touch the list until the run "
                   "is over.",
                   "One thing at a time is true, and it is exactly what lets the other code in. A "
                   "generator hands control back at every yield; from then until somebody calls next() "
                   "again, any other code in the program runs, and the list is just a list. The cell "
                   "below appends to it while the run waits at turn_end."),
            Option("Only with threads: without them, nothing else can run in the middle of a run.",
                   "No thread is needed. The run is not \"in the middle\" of anything while it sits at a "
                   "yield: it is a paused object, and the loop that consumes it can do whatever it "
                   "likes before asking for the next event, including starting another run."),
        ),
    ),
    Number(
        id="refused-requests",
        title="How many of the wall's requests the provider refused",
        answer=2,
        right="Two. Run B's only request went out with run A's call still unanswered in the middle of the "
              "list, and was refused. Then run A resumed, recorded its result after B's messages, and "
              "sent the record again: refused for the same reason. Only A's first request, made before B "
              "existed, was answered.",
        wrong="Count the requests in the cell below, one per model call, and ask for each what the list "
              "looked like when it went out.",
        near={1: "B's request was refused, yes. But run A then sent the same broken list with its result "
                 "added after B's messages, and that request was refused too: A's answer never came.",
              3: "Three counts every request. A's first one went out before B began, when the list was "
                 "just U: the provider answered it with the read call.",
              0: "The last line of the cell above shows B's reply: a 400 from the provider, not an answer."},
    ),
    Choice(
        id="why-a-tuple",
        title="What Harness.messages should hand out",
        options=(
            Option("The list itself: it is the transcript, and callers need to read it.",
                   "Convenient, and it is the wall again: the undo button gets the same list the run is "
                   "writing, and one pop() removes the call the paused run is about to answer. Reading "
                   "is what callers need; the list lets them write."),
            Option("A tuple of the same message dicts: a snapshot nobody can append to or pop from.",
                   "One tuple() call, no message copied. A caller who holds it holds the transcript as it "
                   "was at that moment; the harness's own list goes on growing behind it.",
                   right=True),
            Option("A deep copy, so that nobody outside can change anything at all.",
                   "Safe, but it copies every message of the transcript on every read, and a long session "
                   "is read many times. Nothing is gained: a tuple already refuses append and pop, and the "
                   "message dicts are never edited in place by anyone in this course."),
        ),
    ),
    Choice(
        id="plain-def",
        title="Why prompt is a plain function that returns _run",
        options=(
            Option("So that the check and the flag run when prompt is called, and a refusal lands on the "
                   "line that asked.",
                   "The caller who typed the second prompt is the one who should hear \"already running\". "
                   "A plain def runs its body at once: it refuses, or it takes the pen, before it returns "
                   "the generator.",
                   right=True),
            Option("It need not be: make prompt itself the generator, one function instead of two.",
                   "Tidy, but a generator function runs none of its lines when it is called: it only "
                   "builds the generator. The \"already running\" check would run at the first next(), in "
                   "whichever loop first asks for an event, and until then the flag is not even set, so a "
                   "second prompt made in between passes the check too."),
            Option("For speed: a plain function is faster to call than a generator.",
                   "The difference is too small to measure, and it is not the point. What matters is "
                   "when the lines run, not how fast."),
        ),
    ),
    Choice(
        id="when-cleared",
        title="Where _run should set is_running back to False",
        options=(
            Option("After the for loop: that is where the run ends.",
                   "It is where a run that is used up ends. A consumer that breaks out early closes the "
                   "generator at its yield, and a model that raises leaves the loop by an exception: "
                   "neither ever reaches the line after it, and the harness refuses every prompt from then "
                   "on."),
            Option("When agent_end goes by: the run itself says it is over.",
                   "agent_end is the last event of a run that ends normally. A consumer that stops "
                   "earlier never pulls it, and a run that dies never sends it."),
            Option("In a finally around the loop: it runs whether the run is used up, closed, or dies.",
                   "finally is the one place every way out passes through, a KeyboardInterrupt included.",
                   right=True),
        ),
    ),
    Multi(
        id="what-the-harness-keeps",
        title="What the Harness keeps from one run to the next",
        options=(("the model, the system prompt and the tools", True,
                  "They are the same for every run of this harness. Kept here, two harnesses can differ "
                  "(another model, another tool set) without either touching the other."),
                 ("max_turns", True,
                  "A setting like the others. Passed to every run by _run, so the caller of prompt never "
                  "has to repeat it, and cannot forget it."),
                 ("the list of messages", True,
                  "The one thing that must be kept: every run writes into it, and the next run starts "
                  "from it. That is what makes the second prompt see the first."),
                 ("the prompt's text", False,
                  "It belongs to one run. It goes to prompt(text), and it enters the list only when the "
                  "run records it."),
                 ("the messages this run has added so far", False,
                  "run_agent keeps those itself, for agent_end, and forgets them when the run ends. A "
                  "harness that kept a second list of them would own two copies of the record."),
                 ("nothing: keep system, tools and max_turns as module-level globals", False,
                  "Globals make one setting for the whole program: two harnesses could not differ, and a "
                  "test that changes one changes it for everybody.")),
        right="The harness keeps what every run shares: the model, the system prompt, the tools, "
              "max_turns and the list. What belongs to one run (its prompt and the messages it has added "
              "so far) lives in that run. The loop keeps nothing between runs.",
        wrong="For each item ask: is it the same for every run of this harness, or does it belong to one "
              "run? And is there any other place that already keeps it?",
    ),
    Choice(
        id="tool-prompts",
        title="What happens when a tool calls h.prompt() during a run",
        options=(
            Option("The nested run goes ahead: it is the same harness, so it is allowed to write.",
                   "That is the wall with the writer inside the house: the nested run appends its prompt "
                   "while the outer call is still waiting for its result, and the next request is refused."),
            Option("prompt raises RuntimeError; run_tool turns it into an error result, and the run goes "
                   "on with a valid transcript.",
                   "The tool is just one more caller of prompt, and lesson 4 already made every exception "
                   "of a tool into a result the model can read. The outer call gets its one result, "
                   "marked is_error, and nothing else is written.",
                   right=True),
            Option("Nothing happens until the outer run finishes: the nested prompt waits its turn.",
                   "Waiting inside a tool would wait for ever: the outer run cannot finish until the tool "
                   "returns. Queuing a message for later is a good idea, and lesson 9 builds it; but it "
                   "is not what prompt does."),
        ),
    ),
    Open(
        id="a-lock",
        title="Why a lock around each append does not fix the wall",
        nudge="What exactly went wrong in the wall: an append that was torn, or two appends in the wrong "
              "order?",
        model_answer="A lock makes each append whole, and no append in the wall was torn. Every message "
                     "landed complete; what broke the record was where B's messages landed, between A's "
                     "call and A's result. The damage is in the order of whole writes, decided by when two "
                     "runs over one list take their turns.\n\n"
                     "There is also only one thread. A lock held by the thread that already holds it "
                     "either deadlocks or, as a re-entrant lock, lets it straight in. The fix is about "
                     "ownership, not mutual exclusion of single writes: only one run may write to the "
                     "list from its first message to its last.",
        common=(
            ("\"Lock the list for the whole run.\"",
             "That is the right rule, and it is what the flag is. But a lock that is acquired by one "
             "run and waited on by another would hang the single thread; the harness refuses instead, "
             "at once, in a sentence."),
            ("\"Use a thread-safe queue for the messages.\"",
             "A queue orders single appends; the wall needs a whole run's appends kept together, with "
             "nothing from anybody else in between."),
            ("\"Copy the list for each run and merge at the end.\"",
             "Two copies of the record, and a merge that has to decide where B's prompt goes relative "
             "to A's call and result. Any answer is a rewrite of what happened."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Three small methods. `messages`: what kind of sequence has no append and no pop, and "
                 "what does it cost to make one from a list? `prompt`: which of its lines must run at the "
                 "moment it is called, and what is the one thing it must not do? `_run`: which Python "
                 "statement runs on every way out of a block, a break from outside and an exception "
                 "included?",
        approach="`messages`: one line, `tuple(...)` of the harness's list.\n\n"
                 "`prompt`: no `yield` anywhere in it. Test `self._running` first and raise "
                 "`RuntimeError(\"already running\")` if it is set; otherwise set it and return "
                 "`self._run(text)` without iterating it.\n\n"
                 "`_run`: make the lesson-7 run with `run_agent(...)` over `self._model`, `self._system`, "
                 "`self._messages`, `self._tools`, `text` and `max_turns=self._max_turns`. Yield its "
                 "events inside a `try`, and put the clean-up in the `finally`.",
        outline="`messages` is a read-only view made in one step from the harness's own list, "
                "and nothing more.\n\n"
                "`prompt` does its whole job before it returns: it looks at the flag, refuses in "
                "the words the spec gives if a run holds it, and otherwise raises the flag and hands "
                "back the generator from `_run`, without asking it for a single event.\n\n"
                "`_run` is where the generator lives. It builds lesson 7's run from what the "
                "harness keeps (its model, system prompt, list, tools and limit) and passes each "
                "event on. All of that sits inside a block whose clean-up runs on every way out: "
                "there it closes the inner run and lowers the flag.",
    ),
}
