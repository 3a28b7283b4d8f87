"""Rungs: a lesson's interactive questions, and the hint ladder of each lab, as ipywidgets.

    lab.rung(12, "what-is-sent")   one question of lesson 12, as its lesson data defines it
    lab.hints(12, lab=1)           the three-level hint ladder of lesson 12's lab 1
    lab.progress(12)               which questions are answered and which labs pass

A question's wording lives in the lesson's markdown; the widget holds its options and the
feedback each one earns. The lesson data is `lab/lessons/lessonNN.py` (RUNGS, HINTS, LABS).

Answers persist. Every answer is written at once to a small JSON file beside the notebook,
`.rungs/lesson12.json` relative to the kernel's working directory (the directory can be moved with
the environment variable LAB_RUNGS_DIR), keyed by rung id. Running a rung's cell again, after a
kernel restart or when the notebook is opened another day, shows it as it was left: the chosen
option and its feedback, the typed number, the open answer and whether the model answer was shown,
how many hint levels are open. The notebook's own metadata is never used: nbgrader rewrites it.

What nbval sees. A displayed rung's text/plain form depends only on the lesson data, never on
the answer stored, so a notebook's saved outputs are the same on every run.

CSS classes, kept stable for the browser test that clicks them:

    lab-rung                 the outer box of every question; with it lab-rung--<id>
                             (lab-rung--what-is-sent) and one of the kinds below
    lab-rung-choice          kind: pick one option
    lab-rung-number          kind: type a whole number
    lab-rung-multi           kind: tap every option that fits, then check
    lab-rung-open            kind: write an answer, then reveal a model answer
    lab-rung-optional        on a question nothing later depends on
    lab-rung-answered        on the outer box once it has an answer (restored after a restart)
    lab-rung-option          an option's button (choice, multi); with it lab-rung-option-<n>,
                             n counting from 0 in the order shown
    lab-rung-chosen          the chosen option of a choice; a tapped option of a multi
    lab-rung-right           on the chosen option and on the feedback box, when right
    lab-rung-wrong           the same, when not
    lab-rung-feedback        the feedback box; hidden (display: none) until there is feedback
    lab-rung-number-input    the text box of a number question
    lab-rung-submit          the "Check" button of number and multi questions
    lab-rung-open-text       the text area of an open question
    lab-reveal               the button that shows an open question's model answer
    lab-reveal-body          what it shows: the model answer, then "Common answers, and what
                             each one misses"; hidden until revealed
    lab-hints                a hint ladder's outer box; with it lab-hints--lab<N>
    lab-hint-level           a level's button; with it lab-hint-level-<1|2|3>; level k+1 is
                             disabled until level k is open
    lab-hint-open            on a level's button once that level is open (restored after a restart)
    lab-hint-body            the text a level opens; with it lab-hint-body-<1|2|3>; hidden until open
    lab-rung-label           the small line of instructions at the top of a rung or hint ladder
"""

import html
import importlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import ipywidgets as widgets

__all__ = ["Option", "Choice", "Number", "Multi", "Open", "Hints",
           "rung", "hints", "progress", "record_lab", "store_path"]


# ---------------------------------------------------------------------------------------------
# The lesson data: what a rung is, independent of any widget.

@dataclass(frozen=True)
class Option:
    """One option of a choice: its text, the feedback it earns, and whether it is the answer."""
    text: str
    feedback: str
    right: bool = False


@dataclass(frozen=True)
class Choice:
    """Pick one option. Every option has feedback of its own, shown when it is picked."""
    id: str
    title: str
    options: tuple
    optional: bool = False
    kind = "choice"


@dataclass(frozen=True)
class Number:
    """Type a whole number. `near` gives feedback of its own to particular wrong numbers."""
    id: str
    title: str
    answer: int
    right: str
    wrong: str
    near: dict = field(default_factory=dict)
    optional: bool = False
    kind = "number"


@dataclass(frozen=True)
class Multi:
    """Tap every option that fits, then check. `options` is ((text, fits), ...)."""
    id: str
    title: str
    options: tuple
    right: str
    wrong: str
    optional: bool = False
    kind = "multi"


@dataclass(frozen=True)
class Open:
    """Write an answer in a text box; a button reveals a model answer and the common answers,
    each with what it misses: ((answer, what it misses), ...)."""
    id: str
    title: str
    nudge: str
    model_answer: str
    common: tuple
    optional: bool = False
    kind = "open"


@dataclass(frozen=True)
class Hints:
    """A lab's hint ladder: a question, an approach, an outline."""
    lab: int
    question: str
    approach: str
    outline: str

    @property
    def levels(self):
        return (("a question", self.question), ("an approach", self.approach),
                ("an outline", self.outline))


def _lesson(lesson):
    """The lesson's data module, lab/lessons/lessonNN.py."""
    try:
        return importlib.import_module(f"lab.lessons.lesson{int(lesson):02d}")
    except ModuleNotFoundError:
        raise LookupError(f"lesson {lesson} has no questions in lab/lessons/") from None


def _find(lesson, rung_id):
    data = _lesson(lesson)
    for spec in data.RUNGS:
        if spec.id == rung_id:
            return spec
    known = ", ".join(spec.id for spec in data.RUNGS)
    raise LookupError(f"lesson {lesson} has no question {rung_id!r}; its questions are: {known}")


# ---------------------------------------------------------------------------------------------
# Where answers are kept.

def store_path(lesson):
    """The JSON file that holds lesson `lesson`'s answers."""
    return Path(os.environ.get("LAB_RUNGS_DIR") or ".rungs") / f"lesson{int(lesson)}.json"


def _load(lesson):
    path = store_path(lesson)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {}
    except (OSError, ValueError):
        data = {}  # a damaged file: start again rather than stop the lesson
    if not isinstance(data, dict):
        data = {}
    data.setdefault("lesson", int(lesson))
    data.setdefault("rungs", {})
    data.setdefault("hints", {})
    data.setdefault("labs", {})
    return data


def _save(lesson, section, key, value):
    """Set data[section][key] = value in the lesson's file, written whole and then renamed into
    place, so a crash mid-write leaves the old file, never half a file."""
    data = _load(lesson)
    data[section][str(key)] = value
    path = store_path(lesson)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass  # a read-only directory: the answer still shows, it just will not be remembered


def record_lab(lesson, lab, passed):
    """Remember whether lab `lab` of `lesson` passed its checks; lab.progress reports it."""
    _save(lesson, "labs", int(lab), bool(passed))


# ---------------------------------------------------------------------------------------------
# Text: the lesson data is plain text with `code` and **bold**, paragraphs split by blank lines.

def _inline(text):
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    return out


def _paragraphs(text):
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
            out.append(f"<p>{_inline(block.strip())}</p>")
    return "".join(out)


def _plain(text):
    """`text` without its markup, on one line: for the text/plain form."""
    return " ".join(text.replace("`", "").replace("**", "").split())


_STYLE = """<style>
.lab-rung, .lab-hints { border-left: 3px solid #8a9bb8; padding: 2px 0 2px 12px; margin: 6px 0 10px 0; }
.lab-rung .lab-rung-label, .lab-hints .lab-rung-label { color: #56627a; font-size: 0.85em; }
.lab-rung .lab-rung-option, .lab-rung .lab-rung-submit, .lab-reveal, .lab-hint-level {
  height: auto !important; min-height: 30px; white-space: normal !important; line-height: 1.35;
  padding: 5px 10px !important; }
.lab-rung .lab-rung-option { width: 100%; text-align: left !important; }
.lab-rung .lab-rung-option.lab-rung-chosen { border: 1px solid #3a4a66; font-weight: 600; }
.lab-rung .lab-rung-option.lab-rung-chosen.lab-rung-right { background: #dcf0df; }
.lab-rung .lab-rung-option.lab-rung-chosen.lab-rung-wrong { background: #f8e1df; }
.lab-rung.lab-rung-multi .lab-rung-option.lab-rung-chosen { background: #e3e9f5; }
.lab-rung .lab-rung-feedback, .lab-reveal-body, .lab-hint-body { padding: 2px 10px; margin: 2px 0 4px 0;
  background: #f6f7f9; border-radius: 3px; }
.lab-rung .lab-rung-feedback.lab-rung-right { border-left: 3px solid #2e7d32; }
.lab-rung .lab-rung-feedback.lab-rung-wrong { border-left: 3px solid #b23b2f; }
.lab-rung .lab-rung-open-text textarea { min-height: 5em; }
.lab-rung .widget-html-content, .lab-hints .widget-html-content { line-height: 1.45; }
.lab-rung .widget-html-content p, .lab-hints .widget-html-content p { margin: 0.45em 0; }
.lab-rung .lab-rung-submit, .lab-reveal, .lab-hint-level { width: auto !important; min-width: 8em; }
</style>"""


def _classes(widget, *names):
    widget._dom_classes = tuple(dict.fromkeys(n for n in names if n))


def _show(widget, visible):
    widget.layout.display = None if visible else "none"


# ---------------------------------------------------------------------------------------------
# The widgets.

class _Box(widgets.VBox):
    """A VBox whose text/plain form is fixed text, so that nbval sees the same output every run
    (the default repr lists the children and their current values)."""

    def __init__(self, plain, **kwargs):
        super().__init__(**kwargs)
        self._plain = plain

    def __repr__(self):
        return self._plain

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self._plain
        return bundle


_LETTERS = "abcdefghij"


class _Rung(_Box):
    """What every question shares: the lesson, the spec, the stored state, the feedback box."""

    hint = ""

    def __init__(self, lesson, spec):
        self.lesson, self.spec = int(lesson), spec
        self.feedback = widgets.HTML("")
        self._base = ["lab-rung", f"lab-rung--{spec.id}", f"lab-rung-{spec.kind}",
                      "lab-rung-optional" if spec.optional else ""]
        label = widgets.HTML(f'<span class="lab-rung-label">{_inline(self.hint)}'
                             f'{" · optional" if spec.optional else ""}</span>')
        super().__init__(self._plain_text(), children=[widgets.HTML(_STYLE), label] + self._parts()
                         + [self.feedback])
        self.state = dict(_load(self.lesson)["rungs"].get(spec.id) or {})
        self._render()

    def _plain_text(self):
        head = f"[lesson {self.lesson} · question {self.spec.id} · {self.hint}]"
        if self.spec.optional:
            head += " (optional)"
        lines = [head] + self._plain_lines()
        lines.append("(An interactive question: run this cell in JupyterLab to answer it.)")
        return "\n".join(lines)

    def _plain_lines(self):
        return []

    def _parts(self):
        raise NotImplementedError

    _quiet = False

    def _set(self, widget, value):
        """Put `value` in a text box without it counting as the learner typing it."""
        if widget.value != value:
            self._quiet = True
            try:
                widget.value = value
            finally:
                self._quiet = False

    def _remember(self, **changes):
        self.state.update(changes)
        _save(self.lesson, "rungs", self.spec.id, self.state)
        self._render()

    def _say(self, text, right=None):
        verdict = {True: "lab-rung-right", False: "lab-rung-wrong"}.get(right, "")
        _classes(self.feedback, "lab-rung-feedback", verdict)
        self.feedback.value = _paragraphs(text) if text else ""
        _show(self.feedback, bool(text))

    @property
    def answered(self):
        return _answered(self.spec, self.state)

    def _render(self):
        self._render_parts()
        _classes(self, *self._base, "lab-rung-answered" if self.answered else "")

    def _render_parts(self):
        raise NotImplementedError


class ChoiceRung(_Rung):
    hint = "pick one"

    def _plain_lines(self):
        return [f"  ({_LETTERS[i]}) {_plain(o.text)}" for i, o in enumerate(self.spec.options)]

    def _parts(self):
        self.buttons = []
        for i, option in enumerate(self.spec.options):
            button = widgets.Button(description=f"({_LETTERS[i]}) {_plain(option.text)}",
                                    layout=widgets.Layout(width="100%", height="auto"))
            button.on_click(lambda _, i=i: self.choose(i))
            self.buttons.append(button)
        return [widgets.VBox(self.buttons)]

    def choose(self, index):
        """Pick option `index` (from 0), as a click on it does."""
        self._remember(choice=int(index))

    def _render_parts(self):
        chosen = self.state.get("choice")
        if not isinstance(chosen, int) or not 0 <= chosen < len(self.spec.options):
            chosen = None
        for i, (button, option) in enumerate(zip(self.buttons, self.spec.options)):
            mark = ""
            if i == chosen:
                mark = "lab-rung-right" if option.right else "lab-rung-wrong"
            _classes(button, "lab-rung-option", f"lab-rung-option-{i}",
                     "lab-rung-chosen" if i == chosen else "", mark)
        if chosen is None:
            self._say("")
        else:
            option = self.spec.options[chosen]
            verdict = "**Yes.** " if option.right else "**Not this one.** "
            self._say(verdict + option.feedback, option.right)


class NumberRung(_Rung):
    hint = "type a whole number"

    def _parts(self):
        self.box = widgets.Text(placeholder="a whole number", continuous_update=False,
                                layout=widgets.Layout(width="12em"))
        _classes(self.box, "lab-rung-number-input")
        self.box.observe(lambda change: self._quiet or self.submit(), names="value")
        self.check = widgets.Button(description="Check")
        _classes(self.check, "lab-rung-submit")
        self.check.on_click(lambda _: self.submit())
        return [widgets.HBox([self.box, self.check])]

    def submit(self, text=None):
        """Check `text`, or what is in the box, as pressing Enter or the Check button does."""
        if text is not None:
            self._set(self.box, str(text))
        typed = self.box.value.strip()
        if not typed:
            return
        try:
            value = int(typed.replace(",", ""))
        except ValueError:
            value = None
        self._remember(value=value, typed=typed)

    def _render_parts(self):
        self._set(self.box, str(self.state.get("typed", "")))
        value = self.state.get("value")
        if "typed" not in self.state:
            self._say("")
        elif not isinstance(value, int):
            self._say("Type a whole number, in figures: 4, not four.")
        elif value == self.spec.answer:
            self._say("**Yes.** " + self.spec.right, True)
        else:
            self._say("**Not quite.** " + self.spec.near.get(value, self.spec.wrong), False)


class MultiRung(_Rung):
    hint = "tap every answer that fits, then Check"

    def _plain_lines(self):
        return [f"  [ ] {_plain(text)}" for text, _ in self.spec.options]

    def _parts(self):
        self.buttons = []
        for i, (text, _) in enumerate(self.spec.options):
            button = widgets.Button(description=_plain(text),
                                    layout=widgets.Layout(width="100%", height="auto"))
            button.on_click(lambda _, i=i: self.tap(i))
            self.buttons.append(button)
        self.check = widgets.Button(description="Check")
        _classes(self.check, "lab-rung-submit")
        self.check.on_click(lambda _: self.submit())
        return [widgets.VBox(self.buttons), self.check]

    def tap(self, index):
        """Tap option `index` (from 0) on or off, as a click on it does."""
        picked = set(self.state.get("picked", []))
        picked ^= {int(index)}
        self._remember(picked=sorted(picked), checked=False)

    def submit(self):
        """Check the options tapped so far, as the Check button does."""
        self._remember(picked=sorted(set(self.state.get("picked", []))), checked=True)

    def _render_parts(self):
        picked = set(self.state.get("picked", []))
        for i, button in enumerate(self.buttons):
            _classes(button, "lab-rung-option", f"lab-rung-option-{i}",
                     "lab-rung-chosen" if i in picked else "")
        if not self.state.get("checked"):
            self._say("")
            return
        wanted = {i for i, (_, fits) in enumerate(self.spec.options) if fits}
        if picked == wanted:
            self._say("**Yes.** " + self.spec.right, True)
        else:
            self._say("**Not quite.** " + self.spec.wrong, False)


class OpenRung(_Rung):
    hint = "write your answer, then compare it with a model answer"

    def _parts(self):
        self.text = widgets.Textarea(placeholder="Your answer, in a sentence or two",
                                     continuous_update=False,
                                     layout=widgets.Layout(width="100%", height="6em"))
        _classes(self.text, "lab-rung-open-text")
        self.text.observe(lambda change: self._quiet or self._remember(text=change["new"]),
                          names="value")
        nudge = widgets.HTML(f'<span class="lab-rung-label">Think about it: {_inline(self.spec.nudge)}</span>')
        self.reveal = widgets.Button(description="Show a model answer")
        _classes(self.reveal, "lab-reveal")
        self.reveal.on_click(lambda _: self.toggle())
        common = "".join(f"<li><b>{_inline(answer)}</b> {_inline(misses)}</li>"
                         for answer, misses in self.spec.common)
        self.body = widgets.HTML(
            f"<p><b>A model answer.</b></p>{_paragraphs(self.spec.model_answer)}"
            f"<p><b>Common answers, and what each one misses</b></p><ul>{common}</ul>")
        _classes(self.body, "lab-reveal-body")
        return [nudge, self.text, self.reveal, self.body]

    def write(self, text):
        """Type `text` as the answer (what leaving the text box does)."""
        self.text.value = text

    def toggle(self):
        """Show the model answer, or hide it again, as the button does."""
        self._remember(revealed=not self.state.get("revealed", False))

    def _render_parts(self):
        text = self.state.get("text", "")
        self._set(self.text, text if isinstance(text, str) else "")
        revealed = bool(self.state.get("revealed"))
        _show(self.body, revealed)
        self.reveal.description = "Hide the model answer" if revealed else "Show a model answer"
        self._say("")


_KINDS = {"choice": ChoiceRung, "number": NumberRung, "multi": MultiRung, "open": OpenRung}


def _answered(spec, state):
    if spec.kind == "choice":
        return isinstance(state.get("choice"), int)
    if spec.kind == "number":
        return isinstance(state.get("value"), int)
    if spec.kind == "multi":
        return bool(state.get("checked"))
    return bool(str(state.get("text", "")).strip())


def rung(lesson, rung_id):
    """The question `rung_id` of lesson `lesson`, as a widget, showing any answer already given."""
    spec = _find(lesson, rung_id)
    return _KINDS[spec.kind](lesson, spec)


class HintLadder(_Box):
    """Three buttons, each opening one more level of help for a lab."""

    def __init__(self, lesson, spec):
        self.lesson, self.spec = int(lesson), spec
        self.buttons, self.bodies = [], []
        for level, (name, text) in enumerate(spec.levels, start=1):
            button = widgets.Button(description=f"Hint {level}: {name}")
            button.on_click(lambda _, level=level: self.open_level(level))
            body = widgets.HTML(_paragraphs(text))
            _classes(body, "lab-hint-body", f"lab-hint-body-{level}")
            self.buttons.append(button)
            self.bodies.append(body)
        parts = [widgets.HTML(_STYLE),
                 widgets.HTML(f'<span class="lab-rung-label">Stuck on lab {spec.lab}? '
                              "Open one level at a time.</span>")]
        for button, body in zip(self.buttons, self.bodies):
            parts += [button, body]
        plain = (f"[lesson {self.lesson} · hints for lab {spec.lab} · three levels: a question, an "
                 "approach, an outline]\n(Interactive: run this cell in JupyterLab to open them.)")
        super().__init__(plain, children=parts)
        _classes(self, "lab-hints", f"lab-hints--lab{spec.lab}")
        self.opened = int(_load(self.lesson)["hints"].get(str(spec.lab), 0) or 0)
        self._render()

    def open_level(self, level):
        """Open hint `level` (1, 2 or 3), as its button does; the levels before it open too."""
        self.opened = max(self.opened, min(int(level), 3))
        _save(self.lesson, "hints", self.spec.lab, self.opened)
        self._render()

    def _render(self):
        for level, (button, body) in enumerate(zip(self.buttons, self.bodies), start=1):
            _classes(button, "lab-hint-level", f"lab-hint-level-{level}",
                     "lab-hint-open" if level <= self.opened else "")
            button.disabled = level > self.opened + 1
            _show(body, level <= self.opened)


def hints(lesson, lab):
    """The hint ladder of lab `lab` of lesson `lesson`."""
    data = _lesson(lesson)
    if lab not in data.HINTS:
        raise LookupError(f"lesson {lesson} has no lab {lab}; its labs are "
                          + ", ".join(str(n) for n in sorted(data.HINTS)))
    return HintLadder(lesson, data.HINTS[lab])


# ---------------------------------------------------------------------------------------------

def progress(lesson):
    """Print which of the lesson's questions are answered and which of its labs pass."""
    data, stored = _lesson(lesson), _load(lesson)
    required = [s for s in data.RUNGS if not s.optional]
    optional = [s for s in data.RUNGS if s.optional]
    done = lambda spec: _answered(spec, stored["rungs"].get(spec.id) or {})
    width = max(len(s.id) for s in data.RUNGS)
    print(f"Lesson {int(lesson)} · {data.TITLE}")
    print(f"Questions answered: {sum(map(done, required))} of {len(required)}"
          + (f", and {sum(map(done, optional))} of {len(optional)} optional ones" if optional else ""))
    for spec in data.RUNGS:
        mark = "x" if done(spec) else " "
        extra = " (optional)" if spec.optional else ""
        print(f"  [{mark}] {spec.id:<{width}}  {spec.title}{extra}")
    print("Labs:")
    wide = max(len(what) for what in data.LABS.values())
    for number, what in data.LABS.items():
        passed = stored["labs"].get(str(number))
        verdict = "passes" if passed else "not passed yet"
        print(f"  [{'x' if passed else ' '}] lab {number}: {what:<{wide}}  {verdict}")
