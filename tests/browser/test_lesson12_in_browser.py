"""A learner's first twenty minutes with lesson 12, in JupyterLab, in Chromium.

The learner opens the learner's edition (the course's release of the master: stubs in the gaps,
no hidden tests, no outputs), runs all, answers rungs of every kind, opens a hint ladder, writes a
wrong `summarize` and then a right one, watches a later demonstration run on it, looks at Figure
12.1, then saves, restarts the kernel, reloads the page and finds their answers where they left
them; and restarts, saves and reloads once more. Throughout, the page must show no console error,
no "Error displaying widget" and no failed widget. A failure names the step, the rung or cell,
what was expected and what the page showed; the elapsed time of each step is printed with it.

Screenshots of the key moments: tests/browser/screenshots/<test name>/ (git-ignored). With
BROWSER_TEST_UPDATE_README_IMAGE=1 the answered rung's screenshot is also written to
docs/img/rung-answered.png, the picture the README shows.
"""

import os
import re
import shutil
import struct
import time

import nbformat

from labserver import REPO
from lesson12_learner import (RIGHT_SUMMARIZE, WRONG_SUMMARIZE, choose, compare,
                              every_rung_rendered, fill_gap, open_hints, plain, reveal, rung,
                              run_check, tap_and_check, type_number, write_answer)
from lab_page import LearnerSawProblem

README_IMAGE = REPO / "docs" / "img" / "rung-answered.png"
RUN_ALL_TIMEOUT = 90


def png_problem(path, max_bytes=100_000, max_width=1000, max_height=600):
    """None if `path` is a small PNG, fit for the README; else what is wrong with it."""
    if not path.exists():
        return f"{path} is missing"
    data = path.read_bytes()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    if len(data) > max_bytes or width > max_width or height > max_height:
        return f"{path} is not small: {width}x{height} pixels, {len(data)} bytes"
    return None


def test_the_readme_shows_a_small_picture_of_an_answered_rung(tmp_path):
    assert png_problem(README_IMAGE) is None
    big = tmp_path / "big.png"
    big.write_bytes(README_IMAGE.read_bytes()[:16] + struct.pack(">II", 2560, 1440) + b"\0" * 20)
    assert "is not small: 2560x1440" in png_problem(big)
    gif = tmp_path / "a.png"
    gif.write_bytes(b"GIF89a")
    assert "is not a PNG" in png_problem(gif)


def master_output(master, source):
    """The text the master copy saved for the code cell whose source is `source`."""
    for cell in nbformat.read(str(master), 4).cells:
        if cell.cell_type == "code" and cell.source == source:
            return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    raise LookupError("the master copy has no such cell")


# Each answer given in the test, as the rung shows it once given (and again after a restart).
ANSWERS = {
    "what-is-sent": ".lab-rung-option-1.lab-rung-chosen.lab-rung-right",
    "no-entry": ".lab-rung-option-0.lab-rung-chosen",
    "wall-count": ".lab-rung-feedback.lab-rung-right",
    "what-to-append": ".lab-reveal-body",
}
# ... and the open question's self-check, ticked.
COMPARED = ".lab-rung--what-to-append .lab-rung-compared input:checked"


def answers_missing(nb):
    """The answers given in the test that the page does not show, as sentences."""
    missing = [f"rung {rung_id} does not show its answer ({selector})"
               for rung_id, selector in ANSWERS.items()
               if not rung(nb, rung_id).locator(selector).first.is_visible()]
    for rung_id in ("what-is-sent", "wall-count", "no-entry", "what-to-append"):
        if "lab-rung-answered" not in (rung(nb, rung_id).get_attribute("class") or ""):
            missing.append(f"rung {rung_id} is not marked answered")
    if not nb.page.locator(COMPARED).is_visible():
        missing.append("rung what-to-append does not show its \"I compared\" tick ticked")
    typed = rung(nb, "wall-count").locator("input").input_value()
    if typed != "8":
        missing.append(f"rung wall-count holds {typed!r}, not '8'")
    missing += [f"hint {level} of lab 1 is closed" for level in (1, 2, 3)
                if not nb.page.locator(f".lab-hints--lab1 .lab-hint-body-{level}").is_visible()]
    return missing


def figure_problem(nb, cell):
    """None if the cell shows one loaded image of a useful size; else what it shows."""
    image = nb.cell(cell).locator(".jp-OutputArea-output img")
    if image.count() != 1:
        return f"cell {cell} shows {image.count()} images"
    image.scroll_into_view_if_needed()
    done, width, height = image.evaluate("(img) => [img.complete, img.naturalWidth,"
                                         " img.naturalHeight]")
    if not (done and width > 300 and height > 100):
        return f"cell {cell}'s image did not load ({width}x{height} pixels)"
    return None


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


def test_a_learners_first_twenty_minutes(learner_notebook, released_master, open_notebook,
                                         page):
    problems = page.problems
    started = time.monotonic()

    def phase(name):            # pytest shows these lines when the test fails
        print(f"{time.monotonic() - started:6.1f} s  {name}")

    # Open lesson 12 by its address, as a learner's bookmark does, and run all, as the
    # notebook's first lines tell a learner to.
    phase('Open lesson 12 and run all')
    nb = open_notebook(learner_notebook, by_url=True)
    nb.screenshot("opened")
    nb.run_all(RUN_ALL_TIMEOUT)
    assert nb.errors() == [], f"Run All left errors: {nb.errors()}"
    check1 = nb.cell_index("lab.check(12, lab=1")
    assert "Lab 1 is not done yet" in nb.output_text(check1)
    problems.check(page, "after Run All")
    unanswered = answers_missing(nb)                   # nothing is answered yet
    assert all(any(rung_id in line for line in unanswered) for rung_id in ANSWERS), unanswered

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
    tap_and_check(nb, "no-entry", [0])          # half right: how many are wrong, not which
    tap_and_check(nb, "no-entry", [2], wrong_before=1)
    nb.screenshot("multi-select", rung(nb, "no-entry"))

    # An open question's model answer.
    phase("An open question's model answer")
    write_answer(nb, "what-to-append", "A summary of the old rows, then the rows kept.")
    reveal(nb, "what-to-append")
    compare(nb, "what-to-append")               # it counts only once the learner has compared
    nb.screenshot("model-answer", rung(nb, "what-to-append"))

    # The three levels of lab 1's hint ladder.
    phase("The three levels of lab 1's hint ladder")
    open_hints(nb, 1)
    nb.screenshot("hints", page.locator(".lab-hints--lab1"))
    problems.check(page, "after answering the rungs")
    assert answers_missing(nb) == [], "; ".join(answers_missing(nb))

    # Lab 1: a wrong summarize, then a right one.
    phase('Lab 1: a wrong summarize, then a right one')
    gap = nb.cell_index("def summarize(model, messages):")
    trying = nb.cell_index('lab.trying("summarize")', after=gap)
    stub = write_gap(nb, gap, WRONG_SUMMARIZE)
    nb.run_cell(gap)
    nb.run_cell(trying)
    run_check(nb, check1, WRONG_SUMMARIZE)
    nb.screenshot("check-says-why", nb.cell(check1))
    try:                    # the check of the check: this verdict is not a right one's
        run_check(nb, check1, RIGHT_SUMMARIZE)
    except LearnerSawProblem:
        pass
    else:
        raise AssertionError("run_check accepted the wrong summarize's verdict as a right one's")

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
    master = master_output(released_master, source)
    shown = plain(nb.output_text(forty))
    # What it prints is the master's; the note under it says it ran on the learner's summarize
    # (and, with lab 2 not passed yet, on the reference for the rest).
    assert shown.startswith(plain(master)), \
        f"the forty-file run printed {nb.output_text(forty)!r} on the learner's summarize"
    assert "ran on: your summarize and the reference find_cut" in shown, \
        f"the forty-file run does not say it ran on the learner's summarize: {shown[-300:]!r}"
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
    assert figure_problem(nb, figure) is None, figure_problem(nb, figure)
    assert figure_problem(nb, figure - 1) == f"cell {figure - 1} shows 0 images"
    caption = nb.state()["cells"][figure + 1]
    assert caption["type"] == "markdown" and "**Figure 12.1**" in caption["source"]
    nb.screenshot("figure-12-1")
    problems.check(page, "after lab 1 and the figure")

    # Save, restart the kernel, reload the page, run all: the answers are still there.
    phase("Save, restart, reload")
    nb.save()
    nb.restart_kernel()
    reload_and_look(nb, "after saving, restarting and reloading")
    nb.screenshot("reloaded")
    nb.run_all(RUN_ALL_TIMEOUT)
    assert nb.errors() == [], f"Run All after the reload left errors: {nb.errors()}"
    missing = answers_missing(nb)
    assert missing == [], "over the restart and reload: " + "; ".join(missing)
    nb.screenshot("answers-kept")

    # The other order: restart, then save (Ctrl+S, or JupyterLab's autosave), then reload.
    phase("Restart, save, reload")
    nb.restart_kernel()
    nb.save()
    reload_and_look(nb, "after restarting, saving and reloading")
    nb.screenshot("reloaded-after-a-save")
    phase("done")
    problems.check(page, "over the whole session")


def reload_and_look(nb, moment):
    """Reload the page; once every saved widget has been drawn or has failed, note what the
    page shows (Problems.check reports it at the end)."""
    nb.reload()
    nb.page.wait_for_function("() => ![...document.querySelectorAll('.jp-OutputArea-output')]"
                              ".some(n => n.textContent.startsWith('Loading widget'))")
    nb.page.problems.note(nb.page, moment)
