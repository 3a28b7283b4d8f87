"""Figure 10.1: the record beside the view, drawn from a real run.

    drawn = draw_record_and_view(record, sent, alt="Figure 10.1 ...")

`record` is the harness's list as it stood when a request went out, and `sent` the messages that
request carried (model.calls[i].messages). Each message is a box, coloured by its role, in two
columns. A message of the view that is equal to one of the record is joined to it by a line; a
message of the record that the view does not carry is grey and crossed; one of the view that the
record never held is hatched. Nothing is placed by hand, and the figure draws its own background.
"""

import json
from typing import NamedTuple

WIDTH = 8.0  # inches, as lab.runtime.figures draws

_COLOURS = {"user": "#4C72B0", "assistant": "#7f8c8d", "toolResult": "#DD8452",
            "left out": "#d9d9d9", "stand-in": "#C44E52"}


class Drawn(NamedTuple):
    """What the figure shows, in numbers, for the caption and for tests."""
    record: int      # messages in the record
    view: int        # messages in the view
    left_out: int    # messages of the record the view does not carry
    stand_ins: int   # messages of the view the record never held


def _key(message):
    """A message as compared across the two lists: what is sent, without bookkeeping."""
    return json.dumps({k: v for k, v in message.items() if k not in ("usage",)}, sort_keys=True, default=str)


def _label(message):
    role = message.get("role")
    if role == "user":
        return f"user: {message['content']}"
    if role == "toolResult":
        words = message["content"].split(":")[0] if message.get("is_error") else message["content"]
        return f"result {message['tool_call_id']}: {words}"[:46]
    calls = [f"{b['id']} {b['name']} {b['arguments'].get('path', '')}".strip()
             for b in message.get("content", []) if b.get("type") == "toolCall"]
    if message.get("stop_reason") == "error" and not message.get("content"):
        return f"assistant, failed: {message.get('error_message', '')}"[:46]
    text = "".join(b.get("text", "") for b in message.get("content", []) if b.get("type") == "text")
    return (f"assistant: calls {', '.join(calls)}" if calls else f"assistant: {text}")[:46]


def record_and_view_figure(record, view, *, title=None):
    """The figure for a record and the view made from it."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch, Rectangle

    rows = max(len(record), len(view))
    fig = Figure(figsize=(WIDTH, 0.42 * rows + 1.6), dpi=100, facecolor="white")
    fig.patch.set_alpha(1.0)
    ax = fig.add_axes([0.01, 0.14, 0.98, 0.72 if title else 0.78], facecolor="white")
    ax.set_xlim(0, 1)
    ax.set_ylim(rows + 0.2, -1.0)
    ax.axis("off")
    width, height, right = 0.40, 0.7, 0.59
    keys = [_key(m) for m in record]
    used = set()
    left_out = stand_ins = 0
    ax.text(0, -0.55, "the record (h.messages)", fontsize=10, fontweight="bold", va="center")
    ax.text(right, -0.55, "the view (what the request carried)", fontsize=10, fontweight="bold", va="center")

    matched = {}
    for j, message in enumerate(view):
        key = _key(message)
        i = next((i for i, k in enumerate(keys) if k == key and i not in used), None)
        if i is not None:
            used.add(i)
            matched[i] = j
    for i, message in enumerate(record):
        kept = i in matched
        colour = _COLOURS.get(message.get("role"), "#bbbbbb") if kept else _COLOURS["left out"]
        ax.add_patch(Rectangle((0, i), width, height, facecolor=colour, edgecolor="white", gid=f"record-{i}"))
        ax.text(0.01, i + height / 2, f"[{i}] {_label(message)}", fontsize=7.5, va="center",
                color="white" if kept else "#555555")
        if kept:
            j = matched[i]
            ax.plot([width, right], [i + height / 2, j + height / 2], color="#999999", linewidth=0.8)
        else:
            left_out += 1
            ax.plot([0, width], [i, i + height], color="#888888", linewidth=0.8)
            ax.plot([0, width], [i + height, i], color="#888888", linewidth=0.8)
    for j, message in enumerate(view):
        new = j not in matched.values()
        colour = _COLOURS["stand-in"] if new else _COLOURS.get(message.get("role"), "#bbbbbb")
        ax.add_patch(Rectangle((right, j), width, height, facecolor=colour, edgecolor="white",
                               hatch="////" if new else None, gid=f"view-{j}"))
        ax.text(right + 0.01, j + height / 2, f"[{j}] {_label(message)}", fontsize=7.5, va="center",
                color="white", bbox=dict(facecolor=colour, edgecolor="none", pad=1.5) if new else None)
        stand_ins += new

    handles = [Patch(facecolor=_COLOURS[k]) for k in ("user", "assistant", "toolResult")]
    handles += [Patch(facecolor=_COLOURS["left out"]), Patch(facecolor=_COLOURS["stand-in"], hatch="////")]
    fig.legend(handles, ["user", "assistant", "tool result", "in the record, left out of the view",
                         "in the view only: a stand-in"], loc="lower center", ncol=3, fontsize=8.5,
               frameon=False)
    if title:
        fig.suptitle(title, fontsize=10, x=0.02, ha="left", y=0.97)
    fig.lab_drawn = Drawn(len(record), len(view), left_out, stand_ins)
    return fig


def draw_record_and_view(record, view, *, alt, title=None):
    """Draw the figure, display it with `alt` as its text form (as lab.runtime.figures.show does), and
    return what was drawn (a Drawn)."""
    from lab.runtime import figures
    fig = record_and_view_figure(record, view, title=title)
    drawn = fig.lab_drawn
    figures.show(fig, alt)
    return drawn
