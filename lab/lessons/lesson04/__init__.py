"""Lesson 04, "Failure is news": its questions, hint ladder and demonstrations.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(4, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Failure is news"
NOTEBOOK = "04-failure-is-news.ipynb"

# The demonstrations that run on the learner's run_tool once lab 1 passes, in notebook order:
# (cell id, the label its "ran on" line shows, the full names it runs on). Each ends with
# lab.lessons.lesson04.stage.ran_on(its id).
DEMOS = (
    ("demo-typo-again", "The typo task again", ("run_tool",)),
    ("figure-4-1", "Figure 4.1", ("run_tool",)),
    ("demo-four-calls", "Four failures in one reply", ("run_tool",)),
)

RUNGS = (
    Choice(
        id="lesson3-sees",
        title="What the model sees when a tool raises under lesson 3's loop",
        options=(
            Option("A result marked as an error, saying the file is not there.",
                   "It is what should happen, and it is tempting to think something already does "
                   "it. Look at lesson 3's run_tool: it has no `try`, and nothing else between "
                   "the tool and the list writes a result."),
            Option("Nothing at all: the exception ends the run before any result is recorded.",
                   "The exception goes up through `run_tool` and `run_agent` and the run is over. "
                   "The one party that could have fixed the typo, the model, is never asked.",
                   right=True),
            Option("Nothing yet: the loop asks the model again, and the model tries another "
                   "name.",
                   "Lesson 3's loop asks again only after every call of the reply has a result. "
                   "An exception skips all of that: it leaves `run_tool`, then `run_agent`, then "
                   "your cell."),
        ),
    ),
    Choice(
        id="what-to-show",
        title="What the model should be shown when a tool fails",
        options=(
            Option("Nothing: let the exception go up. A loud failure is a good failure.",
                   "Loud is right when the one who can fix it is reading the traceback: lesson 11 "
                   "says so of a log that cannot save. Here the one who can fix it is the model, "
                   "and a traceback in your terminal never reaches it. The run dies, as in the "
                   "wall."),
            Option("An empty result: the run goes on and the request stays valid.",
                   "Valid and quiet, and false. The model is told the read worked and found "
                   "nothing, so it reports an empty file, as the cell below shows. A failure "
                   "passed off as a success is the worst of the four."),
            Option("A result marked as an error that says \"Tool failed.\"",
                   "Honest, but it leaves the model nothing to act on: which name was wrong, what "
                   "is there instead? Run the cell: it gives up."),
            Option("A result marked as an error whose text is the error itself, including what "
                   "is there instead.",
                   "The read tool's error names the files that do exist, and the model needs "
                   "exactly that to put its call right. Your program's job is to carry the "
                   "words to it, unchanged.",
                   right=True),
        ),
    ),
    Choice(
        id="grep",
        title="Answering a call of a tool the harness does not have",
        options=(
            Option("Answer it with one result, \"Tool grep not found\", marked as an error.",
                   "One call in, one result out, on this path too. The model reads that grep is "
                   "not there and can try another way, here the read tool.",
                   right=True),
            Option("Skip the call: there is nothing to run.",
                   "Then the call has no result, and the next request ends `A[c1]` with `c1` "
                   "unanswered. A strict provider refuses it, and so does every request after it."),
            Option("Raise: a made-up tool name is a bug.",
                   "It is the model's mistake, not your program's, and the model can fix it if "
                   "it hears about it. Raising ends the run exactly as the wall did."),
            Option("Answer twice: the error, then a second result that lists the tools you do "
                   "have.",
                   "Helpful in spirit, but two results for one call break the pairing the other "
                   "way: the provider finds a result for a call that already has one. Whatever "
                   "else the model should know goes into the one result's text."),
        ),
    ),
    Multi(
        id="honest-results",
        title="Results that mark a failed read and say how to fix it",
        options=(("content \"File not found: confg.py. Files here: README.md, config.py, "
                  "main.py\", is_error True", True,
                  "It can look like too much to say, a list of files for a typo. The flag tells "
                  "every program that the read failed, and the list is exactly what the model "
                  "needs to pick the right name."),
                 ("content \"File not found: confg.py. Files here: README.md, config.py, "
                  "main.py\", is_error False", False,
                  "The words are all there, so the flag can seem a detail. Every program that "
                  "goes by the flag now counts the read as done, and the lab's model quotes the "
                  "error back as the file's text."),
                 ("content \"\", is_error False", False,
                  "Quiet and valid, so the run goes on. It is a lie in both places: the flag "
                  "says the read worked, and the text says the file is empty."),
                 ("content \"Tool failed.\", is_error True", False,
                  "Honest about the failure, which is half of it. The model learns that "
                  "something went wrong and not what, so it has nothing to fix the call with."),
                 ("content \"Tool grep not found\", is_error True, for a call to grep", True,
                  "It is short, so it may look like too little. It names what is wrong, a tool "
                  "that is not there, and the flag marks it; the model can try another way.")),
        right="Only the first and the last do both. Each is marked where a program can see it, "
              "and each says what went wrong in words the model can act on: the files that are "
              "there, or the tool that is not.",
        wrong="Ask two questions of each result, one per field: does the flag tell a program "
              "that the tool could not do its job, and do the words tell the model what to do "
              "about it?",
    ),
    Number(
        id="results-count",
        title="Results after a reply of three calls, two of them failing",
        answer=3,
        right="Three: one per call, whatever happened to it. The failed read and the call of grep "
              "each get an error result, the good read an ordinary one, in the order the reply "
              "asked for them.",
        wrong="Count calls, not successes: each call of the reply gets exactly one result, and "
              "only then is the model asked again.",
        near={1: "One is the good read alone. The two failures need an answer too, or the "
                 "request after them is refused.",
              2: "Two leaves one call without its answer. A tool that is not there gets a result "
                 "like any other call.",
              4: "Four would be two results for one call. Each call gets exactly one.",
              6: "Six counts a result and an error per failing call. The error is the result."},
    ),
    Choice(
        id="exit-code",
        title="Whether a command that exits with code 1 is a tool error",
        options=(
            Option("Yes: the command failed, so the result is an error.",
                   "\"Failed\" is in the output, so it is tempting. But the bash tool did its job: "
                   "it ran the command and brought back what it printed. Marked as an error, the "
                   "model's failing tests look like a broken tool."),
            Option("Only if the output holds the word \"error\".",
                   "That is parsing prose for protocol again, and the output is whatever the "
                   "program printed: a passing test called `test_error_page` says \"error\", and "
                   "a crashing one may not."),
            Option("No: the tool ran the command, and the exit code is part of what it reports.",
                   "`is_error` says the tool could not do its job. Here it did, and the failing "
                   "tests, with \"Command exited with code 1\" at the end, are the news the model "
                   "asked for.",
                   right=True),
        ),
    ),
    Choice(
        id="path-42",
        title="A read whose path is the number 42",
        options=(
            Option("It cannot happen: the schema says the path is a string, and the model is "
                   "given that schema with every request.",
                   "The schema is a request to the model, written in its prompt. Nothing on the "
                   "way enforces it, and a model can send a number, a list, or no path at all."),
            Option("run_tool should check every argument against the schema before it calls the "
                   "tool.",
                   "That is a second copy of what each tool already knows about its own "
                   "arguments, and the two copies drift. The tool reads what it needs through "
                   "`str_arg`, which checks it there."),
            Option("str_arg raises ValueError(\"path must be a string\"); run_tool turns it "
                   "into an error result like any other.",
                   "The check lives with the tool that needs it, and the failure reaches the "
                   "model through the same one place as every other: `run_tool`.",
                   right=True),
        ),
    ),
    Choice(
        id="catch-what",
        title="What run_tool's except should catch",
        options=(
            Option("Everything, with a bare `except`, so that the harness never dies.",
                   "Then Ctrl-C, which Python delivers as KeyboardInterrupt, becomes a tool result "
                   "and the agent carries on. So does SystemExit. The person at the keyboard "
                   "can no longer stop it."),
            Option("`Exception`: every error a tool can raise, and not the signals that mean "
                   "\"stop\".",
                   "Python puts KeyboardInterrupt and SystemExit outside Exception for exactly this "
                   "case. What a run left behind when it was stopped mid-call is lesson 10's "
                   "question.",
                   right=True),
            Option("Only what tools are expected to raise (OSError, ValueError, KeyError, "
                   "TypeError), so that real bugs still show.",
                   "A tool's bug ends the run with the model never told, just as in the wall. "
                   "Tools raise what they raise: a quota error of their own, a RuntimeError from "
                   "a library. The list is never complete."),
        ),
    ),
    Open(
        id="why-one-place",
        title="Why failures become results in run_tool, not in each tool",
        nudge="Count the tools you have now, and the ones you will add. Who writes each? What "
              "happens on the day one of them forgets?",
        model_answer="Because then no tool can forget. A tool's author writes what the tool "
                     "does and raises when it cannot; `run_tool` is the one place, between every "
                     "tool and the record, where any failure, of any tool, written by anyone, "
                     "becomes a result with `is_error` set and the error's words in it.\n\n"
                     "If each tool caught its own errors, each would need its own `try`, each "
                     "would word its error result its own way, and the first tool written "
                     "without one would end a run, as in the wall. A tool that returns a string "
                     "cannot set `is_error` either: its error would look like a success.",
        common=(
            ("\"Each tool knows its own errors best, so each should catch them.\"",
             "It knows what to say, and it says it: in the exception's message, which run_tool "
             "passes on word for word. The read tool's \"Files here\" is written by the tool."),
            ("\"Wrap the whole run_agent in a try instead.\"",
             "Then the run still dies, only more politely: the exception ends the loop, and the "
             "call is left with no result, so the model never hears of the failure."),
            ("\"Return error strings from tools, like 'ERROR: ...'.\"",
             "Then a file whose text begins with 'ERROR:' is an error, and a failure is whatever "
             "a tool chose to print. is_error is protocol; a prefix is prose."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Lesson 3's run_tool has one path: find the tool, run it, wrap what it returned. "
                 "Which two things can go wrong on that path, and where in your function does each "
                 "one happen?",
        approach="Look the tool up with something that gives None for a missing name instead of "
                 "raising, and answer that case first. Then run `execute` inside a `try` that "
                 "catches `Exception`: the `except` branch makes the error's content and flag, the "
                 "normal branch the result's.\n\n"
                 "Build the message in one place at the end, from two variables, so that every "
                 "path returns exactly one result with the call's id and name.",
        outline="Three paths meet at one ending. Decide first whether a tool of that name "
                "exists at all; if not, the text and the flag of the answer are already known, "
                "and nothing runs. If it does, running it can end two ways, which a `try` tells "
                "apart: it returned, and you keep what it returned, unflagged; or it raised, and "
                "the exception's own words become the text, flagged. Whichever path you took, "
                "finish by building the one result message from the call's id and name and the "
                "text and flag that path settled, so that no path can forget a field or answer "
                "twice. Catch only what the spec says to catch.",
    ),
}
