"""Facts of lesson 04 that the suite every lesson runs does not cover: the stage prop that reads
its errors follows its documented rules, the wall's saved output shows the failure the text
describes, Figure 4.1 is drawn from the runs it shows, and the cells after the lab switch to the
learner's run_tool and back."""

import nbformat
import pytest

import harness
import lab
from lab.runtime import takeover
from lab.lessons import build
from lab.lessons.lesson04 import figures as lesson_figures
from lab.lessons.lesson04.stage import at_lesson, harness_now, recovering

from tests.lessons.conftest import by_id, stdout_of

FILES = {"README.md": "A small service.\n", "config.py": "PORT = 8080\nDEBUG = False\n",
         "main.py": "import config\n"}
TASK = "What port does config.py set?"


@pytest.fixture(scope="module")
def master():
    return nbformat.read(build.notebook_path(4), as_version=4)


def run(h, first=None):
    ws = lab.Workspace(FILES)
    model = lab.ScriptedModel([recovering(first or lab.call("read", {"path": "confg.py"}), "PORT")])
    messages, raised = [], None
    try:
        h.run_agent(model, h.SYSTEM, messages, [h.make_read_tool(ws)], TASK)
    except Exception as error:
        raised = error
    return messages, model, raised


def answer_to(first, result_content, is_error, tools=("read",)):
    """What recovering(first) does when shown one result for `first`."""
    model = lab.ScriptedModel([recovering(first)])
    specs = [{"name": n, "description": n, "parameters": {}} for n in tools]
    call = dict(first, id="c1")
    sent = [lab.user(TASK), lab.reply(call), lab.tool_result(call, result_content, is_error=is_error)]
    return model.complete(harness.SYSTEM, sent, specs)


def test_recovering_follows_its_rules():
    read = lab.call("read", {"path": "confg.py"})
    listing = "File not found: confg.py. Files here: README.md, config.py, main.py"
    assert harness.tool_calls(answer_to(read, listing, True))[0]["arguments"] == {"path": "config.py"}
    assert harness.text_of(answer_to(read, listing, False)).startswith("confg.py says: File not found")
    assert harness.text_of(answer_to(read, "", False)) == "confg.py is empty."
    assert harness.text_of(answer_to(read, "Tool failed.", True)) == "I could not read confg.py: Tool failed."
    far = "File not found: confg.py. Files here: zzz.txt"
    assert harness.text_of(answer_to(read, far, True)) == f"I could not read confg.py: {far}"
    grep = lab.call("grep", {"pattern": "PORT", "path": "config.py"})
    assert harness.tool_calls(answer_to(grep, "Tool grep not found", True))[0]["name"] == "read"
    assert harness.text_of(answer_to(grep, "Tool grep not found", True, tools=())).startswith("I could not grep")
    with pytest.raises(TypeError):
        recovering({"path": "a.py"})


def test_recovering_gives_up_after_three_errors():
    messages, model, raised = run(at_lesson(4), lab.call("read", {"path": "nothing-like-it.txt"}))
    assert raised is None and len(model.calls) == 2  # no close name: it says why at once
    always_missing = {"name": "read", "description": "", "parameters": {},
                      "execute": lambda arguments: (_ for _ in ()).throw(FileNotFoundError("File not found: a.py. Files here: a.py"))}
    model = lab.ScriptedModel([recovering(lab.call("read", {"path": "a.py"}))], max_calls=10)
    h = at_lesson(4)
    messages = []
    h.run_agent(model, h.SYSTEM, messages, [always_missing], TASK)
    assert len(model.calls) == 4 and harness.text_of(messages[-1]).startswith("I gave up on a.py")


def test_the_wall_shows_the_run_dying_on_lesson_3s_harness(master):
    out = stdout_of(by_id(master, "demo-wall"))
    assert "the run died : FileNotFoundError" in out and "U A[c1]\n" in out and "model calls  : 1" in out
    more = stdout_of(by_id(master, "demo-wall-more"))
    assert "KeyError: 'grep'" in more and "TypeError" in more and "400 invalid_request" in more
    messages, model, raised = run(at_lesson(3))
    assert isinstance(raised, FileNotFoundError) and lab.shape(messages) == "U A[c1]"


def test_the_recovery_takes_three_calls_on_lesson_4s_harness(master):
    messages, model, raised = run(at_lesson(4))
    assert raised is None and len(model.calls) == 3
    assert lab.shape(messages) == "U A[c1] R(c1) A[c2] R(c2) A"
    assert "model calls : 3" in stdout_of(by_id(master, "demo-typo-again"))


def test_figure_4_1_is_drawn_from_the_runs():
    runs = []
    for label, h in (("three", at_lesson(3)), ("four", at_lesson(4))):
        messages, model, raised = run(h)
        runs.append((label, messages, raised))
    kinds = [[kind for _, kind, _, _ in lesson_figures.boxes(m, r)] for _, m, r in runs]
    assert kinds == [["model", "crash"], ["model", "error", "model", "tool", "model"]]
    fig, alt = lesson_figures.timeline(runs)
    assert "FileNotFoundError raised" in alt and "is_error True" in alt and "PORT = 8080" in alt
    assert fig.get_facecolor()[:3] == (1.0, 1.0, 1.0)


def test_cells_after_the_lab_switch_to_the_learners_run_tool():
    def mine(tools, call):
        return harness.run_tool(tools, call)
    try:
        takeover.install(run_tool=mine)
        assert harness_now().run_tool is mine
    finally:
        lab.use_reference(4)
    assert harness_now().run_tool is not mine


def _right(rung_id):
    from lab.lessons import load
    spec = next(s for s in load(4).RUNGS if s.id == rung_id)
    return "abcd"[[option.right for option in spec.options].index(True)]


def test_each_run_cell_runs_its_rung_under_the_rungs_labels_and_the_right_one_holds(master):
    """The grep, exit-code and catch-what cells run every option of their rung, labelled as the
    rung shows them, and the saved output backs the option the rung calls right, and only it."""
    from lab.lessons import load
    n_options = {s.id: len(s.options) for s in load(4).RUNGS if s.kind == "choice"}
    out = stdout_of(by_id(master, "demo-grep")).split("\n(")
    assert [block.lstrip("(")[0] for block in out] == list("abcd")[:n_options["grep"]]
    accepted = [label.lstrip("(")[0] for label in out if "accepts it" in label]
    assert accepted == [_right("grep")], out
    out = stdout_of(by_id(master, "demo-exit-code")).split("\n\n")[0]
    never_flagged = {line.split()[0][1] for line in out.splitlines() if line.startswith("    (")}
    for line in out.splitlines():
        if line.startswith("    (") and line.endswith("True"):
            never_flagged.discard(line.split()[0][1])
    assert never_flagged == {_right("exit-code")}, out
    out = stdout_of(by_id(master, "demo-catch-what")).split("\n(")
    both = [block.lstrip("(")[0] for block in out
            if "KeyboardInterrupt went up" in block and "search: a result" in block]
    assert both == [_right("catch-what")], out
