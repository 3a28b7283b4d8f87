"""Ways to break a rung's feedback in a copy of the learner's edition, to show that the browser
test notices. Each fault is a code cell put first in the copy: Run All runs it before anything
else, and it changes what `lab.rung(12, "what-is-sent")` shows when option (a) is picked. Nothing
outside the copy is touched.

    python -m pytest tests/browser -k broken            # the quick test of each fault
    BROWSER_TEST_BREAK_RUNG=another-options-feedback \\
        python -m pytest tests/browser -k first_twenty   # the whole learner test, on a broken copy
"""

import nbformat

RUNG = "what-is-sent"

_PATCH_DATA = '''\
# Browser-test fault "{name}": {what}
import dataclasses
import lab.lessons.lesson12 as _data

def _break(spec):
    options = list(spec.options)
{change}
    return dataclasses.replace(spec, options=tuple(options))

_data.RUNGS = tuple(_break(s) if s.id == "{rung}" else s for s in _data.RUNGS)'''

FAULTS = {
    "another-options-feedback": (
        "option (a) shows the feedback written for option (c)",
        _PATCH_DATA.format(
            name="another-options-feedback", rung=RUNG,
            what="option (a) shows the feedback written for option (c)",
            change="    options[0] = dataclasses.replace(options[0],\n"
                   "                                     feedback=options[2].feedback)")),
    "no-feedback": (
        "a picked option shows no feedback at all",
        '# Browser-test fault "no-feedback": a picked option shows no feedback at all\n'
        "import lab.rungs\n"
        "lab.rungs.ChoiceRung._say = lambda self, text, right=None: None"),
    "wrong-called-right": (
        "the wrong option (a) is marked as the right one",
        _PATCH_DATA.format(
            name="wrong-called-right", rung=RUNG,
            what="the wrong option (a) is marked as the right one",
            change="    options[0] = dataclasses.replace(options[0], right=True)")),
}


def break_rung(path, fault):
    """Put the fault's cell first in the notebook at `path`."""
    if fault not in FAULTS:
        raise KeyError(f"no fault {fault!r}; the faults are: {', '.join(FAULTS)}")
    nb = nbformat.read(str(path), 4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(FAULTS[fault][1]))
    nbformat.write(nb, str(path))
    return path
