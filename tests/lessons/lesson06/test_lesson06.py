"""Facts of lesson 06 that the suite every lesson runs does not cover: its stage props do what
their docstrings say, the wall's saved output shows the bill the text describes, Figure 6.1 is
drawn from the runs it names, and the cells after the lab switch to the learner's cuts and back."""

import nbformat
import pytest

import harness
import lab
from lab.runtime import takeover
from lab.lessons import build
from lab.lessons.lesson06 import figures as lesson_figures
from lab.lessons.lesson06 import wrong
from lab.lessons.lesson06.stage import (NOTES, at_lesson, bundle, harness_now, reads_on, remade,
                                        pytest_output)

from tests.lessons.conftest import by_id, stdout_of


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(6), as_version=4)


def test_bundle_is_one_line_of_exactly_the_size_asked():
    for size in (0, 1, 39, 300_000):
        text = bundle(size)
        assert len(text.encode()) == size and "\n" not in text
    assert bundle(1000) == bundle(1000)
    with pytest.raises(ValueError, match="bundle"):
        bundle(-1)


def test_test_run_prints_its_verdict_last():
    out = pytest_output(tests=50, failed=(3, 60))     # 60 is not a test of 50: ignored
    lines = out.splitlines()
    assert lines[1] == "collected 50 items"
    assert lines[-1].startswith("=") and "1 failed, 49 passed" in lines[-1]
    assert lines[-2] == "FAILED tests/test_parts.py::test_part_0003 - assert part(3) == 3"
    assert len(lines) == 2 + 50 + 1 + 1
    with pytest.raises(ValueError, match="pytest_output"):
        pytest_output(tests=0)


def test_notes_differ_in_bytes_not_in_lines():
    lines = NOTES.splitlines(keepends=True)
    assert len(lines) == 5
    assert len({len(line.encode()) - len(line) for line in lines}) == 5   # five different overheads


def test_reads_on_follows_the_notice_and_trusts_a_silent_cut():
    log = lab.big_log(lines=3000)
    h = at_lesson(6)
    count = lambda seen: f"{seen.count('ERR 503')} in {len(seen.splitlines())}"
    for cut, shape, said in ((h.truncate_head, "U A[c1] R(c1) A[c2] R(c2) A", f"{log.count('ERR 503')} in 3000"),
                             (wrong.head_counts_every_line, "U A[c1] R(c1) A", None)):
        read = remade(h.make_read_tool, truncate_head=cut)(lab.Workspace({"big.log": log}))
        messages = []
        reply = h.run_agent(lab.ScriptedModel([reads_on("big.log", count)]), h.SYSTEM, messages, [read], "Count.")
        assert lab.shape(messages) == shape
        if said:
            assert h.text_of(reply) == said
        else:
            assert h.text_of(reply) == count(log[:1785 * 28])


def test_remade_changes_only_the_names_given():
    h = at_lesson(6)
    ws = lab.Workspace({"a.txt": "x\n" * 3})
    plain = h.make_read_tool(ws, max_lines=2)["execute"]({"path": "a.txt"})
    swapped = remade(h.make_read_tool, truncate_head=wrong.head_counts_every_line)(ws, max_lines=2)
    assert plain.endswith("Use offset=3 to continue.]")
    assert swapped["execute"]({"path": "a.txt"}) == "x\nx\n"     # the wrong count hides the cut
    assert h.make_read_tool(ws, max_lines=2)["execute"]({"path": "a.txt"}) == plain


def test_the_wall_shows_the_bill_and_the_lab_shows_it_fall(master):
    wall = stdout_of(by_id(master, "demo-wall"))
    # Characters, not bytes: the wall must not name the unit the budget question asks for.
    assert "1,120,000 characters" in wall and "bytes" not in wall and "requests that carried it: 6 of 7" in wall
    again = stdout_of(by_id(master, "demo-wall-again"))
    assert "Use offset=1786 to continue." in again and "requests that carried it: 6 of 7" in again
    bills = [int(text.split("bill for the session    : ")[1].split()[0].replace(",", ""))
             for text in (wall, again)]
    assert bills[0] > 20 * bills[1]


def test_figure_is_drawn_from_the_results_it_names():
    rows = [("a", "x" * 100, "x" * 10), ("b", "é\n" * 4, "é\n")]
    measured = lesson_figures.measure(rows)
    assert measured == [("a", 100, 1, 10, 1), ("b", 12, 4, 3, 1)]
    fig, alt = lesson_figures.sizes(rows, budget=50)
    assert "a: 100 bytes in 1 line before, 10 bytes in 1 line after." in alt
    assert fig.get_facecolor()[:3] == (1.0, 1.0, 1.0)


def test_harness_now_runs_on_the_learners_cuts_once_installed():
    def mine(text, max_lines=2000, max_bytes=50_000):
        return "", 0
    try:
        takeover.install(truncate_head=mine, truncate_tail=mine)
        h = harness_now()
        assert h.truncate_head is mine and h.truncate_tail is mine
    finally:
        lab.use_reference(6)
    assert harness_now().truncate_head is not mine
    assert harness.truncate_head.__module__ == "harness.tools"
