"""Figure 11.1: two files around the same power cut, drawn from the bytes a real run left on disk.

    saved = Torn("session.json", before, after, wanted)   # what a rewrite saver left
    logged = Torn("session.jsonl", before, after, wanted) # what the append-only log left
    lab.lessons.lesson11.figures.draw_cut(saved, logged, alt="Figure 11.1 ...")

Each file gets two rows on one scale of bytes: the file as it stood just before the write the
cut tore (`before`), and as the new process finds it (`after`), with the part of the torn write
that never arrived drawn as a dashed outline (`wanted` is the size of that whole write). The log's
lines are boxes as wide as their bytes, coloured by the role of the message each line holds.
Nothing is placed by hand, and the figure draws its own white background.
"""

import json
from typing import NamedTuple

WIDTH = 8.0  # inches, as lab.runtime.figures draws: 880 pixels at 110 dpi, shown 800 wide

_COLOURS = {"user": "#4C72B0", "assistant": "#7f8c8d", "toolResult": "#DD8452",
            "document": "#8da0cb", "torn": "#C44E52"}


class Torn(NamedTuple):
    """One file around a torn write: its text before the write, after the reboot, and the size in
    bytes of the whole write the cut interrupted."""
    path: str
    before: str
    after: str
    wanted: int


class Drawn(NamedTuple):
    """What the figure shows, in numbers, for the caption and for tests."""
    rewrite_before: int   # bytes of the complete copy before the torn save
    rewrite_after: int    # bytes the new process finds
    log_lines_kept: int   # whole lines of the log, the same before and after
    log_torn_bytes: int   # bytes of the torn line that reached the disk
    log_torn_wanted: int  # bytes that line should have had


def _size(text):
    return len(text.encode("utf-8"))


def _role(line):
    try:
        return json.loads(line)["message"]["role"]
    except (ValueError, KeyError, TypeError):
        return "document"


def cut_figure(rewrite, log, *, title=None):
    """The figure for a rewrite saver's file and a log's file, each a Torn."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch, Rectangle

    if not log.after.startswith(log.before):
        raise ValueError(f"{log.path} after the cut does not start with its text from before: "
                         "this figure is for a file that was only appended to")
    fig = Figure(figsize=(WIDTH, 4.4), dpi=100, facecolor="white")
    fig.patch.set_alpha(1.0)
    ax = fig.add_axes([0.02, 0.15, 0.96, 0.74 if title else 0.8], facecolor="white")
    longest = max(_size(rewrite.before), _size(rewrite.after), rewrite.wanted,
                  _size(log.before) + log.wanted)
    ax.set_xlim(-0.01 * longest, longest * 1.01)
    ax.set_ylim(0.3, 5.4)
    ax.axis("off")
    height = 0.5

    def box(x, y, width, colour, *, hatch=None, dashed=False, gid=None):
        if dashed:
            patch = Rectangle((x, y), width, height, facecolor="none", edgecolor=_COLOURS["torn"],
                              linestyle="--", linewidth=1.0, gid=gid)
        else:
            patch = Rectangle((x, y), width, height, facecolor=colour, edgecolor="white",
                              linewidth=0.4, hatch=hatch, gid=gid)
        ax.add_patch(patch)

    def caption(y, text, colour="#333333"):
        ax.text(0, y + height + 0.06, text, fontsize=8.5, ha="left", va="bottom", color=colour)

    # The rewrite saver: one document, replaced whole by every save.
    ax.text(0, 5.35, f"Rewrite after each prompt: {rewrite.path}", fontsize=10, ha="left", va="top",
            color="#111111", fontweight="bold")
    y = 4.1
    box(0, y, _size(rewrite.before), _COLOURS["document"], gid="rewrite-before")
    caption(y, f"just before the save: one JSON document, {_size(rewrite.before):,} bytes")
    y = 3.2
    box(0, y, rewrite.wanted, None, dashed=True, gid="rewrite-wanted")
    box(0, y, _size(rewrite.after), _COLOURS["torn"], hatch="////", gid="rewrite-after")
    caption(y, f"after the cut: the first {_size(rewrite.after):,} of {rewrite.wanted:,} bytes of the "
               "new copy; the old copy is gone", _COLOURS["torn"])

    # The append-only log: lines added at the end, never touched again.
    ax.text(0, 2.6, f"Append each message: {log.path}", fontsize=10, ha="left", va="top",
            color="#111111", fontweight="bold")
    lines = log.before.splitlines(keepends=True)
    for row_y, torn in ((1.4, False), (0.5, True)):
        x = 0
        for n, line in enumerate(lines, start=1):
            box(x, row_y, _size(line), _COLOURS.get(_role(line), "#bbbbbb"),
                gid=f"log-{'after' if torn else 'before'}-{n}")
            x += _size(line)
        if torn:
            landed = _size(log.after) - _size(log.before)
            box(x, row_y, log.wanted, None, dashed=True, gid="log-wanted")
            box(x, row_y, landed, _COLOURS["torn"], hatch="////", gid="log-torn")
    caption(1.4, f"just before the save: {len(lines)} lines, {_size(log.before):,} bytes")
    caption(0.5, f"after the cut: the same {len(lines)} lines, then line {len(lines) + 1} torn "
                  f"({_size(log.after) - _size(log.before)} of {log.wanted} bytes)", _COLOURS["torn"])

    handles = [Patch(facecolor=_COLOURS[k]) for k in ("user", "assistant", "toolResult", "document")]
    handles += [Patch(facecolor=_COLOURS["torn"], hatch="////"),
                Patch(facecolor="none", edgecolor=_COLOURS["torn"], linestyle="--")]
    fig.legend(handles, ["user line", "assistant line", "tool result line", "whole-transcript JSON",
                         "bytes of the torn write", "what that write never got to"],
               loc="lower center", ncol=3, fontsize=8.5, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10, x=0.02, ha="left", y=0.97)
    fig.lab_drawn = Drawn(_size(rewrite.before), _size(rewrite.after), len(lines),
                          _size(log.after) - _size(log.before), log.wanted)
    return fig


def draw_cut(rewrite, log, *, alt, title=None):
    """Draw the figure, display it with `alt` as its text form (as lab.runtime.figures.show does), and
    return what was drawn (a Drawn)."""
    from lab.runtime import figures
    fig = cut_figure(rewrite, log, title=title)
    drawn = fig.lab_drawn
    figures.show(fig, alt)
    return drawn
