"""Figure 3.1: a run's timeline, drawn from what a stage.Recorder kept while the run went on.

    fig, alt = timeline([("lesson 2's run_agent", rec2, messages2), ("lesson 3's", rec3, messages3)])
    lab.runtime.figures.show(fig, alt)

Each panel is one real run: model calls on the upper lane, tool runs on the lower one, in the
order they happened, each model call labelled with the shape of the request it was sent and the
reply it gave. Calls that the last reply asked for and nobody ran are drawn hatched where they
would have gone. Nothing is placed by hand: change the run and the picture changes. The figure
has an opaque white background, so that it reads the same on a dark page.
"""

import harness

from lab.runtime import figures

MODEL, TOOLS = 1.0, 0.0
COLOURS = {"model": "#d6e6f5", "tool": "#dcefd8", "unrun": "#f6d5d1", "edge": "#444444"}


def _wrap(prefix, shape, n=20):
    """`prefix` and the tokens of `shape` in lines of at most `n` characters."""
    lines, line = [], prefix
    for token in shape.split():
        if len(line) + 1 + len(token) > n and line.strip():
            lines.append(line)
            line = "  " + token
        else:
            line = f"{line} {token}" if line else token
    return lines + [line]


def _clip(text, n=20):
    """`text` cut to `n` characters, marked with an ellipsis when cut; repr() shows its escapes."""
    return text if len(text) <= n else text[:n - 1] + "…"


def _boxes(rec, messages):
    """[(lane, lines of text, kind)] for the run, in order, then any calls left unrun."""
    boxes = []
    for e in rec.events:
        if e["kind"] == "model":
            said = repr(_clip(e["text"])) if e["text"] else ""
            lines = [f"model call {e['number']}"] + _wrap("sent", e["sent"]) + [f"reply {e['reply']}"]
            if e["refused"]:
                lines[-1] = "refused: 400"
            elif said:
                lines.append(said)
            boxes.append((MODEL, lines, "model"))
        else:
            target = e["arguments"].get("path", "")
            boxes.append((TOOLS, [f"{e['name']} {target}", f"→ {_clip(str(e['output']), 15)!r}"], "tool"))
    last = messages[-1] if messages else None
    if last and last.get("role") == "assistant":
        for call in harness.tool_calls(last):
            boxes.append((TOOLS, [f"{call['name']} {call['arguments'].get('path', '')}", "never ran"], "unrun"))
    return boxes


def _panel(ax, label, rec, messages, width):
    from matplotlib.patches import FancyBboxPatch
    boxes = _boxes(rec, messages)
    ax.set_xlim(-1.0, width - 0.38)
    ax.set_ylim(-0.75, 1.75)
    ax.axis("off")
    for y, name in ((MODEL, "model"), (TOOLS, "tools")):
        ax.text(-0.95, y, name, ha="left", va="center", fontsize=8, color="#555555", style="italic")
    for x, (y, lines, kind) in enumerate(boxes):
        box = FancyBboxPatch((x - 0.44, y - 0.4), 0.88, 0.8, boxstyle="round,pad=0.02",
                             facecolor=COLOURS[kind], edgecolor=COLOURS["edge"], linewidth=0.8,
                             linestyle="--" if kind == "unrun" else "-")
        ax.add_patch(box)
        ax.text(x, y, "\n".join(lines), ha="center", va="center", fontsize=6.4, family="monospace",
                color="#8a1c12" if kind == "unrun" else "black")
        if x:
            (y0, _, _), dashed = boxes[x - 1], kind == "unrun"
            ax.annotate("", xy=(x - 0.44, y), xytext=(x - 1 + 0.44, y0),
                        arrowprops={"arrowstyle": "-|>", "color": "#888888" if dashed else "#333333",
                                    "linestyle": "--" if dashed else "-", "linewidth": 0.9})
    answer = harness.text_of(messages[-1]) if messages and messages[-1].get("role") == "assistant" else ""
    ax.text(-0.95, 1.62, label, ha="left", va="center", fontsize=9, weight="bold")
    ax.text(-0.95, -0.64, f"record: {rec_shape(messages)}    returned: {answer!r}", ha="left",
            va="center", fontsize=7.5, family="monospace")
    return boxes


def rec_shape(messages):
    import lab
    return lab.shape(messages)


def timeline(runs, title="Figure 3.1"):
    """(figure, alt text) for `runs`, a list of (label, Recorder, the run's messages afterwards),
    one panel each, its steps from left to right in the order they happened: position counts
    steps, not time."""
    from matplotlib.figure import Figure
    width = max(len(_boxes(rec, messages)) for _, rec, messages in runs)
    fig = Figure(figsize=(figures.WIDTH, 0.4 + 2.0 * len(runs)), facecolor="white")
    fig.patch.set_alpha(1.0)
    alt = [f"{title}: the copy task step by step, one row per run, in the order things happened."]
    for n, (label, rec, messages) in enumerate(runs):
        ax = fig.add_subplot(len(runs), 1, n + 1)
        ax.set_facecolor("white")
        boxes = _panel(ax, label, rec, messages, width)
        unrun = [lines[0] for _, lines, kind in boxes if kind == "unrun"]
        alt.append(f"{label}: {rec.summary()}" + (f"; asked for but never run: {', '.join(unrun)}" if unrun else "")
                   + f"; record {rec_shape(messages)}.")
    fig.suptitle(title, fontsize=10, x=0.02, ha="left", y=0.995)
    fig.subplots_adjust(left=0.01, right=0.99, top=0.93, bottom=0.02, hspace=0.15)
    return fig, " ".join(alt)
