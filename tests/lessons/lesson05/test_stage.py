"""Lesson 05's own stage props and figure: the runaway model, the running bill, Figure 5.1."""

import pytest

import harness
import lab
from lab.lessons.lesson05 import figures as lesson_figures
from lab.lessons.lesson05.stage import FILES, TASK, at_lesson, bills, runaway


def test_runaway_asks_for_the_same_read_whatever_it_is_shown():
    model = lab.ScriptedModel([runaway("a.py")], max_calls=3)
    first = model.complete("s", [lab.user(TASK)], [])
    call = lab.call("read", {"path": "a.py"}, id="c1")
    second = model.complete("s", [lab.user(TASK), lab.reply(call), lab.tool_result(call, "A = 1\n")], [])
    for answer in (first, second):
        assert [(c["name"], c["arguments"]) for c in harness.tool_calls(answer)] == [("read", {"path": "a.py"})]
    with pytest.raises(TypeError, match="path to read as a string"):
        runaway(3)


def test_bills_are_the_running_total_of_the_requests():
    model = lab.ScriptedModel([runaway("a.py")], max_calls=5)
    h4 = at_lesson(4)
    with pytest.raises(lab.ScriptError):
        h4.run_agent(model, h4.SYSTEM, [], [h4.make_read_tool(lab.Workspace(FILES))], TASK)
    totals = bills(model)
    assert len(totals) == 5 and totals[-1] == model.bill
    steps = [b - a for a, b in zip([0] + totals, totals)]
    assert steps == [request.input for request in model.calls]
    assert all(later > earlier for earlier, later in zip(steps, steps[1:]))  # each request is bigger


def test_the_figure_is_drawn_from_the_runs_it_is_given():
    runs = []
    for limit in (None, 2):
        model, raised = lab.ScriptedModel([runaway("a.py")], max_calls=6), None
        h5 = at_lesson(5)
        try:
            h5.run_agent(model, h5.SYSTEM, [], [h5.make_read_tool(lab.Workspace(FILES))], TASK, max_turns=limit)
        except lab.ScriptError as error:
            raised = error
        runs.append((f"limit {limit}", model, raised))
    fig, alt = lesson_figures.bill_figure(runs)
    assert fig.get_facecolor()[:3] == (1.0, 1.0, 1.0)
    assert f"limit None: 6 model calls, the bill rising from {bills(runs[0][1])[0]:,} to {runs[0][1].bill:,}" in alt
    assert "stopped only by the lab's brake" in alt and "limit 2: 2 model calls" in alt
    with pytest.raises(ValueError, match="at least one run"):
        lesson_figures.bill_figure([])
