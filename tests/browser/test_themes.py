"""Lesson 12's rungs in JupyterLab Light, Dark and Dark High Contrast: readable, and usable from
the keyboard.

For each theme the learner's edition is opened on a fresh copy, a rung is answered wrong and then
right, a hint is opened, a check cell and a diff are run, and a figure is drawn. After each step
every piece of text in what was shown has its WCAG contrast ratio computed from the page's
computed styles: the text colour against the first background, walking up its ancestors, that is
not transparent (layers with alpha are blended over what is under them). Below 4.5:1 fails, with
the text, its colours and the ratio named. Disabled controls are left out, as WCAG leaves them out.

One more test answers a choice, a number, an open question and a hint ladder from the keyboard
alone: Tab to the control, Enter or Space to press it.

The themes share the session's one JupyterLab; the theme is switched with JupyterLab's own command
(apputils:change-theme) and put back to Light afterwards, since the choice is saved in the
server's settings. One screenshot per theme of the answered rung goes to the test's screenshot
folder; with BROWSER_TEST_UPDATE_README_IMAGE=1 the dark one is also written to
docs/img/rung-answered-dark.png, the picture the README shows beside the light one.
"""

import os
import shutil

import pytest

from labserver import REPO
from lab_page import LearnerSawProblem
from lesson12_learner import choose, plain, rung, spec, wait_for_text
from test_lesson12_in_browser import png_problem

DARK_IMAGE = REPO / "docs" / "img" / "rung-answered-dark.png"
AA = 4.5
THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark",
          "high-contrast": "JupyterLab Dark High Contrast"}

# (selector) => [{text, fg, bg, ratio}] for every visible piece of text under the first element
# matching `selector`. Colours are read through a 1x1 canvas, which takes any CSS colour the
# browser computes (rgb(), rgba(), color(srgb ...) from color-mix) and gives back sRGB bytes.
_CONTRAST_JS = r"""
(selector) => {
  const root = document.querySelector(selector);
  if (!root) return null;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const rgba = (colour) => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = 'rgba(0, 0, 0, 0)';
    ctx.fillStyle = colour;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3]))
    .concat([1]);
  const background = (el) => {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];      // the canvas a page is drawn on
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const hex = (c) => '#' + c.slice(0, 3).map(v => Math.round(v).toString(16).padStart(2, '0'))
    .join('');
  const found = [];
  for (const el of [root, ...root.querySelectorAll('*')]) {
    const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('')
      .replace(/\s+/g, ' ').trim();
    if (!own || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible' || el.closest('button:disabled, [style*="display: none"]'))
      continue;
    const bg = background(el);
    const fg = over(rgba(style.color), bg);
    const [a, b] = [luminance(fg), luminance(bg)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    found.push({text: own.slice(0, 50), fg: hex(fg), bg: hex(bg), ratio});
  }
  return found;
}
"""

# (name) => whether the page now shows theme `name`, its CSS applied.
_THEME_IS_JS = """
(name) => document.body.dataset.jpThemeName === name
  && getComputedStyle(document.body).getPropertyValue('--jp-layout-color0').trim() !== ''
"""


def set_theme(page, name, timeout=30):
    """Switch JupyterLab to theme `name` with its own command, as Settings > Theme does."""
    page.evaluate("(name) => window.jupyterapp.commands.execute('apputils:change-theme', "
                  "{theme: name})", name)
    page.wait_for_function(_THEME_IS_JS, arg=name, timeout=timeout * 1000)
    page.wait_for_timeout(300)     # the theme's stylesheet swaps in; let the page repaint


def contrast(page, selector, moment, measured):
    """Measure every text under `selector`; add the lowest ratio to `measured`; return the
    pieces of text below AA, as sentences."""
    found = page.evaluate(_CONTRAST_JS, selector)
    if not found:
        raise LearnerSawProblem(f"{moment}: nothing with text under {selector} to measure")
    worst = min(found, key=lambda item: item["ratio"])
    measured[moment] = round(worst["ratio"], 2)
    groups = {}                       # one line per pair of colours, naming its first text
    for item in found:
        if item["ratio"] < AA:
            groups.setdefault((item["fg"], item["bg"]), []).append(item)
    return [f"{moment}: {items[0]['text']!r}" + (f" and {len(items) - 1} more" if items[1:] else "")
            + f" is {fg} on {bg}, {items[0]['ratio']:.2f}:1 (AA asks for {AA}:1)"
            for (fg, bg), items in groups.items()]


def figure_background(page, cell):
    """The alpha and the grey level of the top-left pixel of the figure a cell drew."""
    image = cell.locator("img").first
    image.wait_for()
    return page.evaluate("""(img) => {
        const c = document.createElement('canvas');
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(2, 2, 1, 1).data;
        return [d[3], (d[0] + d[1] + d[2]) / 3];
    }""", image.element_handle())


@pytest.fixture
def light_again(page):
    """Whatever a test does to the theme, the next test starts in JupyterLab Light."""
    yield
    try:
        set_theme(page, THEMES["light"])
    except Exception:          # the page may be gone after a failure; the theme is in settings
        pass


@pytest.mark.parametrize("theme", list(THEMES))
def test_every_text_of_a_lesson_is_readable(theme, open_notebook, copy_of_learner, page,
                                            light_again, capsys):
    name = THEMES[theme]
    nb = open_notebook(copy_of_learner(f"theme-{theme}"))
    set_theme(page, name)
    measured, low = {}, []

    first = nb.cell_index('lab.rung(12, "what-is-sent")')
    nb.run_cell(first)
    box = ".lab-rung--what-is-sent"
    low += contrast(page, box, "rung unanswered", measured)
    wrong = next(i for i, o in enumerate(spec("what-is-sent").options) if not o.right)
    right = next(i for i, o in enumerate(spec("what-is-sent").options) if o.right)
    choose(nb, "what-is-sent", wrong)
    low += contrast(page, box, "rung answered wrong", measured)
    choose(nb, "what-is-sent", right)
    low += contrast(page, box, "rung answered right", measured)
    shot = nb.screenshot(f"rung-answered-{theme}", rung(nb, "what-is-sent"))

    ladder = nb.cell_index("lab.hints(12, lab=1)")
    nb.run_cell(ladder)
    hints = page.locator(".lab-hints--lab1")
    hints.locator(".lab-hint-level-1").click()
    wait_for_text(nb, hints.locator(".lab-hint-body-1"), spec_hint(1), 10,
                  "hints of lab 1: after pressing level 1, its text")
    low += contrast(page, ".lab-hints--lab1", "hint opened", measured)

    diff = nb.cell_index('lab.show_diff("11", "12.1")')
    nb.run_cell(diff)
    low += contrast(page, ".lab-diff", "diff", measured)

    for needle in ("from harness import SUMMARY_SYSTEM", "def summarize(model, messages):"):
        nb.run_cell(nb.cell_index(needle))
    check = nb.cell_index("lab.check(12, lab=1)")
    nb.run_cell(check)
    if "not done yet" not in plain(nb.output_text(check)):
        raise LearnerSawProblem(f"the lab 1 check said {nb.output_text(check)!r}")
    check_output = f".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell:nth-child({check + 1}) " \
                   ".jp-OutputArea"
    low += contrast(page, check_output, "check cell", measured)

    figure = nb.cell_index("lab.draw_log(log, 35")
    nb.run_cell(figure)
    alpha, grey = figure_background(page, nb.cell(figure))

    with capsys.disabled():
        print(f"\n{name}: lowest contrast " + ", ".join(f"{k} {v}" for k, v in measured.items())
              + f"; figure background alpha {alpha}, grey {grey:.0f}")
    if theme == "dark" and os.environ.get("BROWSER_TEST_UPDATE_README_IMAGE") == "1":
        shutil.copyfile(shot, DARK_IMAGE)
    nb.page.problems.check(page, f"in {name}")
    assert not low, f"text below WCAG AA in {name}:\n  " + "\n  ".join(low)
    assert alpha == 255 and grey > 200, (
        f"in {name} the figure's background is alpha {alpha}, grey {grey:.0f}: a figure must "
        "draw its own white background to stay readable on a dark page")


def spec_hint(level):
    from lab.lessons import lesson12
    return lesson12.HINTS[1].levels[level - 1][1]


# () => a short description of the element that has the keyboard's focus.
_FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el) return '';
  const box = el.closest('.lab-rung, .lab-hints');
  const where = box ? [...box.classList].find(c => /^lab-(rung|hints)--/.test(c)) : 'outside';
  return `${where} ${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
}"""


def tab_to(page, wanted, limit=60):
    """Press Tab until the focused element's description contains every word of `wanted`;
    return the descriptions passed through on the way."""
    passed = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(_FOCUSED_JS)
        passed.append(focused)
        if all(word in focused for word in wanted.split()):
            return passed
    raise LearnerSawProblem(f"{limit} presses of Tab never reached {wanted!r}; focus went "
                            f"through {passed[-12:]}")


def test_a_rung_answered_from_the_keyboard_alone(open_notebook, copy_of_learner, page):
    nb = open_notebook(copy_of_learner("theme-keyboard"))
    first = nb.cell_index('lab.rung(12, "what-is-sent")')
    nb.run_cell(first)                   # select the cell and Ctrl+Enter: the keyboard already
    item = spec("what-is-sent")
    right = next(i for i, o in enumerate(item.options) if o.right)

    # Every option is reached by Tab, in order, starting from the notebook.
    passed = tab_to(page, f"lab-rung--what-is-sent lab-rung-option-{len(item.options) - 1}")
    reached = [p for p in passed if "lab-rung--what-is-sent" in p]
    want = [f"lab-rung-option-{i}" for i in range(len(item.options))]
    got = [next((w for w in want if w in p), p) for p in reached]
    assert got == want, f"Tab went through {got}, not every option in turn ({want})"
    for _ in range(len(item.options) - 1 - right):
        page.keyboard.press("Shift+Tab")
    assert f"lab-rung-option-{right}" in page.evaluate(_FOCUSED_JS)
    page.keyboard.press("Space")
    box = rung(nb, "what-is-sent")
    wait_for_text(nb, box.locator(".lab-rung-feedback"), "Yes. " + item.options[right].feedback,
                  10, "rung what-is-sent, answered with Space")
    live = box.locator('.lab-rung-feedback [role="status"][aria-live="polite"]')
    assert live.count() == 1, "the feedback of a keyboard answer is not in a live region"
    assert "✓" in box.locator(f".lab-rung-option-{right}").inner_text(), \
        "the right option is marked by colour alone"

    # A number, typed and sent with Enter after reaching its box by Tab.
    number = nb.cell_index('lab.rung(12, "tail-start")')
    nb.run_cell(number)
    tab_to(page, "lab-rung--tail-start input")
    label = page.evaluate("() => document.activeElement.labels && "
                          "[...document.activeElement.labels].map(l => l.textContent).join(' ')")
    assert label, "the number box has no label a screen reader could read"
    answer = spec("tail-start").answer
    page.keyboard.type(str(answer))
    page.keyboard.press("Enter")
    wait_for_text(nb, rung(nb, "tail-start").locator(".lab-rung-feedback"),
                  "Yes. " + spec("tail-start").right, 10, "rung tail-start, typed and Enter")
    page.keyboard.press("Tab")
    assert "lab-rung--tail-start button" in page.evaluate(_FOCUSED_JS)
    assert "lab-rung-submit" in page.evaluate(_FOCUSED_JS), "Tab does not reach Check"

    # An open question: write in its text area, Tab to the reveal button, press Enter.
    question = nb.cell_index('lab.rung(12, "colleague")')
    nb.run_cell(question)
    tab_to(page, "lab-rung--colleague textarea")
    page.keyboard.type("One line was added; nothing was deleted.")
    # The button opens once the kernel has counted the words; a learner sees it light up first.
    page.wait_for_function(
        "() => { const b = document.querySelector('.lab-rung--colleague .lab-reveal');"
        " return b !== null && !b.disabled; }")
    page.keyboard.press("Tab")
    assert "lab-reveal" in page.evaluate(_FOCUSED_JS), "Tab does not reach the reveal button"
    page.keyboard.press("Enter")
    rung(nb, "colleague").locator(".lab-reveal-body").wait_for(state="visible")

    # A hint level, opened with Enter.
    ladder = nb.cell_index("lab.hints(12, lab=1)")
    nb.run_cell(ladder)
    tab_to(page, "lab-hints--lab1 lab-hint-level-1")
    page.keyboard.press("Enter")
    wait_for_text(nb, page.locator(".lab-hints--lab1 .lab-hint-body-1"), spec_hint(1), 10,
                  "hints of lab 1, level 1 opened with Enter")
    nb.page.problems.check(page, "answering from the keyboard")


def test_the_readme_shows_a_small_dark_picture_beside_the_light_one():
    assert png_problem(DARK_IMAGE) is None
    readme = (REPO / "README.md").read_text()
    assert "docs/img/rung-answered-dark.png" in readme


def test_no_news_prompt_stands_over_a_first_start():
    """jupyter/overrides.json turns the news prompt and the update check off, with names and
    values the installed JupyterLab's own settings schema knows (a misspelt key is ignored
    silently by JupyterLab, so the test reads the schema)."""
    import json
    overrides = json.loads((REPO / "jupyter" / "overrides.json").read_text())
    plugin = "@jupyterlab/apputils-extension:notification"
    assert overrides[plugin] == {"fetchNews": "false", "checkForUpdates": False}
    package, name = plugin.split(":")
    schema_file = REPO / ".venv" / "share" / "jupyter" / "lab" / "schemas" / package / f"{name}.json"
    schema = json.loads(schema_file.read_text())["properties"]
    assert "false" in [choice["const"] for choice in schema["fetchNews"]["oneOf"]]
    assert schema["checkForUpdates"]["type"] == "boolean"
