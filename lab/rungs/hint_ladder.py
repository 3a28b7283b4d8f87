"""The hint ladder of a lab as an ipywidget: three buttons, each opening one more level of help,
and how many are open kept in the answer store, so that a restart shows the ladder as it was left.
"""

import ipywidgets as widgets

from . import store, text
from .widget_parts import STYLE, Box, notice_widget, set_classes, show, update_notice


class HintLadder(Box):
    """Three buttons, each opening one more level of help for a lab."""

    def __init__(self, lesson, spec):
        self.lesson, self.spec = int(lesson), spec
        self.buttons, self.bodies = [], []
        for level, (name, said) in enumerate(spec.levels, start=1):
            button = widgets.Button(description=f"Hint {level}: {name}",
                                    tooltip=f"Open hint {level} of lab {spec.lab}: {name}")
            button.on_click(lambda _, level=level: self.open_level(level))
            body = widgets.HTML(text.paragraphs(said))
            set_classes(body, "lab-hint-body", f"lab-hint-body-{level}")
            self.buttons.append(button)
            self.bodies.append(body)
        self.notice = notice_widget()
        parts = [widgets.HTML(STYLE),
                 widgets.HTML(f'<span class="lab-rung-label">Stuck on lab {spec.lab}? '
                              "Open one level at a time.</span>")]
        for button, body in zip(self.buttons, self.bodies):
            parts += [button, body]
        super().__init__(text.hints_text(lesson, spec), children=parts + [self.notice])
        set_classes(self, "lab-hints", f"lab-hints--lab{spec.lab}")
        self.opened = int(store.load(self.lesson)["hints"].get(str(spec.lab), 0) or 0)
        self._render()

    def open_level(self, level):
        """Open hint `level` (1, 2 or 3), as its button does; the levels before it open too."""
        self.opened = max(self.opened, min(int(level), 3))
        store.put(self.lesson, "hints", self.spec.lab, self.opened)
        self._render()

    def _render(self):
        for level, (button, body) in enumerate(zip(self.buttons, self.bodies), start=1):
            set_classes(button, "lab-hint-level", f"lab-hint-level-{level}",
                        "lab-hint-open" if level <= self.opened else "")
            button.disabled = level > self.opened + 1
            show(body, level <= self.opened)
        update_notice(self.notice, self.lesson)
