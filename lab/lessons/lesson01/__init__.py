"""Lesson 1, "Who said what": its questions, hint ladder and lab.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(1, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Who said what"
NOTEBOOK = "01-who-said-what.ipynb"

# The demonstrations that run on the learner's code once lab 1 passes: (cell id, the label its
# "ran on" line shows, the full names it runs on). lab.check names them when the lab passes.
DEMOS = (
    ("demo-growth", "The growing requests", ("user_message", "run_agent")),
    ("figure-1-1", "Figure 1.1", ("user_message", "run_agent")),
)

RUNGS = (
    Choice(
        id="what-can-it-know",
        title="What the model can know when the request holds one sentence",
        options=(
            Option("Nothing about you: it sees this request alone, and this request holds "
                   "one question.",
                   "One request, one sentence, and the sentence does not contain the name. The "
                   "cell below asks exactly that.",
                   right=True),
            Option("Your name: you told it a moment ago, and it answered you by that name then.",
                   "A chat window feels like one long talk, so this is the natural guess. But the "
                   "window sends the earlier turns again with every question; the model itself "
                   "carries nothing from one call to the next. Run the cell and see."),
            Option("Your name, as long as the provider keeps a session for you from one request "
                   "to the next.",
                   "[general] Some hosted APIs will store a thread for you. Then a server puts the "
                   "old turns back into the request before the model reads it: the model still "
                   "holds nothing. In this course the harness keeps the list, so that you can see "
                   "and test what is sent."),
        ),
    ),
    Choice(
        id="roles-or-string",
        title="Why not keep the history as one string",
        options=(
            Option("One string is simpler to build and to read, and the roles are written right "
                   "there in it: user, assistant.",
                   "Models read text, so writing \"user:\" and \"assistant:\" in front of each line "
                   "looks like enough. But those words are prose now: the assistant can write them, "
                   "and so can a file or a pasted e-mail. The cell shows the model reading "
                   "\"My name is Tau.\" as something you said."),
            Option("Roles are structure that no text can fake; in one string, who spoke is just "
                   "more words anyone can write.",
                   "Right. The provider reads the role from its own field. Whatever the user or "
                   "the model writes inside content stays content.",
                   right=True),
            Option("It costs fewer tokens: one string carries less framing than a list of "
                   "separate messages.",
                   "It is the same words with different framing, so the saving is a few characters "
                   "per message at most, and it is paid for with the one thing the list was for: "
                   "knowing who said each sentence."),
        ),
    ),
    Number(
        id="how-many-go",
        title="How many messages go out with the third prompt",
        answer=5,
        right="Five: the four already in the list, then the new prompt. Each request is bigger "
              "than the one before, and that bill comes back in lessons 6 and 12.",
        wrong="Count what the model needs in order to answer, given that it has kept nothing. "
              "Then count the messages in the list once the new prompt is added.",
        near={1: "One is the new prompt alone: the wall's first cell. Sent before is not the same "
                 "as remembered.",
              3: "Three is the last exchange and the prompt. That is enough context only while "
                 "nothing important was said earlier; Ada's name was said in the first message.",
              4: "Four is the list before the prompt joins it. The prompt travels in the same "
                 "list, as its last message.",
              6: "Six would count the reply that has not been written yet. The request goes out "
                 "before the model answers."},
    ),
    Choice(
        id="where-instructions-go",
        title="Where the standing instruction \"Answer in French.\" goes",
        options=(
            Option("As the first user message, so the model reads it before anything else.",
                   "Read first sounds like read as a rule. But it is read as something the user "
                   "said: one turn of a conversation the model is carrying on, on the same "
                   "channel as every other turn, and a later turn may overrule it. Run (a) below: "
                   "the record says you typed it."),
            Option("Added to the front of every prompt.",
                   "Repeating it looks reliable, but each copy lands in the record in the user's "
                   "voice: the list fills with the same sentence, and every request pays for all "
                   "the copies."),
            Option("In `system`, passed with every call and never put in the list.",
                   "Right. The system prompt has its own place in every request. It is sent each "
                   "time because the model keeps nothing, and it stays out of the record because "
                   "nobody said it in the conversation.",
                   right=True),
        ),
    ),
    Multi(
        id="request-parts",
        title="What every request of lesson 1's harness carries",
        options=(("the standing instructions, as the `system` argument", True,
                  "It is easy to think the model kept them from the first request. It keeps "
                  "nothing between requests: instructions that are not in `system` this time "
                  "are not followed this time."),
                 ("every message of the list, oldest first, the new prompt last", True,
                  "Sending only the new prompt looks cheaper, but the list is all the model "
                  "knows of the conversation; leave a message out and, for the model, it was "
                  "never said."),
                 ("a tool the model may call, such as read, so that it is ready for lesson 2",
                  False,
                  "Getting ahead sounds harmless, but a tool offered is a tool the model may ask "
                  "for, and this harness can neither run it nor send a result back."),
                 ("a message of role \"system\" at the head of the list", False,
                  "It looks like the same instructions in another place, and [general] on "
                  "OpenAI-style chat APIs that is exactly where they go. But this harness's "
                  "`complete` has a `system` argument, as Anthropic's and Gemini's APIs have a "
                  "field of their own, and the lab's provider refuses the role in the list (our "
                  "simplification). Sent both ways, the instructions would be said twice.")),
        right="The system prompt in its own argument, and the whole list. No tools: a model that "
              "is offered one may ask for it, and this harness has no way to run it or to send "
              "back a result. That is lesson 2's work. A \"system\" message in the list is "
              "refused by the lab's provider, which has one spelling for instructions, the "
              "`system` argument: the cell shows it as `?`.",
        wrong="A request is all the model will know when it answers: nothing is remembered from "
              "the last one, and nothing should be offered that the harness cannot deliver.",
    ),
    Choice(
        id="who-owns-it",
        title="Why run_agent appends to the caller's list instead of returning a new one",
        options=(
            Option("The caller owns the record; run_agent adds to it, and the next call sends "
                   "it as it stands.",
                   "Right. There is one list, and it is the conversation. Lesson 8 moves the list "
                   "into a `Harness` that owns it; the loop never does.",
                   right=True),
            Option("It should not: a function ought to leave its arguments alone and return "
                   "what it made instead.",
                   "A good habit in general, and the cell shows where it leads here: the caller's "
                   "list stays as it was, the next prompt goes out without the last exchange, and "
                   "the model forgets. Two lists would be two stories of one conversation."),
            Option("Appending in place is faster than copying the whole list on every turn.",
                   "It is, but by microseconds against a model call that takes seconds. Speed is "
                   "not the reason; who holds the record is."),
        ),
    ),
    Open(
        id="chat-app",
        title="Where a chat app's memory lives",
        nudge="After this lesson's cells, what must the app do before each question it sends?",
        model_answer="Not in the model. The app keeps the conversation as a list of role-tagged "
                     "messages, adds each new question and each answer to it, and sends the whole "
                     "list, with its standing instructions beside it, on every call. What feels "
                     "like memory is the app re-sending everything.\n\n"
                     "That is why a long conversation gets slower and dearer, why it can stop "
                     "fitting (lesson 12), and why clearing the chat makes the model forget: the "
                     "list is gone, and the model never had anything else.",
        common=(
            ("\"The model learns from the conversation as it goes.\"",
             "Nothing about the model changes between calls: the same request gets the same "
             "treatment whether or not you talked before. The Figure 1.1 run shows every request "
             "carrying the whole list, because nothing else carries it."),
            ("\"The provider keeps a session for it.\"",
             "[general] Some do, and then the list lives on the provider's server instead of in "
             "the app. Somebody still keeps the list and re-sends it; the model keeps nothing."),
            ("\"It keeps a summary of what you said.\"",
             "Some apps do that once the list gets long (lesson 12 builds it), but a summary is "
             "still text that goes into the request. It is a shorter list, not a memory."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="`user_message`: which two facts does the provider need about a message from "
                 "the person typing? `run_agent`: what does the model know about this "
                 "conversation when the call begins, and which list is the record of it?",
        approach="`user_message` is one `return` of a dict with two keys. `run_agent` does four "
                 "things in order: add the prompt to `messages` as a user message, ask the model "
                 "with `system`, the whole of `messages` and no tools, add the reply to "
                 "`messages`, and hand the reply back. Work on the list you were given: no copy, "
                 "no list of your own.",
        outline="`user_message` is a single statement: it hands back a new dict holding the "
                "two keys of the spec and nothing more, the text untouched.\n\n"
                "`run_agent` is four statements, one per step of the spec, and the same list "
                "object appears in three of them. First the prompt, made into a user message by "
                "the function you just wrote, goes on the end of the caller's list. Then one call "
                "of the model, with the system text in its own argument, that list, and an empty "
                "list where the tools would be. Then whatever came back goes on the end of the "
                "list too, untouched, and the last statement hands that same message back.",
    ),
}
