"""The rungs as text: the lesson data's light markup (`code`, **bold**, blank-line paragraphs,
four-space code blocks) made into HTML or flattened to one plain line; the text/plain form of a
rung or a hint ladder, which is what nbval compares and so depends only on the lesson data; and
lab.progress's report."""

import html
import re

from lab import lessons
from lab.course import manifest

from . import questions, store

LETTERS = "abcdefghij"


def inline(text):
    """One paragraph of lesson text as HTML."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    return out


def paragraphs(text):
    """Paragraphs split by blank lines; a paragraph whose lines all start with four spaces is
    shown as it is written, in a monospaced block."""
    out = []
    for block in re.split(r"\n[ \t]*\n", text.strip("\n")):
        if not block.strip():
            continue
        lines = block.splitlines()
        if all(line.startswith("    ") for line in lines):
            code = "\n".join(line[4:] for line in lines)
            out.append(f"<pre>{html.escape(code, quote=False)}</pre>")
        else:
            out.append(f"<p>{inline(block.strip())}</p>")
    return "".join(out)


def plain(text):
    """`text` without its markup, on one line."""
    return " ".join(text.replace("`", "").replace("**", "").split())


def rung_text(lesson, spec, instruction):
    """A question's text/plain form: its id, what to do, and its options if it has any."""
    head = f"[lesson {int(lesson)} · question {spec.id} · {instruction}]"
    if spec.optional:
        head += " (optional)"
    lines = [head]
    if spec.kind == "choice":
        lines += [f"  ({LETTERS[i]}) {plain(o.text)}" for i, o in enumerate(spec.options)]
    elif spec.kind == "multi":
        lines += [f"  [ ] {plain(tick.text)}" for tick in spec.ticks]
    lines.append("(An interactive question: run this cell in JupyterLab to answer it.)")
    return "\n".join(lines)


def multi_feedback(spec, picked, key=True):
    """(right, said): whether the ticks `picked` (a set of option indexes) are exactly the
    options of the Multi `spec` that fit, and the feedback for them in lesson markup.

    When they are not, and `key` is False (a first wrong Check), it says how many ticks are
    wrong ("Not quite: 1 of 3 ticks is wrong.") and gives a paragraph to each option ticked that
    does not fit (a ✗, the option, and its own feedback), but of the options that fit and are
    not ticked only how many there are: naming them would be the key. With `key` (a second
    wrong Check, or the learner asked), it gives every option got wrong its paragraph, which way
    it is wrong and its feedback, then the question's `wrong` text, if it has one."""
    marks = questions.multi_marks(spec, picked)
    if all(marks):
        return True, "**Yes.** " + spec.right
    missed = len(marks) - sum(marks)
    if not key:
        said = [f"**Not quite: {missed} of {len(marks)} ticks {'is' if missed == 1 else 'are'} wrong.**"]
        for index, tick in enumerate(spec.ticks):
            if index in picked and not tick.fits:
                said.append(f"✗ “{tick.text}”: ticked, but it does not fit. {tick.feedback}".rstrip())
        unticked = sum(1 for index, tick in enumerate(spec.ticks) if tick.fits and index not in picked)
        if unticked:
            said.append(f"{_count(unticked, 'option that fits is', 'options that fit are')} not "
                        "ticked: read the options you left once more.")
        said.append("Change your ticks and Check again; a second wrong Check, or the key's "
                    "button, shows every option's answer and why.")
        return False, "\n\n".join(said)
    said = [f"**Not quite: {sum(marks)} of {len(marks)} right.** "
            + ("The option you got wrong:" if missed == 1 else "The options you got wrong:")]
    for index, (tick, right) in enumerate(zip(spec.ticks, marks)):
        if right:
            continue
        how = ("ticked, but it does not fit." if index in picked
               else "it fits, but is not ticked.")
        said.append(f"✗ “{tick.text}”: {how} {tick.feedback}".rstrip())
    if spec.wrong.strip():
        said.append(spec.wrong)
    return False, "\n\n".join(said)


def _count(n, one, many):
    return f"{'One' if n == 1 else n} {one if n == 1 else many}"


def verdict(word, feedback):
    """`feedback` opened on the verdict `word` ("Yes." or "Not this one."), unless the feedback
    already opens on a word that says the same ("Right.", "Yes."): then that word is the verdict,
    so the learner never reads "Yes. Right."."""
    same = {"Yes.": ("Right.", "Yes.", "Correct."), "Not this one.": ("Not this one.",)}
    for opening in same.get(word, ()):
        if feedback.startswith(opening + " ") or feedback == opening:
            return f"**{opening}**{feedback[len(opening):]}"
    return f"**{word}** {feedback}"


def hints_text(lesson, spec):
    """A hint ladder's text/plain form."""
    return (f"[lesson {int(lesson)} · hints for lab {spec.lab} · three levels: a question, an "
            "approach, an outline]\n(Interactive: run this cell in JupyterLab to open them.)")


def progress(lesson):
    """Print which of the lesson's questions are answered and which of its labs pass."""
    data, stored = questions.lesson_data(lesson), store.load(lesson)
    required = [s for s in data.RUNGS if not s.optional]
    optional = [s for s in data.RUNGS if s.optional]
    done = lambda spec: questions.answered(spec, stored["rungs"].get(spec.id) or {})
    width = max(len(s.id) for s in data.RUNGS)
    print(f"Lesson {int(lesson)} · {data.TITLE}")
    print(f"Questions answered: {sum(map(done, required))} of {len(required)}"
          + (f", and {sum(map(done, optional))} of {len(optional)} optional ones" if optional else ""))
    for spec in data.RUNGS:
        mark = "x" if done(spec) else " "
        extra = " (optional)" if spec.optional else ""
        print(f"  [{mark}] {spec.id:<{width}}  {spec.title}{extra}")
    print("Labs:")
    labs = {number: ", ".join(manifest.names(lesson, number)) for number in manifest.labs(lesson)}
    wide = max(len(what) for what in labs.values())
    for number, what in labs.items():
        passed = stored["labs"].get(str(number))
        verdict = "passes" if passed else "not passed yet"
        print(f"  [{'x' if passed else ' '}] lab {number}: {what:<{wide}}  {verdict}")


def course_progress():
    """[(lesson, title, questions answered, questions, labs passed, labs)] for every written lesson,
    from the answers stored beside the notebooks (optional questions left out of both counts)."""
    rows = []
    for lesson in lessons.written():
        data, stored = questions.lesson_data(lesson), store.load(lesson)
        required = [s for s in data.RUNGS if not s.optional]
        answered = sum(questions.answered(s, stored["rungs"].get(s.id) or {}) for s in required)
        labs = manifest.labs(lesson)
        passed = sum(bool(stored["labs"].get(str(n))) for n in labs)
        rows.append((lesson, data.TITLE, answered, len(required), passed, len(labs)))
    return rows
