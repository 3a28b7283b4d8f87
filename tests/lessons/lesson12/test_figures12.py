"""Figure 12.1 is computed from a real SessionLog and find_cut, not placed by hand."""

import harness
import lab
from lab.runtime import figures


def nine_messages():
    """Nine messages shaped like the lesson's nine-line log (a prompt, one reply asking for two
    calls, their two results, an answer; then a prompt, one call, its result, an answer), in words
    of their own."""
    first = lab.call("read", {"path": "left.py"}, id="c1")
    second = lab.call("read", {"path": "right.py"}, id="c2")
    third = lab.call("bash", {"command": "make check"}, id="c3")
    return [lab.user("Make left.py and right.py match; open both."), lab.reply(first, second),
            lab.tool_result(first, "L = 1\n"), lab.tool_result(second, "R = 2\n"),
            lab.say("One name differs."), lab.user("Run the checks now."),
            lab.reply(third), lab.tool_result(third, "all good\n"), lab.say("All green.")]


# A budget whose walk back stops on e4, the result of c2, as 35 tokens do in the lesson's log.
BUDGET = sum(harness.estimate_tokens([m]) for m in nine_messages()[3:])


def nine_line_log(budget=BUDGET, later=True):
    log = harness.SessionLog(lab.Workspace(), "session.jsonl")
    for message in nine_messages():
        log.append_message(message)
    rows = log.rows()
    log.append_compaction("Make the two files match.", rows[harness.find_cut(rows, budget)][0])
    if later:
        log.append_message(lab.user("Ship it."))
        log.append_message(lab.say("Shipped."))
    return log


def line_x(fig, gid):
    for line in fig.axes[0].lines:
        if line.get_gid() == gid:
            return line.get_xdata()[0]
    raise AssertionError(f"no line {gid}")


def test_figure_12_1_from_the_nine_line_log():
    fig = figures.log_figure(nine_line_log(), BUDGET, title="Figure 12.1")
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
    wide, narrow = figures.log_figure(log, BUDGET), figures.log_figure(log, BUDGET - 8)
    assert wide.lab_plan.compactions[0].reach == "e4"
    assert narrow.lab_plan.compactions[0].reach != "e4"
    assert line_x(narrow, "reach-e10") != line_x(wide, "reach-e10")


def test_a_different_find_cut_moves_the_solid_line(monkeypatch):
    log = nine_line_log()
    monkeypatch.setattr(harness, "find_cut", lambda rows, budget: 4)  # a wrong cut, at e5
    fig = figures.log_figure(log, BUDGET)
    assert fig.lab_plan.compactions[0].cut == "e5"
    assert line_x(fig, "cut-e10") == 4


def test_the_png_is_the_same_bytes_every_time():
    log = nine_line_log()
    first = figures.png(figures.log_figure(log, BUDGET, title="Figure 12.1"))
    second = figures.png(figures.log_figure(log, BUDGET, title="Figure 12.1"))
    assert first == second
    assert first.startswith(b"\x89PNG") and b"Software" not in first


def long_run(prompts, compact=True):
    """The lab tests' file-reading agent for `prompts` prompts under a 2,000-token window, with
    maybe_compact before each prompt when `compact`: (the agent's model, the log, the prompts
    compacted before)."""
    from lab.lessons.lesson12.checks import CHUNK, GOAL, reader
    disk = lab.Workspace({f"chunk{k}.txt": CHUNK for k in range(1, prompts + 1)})
    agent = lab.ScriptedModel([lab.forever(reader)], context_window=2000, max_calls=4 * prompts)
    log = harness.SessionLog(disk, "session.jsonl")
    h = harness.Harness(agent, harness.SYSTEM, [harness.make_read_tool(disk)])
    h.subscribe(harness.persist_to(log))
    writer = lab.ScriptedModel([lab.summariser()])
    compacted = []
    for k in range(1, prompts + 1):
        if compact and harness.maybe_compact(h, log, writer, window=2000, reserve=900, keep_recent_tokens=300):
            compacted.append(k)
        for _ in h.prompt((GOAL + " " if k == 1 else "") + f"Please read chunk{k}.txt"):
            pass
    return agent, log, h, compacted


def test_a_long_run_is_drawn_by_the_same_function():
    agent, log, h, compacted = long_run(30)
    plan = figures.log_figure(log, 300).lab_plan
    assert len(plan.entries) == len(log.entries())
    assert len(plan.compactions) == len(compacted) > 0
    assert len(plan.replay) == len(h.messages)
    assert all(c.cut == c.first_kept_id for c in plan.compactions)


# --- lesson 12's own figures: the budget slider and Figure 12.2 --------------------------------

def test_the_budget_view_says_where_find_cut_cuts_at_every_budget():
    from lab.lessons.lesson12 import figures as twelve
    messages = nine_messages()
    total = sum(harness.estimate_tokens([m]) for m in messages)
    lines = {}
    for budget in range(1, total + 6):
        log, rows, stop, cut = twelve.compacted_log(messages, [], "S.", budget)
        assert cut == harness.find_cut(rows, budget)
        lines[budget] = twelve.budget_line(rows, stop, cut, budget)
        compactions = [e for e in log.entries() if e["type"] == "compaction"]
        assert len(compactions) == (1 if 0 < cut < len(rows) else 0)
    assert "find_cut returns 0" in lines[total + 5]
    assert "the walk back stops on e9; find_cut cuts at e9" in lines[1]
    assert any("find_cut cuts at e6, so e1 to e5 are summarised" in line for line in lines.values())


def test_the_budget_view_follows_the_learners_find_cut(monkeypatch):
    from lab.lessons.lesson12 import figures as twelve
    monkeypatch.setattr(harness, "find_cut", lambda rows, budget: 2)
    fig, line = twelve.budget_view(nine_messages(), [], "S.", 20)
    assert "find_cut cuts at e3" in line and fig.lab_plan.compactions[0].cut == "e3"


def test_figure_12_2_is_drawn_from_the_recorded_requests():
    from lab.lessons.lesson12 import figures as twelve
    wall, _, record, _ = long_run(12, compact=False)
    saw, _, _, compacted = long_run(30)
    sizes = twelve.per_prompt(wall)
    assert len(sizes) == 12
    refusals = [m for m in record.messages if "too long" in str(m.get("error_message"))]
    assert sum(refused for _, refused in sizes) == len(refusals) > 0
    assert max(s for s, _ in sizes) == max(request.input for request in wall.calls)
    assert [s for s, _ in sizes] == sorted(s for s, _ in sizes), "without compaction each prompt costs more"
    assert any(refused for _, refused in sizes) and all(s > 2000 for s, refused in sizes if refused)
    assert len(twelve.per_prompt(saw)) == 30 and not any(r for _, r in twelve.per_prompt(saw))
    fig = twelve.tokens_chart([("wall", wall, []), ("saw", saw, compacted)], window=2000, reserve=900)
    gids = {line.get_gid() for line in fig.axes[0].lines}
    assert {"window", "trigger", "run-wall", "run-saw"} <= gids
    assert {f"compaction-saw-{k}" for k in compacted} <= gids
    assert fig.get_facecolor()[3] == 1.0 and fig.axes[0].get_facecolor()[:3] == (1.0, 1.0, 1.0)
    png = figures.png(fig)
    assert png == figures.png(twelve.tokens_chart([("wall", wall, []), ("saw", saw, compacted)],
                                                  window=2000, reserve=900))
