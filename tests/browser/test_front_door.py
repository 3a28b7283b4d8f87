"""The learner's front door, in JupyterLab, in Chromium: a fresh `mywork/` made as `make lab`
makes it, served by `make lab`'s own command. Whichever address the learner opens (the one the
server prints, `/`, `/lab`), the first screen is the course's start page, rendered, showing no
progress yet. From it the learner opens lesson 01 by its link, answers its first question, and
back on the start page (reopened as a reload does) sees that answer counted, with no console
error and no broken widget throughout.
"""

import re
import subprocess

from lab import lessons

from labserver import VENV, JupyterLab, SetupFailed
from lab_page import LearnerSawProblem, NotebookPage, Problems
from test_every_lesson_in_browser import answer_rightly, rung_box

import pytest

START = "START.md"
WAIT_MS = 30_000

# () => what the main area shows in front: its tab's label, and the rendered Markdown's text if it
# is a Markdown preview.
_FRONT_JS = """
() => {
  const app = window.jupyterapp;
  if (!app || !app.shell.currentWidget) return null;
  const widget = app.shell.currentWidget;
  const rendered = widget.node.querySelector('.jp-RenderedMarkdown');
  const preview = widget.node.classList.contains('jp-MarkdownViewer')
    || !!widget.node.querySelector('.jp-MarkdownViewer');
  const editor = !!widget.node.querySelector('.jp-FileEditor');
  return {label: widget.title.label, preview: preview && !editor,
          text: rendered ? rendered.innerText : ''};
}
"""


def front(page):
    return page.evaluate(_FRONT_JS)


def wait_for_start_page(page, address, expect):
    """Wait until the main area shows START.md, rendered, with the text `expect` in it."""
    waited, seen = 0, None
    while waited < WAIT_MS:
        seen = front(page)
        if seen and seen["label"] == START and seen["preview"] and expect in seen["text"]:
            return seen["text"]
        page.wait_for_timeout(200)
        waited += 200
    shows = (f"the tab {seen['label']!r} in front" + ("" if seen["preview"] else ", not a preview")
             if seen else "no JupyterLab")
    raise LearnerSawProblem(f"opening {address}, the first screen should be the course's start page "
                            f"showing {expect!r}; it shows {shows}")


@pytest.fixture
def front_door(browser_tmp):
    """A fresh mywork/ (lab.learner.mywork, as start.py runs it) served by `make lab`'s JupyterLab."""
    base = browser_tmp / "front-door"
    folder = base / "mywork"
    done = subprocess.run([str(VENV / "bin" / "python"), "-m", "lab.learner.mywork", str(folder)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"python -m lab.learner.mywork failed: {done.stderr}", pytrace=False)
    server = JupyterLab(folder, base / "home")
    try:
        server.start(timeout=90)
    except SetupFailed as error:
        pytest.fail(str(error), pytrace=False)
    yield server, folder
    server.stop()


def test_a_new_learner_lands_on_the_start_page_and_sees_their_progress(front_door, browser, screenshots):
    server, folder = front_door
    printed = re.findall(r"http://127\.0\.0\.1:\d+(/\S*)", server.log.read_text())
    assert printed, "the server printed no address"
    first = lessons.written()[0]
    data = lessons.load(first)
    required = [s for s in data.RUNGS if not s.optional]
    page = None
    # /lab?reset first: /lab with no layout saved yet, as on a learner's first visit.
    for address in ("/lab?reset", printed[-1], "/", "/lab"):
        if page is not None:
            page.close()
        page = browser.new_page()
        page.problems = Problems().attach(page)
        page.goto(server.url + address, wait_until="domcontentloaded")
        text = wait_for_start_page(page, address, "Lessons done: 0 of")
        assert "not begun" in text and "**Next:**" not in text and f"Next: lesson {first:02d}" in text
        page.problems.check(page, f"the start page, opened at {address}")
    page.screenshot(path=str(screenshots / "01-start-page.png"))

    # The lesson, opened from the start page's map, and its first question answered.
    # Once JupyterLab has restored its layout and listed the folder, and the learner has read a
    # line: JupyterLab finishes opening the address's START.md after its layout is restored, and
    # a link clicked before that opens its notebook behind the start page.
    page.evaluate("() => window.jupyterapp.restored.then(() => true)")
    page.locator(".jp-DirListing-item").first.wait_for(state="visible")
    page.wait_for_timeout(1500)
    page.locator(".jp-MarkdownViewer .jp-RenderedMarkdown a", has_text=data.TITLE).first.click()
    nb = NotebookPage(page, server.url, data.NOTEBOOK, screenshots=screenshots)
    nb._opened(90)
    if front(page)["label"] != data.NOTEBOOK:
        raise LearnerSawProblem(f"clicking {data.TITLE!r} on the start page left "
                                f"{front(page)['label']!r} in front, not {data.NOTEBOOK}")
    spec = data.RUNGS[0]
    nb.run_cell(nb.cell_index(f'lab.rung({first}, "{spec.id}")'))
    answer_rightly(nb, spec)
    nb.screenshot("02-first-rung-answered", rung_box(nb, spec.id))
    page.problems.check(page, f"lesson {first}, after answering {spec.id}")

    # Back on the start page, as a reload brings it: the answer is counted there.
    row = f"1 of {len(required)} questions" if not spec.optional else "not begun"
    page.goto(server.url + "/lab", wait_until="domcontentloaded")
    text = wait_for_start_page(page, "/lab, after answering a question", row)
    assert "Questions answered: 1 of" in text
    page.screenshot(path=str(screenshots / "03-start-page-updated.png"))
    page.problems.check(page, "the start page, after a question was answered")
    page.close()
