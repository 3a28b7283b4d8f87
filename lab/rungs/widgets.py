"""The rungs as ipywidgets: one class a kind of question. The hint ladder is in hint_ladder.py,
and the CSS and the parts both are built from in widget_parts.py.

Right and wrong are never told by colour alone (whose colours widget_parts.py takes from the
theme): a chosen option carries a mark (✓ or ✗) and the feedback opens on a word ("Yes.", or the
option's own "Right.", or "Not this one."); after a tick-all question is checked, each ticked
option (every option, once the key is out) carries ✓ or ✗ and the feedback opens on "Yes." or
"Not quite: ..." with a ✗ line for each ticked option that does not fit.

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
from .hint_ladder import HintLadder  # noqa: F401  (lab.rungs.HintLadder is found here, beside the rungs)
from .widget_parts import STYLE as _STYLE, Box, live, notice_widget, set_classes, show, update_notice

RIGHT_MARK, WRONG_MARK = "✓", "✗"
TAPPED, UNTAPPED = "☑", "☐"
COMPARED = "I compared my answer with the model answer and the common answers"


class _Rung(Box):
    """What every question shares: the lesson, the spec, the stored state, the feedback box."""

    hint = ""

    def __init__(self, lesson, spec):
        self.lesson, self.spec = int(lesson), spec
        self.feedback = widgets.HTML("")
        self.notice = notice_widget()
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
        set_classes(self.feedback, "lab-rung-feedback", verdict)
        body = text.paragraphs(said) if said else ""
        # Only feedback that answers the learner's own action is announced: a rung restored on
        # Run All would otherwise read every old answer aloud.
        self.feedback.value = live(body) if body and self._acting else body
        show(self.feedback, bool(said))

    @property
    def answered(self):
        return questions.answered(self.spec, self.state)

    def _render(self):
        self._render_parts()
        update_notice(self.notice, self.lesson)
        set_classes(self, *self._base, "lab-rung-answered" if self.answered else "")

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
            set_classes(button, "lab-rung-option", f"lab-rung-option-{i}",
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
        set_classes(self.box, "lab-rung-number-input")
        self.box.observe(lambda change: self._quiet or self.submit(), names="value")
        self.check = widgets.Button(description="Check", tooltip="Check the number typed")
        set_classes(self.check, "lab-rung-submit")
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
        set_classes(self.check, "lab-rung-submit")
        self.check.on_click(lambda _: self.submit())
        self.key_button = widgets.Button(description="Show the key",
                                         tooltip="Show which options fit, and why each one does or not")
        set_classes(self.key_button, "lab-rung-key")
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
            set_classes(button, "lab-rung-option", f"lab-rung-option-{i}",
                        "lab-rung-chosen" if i in picked else "", verdict)
        show(self.key_button, self._wrong_checks() >= 1 and not key and not (checked and right))
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
        set_classes(self.text, "lab-rung-open-text")
        self.text.observe(lambda change: self._quiet or self._remember(text=change["new"]),
                          names="value")
        nudge = widgets.HTML(f'<span class="lab-rung-label">Think about it: '
                             f'{text.inline(self.spec.nudge)}</span>')
        self.reveal = widgets.Button(description="Show a model answer",
                                     tooltip="Show or hide a model answer and the common ones")
        set_classes(self.reveal, "lab-reveal")
        self.reveal.on_click(lambda _: self.toggle())
        common = "".join(f"<li><b>{text.inline(answer)}</b> {text.inline(misses)}</li>"
                         for answer, misses in self.spec.common)
        self.body = widgets.HTML(
            f"<p><b>A model answer.</b></p>{text.paragraphs(self.spec.model_answer)}"
            f"<p><b>Common answers, and what each one misses</b></p><ul>{common}</ul>")
        set_classes(self.body, "lab-reveal-body")
        # A checkbox's description is the text of its <label>, so it is the box's accessible
        # name, and clicking the words ticks it; Tab reaches it and Space ticks it.
        self.compared = widgets.Checkbox(value=False, indent=False, description=COMPARED,
                                         tooltip="Tick once you have held your answer against "
                                                 "the model answer and the common answers",
                                         layout=widgets.Layout(width="auto"))
        set_classes(self.compared, "lab-rung-compared")
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
        show(self.body, revealed)
        self.reveal.description = "Hide the model answer" if revealed else "Show a model answer"
        self.reveal.disabled = not enough and not revealed
        self.reveal.tooltip = ("Show or hide a model answer and the common ones" if enough else
                               f"Opens once your answer has {questions.MIN_WORDS} words")
        self._set(self.compared, compared)
        # The tick is offered once there is something to compare with, and stays while ticked so
        # that it can be taken back.
        show(self.compared, revealed or compared)
        if compared and not enough:
            self._say(f"Write your answer in the box above, {questions.MIN_WORDS} words at least: "
                      "the question counts as answered once it has your answer and this tick.")
        else:
            self._say("")


KINDS = {"choice": ChoiceRung, "number": NumberRung, "multi": MultiRung, "open": OpenRung}
