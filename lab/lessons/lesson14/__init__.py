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
            Option("Nothing new: the briefing is built from facts, and this is one more fact.",
                   "It is built the same way, which is the trouble. Until now every fact was "
                   "something you typed or the harness measured. This one is whatever the "
                   "README's author wrote, and it now stands in the system prompt, the text "
                   "every request opens with and the model trusts most."),
            Option("The README's author now writes part of the system prompt, unlabelled, in "
                   "every request of the session.",
                   "Lesson 13 held the briefing still and true; it never asked who wrote each "
                   "word of it. A line copied out of a file speaks with the harness's own voice "
                   "there.",
                   right=True),
            Option("The cache breaks, because the README may change during the session.",
                   "session() builds the briefing once, so a later edit to the README changes "
                   "nothing mid-session: lesson 13 already took care of that. The cost is not "
                   "in the bill."),
        ),
    ),
    Choice(
        id="wall-order",
        title="What the lesson 13 harness does with the README's instruction",
        options=(
            Option("Nothing happens: the README arrives as a tool result, and the harness knows "
                   "tool results are not instructions.",
                   "The harness knows no such thing. It passes the result on, as it should; what "
                   "the model makes of it is the model's business, and this model obeys "
                   "whatever it reads."),
            Option("The model runs the command through bash, and its last reply says only "
                   "\"Done.\"",
                   "Every part of your harness did its job: the result was recorded, paired and "
                   "sent. Nothing in it stood between an order in a file and the shell.",
                   right=True),
            Option("The run stops with an error, since the command's host does not exist.",
                   "The shell answers with an exit code, and lesson 4 made a failing command "
                   "an ordinary result. By then the command has run, which is the damage."),
        ),
    ),
    Choice(
        id="who-speaks",
        title="Who speaks the order after a compaction",
        options=(
            Option("The README's author, as before: a summary is only a digest of the record.",
                   "A digest, yes, but look at the role. replay() hands the summary back as a "
                   "user message, and the model has no other way to tell who wrote a message "
                   "than its role."),
            Option("The user: the order now sits in a user message, as a next step.",
                   "Lesson 12 replays the summary as `user_message(SUMMARY_PREFIX + summary)`. "
                   "The prefix says it is a summary; nothing says that a line inside it came "
                   "from a file. A model that obeys the user alone obeys it.",
                   right=True),
            Option("The assistant: the summary was written by a model.",
                   "It was, by the writer's model. But it goes back into the transcript as a "
                   "user message, and that is the voice the agent's model hears."),
        ),
    ),
    Multi(
        id="promotions",
        title="Where text from a tool can end up in a more trusted voice",
        options=(("a compaction's summary, replayed as a user message", True),
                 ("a briefing fact copied from a file", True),
                 ("the toolResult message that carries the file", False),
                 ("the model's own reply, quoting the file", False)),
        right="Two promotions: the summary turns a file's words into the user's voice, and a "
              "fact copied into the briefing turns them into the system prompt's. The toolResult "
              "is the file's own place, with its role saying so. What the model writes is the "
              "model's voice; quoting a file there promotes nothing, although the next summary "
              "may.",
        wrong="Check each tick on its own. The summary: replay makes it a user message, so tick "
              "it. A fact from a file: it lands in the system prompt, so tick it. The toolResult: "
              "that is where tool text belongs, and its role says whose it is; leave it. The "
              "model's reply: those are the model's words, in the model's voice; leave it.",
    ),
    Choice(
        id="filter",
        title="A filter that drops every line saying \"AI agents\"",
        options=(
            Option("It solves the problem: no line addressed to agents ever reaches the model.",
                   "It solves this README. The next one says \"Assistant, please...\", or puts "
                   "the order in a code comment, or in French. A filter only knows the attacks "
                   "its author thought of."),
            Option("It helps a little, and it also hides real text: a project's own notes to "
                   "agents (\"AI agents: run the tests with pytest -q\") go missing too.",
                   "Both halves are true, and the second is why filters on content are a poor "
                   "main defence. The lesson keeps them out of the tool results entirely and "
                   "limits what any order can reach instead.",
                   right=True),
            Option("It is needless: a careful model ignores instructions in tool results.",
                   "A careful model ignores them in tool results. The second half of the wall "
                   "showed the same words arriving in a user message, where careful means "
                   "obedient."),
        ),
    ),
    Choice(
        id="where-gate",
        title="Where the approval question belongs",
        options=(
            Option("In the system prompt: \"Ask before running anything risky.\"",
                   "That asks the model to police itself, and the model is the part an "
                   "injection has already talked round. A rule only the model reads is a "
                   "request, not a rule."),
            Option("In front of each consequential tool, in the harness, before it runs.",
                   "The harness runs every tool; the model only asks. A gate there holds "
                   "whatever the model has been told, and a refusal can travel back the way "
                   "every failure does, through run_tool.",
                   right=True),
            Option("After the tool has run: show the user what happened and let them undo it.",
                   "A download piped into a shell cannot be undone, and neither can a message "
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
                     "harness limits what a fooled model can reach.",
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
        outline="`QuotingWriter.complete`: `return self.model.complete(system + \"\\n\\n\" + "
                "DATA_RULE, messages, tools)`.\n\n"
                "`gate`:\n\n"
                "    def gated(tool):\n"
                "        def execute(arguments):\n"
                "            try: answer = approve({\"name\": tool[\"name\"], \"arguments\": dict(arguments)})\n"
                "            except Exception as exc: answer = str(exc)\n"
                "            if answer is not True:\n"
                "                reason = answer if isinstance(answer, str) and answer else \"not approved\"\n"
                "                raise PermissionError(f\"{tool['name']} was not run: {reason}\")\n"
                "            return tool[\"execute\"](arguments)\n"
                "        return dict(tool, execute=execute)\n\n"
                "then one list: `gated(t)` for names in `consequential`, `dict(t)` for the rest.\n\n"
                "`command_rules`: True for other tools; the command or \"no command line to "
                "check\"; the first `re.search(pattern, command, re.IGNORECASE)` that finds "
                "something answers `f\"{why}: {found.group(0)}\"`; else True.",
    ),
}
