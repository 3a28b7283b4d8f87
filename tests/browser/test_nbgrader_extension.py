"""nbgrader's JupyterLab extension on the JupyterLab the project pins (nbgrader #1948: 0.9.4 did
not install on JupyterLab 4.3+, an @jupyter/ydoc conflict). Findings:
docs/browser-and-nbgrader-extension.md.

An instructor runs JupyterLab from the nbgrader course directory (the formgrader takes its course
root from the working directory, and it must lie inside the directory JupyterLab serves). The
tests do that with a small course of their own, then check what an instructor sees: every nbgrader
plugin active, the Nbgrader menu, the formgrader listing the assignment, the Create Assignment
panel reading the cells' grading metadata, and nothing in the console.
"""

import os
import re
import subprocess
import textwrap

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from labserver import JUPYTER, JupyterLab
from lab_page import NotebookPage

PLUGINS = ["@jupyter/nbgrader:menu", "@jupyter/nbgrader:formgrader",
           "@jupyter/nbgrader:assignment-list", "@jupyter/nbgrader:course-list",
           "@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:validate-assignment"]
MENU = ["Assignment List", "Course List", "Formgrader", "Create assignment"]
FORMGRADER_ERROR = "Sorry, the formgrader encountered an error"


def nbgrader_in_labextension_list(text):
    """'OK', or what is wrong, from the text of `jupyter labextension list`."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)              # its colours
    line = next((l for l in text.splitlines() if "@jupyter/nbgrader" in l and " v" in l), None)
    if line is None:
        return "@jupyter/nbgrader is not installed"
    if not re.search(r"\benabled\s+OK\b", line):
        return f"listed as {line.strip()!r}" + (
            ": " + " ".join(text.split("is not compatible", 1)[1].split()[:12])
            if "is not compatible" in text else "")
    return "OK"


# What nbgrader 0.9.4 showed on JupyterLab 4.3.4, quoted in nbgrader #1948.
ISSUE_1948 = textwrap.dedent("""\
    JupyterLab v4.3.4
    /opt/testing_nbgrader/venv/share/jupyter/labextensions
            jupyterlab_pygments v0.3.0 enabled OK (python, jupyterlab_pygments)
            @jupyter-widgets/jupyterlab-manager v5.0.13 enabled OK (python, jupyterlab_widgets)
            @jupyter/nbgrader v0.9.4 enabled  X
            @jupyter-notebook/lab-extension v7.3.2 enabled OK


    "@jupyter/nbgrader@0.9.4" is not compatible with the current JupyterLab
    Conflicting Dependencies:
    JupyterLab    Extension         Package
    >=3.0.0-a3 <4.0.0>=2.0.0 <3.0.0    @jupyter/ydoc
    """)


def test_the_labextension_list_check_catches_issue_1948():
    verdict = nbgrader_in_labextension_list(ISSUE_1948)
    assert verdict.startswith("listed as '@jupyter/nbgrader v0.9.4 enabled  X'")
    assert "@jupyter/ydoc" in verdict or "Conflicting" in verdict
    assert nbgrader_in_labextension_list("JupyterLab v4.6.6\n") == \
        "@jupyter/nbgrader is not installed"


def test_jupyter_labextension_list_says_nbgrader_is_compatible(tmp_path):
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path), JUPYTER_DATA_DIR=str(tmp_path))
    done = subprocess.run([str(JUPYTER), "labextension", "list"], capture_output=True,
                          text=True, timeout=60, env=env)
    text = done.stdout + done.stderr
    assert nbgrader_in_labextension_list(text) == "OK", text
    assert "JupyterLab v4.6.6" in text


def course_notebook():
    """A notebook with one nbgrader solution cell and one autograded test cell."""
    answer = new_code_cell("def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n"
                           "    ### END SOLUTION")
    answer.metadata["nbgrader"] = {"grade": False, "grade_id": "double", "locked": False,
                                   "schema_version": 3, "solution": True, "task": False}
    check = new_code_cell("assert double(2) == 4\n### BEGIN HIDDEN TESTS\n"
                          "assert double(0) == 0\n### END HIDDEN TESTS")
    check.metadata["nbgrader"] = {"grade": True, "grade_id": "check_double", "locked": True,
                                  "points": 1, "schema_version": 3, "solution": False,
                                  "task": False}
    nb = new_notebook(cells=[new_markdown_cell("# Practice"), answer, check])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    return nb


def formgrader_problem(page):
    """None if the formgrader tab shows its assignment table, else what it shows instead."""
    frame = page.frame_locator("#formgrader iframe, iframe").first
    frame.locator("text=Manage Assignments").first.wait_for()
    body = frame.locator("body")
    page.wait_for_function(
        "() => [...document.querySelectorAll('iframe')].some(f => f.contentDocument && "
        "(f.contentDocument.body.innerText.includes('Add new assignment') || "
        "f.contentDocument.body.innerText.includes('%s')))" % FORMGRADER_ERROR)
    text = body.inner_text()
    if FORMGRADER_ERROR in text:
        return " ".join(text[text.index(FORMGRADER_ERROR):].split()[:30])
    return None


@pytest.fixture
def instructor_lab(tmp_path):
    """JupyterLab as an instructor starts it: from the course directory, serving it."""
    course = tmp_path / "course"
    (course / "source" / "practice").mkdir(parents=True)
    nbformat.write(course_notebook(), str(course / "source" / "practice" / "practice.ipynb"))
    (course / "nbgrader_config.py").write_text(
        'c = get_config()\nc.CourseDirectory.course_id = "harness-course"\n')
    server = JupyterLab(course, tmp_path / "home", cwd=course,
                        program=[str(JUPYTER), "lab", "--notebook-dir=."])
    server.start(timeout=90)
    yield server
    server.stop()


def test_an_instructor_gets_every_nbgrader_tool_in_jupyterlab(instructor_lab, page, screenshots):
    notebook = NotebookPage(page, instructor_lab.url, "source/practice/practice.ipynb",
                            screenshots=screenshots)
    notebook.open()
    states = page.evaluate("(ids) => ids.map(id => [id, window.jupyterapp.hasPlugin(id),"
                           " window.jupyterapp.isPluginActivated(id)])", PLUGINS)
    inactive = [plugin for plugin, known, active in states if not (known and active)]
    assert not inactive, f"nbgrader plugins not active in JupyterLab: {inactive}"

    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Nbgrader$")).click()
    items = page.locator(".lm-Menu-content .lm-Menu-itemLabel").all_inner_texts()
    page.keyboard.press("Escape")
    assert [i for i in MENU if i not in items] == [], f"the Nbgrader menu holds {items}"

    notebook.menu("Nbgrader", "Create assignment")
    types = page.locator(".nbgrader-CellType select")
    types.first.wait_for()
    chosen = types.evaluate_all("(selects) => selects.map(s => s.options[s.selectedIndex].text)")
    assert chosen == ["-", "Autograded answer", "Autograded tests"], chosen
    notebook.screenshot("create-assignment")

    notebook.menu("Nbgrader", "Formgrader")
    assert formgrader_problem(page) is None
    table = page.frame_locator("iframe").first.locator("table").first
    try:
        table.locator("tr", has_text="practice").first.wait_for()
    except Exception:
        raise AssertionError(f"the formgrader does not list the assignment 'practice': "
                             f"{table.inner_text()!r}") from None
    notebook.screenshot("formgrader")
    page.problems.check(page, "after opening the formgrader and the Create Assignment panel")


def test_a_formgrader_outside_its_course_directory_is_reported(jupyterlab, page):
    """`make lab` serves notebooks/ from the repository's root, so nbgrader's course root (the
    working directory) is outside what JupyterLab serves: the formgrader says it cannot work."""
    notebook = NotebookPage(page, jupyterlab.url, "standin/standin.ipynb")
    notebook.open()
    notebook.menu("Nbgrader", "Formgrader")
    problem = formgrader_problem(page)
    assert problem is not None and problem.startswith(FORMGRADER_ERROR)
