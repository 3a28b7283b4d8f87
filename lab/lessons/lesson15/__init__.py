"""Lesson 15, "Meanwhile": its questions, hint ladders and labs' demonstrations.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(15, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Meanwhile"
NOTEBOOK = "15-meanwhile.ipynb"

# The demonstrations that run on code the learner writes: (cell id, label, full names).
DEMOS = (
    ("demo-cancel", "A cancel in the middle of sleep 600", ("run_tool", "run_agent")),
    ("demo-side-by-side", "Two sessions and a keyboard", ("run_tool", "run_agent", "Harness._notify",
                                                          "Harness._run")),
    ("figure-15-1", "Figure 15.1", ("run_tool", "run_agent", "Harness._notify", "Harness._run")),
)

RUNGS = (
    Choice(
        id="recall-approval",
        title="What the program does while the user thinks about an approval",
        options=(
            Option("The spinner goes on turning, since approve is one function call among many.",
                   "It is one call, which is why it feels small. But it is a call the whole "
                   "program is standing inside: the tool's execute called it, run_tool called "
                   "that, the loop called run_tool, and your for loop is waiting on the loop. "
                   "Line (a) of the cell below counts the spinner's ticks."),
            Option("Nothing at all: every line of the program is waiting for approve to return.",
                   "One thread, one place to stand, and it is inside approve. The spinner's "
                   "timer falls due and nobody is free to run it; a word typed for steer() "
                   "waits with it. Lines (a) and (b) of the cell below show both.",
                   right=True),
            Option("The model keeps thinking about its next step in the background.",
                   "Lesson 2 settled this: between two calls the model holds nothing, and it "
                   "is not asked again until approve has answered and the tool has run. Line "
                   "(c) of the cell below counts its requests."),
        ),
    ),
    Choice(
        id="where-the-time-goes",
        title="How a harness lets other work run while the model thinks",
        options=(
            Option("Await: at each wait the loop hands its turn back to an event loop, which "
                   "runs whatever else is ready until the reply comes.",
                   "One thread, and a turn that is given up only at an await. Nothing else can "
                   "run in the middle of a line of your loop, so steer() and the spinner need no "
                   "lock; line (a) of the cell below shows the spinner beside the run.",
                   right=True),
            Option("Put the spinner and the keyboard in threads of their own.",
                   "It does make the spinner tick, which is why it is the first idea. But then "
                   "steer() runs in one thread while the loop drains the same queue in another, "
                   "and every piece of state the harness shares needs a lock from now on: line "
                   "(b) of the cell below lists the places."),
            Option("Poll: have complete() return at once, and ask again every tenth of a second "
                   "until the reply is there.",
                   "Asking again and again keeps the program free between asks, so it looks "
                   "like a fix. But it spends its time asking, every provider would need a "
                   "second API, and the reply waits for the next ask: line (c) of the cell "
                   "below counts the asks for one 20 s reply."),
        ),
    ),
    Multi(
        id="who-may-act",
        title="What another task may do while the run awaits the model",
        options=(("tick the spinner", True,
                  "It looks too trivial to ask, but it is the whole point: the loop is "
                  "suspended at its await, and the event loop runs the spinner meanwhile."),
                 ("call h.steer(\"Use spaces.\")", True,
                  "It feels like meddling with a run in progress. But steer() only appends to a "
                  "queue, and the loop reads that queue at its next safe point, as lesson 9 "
                  "made it."),
                 ("run a second Harness's prompt", True,
                  "Two runs at once sounds like what lesson 8 forbade. It forbade two writers on "
                  "one transcript; another Harness has a transcript of its own."),
                 ("call h.prompt(...) on the same harness", False,
                  "It is only another call, and the loop is idle. But the flag is still set: "
                  "prompt refuses on the caller's line with \"already running\", as it has since "
                  "lesson 8."),
                 ("call h.replace_messages(...)", False,
                  "A compaction wants to do exactly this, so it tempts. During a run it is "
                  "refused: the run's messages are still being written.")),
        right="Three yes: the spinner, steer() and another harness's run each get their turn "
              "while this run waits. Two no: prompt and replace_messages on the same harness "
              "are refused while its run is going, await or no await. Waiting made room for "
              "others; it did not lift lesson 8's rule of one writer per transcript.",
        wrong="For each option ask whose data it touches and whether a rule already guards it: "
              "the run is parked at an await, but its flag is still set. The cell below tries "
              "every one.",
    ),
    Choice(
        id="gather-calls",
        title="Three reads in one reply: run them together with asyncio.gather?",
        options=(
            Option("Yes, and record each result as it comes back.",
                   "Faster, and every result is recorded the moment it exists. But the record's "
                   "order is then the order the tools finished in, which changes from run to "
                   "run; line (a) of the cell below shows the fast tool's result first."),
            Option("No: one after another, in the model's order, each result recorded when it "
                   "returns.",
                   "The model asked in an order, and it may depend on it (write, then read "
                   "back): line (b) of the cell below keeps it. Sessions are where concurrency "
                   "pays; one transcript stays one story.",
                   right=True),
            Option("Yes, and record the results in call order once all of them are back.",
                   "The order is right, which makes it look safe. But the calls overlap: a "
                   "write and a read of the same file race, and line (c) of the cell below "
                   "shows the second tool started before the first was done."),
        ),
    ),
    Choice(
        id="swallowed-cancel",
        title="run_tool wrapped in except BaseException, \"to be safe\", and the user cancels",
        options=(
            Option("The cancel becomes an error result, the loop asks the model again, and the "
                   "run goes on: the user's stop is swallowed.",
                   "CancelledError is a BaseException, so the broad clause catches it like a "
                   "tool's failure; the cell below shows the run going on to its next reply.",
                   right=True),
            Option("The run stops, as the user wanted: catching an exception does not stop a "
                   "cancellation.",
                   "It sounds like cancellation is a force of its own. It is an exception raised "
                   "at the await, nothing more, and a clause that catches it ends it there: line "
                   "(b) of the cell below."),
            Option("Python refuses: CancelledError cannot be caught.",
                   "It can, and asyncio itself catches it in places. Since Python 3.8 it is a "
                   "BaseException, so except Exception lets it by and except BaseException "
                   "does not. Line (a) of the cell below catches it."),
        ),
    ),
    Open(
        id="cut-off-call",
        title="A run cancelled between tool_execution_start and the result",
        nudge="What happened, what does the model need to be told, and who knows the outcome?",
        model_answer="The record holds the assistant's call and no result for it: that is what "
                     "happened, since the tool was stopped before it answered. The next request's "
                     "view pairs the call with INTERRUPTED (lesson 10's repair), so the provider "
                     "gets a valid transcript and the model learns the call was cut off and may "
                     "have half run. The harness should not write a result itself: a result is "
                     "the tool's report of an outcome, and nobody saw this one. The view can be "
                     "recomputed, a made-up record cannot be taken back.",
        common=(
            ("\"Delete the call from the record.\"",
             "Then the transcript hides that the command may have run: a half-written file, a "
             "process still going. The model would repeat it blind."),
            ("\"Run the tool again when the next prompt comes.\"",
             "It may have run already; running a write or a deploy twice is its own damage, "
             "and the user just asked for it to stop."),
            ("\"Write an INTERRUPTED result into the record.\"",
             "Tau does this, and it is defensible: the raw log then says plainly what happened. "
             "The cost is a record holding a result no tool produced, and a second writer of "
             "results besides run_tool."),
        ),
    ),
    Number(
        id="two-sessions",
        title="Two sessions, side by side: when are both done?",
        answer=28,
        right="28. Each session is 20 s of waiting on the model and 8 s on pytest, 28 s of "
              "waits, and the two sessions wait at the same time.",
        wrong="Add up one session's waits, then ask how much of the other's fits inside them. "
              "The cell below runs both.",
        near={56: "That is one session after the other, the wall's arrangement. Side by side, "
                  "the second waits while the first does.",
              20: "That is the thinking alone; pytest's 8 s are a wait of the same kind, and "
                  "they count."},
    ),
    Choice(
        id="save-as-task",
        title="A listener that takes 0.5 s to save: should _run start it as a task and yield?",
        options=(
            Option("Yes: asyncio.create_task(listener(event)), and yield at once, so the screen "
                   "stays quick.",
                   "The screen is quick, which is the appeal. But the consumer holds "
                   "message_end before the line is on disk; line (a) of the cell below cuts "
                   "the power there and loses a message the screen showed."),
            Option("Yield first, then await the listener.",
                   "It looks like a fair compromise: the save is still awaited. But the consumer "
                   "has the event first, and may stop the run right there; line (b) of the cell "
                   "below."),
            Option("Await each listener in turn, then yield.",
                   "Half a second per event is the price of lesson 11's promise: what the "
                   "screen has shown is on disk. Line (c) of the cell below.",
                   right=True),
            Option("Skip the disk while a run is going and save everything at agent_end.",
                   "One write is cheaper than many, so it tempts. But a crash mid-run then "
                   "loses the whole run, which is the window lesson 11 closed."),
        ),
    ),
    Choice(
        id="sync-inside",
        title="Keep run_agent synchronous, and call asyncio.run(model.complete(...)) inside it?",
        options=(
            Option("That works, and it is simpler: the loop keeps its lesson 10 shape and every "
                   "tool stays a plain function.",
                   "It keeps the shape, which is its appeal. On a running loop, as in a "
                   "notebook, the call is refused outright: line (a) of the cell below."),
            Option("Inside a running loop it is refused; where it runs, it blocks the program "
                   "for the whole wait.",
                   "asyncio.run starts a loop of its own and will not start inside another. "
                   "Outside one it runs, and nothing else moves until it returns: line (b).",
                   right=True),
            Option("It works, only a little slower, since a new event loop has to be made for "
                   "every single request.",
                   "Making a loop is cheap; that is not the trouble. The trouble is what "
                   "happens during the wait: line (b) of the cell below."),
        ),
    ),
    Open(
        id="faster",
        title="\"So async makes the agent faster\"",
        nudge="Time one session before and after. Then time two.",
        model_answer="One session takes exactly as long as before: 28 s of waiting is still 28 s, "
                     "because the model and pytest do not go faster for being awaited. What "
                     "changes is what the rest of the program can do during the waits: a spinner "
                     "turns, steer() is heard at the next safe point, a cancel lands at once, and "
                     "a second session's waits overlap the first's. Waiting is not working; async "
                     "lets the program stop pretending it is.",
        common=(
            ("\"Yes: everything runs in parallel now.\"",
             "Nothing runs in parallel: one thread runs one task at a time. Waits overlap; "
             "work does not."),
            ("\"No: async only adds overhead.\"",
             "For one session the overhead is small and the time the same; for two sessions, "
             "or a user who wants to stop a run, it is the difference between 28 s and 56, or "
             "between stopping and not."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Lesson 10's loop already does the right things in the right order. Where in "
                 "it does the program wait for someone else? Those places, and only those, "
                 "change; and of everything a try might catch, which one is not a failure of the "
                 "tool?",
        approach="run_tool: call execute as before; if what comes back is awaitable "
                 "(inspect.isawaitable), await it, inside the same try. Keep except Exception.\n\n"
                 "run_agent: copy lesson 10's body; put await before model.complete(...) and "
                 "before run_tool(...). Leave the for loop over the calls alone: one call, one "
                 "await, one record, then the next. Add no try anywhere.",
        outline="run_tool: look the tool up; an unknown name is an error result as before. "
                "Otherwise, inside one try: call execute with the arguments; when the value is "
                "something to await, wait for it, and that is the content. An Exception from "
                "either step is the content of an error result. Nothing wider is caught, so a "
                "cancellation passes through, and the function returns nothing for the call.\n\n"
                "run_agent: the same turns, the same events in the same places. The reply is "
                "waited for rather than taken; each call of the reply is started, waited for, "
                "recorded and announced before the next call starts. When the consumer is "
                "cancelled, the wait in progress raises, and because no line catches it, the "
                "generator ends there, with the call it was waiting on still unanswered in the "
                "record.",
    ),
    2: Hints(
        lab=2,
        question="The consumer gets an event when _run yields it. What must be true of every "
                 "listener by then, and which one line makes it so? And in _notify, what does a "
                 "coroutine listener give back when you call it?",
        approach="_notify: a for loop over a copy of the listeners; call each one with the event; "
                 "if the value is awaitable, await it before the next listener.\n\n"
                 "_run: the line before the yield awaits self._notify(event).",
        outline="_notify: each listener in the order it subscribed, over a copy of the list so "
                "that one may unsubscribe itself. A plain function has done its work when the "
                "call returns; a coroutine function has only made a coroutine, which does "
                "nothing until it is awaited: wait for it there, and only then go on to the "
                "next listener. No tasks, no gather: one listener at a time.\n\n"
                "_run: one line, placed before the yield, that waits until every listener has "
                "finished with the event.",
    ),
}
