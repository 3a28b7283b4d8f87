"""Lesson 13, "The briefing": its questions, hint ladders and labs.

The wording of each question is in the notebook's markdown (lesson.md); here are the options,
which of them is right, and the feedback each one earns. lab.rung(13, id) draws one of them.
"""

from lab.rungs import Choice, Hints, Multi, Number, Open, Option

TITLE = "The briefing"
NOTEBOOK = "13-the-briefing.ipynb"

# The demonstrations that run on code the learner writes, in notebook order: (cell id, the label
# its "ran on" line shows, the full names it runs on). Each ends with
# lab.lessons.lesson13.figures.ran_on(its id), and lab.check names the ones a passing lab switches
# over.
DEMOS = (
    ("demo-fixed", "The wall again", ("briefing", "session")),
    ("demo-twenty", "The twenty-prompt runs", ("briefing", "session")),
    ("figure-13-1", "Figure 13.1", ("briefing", "session")),
)

RUNGS = (
    Choice(
        id="after-compaction",
        title="What the cache still knows right after a compaction",
        options=(
            Option("The system prompt and the tool definitions, and nothing after them.",
                   "They are the only part of the request a compaction never touches. After each "
                   "compaction they are the whole of what a cache can reuse, which is why this "
                   "lesson looks at them hard. Line (a) of the cell below counts them.",
                   right=True),
            Option("Everything but the newest prompt: the summary only replaced text the provider "
                   "had already seen.",
                   "The words are old, which is why it tempts; but the cache compares beginnings, "
                   "not contents (line (b) of the cell below). The summary is new text standing "
                   "where message 1 used to be, so from the first message on nothing matches any "
                   "request sent before."),
            Option("Nothing: a compaction starts the session over.",
                   "A compaction does feel like a fresh start. But the session carries on with "
                   "the same harness, and something at the very front of the request did not "
                   "change: line (c) of the cell below finds how much."),
        ),
    ),
    Number(
        id="ghost-turns",
        title="How many of six turns go on a missing tool, with a briefing that names absent tools",
        answer=6,
        right="All six. Each turn calls a tool the briefing promised and the session never had, "
              "and the model, trusting the briefing over the error, goes round again until "
              "max_turns stops it.",
        wrong="Run the cell below. The model believes its system prompt, and the only tool the "
              "session has is read, which the job does not need.",
        near={1: "One would need the model to give up after the first \"not found\". It believes "
                 "its briefing, not the errors.",
              5: "Five would leave one turn that did some work. Count what each of the six calls "
                 "achieved."},
    ),
    Number(
        id="stamp-hits",
        title="How many of twenty requests miss the cache with the time on top of the prompt",
        answer=20,
        right="All twenty. Each prompt's request begins with a time no earlier request began with, "
              "and the cache only ever matches from the first byte.",
        wrong="The cache only reuses a prefix: the opening stretch of a request that an earlier "
              "request also opened with. What is the first line of each request here?",
        near={1: "One miss, the first request's, is what the same twenty prompts get when the "
                 "briefing holds still. Here it changes at its first line, every time.",
              19: "The first request of a session always misses, since nothing came before it; "
                  "look at what every later one opens with."},
    ),
    Choice(
        id="where-tools-come-from",
        title="Where the briefing's list of tools should come from",
        options=(
            Option("A text written once by hand, next to SYSTEM, describing the agent's tools.",
                   "That is the briefing of the wall. It was true of some session once, and it "
                   "stays as it was written while sessions differ: a read-only session gets told "
                   "about write and bash, and line (a) of the cell below goes round the tools "
                   "it was told of."),
            Option("The list of tools handed to this session, the same list the Harness offers.",
                   "Then the briefing cannot promise a tool the session lacks, or leave out one "
                   "it has: both come from one list, and a session with fewer tools gets a "
                   "shorter briefing by itself.",
                   right=True),
            Option("Every tool the harness knows how to make, so the model always knows its options.",
                   "More knowledge sounds safer, and line (c) of the cell below shows the price. "
                   "Knowing of a tool it cannot call is not an option for the model; it is a "
                   "trap. The tool definitions in the request and the briefing would disagree, "
                   "and the briefed model believes the briefing."),
        ),
    ),
    Multi(
        id="what-is-stable",
        title="What may go into a briefing that must stay the same all session",
        options=(("the name of the project", True,
                  "It can feel too small to bother with, but it is exactly the kind of fact the "
                  "model would otherwise spend a call finding out, and nothing in a session "
                  "renames the project."),
                 ("each tool's one-line guideline", True,
                  "It looks like it belongs to the tools rather than the session, but the tools "
                  "are fixed for the session's whole life, so their guidelines are too."),
                 ("the current time", False,
                  "The model may well need it, which is the pull. It is different at every "
                  "prompt, though, so a briefing holding it is either wrong or rebuilt, and the "
                  "wall showed what rebuilt costs."),
                 ("the list of files in the workspace", False,
                  "It is true when the session starts and saves the model a listing, so it "
                  "tempts. The cell below shows it stop being true at the agent's first write."),
                 ("how many messages the transcript holds so far", False,
                  "It sounds like useful bookkeeping, but it grows with every message: a "
                  "briefing that carries it changes its bytes at every request."),
                 ("the language and version the project is written in", True,
                  "It could change in principle, an upgrade, but not through anything the agent "
                  "does in a session; it is as stable as the project's name.")),
        right="The project's name, its language and the tools' guidelines hold for the whole "
              "session, so they can sit in the prefix every request shares. The time, the file "
              "list and the message count all move while the session runs, and a briefing "
              "holding any of them is either out of date or rebuilt, which is a new prefix.",
        wrong="For each option, ask one thing: can it change before the session ends, through "
              "anything the session itself does?",
    ),
    Choice(
        id="tool-order",
        title="Whether the order of the tools in the briefing matters",
        options=(
            Option("No: the model reads the whole list whatever its order.",
                   "The model does not mind; the cache does. [general] A prefix cache compares "
                   "bytes, and the same tools listed in another order are different bytes, so a "
                   "resumed session whose tools came in another order starts cold: the tuesday "
                   "line of the cell below."),
            Option("Yes: sort the lines by name, so the same tools always give the same text.",
                   "A fixed order makes the briefing a function of which tools there are, not of "
                   "how a caller happened to list them. The last line of the cell below sorts "
                   "tuesday's list.",
                   right=True),
            Option("Keep the order the caller passed: it says which tools matter most.",
                   "Respecting the caller sounds polite, but that order is an accident of the code that built the list, and it can differ "
                   "between two callers with the same tools, or between a session and its resume. "
                   "If a tool matters most, its guideline can say so."),
        ),
    ),
    Choice(
        id="where-now-goes",
        title="Where the time goes, when the model should know it",
        options=(
            Option("At the top of the system prompt, stamped afresh for every prompt, where "
                   "the model reads it first.",
                   "It is where a person would put a date on a letter. It is also the wall: the "
                   "first bytes of every request differ, so no request ever shares a prefix with "
                   "another. Line (a) of the cell below."),
            Option("At the end of the system prompt, written once when the session starts.",
                   "Within one session this holds still, and caches as well as the right answer: "
                   "compare lines (b) and (d) of the cell below for session 1. The cost shows in "
                   "session 2: its system prompt differs from session 1's, so the one prefix "
                   "every session of these tools could share is gone."),
            Option("Nowhere: leave it out, since it costs money.",
                   "The cache is as good as it gets, line (c) of the cell below. But when the "
                   "model needs the date (a changelog entry, a licence year), it will guess one, "
                   "and write its guess down with confidence."),
            Option("In the transcript: a message at the start of the session, after everything "
                   "stable.",
                   "Right. The system prompt and tools are then the same bytes in every session "
                   "with these tools, so a new session starts with them already cached, and the "
                   "moment rides in a message that later requests repeat unchanged.",
                   right=True),
        ),
    ),
    Open(
        id="why-once",
        title="Why build the briefing once, when rebuilding it gives the same text",
        nudge="Rebuilding it gives the same text only while everything it reads stays the same. "
              "What does it read, and who else can change that?",
        model_answer="Because \"the same text\" is then a hope, not a fact of the code. A briefing "
                     "rebuilt before every prompt is the same only as long as its inputs are: the "
                     "facts dict nobody promised not to change, a tool list someone extends "
                     "halfway through, a helper that adds the date. Any one of them changes the "
                     "first bytes of the next request, and the whole cached prefix, including "
                     "every message after it, is lost, silently: nothing fails, the bill just "
                     "grows. Built once and kept as a string, the briefing cannot drift within the "
                     "session. When the tools really do change, rebuilding becomes a deliberate "
                     "act that knowingly pays for a cold cache.",
        common=(
            ("It is faster to build it once.",
             "Building a few lines of text costs nothing next to a model call. The cost is in "
             "what a changed prefix does to the cache, not in the building."),
            ("The model gets confused if its instructions change.",
             "It might, but that is not what goes wrong here: the text does not even need to "
             "change in meaning. One different byte at the front is enough to lose the cache."),
            ("So that the briefing is the same in every session.",
             "Sessions with the same tools and facts should get the same briefing, and lab 2 "
             "tests it: that is why the moment stays out of it. But building once does not give "
             "you that, since every session builds its own; what building once protects is the "
             "rest of this session, against a change in what the builder reads."),
        ),
    ),
)

HINTS = {
    1: Hints(
        lab=1,
        question="Everything the briefing says must come from its two arguments. Which of them "
                 "decides the tool lines, and what could make two calls with the same tools give "
                 "different text?",
        approach="Build a list of lines and join it with \"\\n\" at the end. Start with SYSTEM and "
                 "an empty line, then \"Tools:\". Walk a sorted copy of the tools (sorted by "
                 "name) and write one line per tool. Only then, if there are facts, an empty "
                 "line, \"Workspace:\", and one line per key in sorted order.\n\n"
                 "For a tool's guideline, prefer `tool.get(\"guideline\")` and fall back on "
                 "`tool[\"description\"]`; keep the first line only.",
        outline="Start from your lesson 1 words, a blank line and the heading for the tools. "
                "Then go through the tools in the order of their names, never in the order you "
                "were given them, and write one line for each: its name, then the first line of "
                "its guideline, or of its description when it has no guideline, trimmed. With "
                "no tools at all the list is the single placeholder line. Facts come only when "
                "there are some: a blank line, their heading, one line per key in sorted order. "
                "Join everything with newlines, and make sure nothing you sorted was the "
                "caller's own list.",
    ),
    2: Hints(
        lab=2,
        question="A Harness keeps whatever string it is given as `system` for as long as it "
                 "lives. So where, and how often, should `session` call `briefing`? And which "
                 "list of tools must it pass to both?",
        approach="Call `briefing(tools, facts)` one time, inside `session`, and give the result "
                 "to `Harness` as `system`, with the same `tools`, sorted by name as the briefing "
                 "lists them. The string cannot change afterwards, whatever happens to `facts`.\n\n"
                 "The moment `now` goes in the transcript, not the system prompt: the messages "
                 "the Harness starts with are `list(messages)`, plus one more user message when "
                 "`now` is given.",
        outline="Sort a copy of the tools by name first. Make the briefing from the very tools "
                "you will hand the Harness, and "
                "keep it in a name of its own. Make the starting transcript a new list from "
                "`messages`; only when a moment was given, add one user message that says when "
                "the session started, after the messages you were given. Build the Harness "
                "from the model, that string, the same tools, the starting list and the brake, "
                "and return it.",
    ),
}
