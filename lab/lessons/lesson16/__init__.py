"""Lesson 16, "Lost in translation": its questions, hint ladders and labs' demonstrations.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(16, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Lost in translation"
NOTEBOOK = "16-lost-in-translation.ipynb"

# The demonstrations that run on code the learner writes: (cell id, label, full names).
DEMOS = (
    ("demo-template-fixed", "The compacted session, through a chat template",
     ("portable_id", "merge_runs", "template_messages")),
    ("demo-http-fixed", "A 429 and a 503, as failed replies", ("chat_request", "chat_reply")),
    ("figure-16-1", "Figure 16.1", ("portable_id", "merge_runs", "template_messages", "chat_request")),
    ("demo-any-server", "The same adapter, any server", ("chat_request", "chat_reply")),
)

RUNGS = (
    Choice(
        id="what-the-loop-knows",
        title="What lesson 15's loop knows about the model it awaits",
        options=(
            Option("One method: complete(system, messages, tools), awaited, gives back an "
                   "assistant message in the course's shape.",
                   "That is the whole seam. The loop has never asked who is behind it; line (a) of "
                   "the cell below hands it a model written on the spot, and it runs.",
                   right=True),
            Option("That the model is the lab's AsyncScriptedModel, since that is what every cell "
                   "has used.",
                   "It is the only model the course has handed you, so it feels built in. But "
                   "nothing in run_agent names it: line (b) runs the same loop on a class that is "
                   "no ScriptedModel at all."),
            Option("The provider's format: the loop builds the request a provider wants.",
                   "The loop builds the course's own request: a system prompt, the view, the tool "
                   "specs. Nobody outside this course reads that shape. Line (c) prints what the "
                   "loop hands over, and there is no provider's field in it."),
        ),
    ),
    Choice(
        id="where-merge",
        title="Where the two user messages should become one",
        options=(
            Option("In the record, when the summary is installed: fix it once, for good.",
                   "Once, at the source: that is the appeal. But the record is what happened "
                   "(lesson 10), the log replays it (lesson 11), and a provider that takes U U "
                   "would now be told of a message nobody sent. Line (a) of the cell below "
                   "merges in the record and compares it with the log."),
            Option("In context_for_model, so that every request is born alternating.",
                   "Closer: the record stays true. But now every provider gets the merge, "
                   "including a Chat Completions server that takes two user messages gladly, and "
                   "the harness has learned a rule of one provider. Line (b) shows the server's "
                   "request losing a message boundary it never asked to lose."),
            Option("In that provider's adapter, on the view it is about to send.",
                   "Only the provider that needs it gets it, and the record never learns. Line (c) "
                   "renders through the template, keeps both user messages in the server's request, "
                   "and finds the record unchanged.",
                   right=True),
        ),
    ),
    Choice(
        id="no-tool-role",
        title="What becomes of a toolResult when the template has no role for it",
        options=(
            Option("Leave it out: the template cannot show it.",
                   "The template stops complaining, which is why it tempts. But the model then "
                   "reads its own call followed by nothing, and the likeliest next move is to ask "
                   "again, and again. Line (a) of the cell below looks for the result in the "
                   "prompt."),
            Option("User text carrying a label with the call id and the tool's name.",
                   "The template gets a role it knows, and the model can still tell which call "
                   "this answers and that a tool, not the person, is speaking. Line (b) shows the "
                   "labels in the prompt.",
                   right=True),
            Option("The bare text of the result as a user message.",
                   "Nothing is lost, so it looks complete. But with two calls in a turn, nothing "
                   "says which result is which, and a file's words now arrive in the user's voice "
                   "with no sign they came from a tool: lesson 14's one channel again. Line (c)."),
        ),
    ),
    Choice(
        id="ids",
        title="Call ids from two providers in one record",
        options=(
            Option("Keep an id that fits the common alphabet; hash one that does not, the same way "
                   "every time.",
                   "Most ids pass untouched, and the rest get a name that depends on nothing but "
                   "the id: the same in every request and every process. Line (a) of the cell "
                   "below asks before and after a compaction.",
                   right=True),
            Option("Number the calls afresh in each request (call_1, call_2, ...), so that "
                   "every id fits every provider.",
                   "Tidy, and every number fits. But numbers count positions, and positions move: "
                   "after a compaction the same call has another number, a cached prefix no "
                   "longer matches (lesson 13), and a resumed request pairs results by numbers "
                   "that meant other calls. Line (b)."),
            Option("Replace each character that some provider refuses with \"_\", and keep the "
                   "rest of the id as it is.",
                   "Short, readable, and it keeps most of the id. But it maps many ids to one: "
                   "\"a.b\" and \"a_b\" both become \"a_b\", and two calls are one. Line (c)."),
        ),
    ),
    Number(
        id="retries-first-second",
        title="Requests that reach the server when a loop retries at once",
        answer=6,
        right="Six: the first request, then five retries, each sent the moment the 429 came back. "
              "The server asked for two seconds of quiet and got six requests in a few "
              "milliseconds. A rate limit answered that way is a rate limit made worse.",
        wrong="Count the first request as well as the retries, and ask how long \"at once\" is "
              "next to two seconds.",
        near={5: "Five retries, yes, but the first request reached the server too, and it is the "
                 "one that got the first 429.",
              1: "That is what retry-after asked for. A loop that retries at once does not read "
                 "the header."},
    ),
    Choice(
        id="retry-where",
        title="Where a retry should live",
        options=(
            Option("In run_agent: when a reply fails, run the whole turn again, since the loop "
                   "is the place where every failure is seen first.",
                   "The loop already sees the failure, so it feels like the natural place. But a "
                   "retry there is a turn: the failed reply is in the record, max_turns counts "
                   "waiting as work, and listeners are told the model answered. Line (a) of the "
                   "cell below retries a whole prompt and shows the record it leaves."),
            Option("Nowhere: a failed request ends the run at once, and the user decides "
                   "whether to start it again.",
                   "Honest, and lesson 5's contract holds. But a 503 for one second of a "
                   "forty-minute session then ends the session. Line (b)."),
            Option("In the transport, under the adapter: capped, with the server's own wait; "
                   "the last failure is still a failed reply.",
                   "The harness sees one request and one reply, whatever happened on the wire, "
                   "and when retrying does not help, the failure is still a message. Line (c).",
                   right=True),
        ),
    ),
    Multi(
        id="failed-reply",
        title="What the adapter should turn into a failed assistant message",
        options=(("a 429, rate limited", True,
                  "It sounds temporary, so it seems the run should wait it out. It may, in the "
                  "transport; what reaches the harness after that is a reply, and a failed one."),
                 ("a 503 from an overloaded server", True,
                  "Also temporary, and also the provider's failure, not the harness's: a message."),
                 ("no server at the URL: the connection is refused", True,
                  "There is no status to read, so it feels like a different kind of thing. It is "
                  "still the provider not answering, and the run must still end with agent_end."),
                 ("a 200 whose body is not JSON (a proxy's error page)", True,
                  "200 reads as success. But the body is what counts, and an unreadable one is "
                  "no reply at all."),
                 ("a 400 that says the prompt is too long", True,
                  "It is a refusal with a known cure, so it is tempting to handle it right there. "
                  "The cure (compaction) belongs to whoever drives the harness; the adapter's job "
                  "is to say so in words lesson 12's code knows."),
                 ("a 401, a wrong key", True,
                  "It is the user's mistake, not the provider's, so it tempts to raise. But the "
                  "harness is in the middle of a run: a message ends it cleanly and says why."),
                 ("a CancelledError while the request is on the wire", False,
                  "It arrives during the request, so it looks like one more network failure. It "
                  "is the user's cancel (lesson 15), not the provider's failure: it must go on up "
                  "untouched."),
                 ("a 200 whose text says \"I cannot help with that.\"", False,
                  "It reads like a failure. It is an answer: the provider did its job, and the "
                  "model's words go into the record as words.")),
        right="Every failure of the provider, whatever its status or lack of one, becomes a failed "
              "reply: lesson 5's contract, now true of a real wire. A cancel is the caller's and "
              "goes up; a refusal in words is an ordinary reply.",
        wrong="For each one ask: did the provider fail to give a reply, or did someone else stop "
              "the request, or did the model simply say no? The cell below runs every case.",
    ),
    Choice(
        id="too-long",
        title="How to recognise \"the prompt is too long\"",
        options=(
            Option("By the status: 400 means the request was bad, and too long is bad.",
                   "It is the status most providers use for it. But a malformed tool schema is a "
                   "400 too, and taking it for an overflow makes the harness compact the user's "
                   "history to cure a bug in the adapter. Column (a) of the cell below."),
            Option("By the provider's words in the body, whatever the status.",
                   "The words are what is specific: \"maximum context length\", \"prompt is too "
                   "long\". They survive a provider's choice of 400 or 413. Column (b).",
                   right=True),
            Option("By 413, Payload Too Large.",
                   "It is the status that means exactly this, which is why it tempts. Some "
                   "providers send it; most send 400 with a message, and a 413-only check misses "
                   "them. Column (c)."),
        ),
    ),
    Open(
        id="three-things",
        title="What a provider sees that the record does not hold",
        nudge="Put the record beside the three views in Figure 16.1 and look for what was added, "
              "joined or renamed.",
        model_answer="The system prompt as a message of its own (and, for the template, the tool "
                     "specs written into it); two user messages joined into one turn; tool results "
                     "as user text with a label; call ids rewritten by portable_id. None of these "
                     "happened: the user did not write one message, no user typed the result, no "
                     "call had a hashed id. Each is how one provider must be told what happened, so "
                     "each belongs to that provider's view, made again on every request, and the "
                     "record stays the one true account that every provider's view is made from.",
        common=(
            ("\"The tool specs.\"",
             "True, for the template, which has no field for them. But the record never held "
             "them in any format; the question is what the view adds to what happened."),
            ("\"Nothing: the views are just the record in another format.\"",
             "Look again at the template: two user messages became one and a result became user "
             "text. A format that cannot say something forces a choice, and the choice is the "
             "adapter's."),
            ("\"The usage and stop_reason.\"",
             "Those come back from the provider into the record, the other direction; a provider "
             "never sees them."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Three definitions, one job: turn the view into what a template can show, losing "
                 "nothing. Which of them is a pure function of one id? Which only joins runs? "
                 "Which decides what each kind of message becomes?",
        approach="portable_id is an if: PORTABLE_ID.fullmatch, else hashlib.sha256 over the "
                 "encoded id, hexdigest, first 40 characters, with \"tc_\" in front.\n\n"
                 "merge_runs is one loop over the turns that either extends the last kept turn or "
                 "starts a new dict.\n\n"
                 "template_messages builds a plain list of turns, one per message, and hands the "
                 "list to merge_runs at the very end. text_of, tool_calls, tool_call_line and "
                 "tools_prompt are given.",
        outline="portable_id: an id that fits from its first character to its last goes back as "
                "it is; anything else goes back as the fixed prefix and the first forty hex "
                "digits of its SHA-256. Nothing else.\n\n"
                "merge_runs: start an empty list. For each turn: when the list is not empty and "
                "its last turn has the same role, add a blank line and this turn's text to that "
                "last turn, which you made yourself; otherwise append a new dict with this "
                "turn's role and text.\n\n"
                "template_messages: the first turn is the system prompt, with the tools written "
                "in under a blank line when there are any. Then one turn per message: a user's "
                "text as it is; an assistant's text and its call lines, one per line; a result as "
                "user text that opens with its label line. Merge the runs last.",
    ),
    2: Hints(
        lab=2,
        question="Chat Completions has a role for each of your messages, so the request is a "
                 "translation with no merging. The way back is the harder half: how many ways "
                 "can a reply fail to be a reply?",
        approach="chat_request: one small if per role, and portable_id on every id, a call's and "
                 "a result's alike. json.dumps writes the arguments.\n\n"
                 "chat_reply: split on the status first. For anything but 200, provider_error "
                 "gives the provider's words; test them against TOO_LONG before anything else. "
                 "For 200, put all the reading of the body inside one try, and make the except "
                 "a failed reply.",
        outline="chat_request: open the list with the system message. For each message of the "
                "view: a user's as it is; an assistant's with its text (None when it has none) "
                "and, if it calls tools, a tool_calls list in which each arguments dict is a JSON "
                "string; a result as a tool message carrying its call's id. Build the body with "
                "the model's name, the messages and stream False, and add tools only when there "
                "are some.\n\n"
                "chat_reply: unpack the triple. Not 200: the provider's words, lower-cased, "
                "checked for each TOO_LONG phrase; a failed reply either way, its text saying "
                "which. 200: load the JSON, take the first choice and its message; a text block "
                "if the content has text; a toolCall block per call with its arguments loaded; "
                "stop_reason from the table, usage from the counts. Any error while reading: a "
                "failed reply that says the reply could not be read.",
    ),
}
