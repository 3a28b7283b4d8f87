"""Facts of lesson 09 that the suite every lesson runs does not cover: the wall's saved output shows
the refusal and the 400, the stage's model obeys what the request says, Figure 9.1 is drawn from a
real run, and the hidden-only answer is caught by hidden tests alone."""

import io

import nbformat

import harness
import lab
from lab import checks
from lab.course import manifest
from lab.runtime.figures import png
from lab.lessons import build, load
from lab.lessons.lesson09.figures import timeline_figure
from lab.lessons.lesson09.stage import FILES, Timeline, make_test_tool, six_files, source, tabbed


def outputs(cell_id):
    nb = nbformat.read(build.notebook_path(9), as_version=4)
    cell = next(c for c in nb.cells if c.get("id") == cell_id)
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def test_the_wall_output_is_what_the_text_says():
    wall = outputs("demo-wall")
    assert '(c) h.prompt("Use spaces.")  -> RuntimeError: already running\n' in wall
    assert "(b) h.messages.append(...)   -> AttributeError:" in wall
    assert "(a) nowhere: the run went on -> files written with tabs: 6 of 6" in wall
    splice = outputs("demo-splice")
    assert "validate        : messages[3]: toolCall c2 has no toolResult after it" in splice
    assert "400 invalid_request: messages[3]: toolCall c2 has no toolResult after it" in splice
    assert "tabs in 2 of 6 files | the run ended: 400 invalid_request" in outputs("demo-where")
    assert "files with tabs : 2 of 6" in outputs("demo-again")
    assert "validate        : accepted" in outputs("demo-again")


def test_the_stage_model_obeys_the_request():
    ws = lab.Workspace()
    h = harness.Harness(lab.ScriptedModel([six_files()]), harness.SYSTEM,
                        [harness.make_write_tool(ws), make_test_tool(ws)])
    h.steer("Use spaces.")
    h.follow_up("Now run the tests.")
    for _ in h.prompt("Write the six modules."):
        pass
    assert tabbed(ws) == 0 and ws.read_text("a.py") == source("a.py", spaces=True)
    assert harness.text_of(h.messages[-1]) == "The tests ran: 6 passed."
    ws2 = lab.Workspace()
    h2 = harness.Harness(lab.ScriptedModel([six_files()]), harness.SYSTEM, [harness.make_write_tool(ws2)])
    for _ in h2.prompt("Write the six modules."):
        pass
    assert tabbed(ws2) == len(FILES) and harness.text_of(h2.messages[-1]) == "All six files are written."


def test_figure_9_1_is_drawn_from_a_real_run():
    ws = lab.Workspace()
    timeline = Timeline()
    h = harness.Harness(lab.ScriptedModel([six_files()]), harness.SYSTEM, [harness.make_write_tool(ws)])
    for event in timeline.watch(h.prompt("Write the six modules.")):
        if event["type"] == "tool_execution_start" and event["call"]["id"] == "c3":
            timeline.spoke("steer", "Use spaces.")
            h.steer("Use spaces.")
    fig, alt, drawn = timeline_figure(timeline)
    assert drawn.model_calls == 7 and drawn.tool_runs == 6
    (kind, text, spoken_at), = drawn.spoken
    taken = dict(drawn.taken)["Use spaces."]
    assert kind == "steer" and taken > spoken_at
    # taken at the first gap after it was spoken: the turn_start right before the record
    assert taken == min(g for g in drawn.gaps if g > spoken_at) + 1
    assert "recorded at step" in alt
    from PIL import Image
    corner = Image.open(io.BytesIO(png(fig))).convert("RGBA").getpixel((1, 1))
    assert corner == (255, 255, 255, 255)


def test_the_hidden_only_answer_passes_what_the_learner_sees_and_fails_a_hidden_test():
    import harness.loop
    for name, text in load(9, "samples").HIDDEN_ONLY.items():
        scope = dict(vars(harness.loop))
        exec(text, scope)
        found = {n: manifest.reference(n, 9) for n in manifest.names(9, 1)}
        found[name] = scope[manifest.bare(name)]
        results = checks.run(9, 1, manifest.Namespace(found))
        assert all(r.passed for r in results if not r.test.hidden)
        assert any(not r.passed for r in results if r.test.hidden)


def test_a_queue_handed_to_the_graders_worker_has_a_length_and_a_truth():
    """Lesson 9's _drain reads `if queue:` on a deque that, under the grader, stays in the grader's
    process: the wire asks the other side for its truth and its length (lab/grader/wire.py)."""
    import time
    from collections import deque

    from lab.grader import sandbox
    with sandbox.Worker("def helper(x):\n    return x\n") as worker:
        worker.peer.deadline = None
        worker.run_cell("def drain(queue):\n    return [queue.popleft()] if queue else []\n"
                        "def size(queue):\n    return len(queue)\n", "<test>", time.monotonic() + 5)
        drain, size = worker.lookup("drain"), worker.lookup("size")
        queue = deque([lab.user("a"), lab.user("b")])
        assert size(queue) == 2
        assert [drain(queue), drain(queue), drain(queue)] == [[lab.user("a")], [lab.user("b")], []]
        assert len(queue) == 0
