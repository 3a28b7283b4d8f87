"""The rungs as ipywidgets: one class a kind of question, the hint ladder, and their CSS.

Every colour comes from JupyterLab's theme variables (with the light theme's values as fallbacks
where no theme is loaded), so the text keeps its contrast in light, dark and high-contrast
themes. Right and wrong are never told by colour alone: a chosen option carries a mark (✓ or ✗)
and the feedback opens on a word ("Yes.", or the option's own "Right.", or "Not this one.");
after a tick-all question is checked, each ticked option (every option, once the key is out)
carries ✓ or ✗ and the feedback opens on "Yes." or "Not quite: ..." with a ✗ line for each
ticked option that does not fit.

Keyboard and assistive technology, within what ipywidgets 8 offers (classes, descriptions and
tooltips; no ARIA attributes of its own): options and Check, reveal and hint buttons are HTML
buttons, so Tab reaches them and Enter or Space presses them; the open question's "I compared"
tick is a checkbox inside its <label>, so Tab reaches it and Space ticks it; the number box and
the text area carry a visible description, which ipywidgets makes their <label>; each button's
tooltip says what pressing it does; and feedback that follows an action is written inside a
role="status" aria-live="polite" element, so a screen reader reads it out.
"""

import ipywidgets as widgets

from . import questions, store, text

_STYLE = """<style>
.lab-rung, .lab-hints { border-left: 3px solid var(--jp-border-color1, #bdbdbd); padding: 2px 0 2px 12px;
  margin: 6px 0 10px 0; color: var(--jp-content-font-color1, rgba(0, 0, 0, 0.87)); }
.lab-rung .lab-rung-label, .lab-hints .lab-rung-label { color: var(--jp-content-font-color1, rgba(0, 0, 0, 0.87));
  font-size: 0.85em; font-style: italic; }
.lab-rung .lab-rung-option, .lab-rung .lab-rung-submit, .lab-reveal, .lab-hint-level {
  height: auto !important; min-height: 30px; white-space: normal !important; line-height: 1.35;
  padding: 5px 10px !important; color: var(--jp-ui-font-color0, #000);
  background: var(--jp-layout-color2, #eee); border: 1px solid var(--jp-border-color1, #bdbdbd); }
.lab-rung .lab-rung-option { width: 100%; text-align: left !important; }
.lab-rung button:focus-visible, .lab-hints button:focus-visible {
  outline: 2px solid var(--jp-brand-color1, #1976d2); outline-offset: 1px; }
.lab-rung .lab-rung-option.lab-rung-chosen { font-weight: 600; color: var(--jp-content-font-color0, #000);
  border: 2px solid var(--jp-brand-color1, #1976d2); }
.lab-rung .lab-rung-option.lab-rung-chosen.lab-rung-right { border: 2px solid var(--jp-success-color1, #388e3c);
  background: color-mix(in srgb, var(--jp-success-color1, #388e3c) 22%, var(--jp-layout-color1, #fff)); }
.lab-rung .lab-rung-option.lab-rung-chosen.lab-rung-wrong { border: 2px solid var(--jp-error-color1, #d32f2f);
  background: color-mix(in srgb, var(--jp-error-color1, #d32f2f) 22%, var(--jp-layout-color1, #fff)); }
.lab-rung.lab-rung-multi .lab-rung-option.lab-rung-chosen {
  background: color-mix(in srgb, var(--jp-brand-color1, #1976d2) 22%, var(--jp-layout-color1, #fff)); }
.lab-rung.lab-rung-multi .lab-rung-option.lab-rung-right { border: 2px solid var(--jp-success-color1, #388e3c); }
.lab-rung.lab-rung-multi .lab-rung-option.lab-rung-wrong { border: 2px solid var(--jp-error-color1, #d32f2f);
  background: color-mix(in srgb, var(--jp-error-color1, #d32f2f) 22%, var(--jp-layout-color1, #fff)); }
.lab-rung .lab-rung-compared, .lab-rung .lab-rung-compared .widget-label-basic span {
  color: var(--jp-content-font-color1, rgba(0, 0, 0, 0.87)); }
.lab-rung .lab-rung-compared input:focus-visible { outline: 2px solid var(--jp-brand-color1, #1976d2); outline-offset: 1px; }
.lab-rung .lab-rung-feedback, .lab-reveal-body, .lab-hint-body, .lab-rung-notice { padding: 2px 10px;
  margin: 2px 0 4px 0; border-radius: 3px; background: var(--jp-layout-color2, #eee);
  color: var(--jp-content-font-color1, rgba(0, 0, 0, 0.87)); }
.lab-rung .lab-rung-feedback.lab-rung-right { border-left: 4px solid var(--jp-success-color1, #388e3c); }
.lab-rung .lab-rung-feedback.lab-rung-wrong { border-left: 4px solid var(--jp-error-color1, #d32f2f); }
.lab-rung-notice { border-left: 4px solid var(--jp-warn-color1, #f57c00); }
.lab-rung code, .lab-hints code { color: inherit; background: var(--jp-layout-color1, #fff); padding: 0 2px; }
.lab-rung .lab-rung-open-text textarea { min-height: 5em; }
.lab-rung .widget-html-content, .lab-hints .widget-html-content { line-height: 1.45; }
.lab-rung .widget-html-content p, .lab-hints .widget-html-content p { margin: 0.45em 0; }
.lab-rung .lab-rung-submit, .lab-reveal, .lab-hint-level { width: auto !important; min-width: 8em; }
.lab-rung .widget-label { color: var(--jp-content-font-color1, rgba(0, 0, 0, 0.87)); }
</style>"""

RIGHT_MARK, WRONG_MARK = "✓", "✗"
TAPPED, UNTAPPED = "☑", "☐"
COMPARED = "I compared my answer with the model answer and the common answers"


def _classes(widget, *names):
    widget._dom_classes = tuple(dict.fromkeys(n for n in names if n))


def _show(widget, visible):
    widget.layout.display = None if visible else "none"


def _live(html):
    """`html` inside a live region, so that a screen reader reads it when it appears."""
    return f'<div role="status" aria-live="polite" aria-atomic="true">{html}</div>'


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


def _notice_widget():
    widget = widgets.HTML("")
    _classes(widget, "lab-rung-notice")
    return widget


def _update_notice(widget, lesson):
    said = store.notice(lesson)
    widget.value = _live(text.inline(said)) if said else ""
    _show(widget, bool(said))


class _Rung(_Box):
    """What every question shares: the lesson, the spec, the stored state, the feedback box."""

    hint = ""

    def __init__(self, lesson, spec):
        self.lesson, self.spec = int(lesson), spec
        self.feedback = widgets.HTML("")
        self.notice = _notice_widget()
        self._base = ["lab-rung", f"lab-rung--{spec.id}", f"lab-rung-{spec.kind}",
                      "lab-rung-optional" if spec.optional else ""]
        label = widgets.HTML(f'<span class="lab-rung-label">{text.inline(self.hint)}'
                             f'{" · optional" if spec.optional else ""}</span>')
        super().__init__(text.rung_text(lesson, spec, self.hint),
                         children=[widgets.HTML(_STYLE), label] + self._parts()
                         + [self.feedback, self.notice])
        self.state = dict(store.load(self.lesson)["rungs"].get(spec.id) or {})
        self._acting = False
        self._render()

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
        store.put(self.lesson, "rungs", self.spec.id, dict(self.state))
        self._acting = True
        try:
            self._render()
        finally:
            self._acting = False

    def _say(self, said, right=None):
        verdict = {True: "lab-rung-right", False: "lab-rung-wrong"}.get(right, "")
        _classes(self.feedback, "lab-rung-feedback", verdict)
        body = text.paragraphs(said) if said else ""
        # Only feedback that answers the learner's own action is announced: a rung restored on
        # Run All would otherwise read every old answer aloud.
        self.feedback.value = _live(body) if body and self._acting else body
        _show(self.feedback, bool(said))

    @property
    def answered(self):
        return questions.answered(self.spec, self.state)

    def _render(self):
        self._render_parts()
        _update_notice(self.notice, self.lesson)
        _classes(self, *self._base, "lab-rung-answered" if self.answered else "")

    def _render_parts(self):
        raise NotImplementedError


class ChoiceRung(_Rung):
    hint = "pick one"

    def _parts(self):
        self.buttons = []
        for i, option in enumerate(self.spec.options):
            button = widgets.Button(description=self._label(i),
                                    tooltip=f"Choose ({text.LETTERS[i]})",
                                    layout=widgets.Layout(width="100%", height="auto"))
            button.on_click(lambda _, i=i: self.choose(i))
            self.buttons.append(button)
        return [widgets.VBox(self.buttons)]

    def _label(self, index, mark=""):
        option = self.spec.options[index]
        return f"{mark + ' ' if mark else ''}({text.LETTERS[index]}) {text.plain(option.text)}"

    def choose(self, index):
        """Pick option `index` (from 0), as a click on it does."""
        self._remember(choice=int(index))

    def _render_parts(self):
        chosen = self.state.get("choice")
        if not isinstance(chosen, int) or not 0 <= chosen < len(self.spec.options):
            chosen = None
        for i, (button, option) in enumerate(zip(self.buttons, self.spec.options)):
            verdict, mark = "", ""
            if i == chosen:
                verdict = "lab-rung-right" if option.right else "lab-rung-wrong"
                mark = RIGHT_MARK if option.right else WRONG_MARK
            button.description = self._label(i, mark)
            _classes(button, "lab-rung-option", f"lab-rung-option-{i}",
                     "lab-rung-chosen" if i == chosen else "", verdict)
        if chosen is None:
            self._say("")
        else:
            option = self.spec.options[chosen]
            self._say(text.verdict("Yes." if option.right else "Not this one.", option.feedback),
                      option.right)


class NumberRung(_Rung):
    hint = "type a whole number"

    def _parts(self):
        self.box = widgets.Text(placeholder="a whole number", continuous_update=False,
                                description="Your number",
                                style={"description_width": "initial"},
                                layout=widgets.Layout(width="20em"))
        _classes(self.box, "lab-rung-number-input")
        self.box.observe(lambda change: self._quiet or self.submit(), names="value")
        self.check = widgets.Button(description="Check", tooltip="Check the number typed")
        _classes(self.check, "lab-rung-submit")
        self.check.on_click(lambda _: self.submit())
        return [widgets.HBox([self.box, self.check])]

    def submit(self, typed=None):
        """Check `typed`, or what is in the box, as pressing Enter or the Check button does."""
        if typed is not None:
            self._set(self.box, str(typed))
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
            self._say(text.verdict("Yes.", self.spec.right), True)
        else:
            self._say("**Not quite.** " + self.spec.near.get(value, self.spec.wrong), False)


class MultiRung(_Rung):
    """Tap every option that fits, then Check. A wrong Check says how many ticks are wrong and why
    each ticked option that does not fit is wrong, and marks only the ticked options; the key
    (every option marked, every wrong one explained) waits for a second wrong Check, or for the
    key's button, which a wrong Check brings out. The store keeps the ticks, whether they were
    checked, how many Checks were wrong and whether the key was asked for."""

    hint = "tap every answer that fits, then Check"

    def _parts(self):
        self.buttons = []
        for i, tick in enumerate(self.spec.ticks):
            button = widgets.Button(description=f"{UNTAPPED} {text.plain(tick.text)}",
                                    tooltip="Tap to mark this answer, tap again to unmark it",
                                    layout=widgets.Layout(width="100%", height="auto"))
            button.on_click(lambda _, i=i: self.tap(i))
            self.buttons.append(button)
        self.check = widgets.Button(description="Check", tooltip="Check the answers tapped")
        _classes(self.check, "lab-rung-submit")
        self.check.on_click(lambda _: self.submit())
        self.key_button = widgets.Button(description="Show the key",
                                         tooltip="Show which options fit, and why each one does or not")
        _classes(self.key_button, "lab-rung-key")
        self.key_button.on_click(lambda _: self.show_key())
        return [widgets.VBox(self.buttons), widgets.HBox([self.check, self.key_button])]

    def tap(self, index):
        """Tap option `index` (from 0) on or off, as a click on it does."""
        picked = set(self.state.get("picked", []))
        picked ^= {int(index)}
        self._remember(picked=sorted(picked), checked=False)

    def submit(self):
        """Check the options tapped so far, as the Check button does."""
        picked = sorted({i for i in self.state.get("picked", []) if isinstance(i, int)})
        wrong = self._wrong_checks() + (0 if all(questions.multi_marks(self.spec, set(picked))) else 1)
        self._remember(picked=picked, checked=True, wrong_checks=wrong)

    def show_key(self):
        """Show the key for the options tapped now, as its button does."""
        self._remember(key=True, checked=True)

    def _wrong_checks(self):
        count = self.state.get("wrong_checks", 0)
        return count if isinstance(count, int) and not isinstance(count, bool) else 0

    def _render_parts(self):
        picked = {i for i in self.state.get("picked", []) if isinstance(i, int)}
        checked = bool(self.state.get("checked"))
        marks = questions.multi_marks(self.spec, picked)
        key = self.state.get("key") is True or self._wrong_checks() >= 2
        right = all(marks)
        for i, (button, tick) in enumerate(zip(self.buttons, self.spec.ticks)):
            # Once checked, an option says whether its tick is right by a mark as well as a
            # colour: every option once the key is out (or all are right), else only the ticked
            # ones, since a mark on an untouched option would give the key away. Tapping again
            # clears the marks until the next Check.
            marked = checked and (key or right or i in picked)
            mark = (RIGHT_MARK if marks[i] else WRONG_MARK) + " " if marked else ""
            verdict = ("lab-rung-right" if marks[i] else "lab-rung-wrong") if marked else ""
            box = TAPPED if i in picked else UNTAPPED
            button.description = f"{mark}{box} {text.plain(tick.text)}"
            _classes(button, "lab-rung-option", f"lab-rung-option-{i}",
                     "lab-rung-chosen" if i in picked else "", verdict)
        _show(self.key_button, self._wrong_checks() >= 1 and not key and not (checked and right))
        if not checked:
            self._say("")
            return
        right, said = text.multi_feedback(self.spec, picked, key=key)
        self._say(said, right)


class OpenRung(_Rung):
    hint = "write your answer, then compare it with a model answer"

    def _parts(self):
        self.text = widgets.Textarea(placeholder="Your answer, in a sentence or two",
                                     continuous_update=False, description="Your answer",
                                     style={"description_width": "initial"},
                                     layout=widgets.Layout(width="100%", height="6em"))
        # Every keystroke reaches the kernel, so the model answer's button opens as the fifth
        # word is typed, and no notice about the box outlives the words that answer it.
        self.text.continuous_update = True
        _classes(self.text, "lab-rung-open-text")
        self.text.observe(lambda change: self._quiet or self._remember(text=change["new"]),
                          names="value")
        nudge = widgets.HTML(f'<span class="lab-rung-label">Think about it: '
                             f'{text.inline(self.spec.nudge)}</span>')
        self.reveal = widgets.Button(description="Show a model answer",
                                     tooltip="Show or hide a model answer and the common ones")
        _classes(self.reveal, "lab-reveal")
        self.reveal.on_click(lambda _: self.toggle())
        common = "".join(f"<li><b>{text.inline(answer)}</b> {text.inline(misses)}</li>"
                         for answer, misses in self.spec.common)
        self.body = widgets.HTML(
            f"<p><b>A model answer.</b></p>{text.paragraphs(self.spec.model_answer)}"
            f"<p><b>Common answers, and what each one misses</b></p><ul>{common}</ul>")
        _classes(self.body, "lab-reveal-body")
        # A checkbox's description is the text of its <label>, so it is the box's accessible
        # name, and clicking the words ticks it; Tab reaches it and Space ticks it.
        self.compared = widgets.Checkbox(value=False, indent=False, description=COMPARED,
                                         tooltip="Tick once you have held your answer against "
                                                 "the model answer and the common answers",
                                         layout=widgets.Layout(width="auto"))
        _classes(self.compared, "lab-rung-compared")
        self.compared.observe(
            lambda change: self._quiet or self._remember(compared=bool(change["new"])),
            names="value")
        return [nudge, self.text, self.reveal, self.body, self.compared]

    def write(self, answer):
        """Type `answer` as the answer (what leaving the text box does)."""
        self.text.value = answer

    def toggle(self):
        """Show the model answer, or hide it again, as the button does. It opens only on an
        answer of MIN_WORDS words or more; before that the feedback says how many are there."""
        if not self.state.get("revealed") and questions.words(self.state.get("text", "")) < questions.MIN_WORDS:
            self._acting = True
            try:
                self._say(self._too_short())
            finally:
                self._acting = False
            return
        self._remember(revealed=not self.state.get("revealed", False))

    def _too_short(self):
        have = questions.words(self.state.get("text", ""))
        return (f"Write your own answer first, in {questions.MIN_WORDS} words at least (the box "
                f"has {have}): the model answer opens once you have said what you think.")

    def compare(self, ticked=True):
        """Tick (or untick) "I compared my answer ...", as a click on the checkbox does."""
        self.compared.value = bool(ticked)

    def _render_parts(self):
        answer = self.state.get("text", "")
        self._set(self.text, answer if isinstance(answer, str) else "")
        enough = questions.words(answer) >= questions.MIN_WORDS
        # A model answer revealed before this rule (an older answers file) stays revealed only
        # while there is an answer to hold against it.
        revealed = bool(self.state.get("revealed")) and enough
        compared = self.state.get("compared") is True
        _show(self.body, revealed)
        self.reveal.description = "Hide the model answer" if revealed else "Show a model answer"
        self.reveal.disabled = not enough and not revealed
        self.reveal.tooltip = ("Show or hide a model answer and the common ones" if enough else
                               f"Opens once your answer has {questions.MIN_WORDS} words")
        self._set(self.compared, compared)
        # The tick is offered once there is something to compare with, and stays while ticked so
        # that it can be taken back.
        _show(self.compared, revealed or compared)
        if compared and not enough:
            self._say(f"Write your answer in the box above, {questions.MIN_WORDS} words at least: "
                      "the question counts as answered once it has your answer and this tick.")
        else:
            self._say("")


KINDS = {"choice": ChoiceRung, "number": NumberRung, "multi": MultiRung, "open": OpenRung}


class HintLadder(_Box):
    """Three buttons, each opening one more level of help for a lab."""

    def __init__(self, lesson, spec):
        self.lesson, self.spec = int(lesson), spec
        self.buttons, self.bodies = [], []
        for level, (name, said) in enumerate(spec.levels, start=1):
            button = widgets.Button(description=f"Hint {level}: {name}",
                                    tooltip=f"Open hint {level} of lab {spec.lab}: {name}")
            button.on_click(lambda _, level=level: self.open_level(level))
            body = widgets.HTML(text.paragraphs(said))
            _classes(body, "lab-hint-body", f"lab-hint-body-{level}")
            self.buttons.append(button)
            self.bodies.append(body)
        self.notice = _notice_widget()
        parts = [widgets.HTML(_STYLE),
                 widgets.HTML(f'<span class="lab-rung-label">Stuck on lab {spec.lab}? '
                              "Open one level at a time.</span>")]
        for button, body in zip(self.buttons, self.bodies):
            parts += [button, body]
        super().__init__(text.hints_text(lesson, spec), children=parts + [self.notice])
        _classes(self, "lab-hints", f"lab-hints--lab{spec.lab}")
        self.opened = int(store.load(self.lesson)["hints"].get(str(spec.lab), 0) or 0)
        self._render()

    def open_level(self, level):
        """Open hint `level` (1, 2 or 3), as its button does; the levels before it open too."""
        self.opened = max(self.opened, min(int(level), 3))
        store.put(self.lesson, "hints", self.spec.lab, self.opened)
        self._render()

    def _render(self):
        for level, (button, body) in enumerate(zip(self.buttons, self.bodies), start=1):
            _classes(button, "lab-hint-level", f"lab-hint-level-{level}",
                     "lab-hint-open" if level <= self.opened else "")
            button.disabled = level > self.opened + 1
            _show(body, level <= self.opened)
        _update_notice(self.notice, self.lesson)
