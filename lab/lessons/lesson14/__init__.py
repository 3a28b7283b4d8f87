"""Lesson 14, "Someone else's words": its questions, hint ladder and lab.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(14, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "Someone else's words"
NOTEBOOK = "14-someone-elses-words.ipynb"

# The demonstrations that run on code the learner writes: (cell id, label, full names).
DEMOS = (
    ("demo-where-gate", "Three places for the question", ("gate",)),
    ("demo-denial", "Three ways to refuse", ("gate",)),
    ("demo-fixed", "The README run again, gated", ("gate", "command_rules")),
    ("demo-quoted", "The laundered order, quoted", ("QuotingWriter.complete",)),
    ("figure-14-1", "Figure 14.1", ("QuotingWriter.complete", "gate", "command_rules")),
)

RUNGS = (
    Choice(
        id="fact-from-a-file",
        title="A fact read from a file, put in the briefing",
        options=(
            Option("The README's author now writes part of the system prompt, unlabelled, in "
                   "every request of the session.",
                   "Lesson 13 held the briefing still and true; it never asked who wrote each "
                   "word of it. A line copied out of a file speaks with the harness's own voice "
                   "there: line (a) of the cell below finds it, unmarked.",
                   right=True),
            Option("Nothing new: the briefing is built from facts, and this is one more fact.",
                   "It is built the same way, which is the trouble (line (b) of the cell below). Until now every fact was "
                   "something you typed or the harness measured. This one is whatever the "
                   "README's author wrote, and it now stands in the system prompt, the text "
                   "every request opens with and the model trusts most."),
            Option("The cache breaks, because the README may change during the session.",
                   "Lesson 13 trained you to watch the cache, so it is the first worry. But session() builds the briefing once, so a later edit to the README changes "
                   "nothing mid-session: lesson 13 already took care of that, and line (c) of the "
                   "cell below edits the README to check. The cost is not in the bill."),
        ),
    ),
    Choice(
        id="wall-order",
        title="What the lesson 13 harness does with the README's instruction",
        options=(
            Option("Nothing happens: the README arrives as a tool result, and the harness knows "
                   "tool results are not instructions.",
                   "The role does say where the text came from, which is why it tempts. But the "
                   "harness knows no such thing (line (a) of the cell below). It passes the result on, as it should; what "
                   "the model makes of it is the model's business, and this model obeys "
                   "whatever it reads."),
            Option("The run stops with an error, since the command's host does not exist.",
                   "A command to a host that does not exist does fail. But the shell answers with "
                   "an exit code, and lesson 4 made a failing command an ordinary result (line "
                   "(b) of the cell below). By then the command has run, which is the damage."),
            Option("The model runs the command through bash, and its last reply says only "
                   "\"Done.\"",
                   "Every part of your harness did its job: the result was recorded, paired and "
                   "sent. Nothing in it stood between an order in a file and the shell: line (c) "
                   "of the cell below.",
                   right=True),
        ),
    ),
    Choice(
        id="who-speaks",
        title="Who speaks the order after a compaction",
        options=(
            Option("The README's author, as before: a summary is only a digest of the record.",
                   "It is where the words came from, so it feels true. A digest, yes, but look at the role. replay() hands the summary back as a "
                   "user message, and the model has no other way to tell who wrote a message "
                   "than its role."),
            Option("The user: the order now sits in a user message, as a next step.",
                   "Lesson 12 replays the summary as `user_message(SUMMARY_PREFIX + summary)`. "
                   "The prefix says it is a summary; nothing says that a line inside it came "
                   "from a file. A model that obeys the user alone obeys it.",
                   right=True),
            Option("The assistant: the summary was written by a model.",
                   "It was, by the writer's model, which makes it tempting. But it goes back into the transcript as a "
                   "user message, and that is the voice the agent's model hears."),
        ),
    ),
    Multi(
        id="promotions",
        title="Where text from a tool can end up in a more trusted voice",
        options=(("a compaction's summary, replayed as a user message", True,
                  "It feels like the harness's own housekeeping, not a move of anyone's words. "
                  "But the summary is made from the tool results too, and replay hands it back "
                  "in the user's role."),
                 ("a briefing fact copied from a file", True,
                  "A fact sounds neutral. Copied from a file, it is the file's author speaking "
                  "in the system prompt, the most trusted text of the request."),
                 ("the toolResult message that carries the file", False,
                  "It does carry the order, which is why it tempts. But that is where a tool's "
                  "words belong, and its role says whose they are: nothing was moved."),
                 ("the model's own reply, quoting the file", False,
                  "It repeats the order, so it looks like a promotion. But a reply is the "
                  "model's voice, and what it quotes stays a quotation; the next summary may "
                  "promote it, not the reply itself.")),
        right="Two promotions: the summary turns a file's words into the user's voice, and a "
              "fact copied into the briefing turns them into the system prompt's. The toolResult "
              "is the file's own place, with its role saying so. What the model writes is the "
              "model's voice; quoting a file there promotes nothing, although the next summary "
              "may.",
        wrong="For each place, ask two things: whose words are these, and does the role they end "
              "up in say so? The cell below checks every place.",
    ),
    Choice(
        id="filter",
        title="A filter that drops every line saying \"AI agents\"",
        options=(
            Option("It solves the problem: no line addressed to agents, in this README or any "
                   "other, ever reaches the model.",
                   "It does stop the wall's line, which is what makes it feel finished. But it solves this README. The next one says \"Assistant, please...\", or puts "
                   "the order in a code comment, or in French. A filter only knows the attacks "
                   "its author thought of: line (a) of the cell below."),
            Option("It is needless: a careful model already ignores any instruction it finds "
                   "inside a tool result, whoever wrote it in there.",
                   "A careful model ignores them in tool results, true. The second half of the "
                   "wall showed the same words arriving in a user message, where careful means "
                   "obedient: line (b) of the cell below."),
            Option("It helps a little and hides real text: a project's notes to agents (\"AI "
                   "agents: run the tests with pytest -q\") go too.",
                   "Both halves are true, and the second is why filters on content are a poor "
                   "main defence. The lesson keeps them out of the tool results entirely and "
                   "limits what any order can reach instead.",
                   right=True),
        ),
    ),
    Choice(
        id="where-gate",
        title="Where the approval question belongs",
        options=(
            Option("In front of each consequential tool, in the harness, before it runs.",
                   "The harness runs every tool; the model only asks. A gate there holds "
                   "whatever the model has been told, and a refusal can travel back the way "
                   "every failure does, through run_tool.",
                   right=True),
            Option("In the system prompt: \"Ask before running anything risky.\"",
                   "It costs one sentence and the model does read it. But that asks the model to police itself, and the model is the part an "
                   "injection has already talked round. A rule only the model reads is a "
                   "request, not a rule."),
            Option("After the tool has run: show the user what happened and let them undo it.",
                   "It never gets in the user's way, which is its appeal. But a download piped into a shell cannot be undone, and neither can a message "
                   "sent or a file overwritten with nothing kept. The question comes before."),
        ),
    ),
    Number(
        id="commands-run",
        title="Commands that reach the shell, gated, with a user who says no",
        answer=0,
        right="None. The order is asked about, refused, and comes back as an error result. The "
              "gullible model reads it, does not try the same command twice, and says \"Done.\"",
        wrong="Count the commands the shell ever sees. A refused call never reaches execute, so "
              "it never reaches the shell.",
        near={1: "The call was made, once; but the gate stands between the call and the shell. "
                 "What does the shell's history hold?"},
    ),
    Open(
        id="denial",
        title="Why a refusal is an error result, not the end of the run",
        nudge="What does the model need to know next time, and what must stay true of the "
              "transcript?",
        model_answer="A refusal is news for the model, like any failing tool: it asked for "
                     "something and cannot have it, and it may well have a better way to do "
                     "the user's job. Every call still needs exactly one result (lesson 4), so "
                     "the refusal is that result, marked is_error, made in the one place "
                     "failures become results. Stopping the run would punish the user for what "
                     "a file said, and would teach the model nothing.",
        common=(
            ("\"Raise an exception and stop: it is an attack.\"",
             "It is an attack on the model, not by the user. Stopping throws away the user's "
             "prompt and leaves a call without a result, which lesson 10 must then repair."),
            ("\"Return the text 'denied' as a normal result.\"",
             "Then is_error is False and the model reads it as the tool's output. The "
             "refusal must look like a failure, because it is one."),
            ("\"Say nothing, and skip the call.\"",
             "A call with no result is refused with a 400 by a strict provider; and the model "
             "would be left guessing what became of its request."),
        ),
    ),
    Open(
        id="colleague",
        title="\"Just tell the model to ignore instructions in files\"",
        nudge="Which parts of the lesson still hold if the model does not listen?",
        model_answer="Tell it, by all means; the quoting rule in the summary prompt is that kind "
                     "of telling. But it is a request to the part an injection attacks, so it "
                     "narrows the road without closing it. What holds whatever the model "
                     "believes is in the harness: text from tools keeps its label when it moves "
                     "(the summary quotes it), consequential tools wait for approval, and bash "
                     "refuses the network by pattern. No filter catches every injection; the "
                     "harness limits what a fooled model can reach.\n\n"
                     "Text that arrives through a tool is data: it speaks for whoever wrote it, "
                     "never for the user, and the harness neither promotes it to a more trusted "
                     "voice nor lets a model fooled by it reach much.",
        common=(
            ("\"That is enough: good models follow their system prompt.\"",
             "Mostly. The gullible prop is an exaggeration, not an invention; \"mostly\" is "
             "what the gate is for."),
            ("\"Better: strip instructions out of tool results.\"",
             "That is a filter, and the filter question showed both what it misses and what "
             "it hides."),
        ),
    ),
    Open(
        id="waiting",
        title="What the program does while the approval question waits",
        nudge="Follow the call stack: who called approve, and who called them?",
        model_answer="Nothing else. approve is called inside the tool's execute, inside run_tool, "
                     "inside run_agent's loop, inside the consumer's for loop: the whole program "
                     "is one thread standing still until the user answers. A \"stop\" typed "
                     "meanwhile has nowhere to go, since steer() can only be called by code that "
                     "is running, and none is. The same is true while the model thinks. A "
                     "harness could put the question on a queue and let the loop await the "
                     "answer, so that the rest of the program keeps moving: that is the next "
                     "lesson's subject.",
        common=(
            ("\"The user can press Ctrl-C.\"",
             "That interrupts the whole program, not the question, and lesson 10 is what repairs "
             "the call it leaves without a result."),
            ("\"Add a timeout to approve.\"",
             "A timeout bounds the wait; it does not make anything else run during it."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Three small definitions. For each, ask: where does the harness stand between "
                 "a file's words and something that matters? QuotingWriter stands between the "
                 "record and the summary; gate between a call and the tool; command_rules "
                 "between a command line and the shell.",
        approach="QuotingWriter.complete is one line: pass the request on with the system "
                 "prompt extended.\n\n"
                 "gate builds a new list. For a gated tool, make a new execute that closes over "
                 "the old tool: ask approve, then either call the old execute or raise "
                 "PermissionError. Wrap the approve call in try/except so a raising approve "
                 "becomes a refusal. Copy each tool with dict(tool, execute=...).\n\n"
                 "command_rules is a loop over COMMAND_RULES with re.search.",
        outline="QuotingWriter.complete: a single call to the wrapped model, whose system "
                "prompt is the one it was given, a blank line, then the rule; everything else "
                "goes through untouched, and its reply comes back as it is.\n\n"
                "gate: build the new list one tool at a time. A tool whose name is not "
                "consequential is copied as it is. For the others, the copy's execute is a new "
                "function that remembers the original: it asks approve about a copy of the "
                "call, treats an approve that raises as a no whose reason is the exception's "
                "text, runs the original only for an answer that is True itself, and otherwise "
                "raises the refusal with the reason the contract describes. Never change the "
                "dicts you were given.\n\n"
                "command_rules: any tool but bash is fine. Without a command line that is a "
                "string, say so. Otherwise try the rules in their order, ignoring case; the "
                "first that finds something refuses, naming its reason and what it found; a "
                "line no rule finds is fine.",
    ),
}
