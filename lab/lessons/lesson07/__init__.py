"""Lesson 07, "Running commentary": its questions, hint ladder and demonstrations.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(7, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Running commentary"
NOTEBOOK = "07-running-commentary.ipynb"

# The demonstrations that run on the learner's code once the lab passes, in notebook order:
# (cell id, the label its "ran on" line shows, the full names it runs on). Each ends with
# lab.lessons.lesson07.stage.ran_on(its id).
DEMOS = (
    ("demo-wall-again", "The six reads again",
     ("run_agent", "FinalTextRenderer.__init__", "FinalTextRenderer.render", "FinalTextRenderer.finish")),
    ("figure-7-1", "Figure 7.1", ("run_agent",)),
)

RUNGS = (
    Choice(
        id="while-it-runs",
        title="What a frontend can show while lesson 6's run_agent works",
        options=(
            Option("Nothing: it gets control back once, at the end, with the final message.",
                   "A function that returns speaks once. Until it does, the caller has no hold on "
                   "the run at all: not what happened, not what is happening, not a way to stop "
                   "between steps.",
                   right=True),
            Option("Progress, as long as `run_agent` prints a line before each tool.",
                   "It is the first fix everyone reaches for, and on a terminal it even looks "
                   "right. But then the loop is drawing, for every caller at once, and a caller "
                   "that sends the output to a file or to another program gets the lines too. The "
                   "next cells show what that does to answer.txt."),
            Option("Anything it likes, if it runs `run_agent` in a thread and looks in on it.",
                   "A thread keeps the screen alive, but there is nothing to look at. The loop "
                   "tells nobody that a turn began or a tool started; all a second thread could "
                   "do is read a list that the first one is appending to, and guess."),
        ),
    ),
    Open(
        id="print-in-the-loop",
        title="What the print in the loop broke, and where the progress line belongs",
        nudge="The print worked on a terminal. Say who else was listening to stdout, what each of "
              "them got, and which part of the program should decide how progress looks.",
        model_answer="It put drawing inside the loop. Everyone who runs the agent now gets "
                     "progress lines, whether they asked for them or not: `> answer.txt` holds six "
                     "lines before the answer, a program that reads one JSON object per line gets "
                     "text it cannot parse, and a window or an editor would have to scrape stdout "
                     "to show a spinner. The loop cannot know who is listening, so it should not "
                     "choose the drawing.\n\n"
                     "Instead the loop reports what happened, as data: a tool is about to run "
                     "(tool_execution_start, with its call), a message has been recorded "
                     "(message_end), and so on. Whoever started the run picks a frontend that "
                     "turns those events into output: a terminal prints a progress line on "
                     "tool_execution_start, FinalTextRenderer prints only the answer at the end, "
                     "JsonRenderer prints every event as a JSON line. One loop, many frontends.",
        common=(
            ("\"Print the progress to stderr instead.\"",
             "answer.txt is clean again, and that is worth doing in a terminal frontend. But the "
             "loop still decides what progress looks like, and the program that wanted one JSON "
             "object per step still gets nothing it can read."),
            ("\"Add verbose=False to run_agent.\"",
             "One switch per way of drawing: verbose, JSON, quiet, a spinner... The loop grows a "
             "parameter for every frontend, and it is still the one doing the drawing."),
            ("\"Pass run_agent a callback, on_progress(text).\"",
             "Closer: that is events by another name, if the callback gets data instead of text. "
             "But the caller still cannot stop the run between two steps, which it can when it "
             "pulls the events from a generator itself."),
        ),
    ),
    Number(
        id="how-many-turns",
        title="How many turns a read-then-answer run has",
        answer=2,
        right="Two. A turn is one model call: the first asks for the read and gets its result, "
              "the second writes the answer. The user spoke once, but the model was asked twice.",
        wrong="Count the model calls, not the user's prompts or the messages: each call to the "
              "model, with whatever tools its reply asks for, is one turn.",
        near={1: "One is the user's count: they asked once. Lesson 12 gives that bigger unit a "
                 "name of its own. Here a turn is a model call, the unit max_turns has limited "
                 "since lesson 5, and there were two.",
              3: "Three counts the tool call as a turn of its own. A tool runs inside the turn of "
                 "the reply that asked for it.",
              4: "Four is the number of messages, U A R A. A turn holds a reply and the results "
                 "of its calls."},
    ),
    Choice(
        id="when-announced",
        title="Whether a message is in the list when its message_end arrives",
        options=(
            Option("Not yet: announce it first, so the screen shows it a moment sooner.",
                   "The screen would be quicker by a hair. But a generator stops at every yield, "
                   "and the consumer may never ask for the next event: it breaks out, the user "
                   "presses Ctrl-C, the frontend raises. Then a message was shown that the record "
                   "never got."),
            Option("It makes no difference: the append and the yield are microseconds apart.",
                   "Only if the consumer comes back. At a yield the loop hands over control and "
                   "waits; if nobody asks for the next event, the microseconds last for ever."),
            Option("Yes: the message is appended first, and only then announced.",
                   "Mutate, then announce. Whatever a consumer has been told is already in the "
                   "record, so stopping at any event leaves a record that agrees with what was "
                   "shown.",
                   right=True),
        ),
    ),
    Multi(
        id="max-turns-events",
        title="The events that end a run stopped by max_turns",
        options=(("message_end, carrying the stop message \"Agent stopped after max_turns=2\"", True,
                  "The stop is a message in the record (lesson 5), so it is announced like one: "
                  "it is how a frontend learns why the run ended."),
                 ("turn_end", True,
                  "The stop stands where the turn's model call would have been, so it opened a "
                  "turn, and every turn is closed."),
                 ("agent_end", True,
                  "Every run ends on agent_end, whichever way out it took: it is how a frontend "
                  "knows to stop its spinner and call finish()."),
                 ("tool_execution_end", False,
                  "No tool runs in the stop's turn: the stop has no calls, and the results of "
                  "the last real reply were reported in the turn before."),
                 ("None of them: a stop is not a normal ending, so the loop just returns", False,
                  "It is tempting, since nothing went well. But the frontend is still waiting "
                  "for agent_end, the spinner never stops, and the stop message never reaches "
                  "the screen.")),
        right="message_end for the stop, then turn_end, then agent_end: the pairs balance on every "
              "way out of the run, the stop included.",
        wrong="Every turn that starts is closed and every run ends on agent_end, however it ends. "
              "The stop opened a turn of its own, with one message in it.",
    ),
    Choice(
        id="result-first",
        title="Which comes first: tool_execution_end or the result's message_end",
        options=(
            Option("tool_execution_end: the tool finished before its result message existed.",
                   "True by the clock, which makes it tempting. But a consumer that stops "
                   "listening at tool_execution_end leaves a tool that ran, perhaps wrote a "
                   "file, and no result in the record: the next request carries a call with no "
                   "answer."),
            Option("The result's message_end: it is recorded the moment run_tool returns, with no "
                   "yield in between.",
                   "Mutate, then announce, applied to results. By the time anyone hears that the "
                   "tool is done, its result is in the record.",
                   right=True),
            Option("Either order, as long as both come before turn_end.",
                   "Both orders balance the pairs, so it looks harmless. The difference is what "
                   "a consumer that stops between the two leaves behind: run the cell."),
        ),
    ),
    Choice(
        id="failed-answer",
        title="What answer.txt gets when the run ends in a 503",
        options=(
            Option("Nothing, and finish() returns False: the file stays clean.",
                   "It is half right, and the cell shows which half: the exit status is 1, so a "
                   "script that checks it knows the run failed, and the file holds nothing posing "
                   "as an answer. What nobody learns is why. The renderer has one stream, stdout, "
                   "and it said nothing on it: the 503 reached no one."),
            Option("The failed reply's text, which is the empty string.",
                   "It looks like the honest thing, the reply's own words. But those words are "
                   "empty: answer.txt gets a blank line that reads like a blank answer, and the "
                   "503 is mentioned nowhere. Only the exit status says anything went wrong."),
            Option("\"Error: 503 overloaded\", and finish() returns True, since something was "
                   "printed.",
                   "The words are right, but True tells the caller the run went well: the program "
                   "exits 0 and a script carries on as if the error were the answer."),
            Option("\"Error: 503 overloaded\", and finish() returns False.",
                   "It puts words that are not an answer into answer.txt, which looks wrong at "
                   "first. But with one stream it is the only way the reason reaches anyone, and "
                   "exit status 1 tells a script not to trust the file. Tau, which also has "
                   "stderr, sends the line there instead: see the cell after this one.",
                   right=True),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Lesson 5's loop appends messages and returns one. What is the smallest change "
                 "that makes each append also tell whoever is listening, and makes every way out "
                 "of the loop reach one last line?",
        approach="Write `record(message)` inside run_agent: append to `messages` and to `new` (this "
                 "run's messages), then return the message_end event; every append becomes "
                 "`yield record(...)`. Count turns yourself: one per pass of the loop, each pass "
                 "one model call or the max_turns stop. Replace every `return` with a `break` out "
                 "of the loop, after its turn_end, so that agent_end is yielded in one place.\n\n"
                 "FinalTextRenderer keeps one thing, the newest assistant message: None in "
                 "__init__, replaced in render, read in finish.",
        outline="Start from lesson 5's loop and change its shape before its logic: the function "
                "now yields, so every place that appended a message records it through one small "
                "helper that appends (to the caller's list and to this run's own list) and hands "
                "back the message_end event to yield.\n\n"
                "The run opens with agent_start. Each pass of the loop is one turn: it opens with "
                "turn_start, records whatever user messages are waiting, then either records the "
                "max_turns stop (tested before the call, as in lesson 5) or asks the model and "
                "records the reply. A stop or a failed reply closes the turn and leaves the loop; "
                "so does a reply with no calls.\n\n"
                "For each call, announce that the tool starts, run it, record its result with no "
                "yield in between, and only then announce that it ended. Close the turn. After the "
                "loop, and on every way out of it, the last event is agent_end with this run's "
                "messages.\n\n"
                "The renderer remembers one thing, the newest assistant message it was shown; "
                "finish decides from that message alone, as its docstring says.",
    ),
}
