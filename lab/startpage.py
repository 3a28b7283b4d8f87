"""The course's start page, START.md in the learner's folder: the map of the sixteen lessons (each
written one linked to the learner's own notebook), how a question works, how to run a check, and
where answers are kept. JupyterLab opens on it (start.py), rendered (jupyter/overrides.json shows
Markdown as a preview).

It is the course's page, not the learner's: lab.mywork writes it again on every run, so a lesson
added to the course shows up on the map. Everything on it comes from the lessons' own data; only
the titles of lessons not written yet are kept here, as the plan names them.
"""

from lab import lessons, manifest

NAME = "START.md"

# The plan's titles (research syllabus), for the lessons the course has not written yet.
PLANNED = {1: "Who said what", 2: "A likely story", 3: "Until it stops asking", 4: "Failure is news",
           5: "Brakes", 6: "The firehose", 7: "Running commentary", 8: "One pen",
           9: "A word in edgeways", 10: "Loose ends", 11: "Pull the plug",
           12: "Memory that outlives the process", 13: "The briefing", 14: "Someone else's words",
           15: "Meanwhile", 16: "Lost in translation"}


def _row(lesson, written):
    title = PLANNED.get(lesson, f"Lesson {lesson}")
    if lesson not in written:
        return f"| {lesson:02d} | {title} | not written yet | |"
    try:
        data = lessons.load(lesson)
    except (LookupError, ImportError):   # its notebook came before its data: map it unlinked
        return f"| {lesson:02d} | {title} | not ready yet | |"
    names = ", ".join(f"`{name}`" for name in manifest.names(lesson))
    return f"| {lesson:02d} | [{data.TITLE}]({data.NOTEBOOK}) | {len(manifest.labs(lesson))} | {names} |"


def text():
    """The page, as Markdown."""
    written = lessons.written()
    rows = [_row(n, written) for n in sorted(set(PLANNED) | set(written))]
    return "\n".join([
        "# Build a coding-agent harness: start here",
        "",
        "Each lesson opens on a failure you run into (the wall), walks through the tempting fixes",
        "as questions you answer, and ends with labs: you write the missing pieces of your harness,",
        "and tests tell you when they are right. Take the lessons in order; each builds on the one",
        "before. This folder is your own copy: your edits and answers stay here, and new lessons are",
        "added to it without touching what you wrote.",
        "",
        "## The map",
        "",
        "| # | Lesson | Labs | What you write |",
        "| --- | --- | --- | --- |",
        *rows,
        "",
        "## How a question works",
        "",
        "Run the cell under a question and it draws the question: pick an option, type a number,",
        "tick every option that fits, or write your own answer. Each choice gets its own feedback, why",
        "it is tempting and where it breaks, and the cell after it runs the options so you can watch.",
        "For a written answer, reveal the model answer and the common answers, then tick that you",
        "compared them: only then does it count as answered.",
        "",
        "## How to run a check",
        "",
        "Write the gap in its cell and run the cell, then run the lab's check cell, `lab.check(N, lab=K)`.",
        "It runs each test with a time limit and says, one line a test, what passed and, for what",
        "failed, why, naming the function at fault. Once a lab passes, the cells after it run on your",
        "code, and each says so.",
        "",
        "## Where your answers are kept",
        "",
        "In `.rungs/lessonNN.json`, beside the notebooks in this folder. They survive a kernel restart,",
        "closing the notebook and `git pull`. `lab.progress()` in any notebook shows every lesson's",
        "answered questions and passed labs; `lab.progress(N)` one lesson's. To start a lesson over,",
        "delete its notebook here (and `.rungs/lessonNN.json` for its answers): the next start brings",
        "a fresh copy.",
        "",
    ])


def write(folder):
    """Write START.md into `folder` (it is the course's page: written again every time)."""
    path = folder / NAME
    path.write_text(text(), encoding="utf-8", newline="\n")
    return path
