"""Figures drawn from real data: a session log on disk and what replay() makes of it.

    fig = lab.runtime.figures.log_figure(log, keep_recent_tokens=35)   # Figure 12.1
    lab.runtime.figures.show(fig, "Figure 12.1 ...")                   # display it, then close it

Nothing is placed by hand. plan() reads the log's entries. For every compaction entry it rebuilds
the rows as they stood just before that entry (with harness.SessionLog.rows, whichever version
is installed), walks back from the newest row until `keep_recent_tokens` is spent (the given half
of find_cut: the dashed line), and asks harness.find_cut where the cut goes (the solid line). The
bottom strip is log.replay(), row by row. So a different budget moves the dashed line, and a
different find_cut moves the solid one.

The figure has a fixed size and its PNG carries no timestamp or software tag, so it is the same
bytes on every run with the same matplotlib.
"""

import base64
import io
from dataclasses import dataclass, field

import harness
from lab.stage.display import shape

WIDTH = 8.0  # inches: 880 pixels at 110 dpi, shown 800 wide, the width of a notebook's output area


@dataclass
class Compaction:
    """One compaction entry, and where its cut came from."""
    id: str              # the entry's own id
    position: int        # its line in the file, from 0
    reach: str           # the row id the budget's walk back stopped on (dashed line)
    cut: str | None      # the row id find_cut keeps from (solid line); None: nothing kept
    first_kept_id: str   # what the entry itself says


@dataclass
class Plan:
    """Everything the figure shows, computed from the log."""
    entries: list        # [(id, kind, label)], kind "user", "assistant", "toolResult", "compaction"
    compactions: list    # [Compaction]
    replay: list         # [(row id, kind, label)] as log.rows() gives them now
    read: set = field(default_factory=set)    # ids whose text replay() reads (kept or summary)
    later: list = field(default_factory=list)  # ids appended after the last compaction

    def position(self, entry_id):
        for i, (eid, _, _) in enumerate(self.entries):
            if eid == entry_id:
                return i
        raise KeyError(entry_id)


class _Lines:
    """A stand-in for a SessionLog whose file holds only the given entries."""

    def __init__(self, entries):
        self._entries = entries

    def entries(self):
        return list(self._entries)


def _label(message):
    return shape([message])


def _kind(message):
    return message.get("role", "?")


def walk_back(rows, keep_recent_tokens):
    """The index the walk back stops on: the given half of find_cut, on its own."""
    cut, kept = len(rows), 0
    while cut > 0 and kept < keep_recent_tokens:
        cut -= 1
        kept += harness.estimate_tokens([rows[cut][1]])
    return cut


def plan(log, keep_recent_tokens):
    """The figure's content for `log` (a harness.SessionLog), with the budget `keep_recent_tokens`."""
    raw = log.entries()
    entries = []
    for entry in raw:
        if entry.get("type") == "compaction":
            entries.append((entry["id"], "compaction", "C"))
        else:
            entries.append((entry["id"], _kind(entry["message"]), _label(entry["message"])))
    compactions = []
    for k, entry in enumerate(raw):
        if entry.get("type") != "compaction":
            continue
        rows = harness.SessionLog.rows(_Lines(raw[:k]))
        if not rows:
            continue
        stop = walk_back(rows, keep_recent_tokens)
        cut = harness.find_cut(rows, keep_recent_tokens)
        compactions.append(Compaction(entry["id"], k, rows[min(stop, len(rows) - 1)][0],
                                      rows[cut][0] if cut < len(rows) else None,
                                      entry["first_kept_id"]))
    rows = log.rows()
    replay = []
    for row_id, message in rows:
        summary = any(c.id == row_id for c in compactions)
        replay.append((row_id, "summary" if summary else _kind(message),
                       "summary" if summary else _label(message)))
    later = []
    if compactions:
        last = compactions[-1].position
        later = [eid for eid, _, _ in entries[last + 1:]]
    return Plan(entries, compactions, replay, {row_id for row_id, _ in rows}, later)


_COLOURS = {"user": "#4C72B0", "assistant": "#7f8c8d", "toolResult": "#DD8452",
            "compaction": "#8172B3", "summary": "#8172B3", "?": "#bbbbbb"}


def log_figure(log, keep_recent_tokens, *, title=None):
    """Figure: the file as a strip of lines (top) and log.replay() as a strip of rows (bottom).

    Dimmed lines are in the file but not read word for word: they reach the model only through a
    summary. Each compaction has a dashed line where its budget's walk back stopped and a solid
    line where find_cut put the cut. With few lines, each is labelled with its id and shape, and
    numbered markers 1-5 name the steps the caption explains.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyArrowPatch, Rectangle
    from matplotlib.path import Path

    p = plan(log, keep_recent_tokens)
    n = len(p.entries)
    small = n <= 24
    replay_unit = max(1.0, n / max(len(p.replay), 12))
    height = 3.7 if small else 3.5
    fig = Figure(figsize=(WIDTH, height), dpi=100, facecolor="white")  # opaque on dark pages
    ax = fig.add_axes([0.02, 0.16, 0.96, 0.70 if title else 0.78])
    ax.set_xlim(-0.6 if small else -1, max(n, len(p.replay) * replay_unit) + (0.4 if small else 1))
    ax.set_ylim(-0.8, 4.1)
    ax.axis("off")
    file_y, replay_y, box_h = 2.0, 0.0, 0.8

    def box(x, y, w, kind, dim=False, text=None, gid=None, size=None):
        face = _COLOURS.get(kind, "#bbbbbb")
        alpha = (0.55 if kind == "compaction" else 0.28) if dim else 1.0
        patch = Rectangle((x, y), w, box_h, facecolor=face, edgecolor="white",
                          linewidth=0.8 if small else 0.3, alpha=alpha, gid=gid)
        ax.add_patch(patch)
        if text:
            ax.text(x + w / 2, y + box_h / 2, text, ha="center", va="center",
                    fontsize=size or (8.5 if small else 7.5),
                    color="#222222" if dim else "white", linespacing=1.1)

    # The file: every line, oldest first. Nothing is ever removed from it.
    for i, (eid, kind, label) in enumerate(p.entries):
        dim = eid not in p.read and eid not in p.later
        text = f"{eid}\n{label}" if small else None
        box(i + 0.05, file_y, 0.9, kind, dim, text, gid=f"file-{eid}")
        if not small and kind == "compaction":
            ax.text(i + 0.5, file_y + box_h + 0.12, eid, ha="center", va="bottom", fontsize=8,
                    color=_COLOURS["compaction"])
    ax.text(-0.55 if small else -0.9, 3.85,
            f"session.jsonl: {n} lines, only ever appended to", fontsize=10, ha="left",
            va="top", color="#333333")

    # Each compaction: where the budget reached (dashed) and where the cut went (solid).
    for c in p.compactions:
        reach = p.position(c.reach)
        ax.plot([reach, reach], [file_y - 0.25, file_y + box_h + 0.25], linestyle="--",
                color="#444444", linewidth=1.2, gid=f"reach-{c.id}")
        if c.cut is not None:
            cut = p.position(c.cut)
            ax.plot([cut, cut], [file_y - 0.25, file_y + box_h + 0.25], linestyle="-",
                    color="#111111", linewidth=2.0, gid=f"cut-{c.id}")
            if small:
                start, end, lift = (c.position + 0.5, file_y + box_h), (cut + 0.5, file_y + box_h), 1.0
                middle = (start[0] + end[0]) / 2
                path = Path([start, (middle, start[1] + lift), end],
                            [Path.MOVETO, Path.CURVE3, Path.CURVE3])
                ax.add_patch(FancyArrowPatch(path=path, arrowstyle="-|>", mutation_scale=10,
                                             color=_COLOURS["compaction"], linewidth=1.1))
                ax.text(middle, start[1] + lift / 2 + 0.06, f"first_kept_id: {c.first_kept_id}",
                        ha="center", va="bottom", fontsize=8.5, color=_COLOURS["compaction"])

    # What replay() returns now: the summary (from the newest compaction), then rows word for word.
    for j, (row_id, kind, label) in enumerate(p.replay):
        x = j * replay_unit
        text = label if kind == "summary" else (f"{row_id}\n{label}" if small or replay_unit >= 3 else None)
        if kind == "summary":
            text = f"summary\n{row_id}"
        box(x + 0.05 * replay_unit, replay_y, 0.9 * replay_unit, kind, False, text,
            gid=f"replay-{row_id}", size=(7.5 if kind == "summary" else None) if small else (6.0 if kind == "summary" else 6.8))
        # a thin connector from the line in the file to its place in the replay
        source = p.position(row_id)
        ax.plot([source + 0.5, x + 0.5 * replay_unit], [file_y - 0.02, replay_y + box_h + 0.02],
                color=_COLOURS["compaction"] if kind == "summary" else "#9aa3ad",
                linewidth=0.9 if small else 0.5, zorder=0)
    ax.text(-0.55 if small else -0.9, replay_y - 0.2,
            f"log.replay(): {len(p.replay)} messages, what the next request is built from",
            fontsize=10, ha="left", va="top", color="#333333")

    if small and p.compactions:
        c = p.compactions[-1]
        top = file_y + box_h + 0.45
        marks = [(p.position(c.reach), top, "1"),
                 (p.position(c.cut) if c.cut else n, top, "2"),
                 (c.position + 0.85, top - 0.1, "3"),
                 (-0.3, replay_y + box_h + 0.25, "4")]
        if p.later:
            marks.append((p.position(p.later[0]) + 0.5, top - 0.1, "5"))
        for x, y, number in marks:
            ax.text(x, y, number, ha="center", va="center", fontsize=9, color="white",
                    fontweight="bold",
                    bbox=dict(boxstyle="circle,pad=0.25", facecolor="#C44E52", edgecolor="none"))

    handles = [Rectangle((0, 0), 1, 1, facecolor=_COLOURS[k]) for k in
               ("user", "assistant", "toolResult", "compaction")]
    handles.append(Rectangle((0, 0), 1, 1, facecolor=_COLOURS["user"], alpha=0.28))
    from matplotlib.lines import Line2D
    handles += [Line2D([0], [0], color="#444444", linestyle="--"),
                Line2D([0], [0], color="#111111", linewidth=2)]
    fig.legend(handles, ["user", "assistant", "tool result", "compaction / summary",
                         "in the file, read only through a summary",
                         f"budget's reach ({keep_recent_tokens} tokens)", "cut (find_cut)"],
               loc="lower center", ncol=3, fontsize=8.5, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10, x=0.02, ha="left", y=0.97)
    fig.lab_plan = p  # for tests and curious readers: what was drawn
    return fig


def png(fig):
    """The figure as PNG bytes, with no metadata that changes from run to run."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    return buffer.getvalue()


def show(fig, alt):
    """Display `fig` as a PNG whose text form is `alt`, and release it. Displayed this way there
    is no "<Figure size ...>" line, and the text nbval compares is `alt`, the same every run."""
    from IPython.display import display
    data = base64.b64encode(png(fig)).decode("ascii")
    display({"image/png": data, "text/plain": alt}, raw=True,
            metadata={"image/png": {"width": int(WIDTH * 100)}})
    fig.clear()


def progress_figure(rows):
    """A small chart of lab.progress(): for each lesson, the share of its questions answered and
    of its labs passed, as two bars. `rows` is lab.rungs.text.course_progress()."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(WIDTH, 0.35 * len(rows) + 1.1), facecolor="white")
    ax = fig.add_subplot()
    names = [f"{n:02d} {title}" for n, title, *_ in rows]
    places = range(len(rows))
    ax.barh([p - 0.18 for p in places], [a / q if q else 0 for _, _, a, q, _, _ in rows], height=0.34,
            color="#4c72b0", label="questions answered")
    ax.barh([p + 0.18 for p in places], [p_ / l if l else 0 for *_, p_, l in rows], height=0.34,
            color="#55a868", label="labs passed")
    ax.set_yticks(list(places), names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:.0%}")
    ax.set_title("Your progress, lesson by lesson", fontsize=10, loc="left")
    ax.legend(loc="lower right", bbox_to_anchor=(1, 1), ncol=2, fontsize=8, frameon=False)
    fig.tight_layout()
    return fig
