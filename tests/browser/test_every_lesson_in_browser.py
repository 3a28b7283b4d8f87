"""Every written lesson, in JupyterLab, in Chromium: its learner's edition (the course's release of
the master) opens, the lesson's first rung is answered the right way, the kernel restarts, the
rung comes back with its answer, and after Run All lab 1's check cell reports that the lab is not
done yet — with no console error, no "Error displaying widget" and no failed widget on the page
throughout.

Lesson 12's longer walk (every kind of rung, a wrong and a right gap, reloads) is
test_lesson12_in_browser.py; this one is what every lesson must pass.

The walks share one tab, as a learner going from lesson to lesson does: each opens its lesson in
the JupyterLab the tab already shows, after closing the last lesson and shutting its kernel down
(the open_notebook fixture), with a record of console errors of its own.
"""

import pytest

from lab import lessons
from lab.lessons import build

from lab_page import LearnerSawProblem
from learner_edition import learner_edition

FEEDBACK_TIMEOUT = 10
RUN_ALL_TIMEOUT = 180


def rung_box(nb, rung_id):
    return nb.page.locator(f".lab-rung--{rung_id}")


def answer_rightly(nb, spec):
    """Answer the rung `spec` (lesson data) as its data says is right, through the page."""
    box = rung_box(nb, spec.id)
    box.scroll_into_view_if_needed()
    if spec.kind == "choice":
        right = next(i for i, option in enumerate(spec.options) if option.right)
        box.locator(f".lab-rung-option-{right}").click()
    elif spec.kind == "number":
        field = box.locator(".lab-rung-number-input input")
        field.fill(str(spec.answer))
        field.press("Enter")
    elif spec.kind == "multi":
        for index, tick in enumerate(spec.ticks):
            if tick.fits:
                box.locator(f".lab-rung-option-{index}").click()
        box.locator(".lab-rung-submit").click()
    else:
        box.locator("textarea").fill("The record stays; the view is computed.")
        box.locator(".lab-reveal").first.click()
        # An open question counts once the learner ticks that they compared their answer.
        tick = box.locator(".lab-rung-compared input[type=checkbox]")
        tick.wait_for(state="visible", timeout=FEEDBACK_TIMEOUT * 1000)
        tick.check()
    answered(nb, spec, "after answering it")


def answered(nb, spec, moment):
    """Wait until the rung shows itself answered: its feedback or model answer visible, and the
    rung marked lab-rung-answered."""
    box = rung_box(nb, spec.id)
    shown = box.locator(".lab-reveal-body" if spec.kind == "open" else ".lab-rung-feedback").first
    waited = 0
    while waited < FEEDBACK_TIMEOUT * 1000:
        if (shown.count() and shown.is_visible() and shown.inner_text().strip()
                and "lab-rung-answered" in (box.get_attribute("class") or "")):
            return
        nb.page.wait_for_timeout(100)
        waited += 100
    raise LearnerSawProblem(f"rung {spec.id}, {moment}: no feedback or answer is shown, or the "
                            "rung is not marked answered")


@pytest.mark.parametrize("lesson", lessons.written(), ids=lambda n: f"lesson{n:02d}")
def test_a_learner_answers_a_rung_restarts_and_runs_a_check(lesson, course_root, released_course,
                                                            open_notebook, page):
    data = lessons.load(lesson)
    path = learner_edition(course_root / f"walk{lesson:02d}", released_course,
                           master=build.notebook_path(lesson))
    nb = open_notebook(f"walk{lesson:02d}/{path.name}")
    first = data.RUNGS[0]
    cell = nb.cell_index(f'lab.rung({lesson}, "{first.id}")')
    nb.run_cell(cell)
    answer_rightly(nb, first)
    nb.screenshot(f"lesson{lesson:02d}-rung-answered", rung_box(nb, first.id))
    page.problems.check(page, f"lesson {lesson}, after answering rung {first.id}")

    nb.restart_kernel()
    nb.run_all(timeout=RUN_ALL_TIMEOUT)
    answered(nb, first, "after a kernel restart and Run All")

    check = nb.cell_index(f"lab.check({lesson}, lab=1)")
    shown = nb.output_text(check)
    if "not done yet" not in shown and "not started" not in shown:
        raise LearnerSawProblem(f"lesson {lesson}: lab 1's check cell on the untouched edition "
                                f"should say the lab is not done yet; it showed {shown[:300]!r}")
    page.problems.check(page, f"lesson {lesson}, after the check cell")
