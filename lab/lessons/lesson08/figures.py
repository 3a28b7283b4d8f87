"""Figure 8.1: who wrote where in one list, over time, drawn from two real runs of the lesson.

    drawn = draw_writers(wall, owned, alt="Figure 8.1 ...")   # two stage.Timeline objects

Each panel is one program's clock: x counts the events handed out so far by every run in it,
y is the place in the list a message landed. A box is one message_end, coloured by the run that
wrote it and labelled with its shorthand (U, A[c1], R(c1), A! for a refused request). The left
panel is the wall: two runs with one list. The right panel is the same moment with a Harness:
the second prompt is refused at its call, drawn as a cross where it would have written. The
stretch in which run A sat paused at tool_execution_start is shaded in both. Nothing is placed
by hand.
"""

from typing import NamedTuple

WIDTH = 8.0  # inches, as lab.runtime.figures draws: 880 pixels at 110 dpi, shown 800 wide

_COLOURS = {"A": "#4C72B0", "B": "#DD8452"}
_REFUSED = "#C44E52"


class Drawn(NamedTuple):
    """What the figure shows, in numbers, for the caption and for tests."""
    left_writes: tuple    # ((writer, position, label), ...) in the order they were written
    right_writes: tuple
    left_refused: int     # requests the provider refused in the left panel
    right_refusals: int   # prompts the harness refused in the right panel


def _paused(timeline):
    """The ticks between run A's last write before B's first write and A's next one: the stretch
    in which A was paused and B ran, or None if B never wrote."""
    b_ticks = [w.tick for w in timeline.writes if w.writer == "B"] + [t for t, who, _ in timeline.refusals if who == "B"]
    if not b_ticks:
        return None
    first, last = min(b_ticks), max(b_ticks)
    before = [w.tick for w in timeline.writes if w.writer == "A" and w.tick < first]
    after = [w.tick for w in timeline.writes if w.writer == "A" and w.tick > last]
    return (max(before) if before else 0) + 0.5, (min(after) if after else last + 1) - 0.5


def _panel(ax, timeline, heading, ticks, rows):
    from matplotlib.patches import Rectangle
    span = _paused(timeline)
    if span:
        ax.axvspan(*span, color="#eeeeee", zorder=0)
        ax.text((span[0] + span[1]) / 2, rows - 0.35, "A paused at\ntool_execution_start", ha="center",
                va="top", fontsize=7, color="#555555")
    for w in timeline.writes:
        face = _COLOURS.get(w.writer, "#7f8c8d")
        edge, hatch = (_REFUSED, "///") if w.refused else ("white", None)
        ax.add_patch(Rectangle((w.tick - 0.4, w.position - 0.35), 0.8, 0.7, facecolor=face, edgecolor=edge,
                               hatch=hatch, linewidth=1.6 if w.refused else 0.8, zorder=2))
        ax.text(w.tick + 0.6, w.position, w.label, ha="left", va="center", fontsize=7.5,
                color=_REFUSED if w.refused else "#222222", zorder=3)
    for tick, writer, error in timeline.refusals:
        landing = len([w for w in timeline.writes if w.tick < tick])
        ax.plot([tick], [landing], marker="X", markersize=13, color=_REFUSED, zorder=3)
        ax.annotate(f"{writer}: {error}", (tick, landing), xytext=(12, -20), textcoords="offset points",
                    fontsize=7, color=_REFUSED, ha="left")
    ax.set_xlim(0.3, ticks + 2.2)
    ax.set_xticks(range(0, ticks + 2, 4))
    ax.set_ylim(-0.7, rows - 0.3)
    ax.set_yticks(range(rows))
    ax.set_xlabel("events handed out so far (one program, one clock)", fontsize=8)
    ax.set_title(heading, fontsize=9, loc="left")
    ax.tick_params(labelsize=7)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def writers_figure(wall, owned, *, title=None):
    """The figure for two stage.Timeline objects: the wall's two runs, and the Harness's."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    ticks = max(wall.tick, owned.tick)
    rows = max([w.position for w in wall.writes + owned.writes] + [0]) + 2
    fig = Figure(figsize=(WIDTH, 3.9), dpi=100, facecolor="white")
    left, right = fig.subplots(1, 2, sharey=True)
    _panel(left, wall, "Lesson 7: the frontend's list, two writers", ticks, rows)
    _panel(right, owned, "Lesson 8: one Harness, one pen", ticks, rows)
    left.set_ylabel("place in the list", fontsize=8)
    handles = [Patch(facecolor=_COLOURS["A"], label="written by run A (Read notes.txt.)"),
               Patch(facecolor=_COLOURS["B"], label="written by run B (Say hello.)"),
               Patch(facecolor="white", edgecolor=_REFUSED, hatch="///", label="a request the provider refused")]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=7, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0.07, 1, 0.95 if title else 1))
    fig.lab_drawn = Drawn(tuple((w.writer, w.position, w.label) for w in wall.writes),
                          tuple((w.writer, w.position, w.label) for w in owned.writes),
                          sum(1 for w in wall.writes if w.refused), len(owned.refusals))
    return fig


def draw_writers(wall, owned, *, alt, title=None):
    """Draw the figure, display it with `alt` as its text form (as lab.runtime.figures.show does), and
    return what was drawn (a Drawn)."""
    from lab.runtime import figures
    fig = writers_figure(wall, owned, title=title)
    drawn = fig.lab_drawn
    figures.show(fig, alt)
    return drawn
