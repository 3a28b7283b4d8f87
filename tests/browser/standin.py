"""A small notebook of ipywidgets that stands in for a lesson when the browser machinery itself is
under test: the failure checks (a broken widget, a console error, windowing) run on it, so they do
not depend on the lesson's content."""

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

RUNG = '''\
import ipywidgets as widgets
from IPython.display import display

choice = widgets.ToggleButtons(options=["wrong", "right"], value=None)
feedback = widgets.HTML()
feedback.add_class("standin-feedback")
def said(change):
    feedback.value = {"wrong": "That one misses.", "right": "Yes."}[change["new"]]
choice.observe(said, names="value")
box = widgets.VBox([choice, feedback])
box.add_class("standin-rung")
display(box)'''

NUMBER = '''\
number = widgets.IntText(value=0)
number.add_class("standin-number")
display(number)'''

BOTTOM = '''\
bottom = widgets.Checkbox(description="far below the fold")
bottom.add_class("standin-bottom")
display(bottom)'''


def standin_notebook(extra_cells=()):
    cells = [new_markdown_cell("# Stand-in lesson"), new_code_cell(RUNG), new_code_cell(NUMBER)]
    # Enough text that the last cell is several screens below the first: with JupyterLab's
    # default windowing it would not be drawn until scrolled to.
    cells += [new_markdown_cell(f"## Filler {n}\n\n" + "A paragraph of filler. " * 60)
              for n in range(25)]
    cells += [new_code_cell(BOTTOM), *[new_code_cell(source) for source in extra_cells]]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    return nb


def write_standin(path, extra_cells=()):
    nbformat.write(standin_notebook(extra_cells), str(path))
    return path
