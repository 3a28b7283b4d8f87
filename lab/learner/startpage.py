"""The course's start page, START.md in the learner's folder: where the learner is (lessons done,
labs passed, questions answered, and the next thing to do), the map of the sixteen lessons (each
written one linked to the learner's own notebook, with how far they are in it), how a question
works, what the lessons' marks mean, how to run a check, and where answers are kept.
JupyterLab opens on it (start.py, lab/learner/frontdoor.py), rendered (jupyter/overrides.json shows
Markdown as a preview).

It is the course's page, not the learner's: lab.learner.mywork writes it again on every run, so a lesson
added to the course shows up on the map, and the answer store writes it again after every save
(refresh), so the progress on it follows the learner's answers. Everything on it comes from the
lessons' own data and the answers stored; only the titles of lessons not written yet are kept
here, as the plan names them.
"""

import os
from pathlib import Path

from lab import lessons
from lab.course import manifest
from lab.lessons import PLANNED
from lab.rungs import questions, store

NAME = "START.md"



FIRST_LINE = "# Build a coding-agent harness: start here"


def _answers_name(lesson):
    return store.name(lesson)


def _progress(folder):
    """{lesson: (answered, questions, passed, labs)} for every written lesson, from the answers
    in `folder`/.rungs (read only), or from none when `folder` is None."""
    found = {}
    for lesson in lessons.written():
        try:
            data = lessons.load(lesson)
        except (LookupError, ImportError):
            continue
        stored = store.peek(lesson, Path(folder) / ".rungs") if folder else store.empty()
        required = [spec for spec in data.RUNGS if not spec.optional]
        answered = sum(questions.answered(spec, stored["rungs"].get(spec.id) or {}) for spec in required)
        labs = manifest.labs(lesson)
        passed = sum(bool(stored["labs"].get(str(n))) for n in labs)
        found[lesson] = (answered, len(required), passed, len(labs))
    return found


def _status(counts):
    answered, questions, passed, labs = counts
    if answered == questions and passed == labs:
        return "done"
    if answered == 0 and passed == 0:
        return "not begun"
    return f"{answered} of {questions} questions, {passed} of {labs} labs"


def _row(lesson, written, progress):
    title = PLANNED.get(lesson, f"Lesson {lesson}")
    if lesson not in written:
        return f"| {lesson:02d} | {title} | planned, not written yet | | |"
    if lesson not in progress:   # its notebook came before its data: map it unlinked
        return f"| {lesson:02d} | {title} | not ready yet | | |"
    data = lessons.load(lesson)
    names = ", ".join(f"`{name}`" for name in manifest.names(lesson))
    return (f"| {lesson:02d} | [{data.TITLE}]({data.NOTEBOOK}) | {len(manifest.labs(lesson))} | {names} "
            f"| {_status(progress[lesson])} |")


def _where_you_are(progress):
    """The lines that say how far the learner is and what to do next."""
    done = [n for n, counts in progress.items() if _status(counts) == "done"]
    answered = sum(c[0] for c in progress.values())
    questions = sum(c[1] for c in progress.values())
    passed = sum(c[2] for c in progress.values())
    labs = sum(c[3] for c in progress.values())
    lines = [f"Lessons done: {len(done)} of {len(progress)}. Labs passed: {passed} of {labs}. "
             f"Questions answered: {answered} of {questions}.", ""]
    todo = [n for n in progress if n not in done]
    if not todo:
        lines.append("**Next:** every written lesson is done; lessons 15 and 16 come with a later "
                     "`git pull` and `make lab`.")
        return lines
    lesson = todo[0]
    data = lessons.load(lesson)
    answered, questions, passed, labs = progress[lesson]
    if answered == 0 and passed == 0:
        what = "start it from the top" + (" (it is where to begin)" if lesson == min(progress) else "")
    elif answered < questions:
        what = f"{questions - answered} of its questions are still open"
    else:
        what = f"every question is answered; lab {passed + 1} is next"
    lines.append(f"**Next:** lesson {lesson:02d}, [{data.TITLE}]({data.NOTEBOOK}): {what}.")
    return lines


def text(folder=None):
    """The page, as Markdown, with the progress of the answers kept in `folder` (none if None)."""
    written = lessons.written()
    progress = _progress(folder)
    rows = [_row(n, written, progress) for n in sorted(set(PLANNED) | set(written))]
    last = max(written) if written else 0
    planned = [n for n in PLANNED if n not in written]
    return "\n".join([
        FIRST_LINE,
        "",
        "Each lesson opens on a failure you run into (the wall), walks through the tempting fixes",
        "as questions you answer, and ends with labs: you write the missing pieces of your harness,",
        "and tests tell you when they are right. Take the lessons in order; each builds on the one",
        "before. This folder is your own copy: your edits and answers stay here, and new lessons are",
        "added to it without touching what you wrote.",
        "",
        "## Where you are",
        "",
        *_where_you_are(progress),
        "",
        "This page is written again from your answers each time you answer a question or run a",
        "check; a tab of it that was open before shows the new figures once you reopen it (or",
        "reload the browser page).",
        "",
        "## The map",
        "",
        f"Sixteen lessons are planned; {len(written)} are written"
        + (f" (lessons {planned[0]}-{planned[-1]} come later)." if planned else "."),
        "",
        "| # | Lesson | Labs | What you write | You |",
        "| --- | --- | --- | --- | --- |",
        *rows,
        "",
        "## How a question works",
        "",
        "Run the cell under a question and it draws the question: pick an option, type a number,",
        "tick every option that fits, or write your own answer. Each choice gets its own feedback, why",
        "it is tempting and where it breaks, and the cell after it runs the options so you can watch.",
        "A tick-all question that is not right yet says how many ticks are wrong and why for each",
        "option you ticked that does not fit; the whole key waits for a second try, or its button.",
        "For a written answer, write a few words of your own first (five at least); then the model",
        "answer and the common answers open, and ticking that you compared them makes it count.",
        "",
        "## Two marks in the lessons",
        "",
        "- **[general]** marks a claim about real model providers and their APIs, true beyond this",
        "  course; everything else is about the course's own stage (a scripted model, an in-memory",
        "  disk). **Our simplification** marks where that stage is simpler than the world.",
        "- A transcript's shape, such as `U A[c1] R(c1) A`, is one mark a message: `U` the user's,",
        "  `A` the assistant's (with the ids of the tool calls it asks for, and `A!` when the reply",
        "  failed), `R(c1)` a tool result with the id of the call it answers, and `?` a message that",
        "  is none of these (or an id that is missing).",
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
        f"In `.rungs/`, beside the notebooks in this folder: one file a lesson, from `.rungs/{_answers_name(1)}`",
        f"for lesson 1 to `.rungs/{_answers_name(last or 1)}` for lesson {last or 1}. They survive a",
        "kernel restart, closing the notebook and `git pull`. `lab.progress()` in any notebook shows",
        "every lesson's answered questions and passed labs; `lab.progress(N)` one lesson's. To start a",
        f"lesson over, delete its notebook here (and its answers file, `.rungs/{_answers_name(3)}` for",
        "lesson 3, to clear its answers too): the next start brings a fresh copy, and the lesson says",
        "once that its answers file has gone.",
        "",
    ])


def refresh(folder):
    """Write the page again in `folder` if the course's page is there (the learner's own folder),
    with the progress of the answers kept there; leave any other folder alone. Never raises
    OSError: the page is a convenience, and an answer must not fail because of it."""
    path = Path(folder) / NAME
    try:
        with open(path, encoding="utf-8") as page:
            if page.readline().rstrip("\n") != FIRST_LINE:
                return
    except (OSError, UnicodeDecodeError):
        return
    try:
        write(folder)
    except OSError:
        pass


def write(folder):
    """Write START.md into `folder`, with the progress of the answers kept there (it is the
    course's page: written again every time). Written beside and moved into place, so a tab that
    reads it never sees half a page."""
    path = Path(folder) / NAME
    temporary = path.with_name(f".{NAME}.{os.getpid()}.tmp")
    temporary.write_text(text(folder), encoding="utf-8", newline="\n")
    os.replace(temporary, path)
    return path


# The store knows nothing of this page; the page asks to hear of every save, so that the store sits
# below it and imports nothing of the learner's folder.
store.after_write(lambda file: refresh(file.parent.parent))
