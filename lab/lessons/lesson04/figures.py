"""Figure 4.1: the typo task's timeline under two harnesses, drawn from the records the runs left.

    fig, alt = timeline([("lesson 3's run_tool", messages3, error3), ("lesson 4's", messages4, None)])
    lab.runtime.figures.show(fig, alt)

Each row is one real run, read from its record (the caller's `messages` afterwards) and from the
exception that ended it, if one did. Replies sit on the upper lane, results on the lower one, in
the order the record has them; a result marked is_error is drawn red, and an exception that ended
the run is drawn where the next result should have been. Nothing is placed by hand: change the
run and the picture changes. The figure has an opaque white background, so that it reads the
same on a dark page.
"""

import harness

import lab
from lab.runtime import figures

MODEL, TOOLS = 1.0, 0.0
COLOURS = {"model": "#d6e6f5", "tool": "#dcefd8", "error": "#f8d3cf", "crash": "#8a1c12",
           "edge": "#444444"}


def _clip(text, n):
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[:n - 1] + "…"


def _lines(text, width, most):
    """`text` in at most `most` lines of `width` characters, the last one clipped."""
    words, lines, line = " ".join(str(text).split()).split(" "), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = _clip(lines[-1] + " …", width)
    return [_clip(l, width) for l in lines]


def boxes(messages, raised=None):
    """[(lane, kind, lines, said)] of one run, in the order of its record, then the exception that
    ended it, if any: `lines` is what its box shows, `said` the step in words, for the alt text."""
    out, calls, number = [], {}, 0
    for m in messages:
        if m.get("role") == "assistant":
            number += 1
            asked = harness.tool_calls(m)
            for c in asked:
                calls[c["id"]] = c
            said = harness.text_of(m)
            lines = [f"model call {number}"]
            lines += [f"asks: {c['name']} {c['arguments'].get('path', '')}".rstrip() for c in asked]
            lines += _lines(repr(said), 21, 2) if said else []
            words = "; ".join(lines[1:len(asked) + 1]) or f"says {said!r}"
            out.append((MODEL, "model", lines, f"model call {number} {words}"))
        elif m.get("role") == "toolResult":
            c = calls.get(m.get("tool_call_id"), {})
            target = c.get("arguments", {}).get("path", "") if c else ""
            kind = "error" if m.get("is_error") else "tool"
            lines = [f"R({m.get('tool_call_id')}) {m.get('tool_name')} {target}".rstrip(),
                     f"is_error {m.get('is_error')}"] + _lines(repr(m.get("content")), 22, 4)
            out.append((TOOLS, kind, lines, f"{lines[0]}, is_error {m.get('is_error')}, "
                                            f"{_clip(repr(m.get('content')), 80)}"))
    if raised is not None:
        out.append((TOOLS, "crash", [type(raised).__name__, "raised: the run", "dies, no result,",
                                     "the model is", "never told"],
                    f"{type(raised).__name__} raised, and the run ended with no result recorded"))
    return out


def _panel(ax, label, messages, raised, width):
    from matplotlib.patches import FancyBboxPatch
    drawn = boxes(messages, raised)
    ax.set_xlim(-1.0, width - 0.38)
    ax.set_ylim(-0.9, 1.75)
    ax.axis("off")
    for y, name in ((MODEL, "model"), (TOOLS, "results")):
        ax.text(-0.95, y, name, ha="left", va="center", fontsize=8, color="#555555", style="italic")
    for x, (y, kind, lines, _) in enumerate(drawn):
        ax.add_patch(FancyBboxPatch((x - 0.46, y - 0.46), 0.92, 0.92, boxstyle="round,pad=0.02",
                                    facecolor=COLOURS[kind], edgecolor=COLOURS["edge"],
                                    linewidth=1.4 if kind in ("error", "crash") else 0.8))
        ax.text(x, y, "\n".join(lines), ha="center", va="center", fontsize=6.2, family="monospace",
                color="white" if kind == "crash" else "black")
        if x:
            y0 = drawn[x - 1][0]
            ax.annotate("", xy=(x - 0.46, y), xytext=(x - 1 + 0.46, y0),
                        arrowprops={"arrowstyle": "-|>", "color": "#333333", "linewidth": 0.9})
    last = messages[-1] if messages else {}
    answer = harness.text_of(last) if last.get("role") == "assistant" and not raised else ""
    ax.text(-0.95, 1.62, label, ha="left", va="center", fontsize=9, weight="bold")
    ending = f"answer: {answer!r}" if answer else "answer: none, the run raised"
    ax.text(-0.95, -0.74, f"record: {lab.shape(messages)}    {ending}", ha="left", va="center",
            fontsize=7.5, family="monospace")
    return drawn


def timeline(runs, title="Figure 4.1"):
    """(figure, alt text) for `runs`, a list of (label, the run's messages afterwards, the
    exception that ended it or None), one row each, on one axis of steps."""
    from matplotlib.figure import Figure
    width = max(5, max(len(boxes(messages, raised)) for _, messages, raised in runs))
    fig = Figure(figsize=(figures.WIDTH, 0.4 + 2.2 * len(runs)), facecolor="white")
    fig.patch.set_alpha(1.0)
    alt = [f"{title}: the typo task, one row per run, each step in the order of its record."]
    for n, (label, messages, raised) in enumerate(runs):
        ax = fig.add_subplot(len(runs), 1, n + 1)
        ax.set_facecolor("white")
        drawn = _panel(ax, label, messages, raised, width)
        steps = [said for *_, said in drawn]
        alt.append(f"{label}: " + "; ".join(steps) + f"; record {lab.shape(messages)}.")
    fig.suptitle(title, fontsize=10, x=0.02, ha="left", y=0.995)
    fig.subplots_adjust(left=0.01, right=0.99, top=0.93, bottom=0.02, hspace=0.15)
    return fig, " ".join(alt)
