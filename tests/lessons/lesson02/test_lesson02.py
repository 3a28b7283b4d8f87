"""Facts of lesson 2 that the suite every lesson runs does not cover: the cells run on the
harness a learner has at this point of the course, the wall and the demonstrations print what
the lesson's text says they print, and Figure 2.1's numbers add up to what the model billed."""

import contextlib
import inspect
import io

import nbformat

import harness
import lab
from lab.course import starters
from lab.runtime import takeover
from lab.lessons import build
from lab.lessons.lesson02 import stage
from lab.lessons.lesson02.figures import parts_figure, request_parts, table

from tests.lessons.conftest import by_id, stdout_of


def cell_source(cell_id):
    text = build.source_path(2).read_text(encoding="utf-8")
    for _, _, opts, body, _ in build._parse(text, 2):
        if opts.get("id") == cell_id:
            return "\n".join(body)
    raise LookupError(f"lesson 2 has no cell {cell_id}")


def run_cell(cell_id):
    """(the cell's globals, what it printed), run here rather than in a kernel."""
    scope, out = {}, io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(cell_source(cell_id), scope)
    return scope, out.getvalue()


def master():
    return nbformat.read(build.notebook_path(2), as_version=4)


def test_harness_at_is_the_file_the_command_line_prints():
    for lesson, params in ((1, ["model", "system", "messages", "prompt"]),
                           (2, ["model", "system", "messages", "tools", "prompt"])):
        module = stage.harness_at(lesson)
        assert list(inspect.signature(module.run_agent).parameters) == params
        names = {n for n in vars(module) if not n.startswith("__")}
        assert "run_agent" in names and ("run_tool" in names) == (lesson == 2)
    assert starters.text_at(starters.Stage(2)).count("def run_agent(") == 1


def test_now_follows_the_takeover():
    assert stage.now("run_agent") is stage.harness_at(2).run_agent

    def mine(model, system, messages, tools, prompt):
        return None
    try:
        takeover.install(run_agent=mine)
        assert stage.now("run_agent") is mine
        assert stage.whose(["run_agent", "run_tool"]) == "your run_agent and the reference run_tool"
    finally:
        takeover.use_reference(2)
    assert stage.now("run_agent") is stage.harness_at(2).run_agent


def test_the_wall_is_a_likely_answer_that_no_read_backs():
    scope, printed = run_cell("demo-wall")
    said = scope["lesson1"].text_of(scope["reply"])
    assert "PORT = 8080" in said and "9090" in scope["disk"].read_text("config.py")
    assert scope["model"].calls[0].tools == [] and lab.shape(scope["messages"]) == "U A"
    assert "files read for it : none" in printed
    assert stdout_of(by_id(master(), "demo-wall")) == printed


def test_the_regex_reads_neither_reply_as_meant():
    _, printed = run_cell("demo-regex")
    assert "the regex found : 'config.py.' | a file here? False" in printed
    assert "the regex found : 'anything.' | a file here? False" in printed


def test_the_copy_leaves_c2_unanswered_and_content_answers_both():
    _, printed = run_cell("demo-second-copy")
    lines = printed.splitlines()
    assert "U A[c1,c2] R(c1) A!" in lines[0] and "toolCall c2 has no toolResult" in lines[1]
    assert "U A[c1,c2] R(c1) R(c2) A" in lines[2]


def test_position_misreads_and_the_model_answers_from_the_result_paired_by_id():
    _, printed = run_cell("demo-pair-by")
    assert "'toolu_01': 'import config'" in printed.splitlines()[0]
    assert "accepts it" in printed and printed.rstrip().endswith("config.py says: PORT = 9090")


def test_figure_parts_add_up_to_what_was_billed():
    scope, printed = run_cell("demo-definitions")
    model, tools = scope["model"], scope["tools"]
    parts = request_parts(model)
    assert len(parts) == 6 and sum(p.total for p in parts) == model.bill
    specs = harness.tool_specs(tools)
    for part, request in zip(parts, model.calls):
        assert part.frame + part.tools + part.messages == request.input
        assert request.tools == specs and part.tools > 0
    assert len({p.tools for p in parts}) == 1        # the same definitions, the same price
    assert [p.messages for p in parts] == sorted(p.messages for p in parts)  # the list only grows
    assert table(parts).splitlines()[-1].startswith(f"the run: 6 requests, {model.bill} tokens")
    assert parts_figure(parts).get_facecolor()[:3] == (1.0, 1.0, 1.0)


def test_after_the_lab_the_port_comes_from_the_file():
    cell = by_id(master(), "demo-after")
    out = stdout_of(cell)
    assert "config.py says: PORT = 9090" in out and "['config.py']" in out
    notes = [o.data["text/plain"] for o in cell.outputs if o.output_type == "display_data"]
    assert notes == ["The port question, with a read tool ran on: your run_tool and run_agent."]


def test_the_failed_tool_and_pair_by_cells_run_their_rungs_options_in_order():
    """demo-failed-tool and demo-pair-by run every option of their rung under its label, in the
    rung's order, and the saved output backs the option the rung calls right."""
    nb, rungs = master(), {spec.id: spec for spec in lab.lessons.load(2).RUNGS}
    lines = [line for line in stdout_of(by_id(nb, "demo-failed-tool")).splitlines() if line.startswith("(")]
    assert [line[1] for line in lines] == list("abc")[:len(rungs["failed-tool"].options)]
    lying = [line[1] for line in lines if "is empty" in line]   # the one a reader cannot catch
    assert lying == ["abc"[[o.right for o in rungs["failed-tool"].options].index(True)]], lines
    lines = [line for line in stdout_of(by_id(nb, "demo-pair-by")).splitlines() if line[:1] == "("]
    assert [line[1] for line in lines] == list("abc")[:len(rungs["pair-by"].options)]
    paired = [line[1] for line in lines if "'toolu_01': \"HOST" in line]   # config.py's text
    assert paired == ["abc"[[o.right for o in rungs["pair-by"].options].index(True)]], lines
