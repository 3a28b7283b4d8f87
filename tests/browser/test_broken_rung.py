"""The learner test fails, naming the rung, when a rung's feedback is broken.

Each fault (faults.py) is put into a fresh copy of the learner's edition; the learner's step
"pick option (a) of what-is-sent and read its feedback" (the same function the learner test uses)
must then raise, saying what it expected and what the page showed. Only the cells up to that rung
are run, so each case takes a few seconds.
"""

import pytest

from faults import FAULTS, RUNG, break_rung
from lab_page import LearnerSawProblem
from lesson12_learner import choose, every_rung_rendered, plain, spec

EXPECTED = "Not this one. " + spec(RUNG).options[0].feedback
SHOWN = {
    "another-options-feedback": "Not this one. " + spec(RUNG).options[2].feedback,
    "no-feedback": None,
    "wrong-called-right": "Yes. " + spec(RUNG).options[0].feedback,
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_broken_rung_fails_the_learner_test(fault, course_root, copy_of_learner,
                                              open_notebook, page):
    path = copy_of_learner(f"broken-{fault}")
    break_rung(course_root / path, fault)
    nb = open_notebook(path)
    cell = nb.cell_index(f'lab.rung(12, "{RUNG}")')
    nb.select_cell(cell)
    nb.menu("Run", "Run All Above Selected Cell")
    nb.wait_for_run(60, cells=set(range(cell)))
    nb.run_cell(cell)
    with pytest.raises(LearnerSawProblem, match="not every rung was drawn after Run All: "
                                               "missing result-paid"):
        every_rung_rendered(nb)         # the cells below have not run: their rungs are missing
    with pytest.raises(LearnerSawProblem) as failure:
        choose(nb, RUNG, 0)
    message = str(failure.value)
    shown = ("nothing (it is hidden or absent)" if SHOWN[fault] is None
             else repr(plain(SHOWN[fault])))
    assert message == (f"rung {RUNG}: after picking (a) "
                       f"{plain(spec(RUNG).options[0].text)[:60]!r}, its feedback: expected "
                       f"{plain(EXPECTED)!r}; the page showed {shown}"), message
    page.problems.check(page, f"with the fault {fault}")
