"""A learner's first twenty minutes with lesson 12, in JupyterLab, in Chromium.

The learner opens the learner's edition (what nbgrader's generate_assignment makes of the master),
runs all, answers rungs of every kind, opens a hint ladder, writes a wrong `summarize` and then a
right one, watches a later demonstration run on it, looks at Figure 12.1, then restarts the
kernel, reloads the page and finds their answers where they left them. Throughout, the page must
show no console error, no "Error displaying widget" and no failed widget.

Screenshots of the key moments: tests/browser/screenshots/<test name>/ (git-ignored). With
BROWSER_TEST_UPDATE_README_IMAGE=1 the answered rung's screenshot is also written to
docs/img/rung-answered.png, the picture the README shows.
"""

import os
import re
import shutil
import time

import nbformat

from labserver import REPO
from learner_edition import MASTER
from lesson12_learner import (RIGHT_SUMMARIZE, WRONG_SUMMARIZE, choose, every_rung_rendered,
                              fill_gap, open_hints, plain, reveal, rung, run_check,
                              tap_and_check, type_number)
from lab_page import LearnerSawProblem

README_IMAGE = REPO / "docs" / "img" / "rung-answered.png"
RUN_ALL_TIMEOUT = 90


def master_output(source):
    """The text the master copy saved for the code cell whose source is `source`."""
    for cell in nbformat.read(str(MASTER), 4).cells:
        if cell.cell_type == "code" and cell.source == source:
            return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    raise LookupError("the master copy has no such cell")


def write_gap(nb, cell, body, before="", stub=None):
    """Type the gap cell with its stub replaced by `body`, as a learner does, and make sure the
    notebook holds it. `stub` is the cell as the learner's edition had it (default: as it is).
    Returns that stub."""
    stub = stub or nb.state()["cells"][cell]["source"]
    wanted = fill_gap(stub, body, before)
    typed = nb.type_into_cell(cell, wanted)
    if typed != wanted:
        raise LearnerSawProblem(f"typing into cell {cell} left {typed!r}, not {wanted!r}")
    return stub


def test_a_learners_first_twenty_minutes(learner_notebook, open_notebook, page):
    problems = page.problems
    started = time.monotonic()

    def phase(name):            # pytest shows these lines when the test fails
        print(f"{time.monotonic() - started:6.1f} s  {name}")

    # Open lesson 12 and run all, as the notebook's first lines tell a learner to.
    phase('Open lesson 12 and run all')
    nb = open_notebook(learner_notebook)
    nb.screenshot("opened")
    nb.run_all(RUN_ALL_TIMEOUT)
    assert nb.errors() == [], f"Run All left errors: {nb.errors()}"
    check1 = nb.cell_index("lab.check(12, lab=1")
    assert "Lab 1 is not done yet" in nb.output_text(check1)
    problems.check(page, "after Run All")

    # Every rung and hint ladder is drawn.
    phase('Every rung and hint ladder is drawn')
    every_rung_rendered(nb)

    # A wrong option, then the right one, each with its own feedback.
    phase('A wrong option')
    choose(nb, "what-is-sent", 0)
    nb.screenshot("rung-wrong-option", rung(nb, "what-is-sent"))
    choose(nb, "what-is-sent", 1)
    answered = nb.screenshot("rung-answered", rung(nb, "what-is-sent"))
    if os.environ.get("BROWSER_TEST_UPDATE_README_IMAGE") == "1":
        README_IMAGE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(answered, README_IMAGE)

    # A number rung: a near miss, then the answer.
    phase('A number rung')
    type_number(nb, "wall-count", 9, press="Check")
    type_number(nb, "wall-count", 8)
    nb.screenshot("number-rung", rung(nb, "wall-count"))

    # The multi-select: the two cuts that must not be written.
    phase('The multi-select')
    tap_and_check(nb, "no-entry", [0, 2])
    nb.screenshot("multi-select", rung(nb, "no-entry"))

    # An open question's model answer.
    phase("An open question's model answer")
    reveal(nb, "what-to-append")
    nb.screenshot("model-answer", rung(nb, "what-to-append"))

    # The three levels of lab 1's hint ladder.
    phase("The three levels of lab 1's hint ladder")
    open_hints(nb, 1)
    nb.screenshot("hints", page.locator(".lab-hints--lab1"))
    problems.check(page, "after answering the rungs")

    # Lab 1: a wrong summarize, then a right one.
    phase('Lab 1: a wrong summarize, then a right one')
    gap = nb.cell_index("def summarize(model, messages):")
    trying = nb.cell_index('lab.trying("summarize")', after=gap)
    stub = write_gap(nb, gap, WRONG_SUMMARIZE)
    nb.run_cell(gap)
    nb.run_cell(trying)
    run_check(nb, check1, WRONG_SUMMARIZE)
    nb.screenshot("check-says-why", nb.cell(check1))

    write_gap(nb, gap, RIGHT_SUMMARIZE, before="summaries_written = []\n\n", stub=stub)
    nb.run_cell(gap)
    nb.run_cell(trying)
    shown = run_check(nb, check1, RIGHT_SUMMARIZE)
    assert "From here on harness runs on your summarize" in shown, shown
    nb.screenshot("check-passes", nb.cell(check1))

    # A later demonstration runs on the learner's summarize and prints what the master printed.
    phase("A later demonstration")
    forty = nb.cell_index("harness.maybe_compact(", after=check1)
    nb.run_cell(forty)
    source = nb.state()["cells"][forty]["source"]
    assert plain(nb.output_text(forty)) == plain(master_output(source)), \
        f"the forty-file run printed {nb.output_text(forty)!r} on the learner's summarize"
    probe = nb.insert_cell_below(
        forty, 'print(sum(m is writer for m in summaries_written), "of", len(compacted), '
               '"compactions were summarised by my summarize")')
    nb.run_cell(probe)
    said = nb.output_text(probe)
    counts = re.match(r"(\d+) of (\d+) compactions were summarised by my summarize", said)
    assert counts and counts[1] == counts[2] != "0", \
        f"the forty-file run did not call the learner's summarize for every compaction: {said!r}"
    nb.screenshot("demo-runs-on-yours", nb.cell(forty))

    # Figure 12.1 is an image, drawn, with its caption after it.
    phase('Figure 12.1 is an image')
    figure = nb.cell_index('title="Figure 12.1"')
    image = nb.cell(figure).locator(".jp-OutputArea-output img")
    assert image.count() == 1, "Figure 12.1's cell shows no image"
    image.scroll_into_view_if_needed()
    size = image.evaluate("(img) => [img.complete, img.naturalWidth, img.naturalHeight,"
                          " img.getBoundingClientRect().width]")
    assert size[0] and size[1] > 300 and size[2] > 100, f"Figure 12.1 did not load: {size}"
    caption = nb.state()["cells"][figure + 1]
    assert caption["type"] == "markdown" and "**Figure 12.1**" in caption["source"]
    nb.screenshot("figure-12-1")
    problems.check(page, "after lab 1 and the figure")

    # Save, restart the kernel, reload the page: the answers are still there.
    phase('Save, restart, reload')
    nb.save()
    nb.restart_kernel()
    page.reload()
    nb.open()
    page.wait_for_function("() => ![...document.querySelectorAll('.jp-OutputArea-output')]"
                           ".some(n => n.textContent.startsWith('Loading widget'))")
    problems.note(page, "after the restart and the reload")
    nb.screenshot("reloaded")
    nb.run_all(RUN_ALL_TIMEOUT)
    assert nb.errors() == [], f"Run All after the reload left errors: {nb.errors()}"
    restored = {
        "what-is-sent": ".lab-rung-option-1.lab-rung-chosen.lab-rung-right",
        "no-entry": ".lab-rung-option-0.lab-rung-chosen",
    }
    for rung_id, selector in restored.items():
        assert rung(nb, rung_id).locator(selector).count() == 1, \
            f"rung {rung_id} lost its answer over the restart and reload"
    for rung_id in ("what-is-sent", "wall-count", "no-entry"):
        box = rung(nb, rung_id)
        assert "lab-rung-answered" in box.get_attribute("class"), rung_id
        assert box.locator(".lab-rung-feedback").is_visible(), f"{rung_id} lost its feedback"
    assert rung(nb, "wall-count").locator("input").input_value() == "8"
    assert rung(nb, "what-to-append").locator(".lab-reveal-body").is_visible()
    for level in (1, 2, 3):
        assert page.locator(f".lab-hints--lab1 .lab-hint-body-{level}").is_visible(), level
    nb.screenshot("answers-kept")
    phase("done")
    problems.check(page, "over the whole session")
