"""Facts of lesson 11 that the suite every lesson runs does not cover: the log it ends on is the
one lesson 12 opens on, Figure 11.1 is drawn from the bytes on disk, and the wall's saved output
says what the lesson's text says it does."""

import contextlib
import io
import json

import nbformat
import pytest

import harness
import lab
from lab import checks
from lab.course import manifest
from lab.runtime.figures import png
from lab.lessons import build, load
from lab.lessons.lesson11.figures import Torn, cut_figure


def cell_source(lesson, cell_id):
    """The source of one cell, read from the lesson's text without building the whole notebook."""
    text = build.source_path(lesson).read_text(encoding="utf-8")
    for _, _, opts, body, _ in build._parse(text, lesson):
        if opts.get("id") == cell_id:
            return "\n".join(body)
    raise LookupError(f"lesson {lesson} has no cell {cell_id}")


def without_usage(entries):
    return [dict(e, message={k: v for k, v in e["message"].items() if k != "usage"}) for e in entries]


def test_the_log_lesson_11_ends_on_is_the_one_lesson_12_opens_on():
    ours = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(cell_source(11, "demo-five-lines"), ours)
    recall = cell_source(12, "demo-recall")
    theirs = {}
    exec(recall[:recall.index("# By hand")], theirs)  # lesson 12's log before the hand deletes a line
    # The scripted model adds a usage figure to its replies; lesson 12 builds its log by hand.
    assert without_usage(ours["log"].entries()) == theirs["log"].entries()
    assert lab.shape(ours["log"].replay()) == "U A[w1] R(w1) A[w2] R(w2)"


def torn_pair():
    """A rewrite saver and a log, each torn by a cut 30 bytes into its next write."""
    messages = [lab.user("Write a.py."), lab.say("a.py is written."), lab.user("Write b.py.")]
    disk = lab.Workspace({"session.json": json.dumps(messages[:2])})
    before = disk.read_text("session.json")
    disk.cut_power(after_bytes=30)
    with pytest.raises(lab.PowerCut) as cut:
        disk.write_text("session.json", json.dumps(messages))
    rewrite = Torn("session.json", before, disk.reboot().read_text("session.json"), cut.value.wanted)
    disk = lab.Workspace()
    log = harness.SessionLog(disk, "session.jsonl")
    for message in messages[:2]:
        log.append_message(message)
    before = disk.read_text("session.jsonl")
    disk.cut_power(after_bytes=30)
    with pytest.raises(lab.PowerCut) as cut:
        log.append_message(messages[2])
    return rewrite, Torn("session.jsonl", before, disk.reboot().read_text("session.jsonl"), cut.value.wanted)


def test_figure_11_1_is_drawn_from_the_bytes_on_disk():
    rewrite, logged = torn_pair()
    fig = cut_figure(rewrite, logged, title="Figure 11.1")
    drawn = fig.lab_drawn
    assert (drawn.rewrite_after, drawn.log_lines_kept, drawn.log_torn_bytes) == (30, 2, 30)
    assert drawn.log_torn_wanted == logged.wanted > 30
    torn = [p for p in fig.axes[0].patches if p.get_gid() == "log-torn"]
    assert len(torn) == 1 and torn[0].get_width() == 30
    assert torn[0].get_x() == len(logged.before.encode())  # it starts where the whole lines end
    from PIL import Image
    corner = Image.open(io.BytesIO(png(fig))).convert("RGBA").getpixel((1, 1))
    assert corner == (255, 255, 255, 255), "the figure must draw its own opaque white background"


def test_figure_11_1_refuses_a_log_that_was_rewritten():
    rewrite, logged = torn_pair()
    with pytest.raises(ValueError, match="only appended to"):
        cut_figure(rewrite, logged._replace(after="something else"))


def test_the_wall_output_is_what_the_text_says():
    nb = nbformat.read(build.notebook_path(11), as_version=4)

    def out(cell_id):
        cell = next(c for c in nb.cells if c.get("id") == cell_id)
        return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")

    assert "prompts answered before the cut : 10" in out("demo-wall")
    assert "prompts recoverable             : 0 of 10" in out("demo-wall")
    assert "JSONDecodeError" in out("demo-wall")
    assert "39 whole, and 100 bytes of line 40" in out("demo-append")
    assert "session.jsonl, line 40: not a complete log entry" in out("demo-append")
    assert "ran on: your SessionLog.entries, SessionLog.append_message, persist_to" in out("demo-five-lines")


def test_the_hidden_only_answer_passes_what_the_learner_sees_and_fails_a_hidden_test():
    for name, text in load(11).HIDDEN_ONLY.items():
        scope = {}
        exec(text, scope)
        found = {n: manifest.reference(n, 11) for n in manifest.names(11, 1)}
        found[name] = scope[manifest.bare(name)]
        results = checks.run(11, 1, manifest.Namespace(found))
        assert all(r.passed for r in results if not r.test.hidden)
        assert any(not r.passed for r in results if r.test.hidden)


def test_the_options_cells_run_every_option_and_show_what_its_feedback_claims():
    nb = nbformat.read(build.notebook_path(11), as_version=4)

    def out(cell_id):
        cell = next(c for c in nb.cells if c.get("id") == cell_id)
        return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")

    assert "(a) prompts back, cut during save 1, 2, ... 10: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]" in out("demo-rewrite-cut")
    assert "(b) the ninth copy still on the disk          : False" in out("demo-rewrite-cut")
    when = out("demo-when").splitlines()
    assert [line.split("the log: ")[1] for line in when if "the log: " in line] == [
        "0 messages", "0 messages", "6 messages U A[w1] R(w1) A[w2] R(w2) A[w3]"]
    full = out("demo-full-disk")
    assert "(a) end the run   : the run ended: [Errno 28]" in full
    assert full.count("record: 8 messages | log: 5 lines | after a reboot: 5 messages") == 2  # (b) and (c)
    torn = out("demo-torn")
    assert torn.count("it sees 2 entries: the new message is gone too") == 2                # (a) and (b)
    assert "(c) entries() raises: ValueError: session.jsonl, line 3" in torn
    twice = [line.rsplit(": ", 1)[1] for line in out("demo-two-windows").splitlines()]
    assert twice == ["True", "False", "True", "False"]                                      # the Multi's key
    assert out("demo-cache-the-state").splitlines() == [
        "cut in the middle of a run     : the log replays 6 messages | the snapshot: 4 messages",
        "cut during the snapshot's save : the log replays 8 messages | the snapshot: not JSON"]


def test_the_two_windows_key_matches_what_its_cell_shows():
    rung = next(r for r in load(11).RUNGS if r.id == "two-windows")
    assert [right for _, right, _ in rung.options] == [False, True, False, True]
