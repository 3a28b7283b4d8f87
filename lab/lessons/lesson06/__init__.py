"""Lesson 06, "The firehose": its questions, hint ladder and demonstrations.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(6, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "The firehose"
NOTEBOOK = "06-the-firehose.ipynb"

# The demonstrations that run on the learner's truncate_head and truncate_tail once the lab
# passes, in notebook order: (cell id, the label its "ran on" line shows, the full names it runs
# on). Each ends with lab.lessons.lesson06.stage.ran_on(its id).
DEMOS = (
    ("demo-wall-again", "The big.log session again", ("truncate_head",)),
    ("demo-three-again", "The bundle and the long test run again", ("truncate_head", "truncate_tail")),
    ("figure-6-1", "Figure 6.1", ("truncate_head", "truncate_tail")),
    ("demo-many-results", "Forty logs, each within budget", ("truncate_head",)),
)

RUNGS = (
    Number(
        id="recall-sent",
        title="How many requests carry big.log under lesson 5's harness",
        answer=6,
        right="Six. The first request goes out before anything is read; every request after the "
              "read holds the whole file, and no brake of lesson 5 fires, because nothing runs "
              "away: each prompt takes one or two model calls.",
        wrong="Count the requests first: one to ask for the read, one to answer from it, then one "
              "per short question. Then ask which of them went out after the result was in the "
              "list.",
        near={1: "Once is the request that got the file back. The model keeps nothing between "
                 "calls, so every later request has to send it again (lesson 1).",
              5: "Five counts the short questions. The request that answered the first prompt, "
                 "right after the read, carried the file too.",
              7: "Seven counts every request, and the first one went out before the read: it "
                 "asked for the file, it did not hold it.",
              0: "max_turns counts model calls, not bytes: no brake fires on a session that does "
                 "exactly what it was asked."},
    ),
    Choice(
        id="bytes-or-characters",
        title="What the budget of one result is counted in",
        options=(
            Option("UTF-8 bytes: the size the text has on the wire, where \"é\" is two.",
                   "It looks like the unit nobody bills in. But a byte budget is a size budget, "
                   "the same for every alphabet, exact on every machine, and no tokenizer needed. "
                   "The line limit beside it keeps a file of many tiny lines from passing as small.",
                   right=True),
            Option("Characters: len(text) is what Python gives you, and a character is a "
                   "character.",
                   "It is simpler, and for English text it gives the same number. Run the cell: "
                   "a page of Greek, Russian or Chinese is two to three times its character "
                   "count in bytes, and an emoji is four. A budget of 50,000 characters lets "
                   "through up to 200,000 bytes, and the request carries the encoded text, not "
                   "the characters."),
            Option("Tokens: that is what the provider bills.",
                   "It is what the bill is in, but the harness has no tokenizer, and each "
                   "provider's differs. Bytes are exact and the same on every machine, and they "
                   "bound tokens well enough: [general] the tokenizers in common use rarely make "
                   "more than one token per byte."),
        ),
    ),
    Choice(
        id="head-or-tail",
        title="Which end of pytest's output to keep",
        options=(
            Option("The head, as for files: one rule for every tool.",
                   "One rule is tidy, and a file is read from the top. But pytest prints its "
                   "collection lines first and its verdict last: kept from the head, the model "
                   "sees \"collected 5000 items\" and never \"3 failed\"."),
            Option("The tail: a command prints its verdict last.",
                   "Test runs, builds, compilers and installers all end on the line that says "
                   "how it went, and an error's traceback ends on its cause. The top of a long "
                   "output is the least likely part to matter.",
                   right=True),
            Option("Both: the first thousand lines and the last thousand.",
                   "It sounds fair, and Tau's bash tool does not do it either. Half the budget "
                   "goes on lines that are rarely the point, and the model gets two pieces with "
                   "a hole between them. If the head matters, the model can ask for it: the "
                   "notice says to narrow the command."),
        ),
    ),
    Choice(
        id="first-line",
        title="What truncate_head returns when the first line alone is 300 KB",
        options=(
            Option("Its first 50,000 bytes: something beats nothing.",
                   "Cut at byte 50,000, the text may end in the middle of a character: the "
                   "decoded result ends in \"\ufffd\", or the decode raises. And even a clean "
                   "cut hands the model half a statement that reads as if it were whole."),
            Option("As much of the line as fits, cut on a character boundary.",
                   "No broken character, and still half a line passed off as a line. Worse, "
                   "the model has no way to ask for the rest: offset and limit count lines, and "
                   "there is no \"rest of line 1\". The notice would have nothing true to say."),
            Option("Leave that line out and keep the lines after it that fit.",
                   "The budget is filled, but the result now claims to be the start of the file "
                   "and is not: \"lines 1-3\" would be lines 2-4, and the offset in the notice "
                   "would skip text the model never saw."),
            Option("(\"\", 0): nothing, and the read tool says why and how to skip it.",
                   "Half a line is worse than none. With a count of 0 the read tool knows to say "
                   "\"Line 1 of bundle.min.js is 300000 bytes, over the budget\", and the model "
                   "learns the truth: it has seen none of it.",
                   right=True),
        ),
    ),
    Number(
        id="what-the-count-is-for",
        title="The offset the read notice gives for a 3,000-line big.log",
        answer=1786,
        right="1786. Each line of big.log is 28 bytes, so 1,785 lines are 49,980 bytes and one "
              "more would be 50,008: the byte budget binds long before the line budget. The "
              "notice is made from truncate_head's second value, the count of lines shown.",
        wrong="Work it out from the bytes: each line is 28 bytes with its newline, and 50,000 is "
              "the budget. How many whole lines fit? The offset is the next line.",
        near={1785: "1,785 is how many lines are shown. The notice gives the line to continue "
                    "from, the one after.",
              2001: "2,001 would follow 2,000 lines, but 2,000 lines of 28 bytes are 56,000 "
                    "bytes: the byte budget binds first.",
              1787: "One too far: 1,786 lines would be 50,008 bytes, 8 over the budget.",
              1786 * 28: "That is a byte count. An offset counts lines.",
              49981: "That is bytes plus one: the notice's offset counts lines, so the second "
                     "value truncate_head returns must be lines too.",
              3001: "3,001 means everything was shown. At 28 bytes a line, 3,000 lines are "
                    "84,000 bytes."},
    ),
    Number(
        id="exactly-at-the-limit",
        title="Lines one read shows of a file of exactly 2,000 short lines",
        answer=2000,
        right="All 2,000, and no notice. The limit is a number of lines that fit, not a number to "
              "stay under: max_lines lines are allowed, max_lines + 1 are not.",
        wrong="max_lines is 2,000 and every line is short, so bytes do not bind. Does a file "
              "that is exactly at the limit fit?",
        near={1999: "That treats the limit as a bound never to reach. A file of exactly 2,000 "
                    "lines fits a budget of 2,000 lines; cutting one off adds a notice for one "
                    "line and a second read for it.",
              2001: "There is no line 2,001. Checking the count after taking a line instead of "
                    "before lets one line too many through on a longer file."},
    ),
    Multi(
        id="must-say",
        title="What a cut result must tell the model",
        options=(("that it was cut", True,
                  "It sounds too obvious to need saying. But a result is just text: a model shown "
                  "the first 1,785 lines with no word about a cut takes them for the whole file, "
                  "and answers from them."),
                 ("which lines it shows, out of how many", True,
                  "\"It was cut\" alone seems enough. Without \"1-1785 of 3000\" the model cannot "
                  "tell whether it saw nearly all of the file or a sliver, and so whether reading "
                  "on is worth a call."),
                 ("how to ask for the rest", True,
                  "The model could work it out from the line numbers, you might think. Said "
                  "outright, \"Use offset=1786\" is one exact next call; left to inference, it is a "
                  "guess at the tool's parameters, and an offset off by one."),
                 ("the text of the lines left out, squeezed to fit", False,
                  "It feels generous: nothing is lost. But the budget exists to keep the result "
                  "small, and a squeeze of 1,215 lines is either large or vague: the budget "
                  "broken by other means."),
                 ("nothing: a model that wants more will ask", False,
                  "Models do ask for more, when they know there is more. A cut that says nothing "
                  "gives it no reason to: run the cell, and the silent cut gets a confident wrong "
                  "count.")),
        right="Three things: that something is missing, what is there, and the next step. "
              "\"[Showing lines 1-1785 of 3000. Use offset=1786 to continue.]\" says all three "
              "in one line, and the bash tool's \"Narrow the command for more\" says the same "
              "for output, which cannot be paged.",
        wrong="Check each tick against one question: what does a model need to know about a "
              "result it was not shown in full, to answer truly and to go on?",
    ),
    Open(
        id="session-small",
        title="Whether a budget per result keeps a long session small",
        nudge="The budget bounds one result. What else does the size of a request depend on?",
        model_answer="No. It bounds each result, so no single read can flood a request; it "
                     "does not bound how many results there are, or how long each one stays. "
                     "Forty reads of 12,500 tokens each are 500,000 tokens, and every one of "
                     "them rides in every later request, because nothing ever leaves the list.\n\n"
                     "A bounded session needs a second, different rule: something that decides "
                     "which old messages still have to be sent word for word. That is lesson 12.",
        common=(
            ("\"Yes: every result is small now.\"",
             "Small one at a time. The list only grows, and a request sends all of it, so "
             "forty small results make one large request."),
            ("\"Lower the budget until the session fits.\"",
             "Then each result says less and the agent reads more often, to the same total. "
             "A budget small enough for a long session is too small for one file."),
            ("\"Drop each result once the model has answered from it.\"",
             "That is a rule about which messages stay, the question this lesson does not "
             "answer, and dropping a result leaves its call without one: lesson 4's pairing, "
             "broken. Lesson 10 and lesson 12 take that question on properly."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Both functions walk lines and stop at the first one that does not fit. What do "
                 "you need to know about each line before you can say it fits, and what do you "
                 "need to have added up so far?",
        approach="Split the text so that each line keeps its own ending "
                 "(`splitlines(keepends=True)`): then joining the kept lines gives back exactly "
                 "that piece of the text. Weigh each line by its UTF-8 encoding, ending included, "
                 "and stop at the first line that would break either limit; nothing after it is "
                 "kept. The tail is the same walk, started from the last line.",
        outline="Both functions share one shape: an empty list of kept lines, a running byte "
                "total, and one pass over the lines with their endings on.\n\n"
                "For each line, first add its encoded size to the total, then ask the two "
                "questions in order: is the list already full, or has the total gone past the "
                "byte budget? Either answer stops the pass for good; otherwise the line is kept.\n\n"
                "The pair you return is the kept lines joined back together and how many there "
                "are. Notice that an oversized first line stops the pass before anything is kept, "
                "so that case needs no code of its own.\n\n"
                "For the tail, walk the lines from the end, and put the kept ones back in the "
                "text's order before you join them.",
    ),
}
