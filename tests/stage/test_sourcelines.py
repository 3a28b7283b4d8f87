"""A traceback through the reference harness, as a learner sees it in a notebook, quotes no
solution markers, while the course's generators still read them from the files."""

import linecache
import subprocess
import sys

from IPython.core.ultratb import VerboseTB

import harness
from lab.course import starters
from lab.runtime import sourcelines


def _failure_inside_a_marked_part():
    try:
        harness.context_for_model(None)    # its whole body is a solution part: it fails there
    except TypeError:
        return sys.exc_info()
    raise AssertionError("context_for_model(None) should fail inside the reference")


def test_a_verbose_traceback_through_the_reference_quotes_no_marker():
    etype, value, tb = _failure_inside_a_marked_part()
    text = VerboseTB(theme_name="nocolor", include_vars=False).text(etype, value, tb)
    assert "context_for_model" in text and "repair_tool_history" in text   # it does quote the lines
    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text


def test_lines_keep_their_numbers_and_the_generators_keep_their_markers():
    path = harness.loop.__file__
    on_disk = open(path, encoding="utf-8").read().splitlines()
    served = linecache.getlines(path)
    assert len(served) == len(on_disk)
    assert [l.rstrip("\n") for l in served] == ["" if l.strip() in sourcelines.MARKERS else l for l in on_disk]
    assert "### BEGIN SOLUTION" in starters._module_source("harness.loop")
    assert "# --- your code ---" in starters.text_at(starters.Stage(10, 1))


SHOW = """
import sys
{setup}
import harness
from IPython.core.ultratb import VerboseTB
try:
    harness.context_for_model(None)
except TypeError:
    print(VerboseTB(theme_name="nocolor", include_vars=False).text(*sys.exc_info()))
"""


def test_in_a_fresh_process_importing_lab_is_what_hides_them():
    # stack_data, under IPython's traceback, keeps the lines it has read: a fresh process each.
    for setup, markers in (("", True), ("import lab", False)):
        shown = subprocess.run([sys.executable, "-c", SHOW.format(setup=setup)], capture_output=True,
                               text=True, check=True).stdout
        assert "repair_tool_history" in shown
        assert ("BEGIN SOLUTION" in shown) is markers, (setup, shown)
