"""What the rung widgets (widgets.py) and the hint ladder (hint_ladder.py) are built from: their
CSS, the box whose text/plain form is fixed, and the small steps every one of them takes (setting
its classes, showing or hiding a part, announcing feedback, the notice about the answers file).

Every colour comes from JupyterLab's theme variables (with the light theme's values as fallbacks
where no theme is loaded), so the text keeps its contrast in light, dark and high-contrast
themes.
"""

import ipywidgets as widgets

from . import store, text

STYLE = """<style>
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


def set_classes(widget, *names):
    """Give `widget` exactly the CSS classes `names`, in order, leaving out the empty ones."""
    widget._dom_classes = tuple(dict.fromkeys(n for n in names if n))


def show(widget, visible):
    """Show `widget`, or hide it (display: none) so that it takes no room."""
    widget.layout.display = None if visible else "none"


def live(html):
    """`html` inside a live region, so that a screen reader reads it when it appears."""
    return f'<div role="status" aria-live="polite" aria-atomic="true">{html}</div>'


class Box(widgets.VBox):
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


def notice_widget():
    """The line that tells the learner about their answers file; hidden while there is nothing."""
    widget = widgets.HTML("")
    set_classes(widget, "lab-rung-notice")
    return widget


def update_notice(widget, lesson):
    """Put in `widget` what the learner should know now about `lesson`'s answers file, if anything."""
    said = store.notice(lesson)
    widget.value = live(text.inline(said)) if said else ""
    show(widget, bool(said))
