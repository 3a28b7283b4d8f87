"""Lesson 03, "Until it stops asking": its questions, hint ladder and demonstrations.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(3, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Until it stops asking"
NOTEBOOK = "03-until-it-stops-asking.ipynb"

# The demonstrations that run on the learner's run_agent once lab 1 passes, in notebook order:
# (cell id, the label its "ran on" line shows, the full names it runs on). Each ends with
# lab.lessons.lesson03.stage.ran_on(its id).
DEMOS = (
    ("demo-copy-again", "The copy task again", ("run_agent",)),
    ("figure-3-1", "Figure 3.1", ("run_agent",)),
    ("demo-two-files", "Two files at once", ("run_agent",)),
)

RUNGS = (
    Choice(
        id="lesson2-calls",
        title="Lesson 2's harness on a task that needs a read and then a write",
        options=(
            Option("Two model calls, and the caller gets the second reply: a write call that "
                   "nobody ran.",
                   "Lesson 2's loop had one round of tools in it, and this task needs more than "
                   "one. Run the cell: the second reply is handed back as the answer.",
                   right=True),
            Option("Three model calls, and the caller gets the answer: the harness follows the "
                   "model through.",
                   "It does follow the model, once. After the read's result it asks the model one "
                   "more time and returns whatever comes back, even a reply that asks for "
                   "another tool."),
            Option("It raises an error: the write call has nowhere to go.",
                   "Nothing raises. The write call sits in the reply that is returned, and the "
                   "caller, who reads the reply's text, finds an empty string. A failure that "
                   "looks like a quiet answer is the worse kind."),
        ),
    ),
    Number(
        id="three-calls",
        title="Model calls for read, write, answer",
        answer=3,
        right="Three: one for each reply. The first asks for the read, the second for the write, "
              "and the third reports. What tells your harness that the third is the last is the "
              "next question.",
        wrong="Count replies, not tools: each reply is one model call, and the model cannot see "
              "a result until it is sent one.",
        near={1: "The user asked once, but the model has to be asked again after every round of "
                 "results: it cannot see a result it was never sent.",
              2: "Two is one per tool. After the write's result the model still has to be asked, "
                 "and that third reply is the report.",
              4: "Four counts one call too many: once the model has reported, there is nothing "
                 "left for it to read.",
              5: "Five counts the two tool runs as model calls. Tools run in your program; only "
                 "the three replies came from the model."},
    ),
    Choice(
        id="who-ends",
        title="Who ends a run",
        options=(
            Option("Your code, when the reply's text says the work is done.",
                   "That is lesson 2's mistake in a new place: prose is not protocol. \"Done "
                   "reading, writing b.py now.\" says done and asks for a write; \"b.py now holds "
                   "A = 1.\" is the end and never says the word. The cell below runs both."),
            Option("The model, by sending a reply that asks for no tools.",
                   "The model is the only one who knows whether it needs another look. It says so "
                   "in the one place your code can read without guessing: the calls in the reply.",
                   right=True),
            Option("Your code, after a fixed number of model calls, say three: enough for read, "
                   "write, answer.",
                   "Three fits this task and no other. A task of five reads is cut off after the third, "
                   "and the result of that read never reaches the model. The count was sized for "
                   "one task; the model's work has no such size. A count is a brake, and "
                   "lesson 5 adds one, as a brake and not as the plan."),
        ),
    ),
    Choice(
        id="next-call",
        title="When to call the model again after a reply with two calls",
        options=(
            Option("After each result: the model gets to see the first file sooner.",
                   "The request would end `A[c1,c2] R(c1)`, with c2 asked for and unanswered. A "
                   "strict provider refuses it, and the lab's model does too: run the cell."),
            Option("After running only the first call: one thing at a time.",
                   "The model asked for both. Dropping c2 leaves a call without a result, and the "
                   "next request is refused for the same reason as in the first option."),
            Option("After both results are in the list, in call order.",
                   "Then every call of the reply has its answer before anyone asks the model "
                   "anything, and the request is one a strict provider takes.",
                   right=True),
        ),
    ),
    Choice(
        id="order",
        title="The order in which to run the calls of one reply",
        options=(
            Option("Any order: each result carries its call's id, so the pairs come out right.",
                   "The ids pair results with calls, and the lab's provider accepts any order "
                   "among them. The disk is not so forgiving: the read ran before the write and "
                   "reported the old text, with a perfectly valid id on it."),
            Option("The order the reply lists them, each result appended as it arrives.",
                   "Calls sent together are meant to be independent, so the order is no "
                   "promise; but it is the only order anyone wrote down. It costs nothing when "
                   "the calls are independent, and when they are not it is the likeliest reading "
                   "of what the model meant. The record then reads as what happened.",
                   right=True),
            Option("The last call first, since it is the newest request.",
                   "Newest is not a reason here: the model wrote the calls as one plan, first to "
                   "last. Run backwards, the read of b.py comes before the write it was meant to "
                   "check."),
        ),
    ),
    Multi(
        id="loop-more",
        title="Replies after which the loop calls the model again",
        options=(("\"Checking a.py first.\" and a read of a.py", True,
                  "Words before a call can look like the whole reply, a remark to the user. The "
                  "call is there all the same, and a call is run and answered, then the model is "
                  "asked again to read its result."),
                 ("a read of a.py and a read of c.py, nothing else", True,
                  "With no words at all it may look like half a reply. Two calls are a round: "
                  "both run, both results go on the list, and the model is asked again."),
                 ("\"All done, writing b.py now.\" and a write of b.py", True,
                  "\"All done\" is what a loop that reads prose would stop on. The reply still "
                  "asks for a write; stop here and the record ends on a call nobody ran."),
                 ("\"I will now write b.py.\", nothing else", False,
                  "It promises a write, so it sounds unfinished. But it asks for nothing, and "
                  "your loop acts on what is asked: the run ends, and the user can ask for more."),
                 ("\"b.py has A = 1.\", nothing else", False,
                  "It never says \"done\", which is what makes a word-reading loop go on. "
                  "No call, so the turn is over, and this is the answer.")),
        right="Every reply with a call in it gets its calls run and the model asked again, "
              "whatever its words say, \"All done\" included. A reply with no call ends the run, "
              "even one that announces what it will do next.",
        wrong="Set the words aside and look at what kind of blocks each reply holds. Which "
              "of them asks your program to do something?",
    ),
    Choice(
        id="runaway",
        title="A model that asks for the same file forever",
        options=(
            Option("It goes on for ever, and every round costs a request bigger than the last.",
                   "Each round adds a call and a result to the list, and the whole list is sent "
                   "every time. Your loop has no brake yet: lesson 5 fits one.",
                   right=True),
            Option("Python stops it sooner or later.",
                   "There is no recursion here for Python to run out of: a `while` loop that "
                   "keeps finding calls keeps going. Only the lab's own brake, `max_calls`, stops "
                   "the cell below."),
            Option("The model notices that it keeps getting the same text and stops asking.",
                   "A real model might; the lab's model never does, and nothing in your loop "
                   "relies on it. Hoping is not a stopping rule."),
        ),
    ),
    Open(
        id="unfinished",
        title="A reply that says what it will do, and asks for nothing",
        nudge="What did the reply ask your program to do? And who could type \"go on\" if that "
              "is what they want?",
        model_answer="Returning was right. A reply with no call is the model's turn ending: "
                     "whatever its words promise, it asked your program to do nothing, and "
                     "your loop acts on calls, not on intentions read into prose.\n\n"
                     "If the answer falls short, the person who wanted more can say so: their "
                     "next prompt goes on the same list, and the model sees everything that "
                     "happened so far. Your code making that judgement for them means parsing "
                     "text for meaning, which lesson 2 gave up on.",
        common=(
            ("\"Keep going while the text sounds unfinished: 'I will', 'next', a colon at the "
             "end.\"",
             "That is parsing prose for protocol again. The phrases are endless, and \"I will "
             "not change anything else.\" is finished."),
            ("\"Append 'Continue.' as a user message and ask again.\"",
             "Now the record shows the user saying something they never said, and a model that "
             "answers every nudge with another promise never stops. When a user really speaks "
             "during a run is lesson 9's question."),
            ("\"Call the model again with the same list.\"",
             "The request would end on the model's own reply, with nothing new in it. The model "
             "keeps nothing between calls, so it would be answering the same request a second "
             "time, and likely in the same way."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Lesson 2's body has the shape: ask, run the calls, ask once more, return. Which "
                 "part of it has to happen again and again, and what can your code see that tells "
                 "it there is nothing more to do?",
        approach="Append the prompt once, before anything repeats. Then put the model call, the "
                 "append of its reply and the running of its calls inside a loop that has no "
                 "count in it. The only way out is a `return` for the reply whose "
                 "`tool_calls(...)` is empty.\n\n"
                 "Inside one round, run every call before going back to the top, where the model "
                 "is asked again. The order of the calls is the order `tool_calls` gives.",
        outline="Outside the loop, once: the prompt joins the list as a user message. Then a "
                "loop with no condition of its own, so that a `return` inside it is the only way "
                "out. Each time round it does three things: one model call with the whole list "
                "and the tool specs, whose reply joins the list; a look at that reply's calls, "
                "leaving with the reply when there are none; and an inner loop that answers "
                "each call in turn, its result joining the list. Nothing is counted anywhere.",
    ),
}
