"""Lesson 2, "A likely story": its questions, its hint ladder and its lab.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(2, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "A likely story"
NOTEBOOK = "02-a-likely-story.ipynb"

# The cells that run on the learner's code once lab 1 passes: (cell id, the label of its "ran on"
# line, the full names it runs on). stage.ran_on(cell id) writes that line under the cell.
DEMOS = (
    ("demo-after", "The port question, with a read tool", ("run_tool", "run_agent")),
    ("figure-2-1", "Figure 2.1", ("run_tool", "run_agent")),
)

RUNGS = (
    Choice(
        id="recall-port",
        title="What lesson 1's run_agent answers about a file it cannot open",
        options=(
            Option("9090: the file is right there on the disk.",
                   "The disk sits beside the model, not inside the request. Lesson 1 ended on "
                   "this: the model knows what the request shows it, and this request holds one "
                   "sentence and no tools. Nothing in your program opens config.py."),
            Option("A port number that sounds right, stated as if it had been read.",
                   "Run the cell. The answer has the shape of a reading and the content of a "
                   "guess, and nothing in its wording tells the two apart.",
                   right=True),
            Option("Something like \"I can't see config.py\".",
                   "That would be the honest reply, and a model that could always tell \"I have "
                   "not seen it\" from \"I know it\" would give it. Nothing in the request marks "
                   "the gap, though, and a model writes the text most likely to come next. "
                   "[general] Real models do sometimes say they cannot see a file, and sometimes "
                   "they answer anyway."),
        ),
    ),
    Number(
        id="regex-count",
        title="How many of the two replies the READ regex reads as the model meant",
        answer=0,
        right="None. The first reply wants config.py and the regex hands you `config.py.`, full "
              "stop included, which is no file. The second wants nothing and gets a read of "
              "`anything.`. Prose has no edges a pattern can trust, and it says \"no\" in ways a "
              "pattern cannot see.",
        wrong="Take each reply in turn and work out exactly which characters `\\S+` takes after "
              "\"READ \", then ask whether the model wanted that read at all.",
        near={1: "Which one did you count? Look at the last character of the first match, and "
                 "at what the second reply says about reading.",
              2: "Both contain \"READ\" followed by a word, so the regex matches both. Matching "
                 "is not the question: is what it matched what the model meant?"},
    ),
    Choice(
        id="prose-or-protocol",
        title="How the model should ask for a file",
        options=(
            Option("In prose, with a better regex: strip the punctuation, look for \"no\" before "
                   "READ.",
                   "Each fix covers the sentence you just saw. The next reply says \"I won't "
                   "bother to READ it\" or quotes your instructions back to you, and the pattern "
                   "grows again. Even a perfect pattern leaves a result with nothing to point at: "
                   "a sentence has no id."),
            Option("As JSON inside the reply's text, such as {\"read\": \"config.py\"}.",
                   "JSON has edges, which helps. It still travels on the text channel, so nothing "
                   "separates a request from an example the model is explaining, and it carries "
                   "no id that anyone checks. The cell below shows a reply that mentions the "
                   "format without meaning it."),
            Option("As a tool-call block: a part of the reply that is a request by its type, "
                   "with a name, arguments and an id.",
                   "The provider gives the model a channel of its own for requests, the model is "
                   "trained to use it, and a strict provider checks that every call gets its "
                   "answer. Words stay words.",
                   right=True),
        ),
    ),
    Choice(
        id="why-blocks",
        title="Why an assistant message's content is a list of blocks",
        options=(
            Option("One reply can mix words and several tool calls, in the order written, each "
                   "call a block with its own id.",
                   "Text, call, call: one list holds all of it, in order, and each call can be "
                   "answered by its id.",
                   right=True),
            Option("So that a long answer can be split into parts that are sent and shown one "
                   "at a time.",
                   "A string can be as long as you like. The list is not about length; look at "
                   "the types of the blocks in the cell below."),
            Option("It need not be: a string for the words, plus a separate list of the calls "
                   "beside it, would do just as well.",
                   "It reads easily, and it is how many first designs look. It keeps the calls "
                   "in a second place, though, and loses the order: did the model explain before "
                   "it asked, or after? The next question is about the day two such places "
                   "disagreed."),
        ),
    ),
    Choice(
        id="second-copy",
        title="What went wrong when the harness ran from a second copy of the calls",
        options=(
            Option("Nothing much: the copy was only there to be quicker to read, and until this "
                   "run both lists always held the same calls.",
                   "A copy feels free, and reading `message[\"calls\"]` is a little shorter. "
                   "Run the cell: one call went unanswered and the run stopped on a refusal."),
            Option("The copy was made before the reply was whole: c2 got no result, and the "
                   "provider, which reads content, refused.",
                   "Two records of one fact, and the harness trusted the one the provider never "
                   "looks at. The cure is to have only one: `tool_calls` works the calls out of "
                   "`content` every time it is asked and keeps them nowhere.",
                   right=True),
            Option("The model made a mistake: it should not ask for two files at once, and the "
                   "harness cannot be blamed for that.",
                   "Asking for two reads in one reply is ordinary, and faster than two rounds. "
                   "The model's reply was fine; it was the harness that read the wrong list."),
        ),
    ),
    Choice(
        id="pair-by",
        title="How a result is matched to the call it answers",
        options=(
            Option("By position: the first result answers the first call.",
                   "It works while results come back in the order the calls went out. The cell "
                   "below has them come back the other way round, and position then hands "
                   "config.py's text to the call that asked for app.py, without a word of "
                   "complaint."),
            Option("By tool name: the read result answers the read call.",
                   "Fine for one call. Two reads in one reply share the name, so the name cannot "
                   "say which file a result is the text of."),
            Option("By id: the result's tool_call_id is the id of its call.",
                   "The id is the one thing that belongs to that call alone. The provider checks "
                   "it too.",
                   right=True),
        ),
    ),
    Multi(
        id="after-two-calls",
        title="What run_agent does with a reply that asks for two reads",
        options=(("Run both calls, in the order the reply asked for them", True,
                  "The model asked for both in one reply, and every call needs a result before "
                  "the next request: a strict provider refuses a list with a call left "
                  "unanswered."),
                 ("Append each result straight after the reply, before asking the model again",
                  True,
                  "Gathering results somewhere else first feels tidier, but the provider checks "
                  "that each call's result, under its id, follows the reply that made it."),
                 ("Ask the model once more, with the whole list and the same tool specs", True,
                  "The results are not the answer yet; the model has to read them. It keeps "
                  "nothing between requests, so the list and the tools go with it again."),
                 ("Run only the first call; the model will ask again for the second", False,
                  "It sounds frugal, but the model never gets the chance to ask again: the "
                  "second call, left without a result, makes the next request one a strict "
                  "provider refuses."),
                 ("Copy the calls into a field of the reply so they are easy to find later",
                  False,
                  "Handy-looking, but it is a second list of calls, and the lesson showed such a "
                  "list drifting away from the content blocks. The calls are already in the "
                  "reply, with their ids."),
                 ("Offer the tools on the first request only, since the model has seen them",
                  False,
                  "The model has seen them, but it keeps nothing between requests: a request "
                  "without tools offers none, so it can no longer ask for a read.")),
        right="Every call runs, in order; every result lands right after the reply; then one more "
              "request, carrying the tools again. Each of the three unticked lines breaks "
              "something this lesson has shown.",
        wrong="Read the list as the provider will on the next request: what has to stand "
              "right after the reply, and what has to travel with the request, given that the "
              "model keeps nothing?",
    ),
    Choice(
        id="failed-tool",
        title="The one thing run_tool must never do when a tool fails",
        options=(
            Option("Return a result with empty content and is_error False, so the run goes on.",
                   "That is the one to rule out. The run goes on with a lie in the record: the "
                   "model reads an empty file that was never read, and builds on it. A crash is "
                   "better than that, because someone notices.",
                   right=True),
            Option("Let the exception go up, which ends the run.",
                   "Loud and abrupt, and nothing false goes into the record. It is what this "
                   "lesson's run_tool does. Lesson 4 shows a better answer, which is not this "
                   "option's opposite but the next one's."),
            Option("Return a result whose content is the error, with is_error True.",
                   "That is lesson 4's answer, and a fine one: the model learns what went wrong "
                   "and can try something else. This lesson's run_tool may do it already; the "
                   "tests only forbid passing a failure off as a success."),
        ),
    ),
    Number(
        id="definitions-count",
        title="In how many requests the tool definitions travel",
        answer=6,
        right="Six: every request, the first and the second of each prompt alike. The model "
              "keeps nothing between calls, so a request without the definitions is a request "
              "that offers no tools. Figure 2.1 prices them.",
        wrong="Count the requests first: each prompt is answered in two, one that asks for the "
              "read and one that answers from it. Then ask which of them could leave the tools "
              "out and still have a model that knows it may read.",
        near={1: "Once, at the start, would need the model to remember between calls. Lesson 1 "
                 "says it keeps nothing.",
              3: "One per prompt would leave the second request of each prompt without tools. "
                 "That request only answers, but the model is told which tools exist every "
                 "time, or it is told there are none."},
    ),
    Open(
        id="who-reads",
        title="Who reads the file when the model \"reads\" it",
        nudge="Follow config.py's text from the disk to the answer: which program touches it, "
              "and in which message does it reach the model?",
        model_answer="The model never touches the disk. Its reply holds a toolCall block: a "
                     "name, arguments and an id. Your harness runs the matching tool, here "
                     "reading config.py from the workspace, and appends a toolResult message "
                     "whose tool_call_id is that id and whose content is the file's text. Then "
                     "it sends the whole list again, tool definitions included, and the model "
                     "answers from the text it now finds in the request.\n\n"
                     "So the model asks and your program does. The answer is only as true as "
                     "what came back in the result.",
        common=(
            ("\"The model has file access through the tool.\"",
             "It has a way to ask. Whether anything happens, and what, is decided by the "
             "harness, which could refuse, ask the user first, or fail (lesson 4)."),
            ("\"The model reads the file and remembers it.\"",
             "It reads the result in the one request that carries it. The next request has the "
             "text only because the list still holds it, and lesson 6 is about what that costs."),
            ("\"The harness finds READ in the reply and opens the file.\"",
             "That was the regex, and it read `config.py.` and `anything.`. A call is a block of "
             "its own type with an id, not a word in the text."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Two functions, two questions. `run_tool`: the model gave you a call with a "
                 "name, arguments and an id; which of the three finds the tool, which is handed "
                 "to it, and which goes into the result? `run_agent`: you wrote it in lesson 1 "
                 "as append, ask, append, return. Where in that line do the tools go, and at "
                 "which point does the reply's content decide whether there is a second request?",
        approach="`run_tool`: look the tool up by `call[\"name\"]` among `tools`, call its "
                 "`execute` with `call[\"arguments\"]`, and build the toolResult dict around "
                 "what it returns. Do not catch anything: a failure goes up as it is.\n\n"
                 "`run_agent`: start as in lesson 1, but offer `tool_specs(tools)`. Get the calls "
                 "with `tool_calls(reply)`, not from any other field and not from the words. No "
                 "calls: you are done. Otherwise run each call with `run_tool` and append its "
                 "result before touching the model again; then one more request and one more "
                 "append.",
        outline="`run_tool` is two steps. Pick out of `tools` the one whose name the call "
                "gives (a loop that returns, or a dict built from the names). Then hand back the "
                "five-key result message of the spec: three of its values come from the call, "
                "one is what the chosen tool's `execute` returns when you give it the call's "
                "arguments, and the flag is fixed for now.\n\n"
                "`run_agent` begins as lesson 1's did, with the tool specs now in the request. "
                "After the first reply is on the list, ask `tool_calls` what it wants. An empty "
                "answer means you are done and return that reply. Otherwise a `for` over the calls "
                "appends one result per call, and after the loop, not inside it, comes the "
                "second request, the same as the first, whose reply you append and return.",
    ),
}
