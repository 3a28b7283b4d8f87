"""Figure 12.1 is computed from a real SessionLog and find_cut, not placed by hand."""

import harness
import lab
from lab import figures


def nine_line_log(budget=35, later=True):
    c1 = lab.call("read", {"path": "a.py"}, id="c1")
    c2 = lab.call("read", {"path": "b.py"}, id="c2")
    c3 = lab.call("bash", {"command": "pytest"}, id="c3")
    log = harness.SessionLog(lab.Workspace(), "session.jsonl")
    for message in [lab.user("Our goal: make a.py and b.py agree. Read both."), lab.reply(c1, c2),
                    lab.tool_result(c1, "A = 1\n"), lab.tool_result(c2, "B = 2\n"),
                    lab.say("They differ in one name."), lab.user("Now run the tests."),
                    lab.reply(c3), lab.tool_result(c3, "3 passed\n"), lab.say("Green.")]:
        log.append_message(message)
    rows = log.rows()
    log.append_compaction("Goal: make a.py and b.py agree.", rows[harness.find_cut(rows, budget)][0])
    if later:
        log.append_message(lab.user("Push it."))
        log.append_message(lab.say("Pushed."))
    return log


def line_x(fig, gid):
    for line in fig.axes[0].lines:
        if line.get_gid() == gid:
            return line.get_xdata()[0]
    raise AssertionError(f"no line {gid}")


def test_figure_12_1_from_the_nine_line_log():
    fig = figures.log_figure(nine_line_log(), 35, title="Figure 12.1")
    plan = fig.lab_plan
    assert [eid for eid, _, _ in plan.entries] == [f"e{n}" for n in range(1, 13)]
    (c,) = plan.compactions
    assert (c.id, c.reach, c.cut, c.first_kept_id) == ("e10", "e4", "e6", "e6")
    assert [row_id for row_id, _, _ in plan.replay] == ["e10", "e6", "e7", "e8", "e9", "e11", "e12"]
    assert plan.replay[0][1] == "summary"
    assert plan.later == ["e11", "e12"]
    dimmed = [eid for eid, _, _ in plan.entries if eid not in plan.read and eid not in plan.later]
    assert dimmed == ["e1", "e2", "e3", "e4", "e5"]
    assert line_x(fig, "reach-e10") == 3 and line_x(fig, "cut-e10") == 5


def test_moving_the_budget_moves_the_dashed_line():
    log = nine_line_log()
    wide, narrow = figures.log_figure(log, 35), figures.log_figure(log, 20)
    assert wide.lab_plan.compactions[0].reach == "e4"
    assert narrow.lab_plan.compactions[0].reach != "e4"
    assert line_x(narrow, "reach-e10") != line_x(wide, "reach-e10")


def test_a_different_find_cut_moves_the_solid_line(monkeypatch):
    log = nine_line_log()
    monkeypatch.setattr(harness, "find_cut", lambda rows, budget: 4)  # a wrong cut, at e5
    fig = figures.log_figure(log, 35)
    assert fig.lab_plan.compactions[0].cut == "e5"
    assert line_x(fig, "cut-e10") == 4


def test_the_png_is_the_same_bytes_every_time():
    log = nine_line_log()
    first = figures.png(figures.log_figure(log, 35, title="Figure 12.1"))
    second = figures.png(figures.log_figure(log, 35, title="Figure 12.1"))
    assert first == second
    assert first.startswith(b"\x89PNG") and b"Software" not in first


def test_forty_file_run_is_drawn_by_the_same_function():
    from lab.checks.lesson12 import GOAL, PART, reader  # the lesson's own file-reading agent
    ws = lab.Workspace({f"part{i}.txt": PART for i in range(1, 41)})
    agent = lab.ScriptedModel([lab.forever(reader)], context_window=2000, max_calls=100)
    h = harness.Harness(agent, harness.SYSTEM, [harness.make_read_tool(ws)])
    log = harness.SessionLog(ws, "session.jsonl")
    h.subscribe(harness.persist_to(log))
    writer = lab.ScriptedModel([lab.summariser()])
    for i in range(1, 41):
        harness.maybe_compact(h, log, writer, window=2000, reserve=900, keep_recent_tokens=300)
        for _ in h.prompt((GOAL + " " if i == 1 else "") + f"Now read part{i}.txt"):
            pass
    plan = figures.log_figure(log, 300).lab_plan
    assert len(plan.entries) == 166 and len(plan.compactions) == 6 and len(plan.replay) == 17
    assert all(c.cut == c.first_kept_id for c in plan.compactions)
