"""Figure 9.1: one run's timeline, with the moments the user spoke and the points where the loop
took each message, drawn from a stage.Timeline of a real run.

    fig, alt, drawn = timeline_figure(timeline, title="Figure 9.1")
    lab.runtime.figures.show(fig, alt)

Time runs left to right, one step per thing that happened (an event, or the user speaking).
Three lanes: the user's (a marker where steer or follow_up was called), the run's (a box per model
call, a box per tool run, a shaded band for each gap between turns), and the transcript's (a
marker where each user message was recorded). An arrow joins each word to the point it was taken.
Nothing is placed by hand: another run draws another picture. `drawn` says what was drawn.
"""

from dataclasses import dataclass

from lab.runtime import figures

COLOURS = {"model": "#4c72b0", "tool": "#55a868", "gap": "#f2e6c9", "steer": "#c44e52",
           "follow_up": "#8172b2", "prompt": "#444444", "edge": "#333333"}


@dataclass
class Drawn:
    spoken: list     # [(kind, text, step)] where the user spoke
    taken: list      # [(text, step)] where each user message was recorded
    gaps: list       # [step] of each turn_start after the first: the safe points
    model_calls: int
    tool_runs: int


def measure(timeline):
    """What the figure shows, worked out from the timeline's items."""
    spoken, taken, gaps, model, tools = [], [], [], [], []
    starts = {}
    turn_starts = 0
    for step, (kind, detail) in enumerate(timeline.items):
        if kind == "spoke":
            spoken.append((detail[0], detail[1], step))
        elif kind == "turn_start":
            turn_starts += 1
            if turn_starts > 1:
                gaps.append(step)
            starts["model"] = step
        elif kind == "message_end":
            message = detail["message"]
            if message["role"] == "user":
                taken.append((message["content"], step))
                starts["model"] = step
            elif message["role"] == "assistant":
                model.append((starts.get("model", step), step))
        elif kind == "tool_execution_start":
            starts["tool"] = step
        elif kind == "tool_execution_end":
            tools.append((starts.get("tool", step), step))
    return spoken, taken, gaps, model, tools


def timeline_figure(timeline, title="Figure 9.1"):
    """(figure, alt text, Drawn) for `timeline`, a stage.Timeline of one or more runs."""
    from matplotlib.figure import Figure
    spoken, taken, gaps, model, tools = measure(timeline)
    fig = Figure(figsize=(figures.WIDTH, 3.4), facecolor="white")
    fig.patch.set_alpha(1.0)
    ax = fig.add_subplot()
    ax.set_facecolor("white")
    lanes = {"you": 2.0, "run": 1.0, "transcript": 0.0}
    end = len(timeline.items)
    for step in gaps:
        ax.axvspan(step - 0.5, step + 0.5, color=COLOURS["gap"], zorder=0)
    for start, stop in model:
        ax.broken_barh([(start + 0.1, max(stop - start, 1) - 0.2)], (lanes["run"] - 0.3, 0.6),
                       facecolors=COLOURS["model"], edgecolor=COLOURS["edge"], linewidth=0.5, zorder=2)
    for start, stop in tools:
        ax.broken_barh([(start + 0.1, max(stop - start, 1) - 0.2)], (lanes["run"] - 0.2, 0.4),
                       facecolors=COLOURS["tool"], edgecolor=COLOURS["edge"], linewidth=0.5, zorder=2)
    waiting = list(spoken)
    for text, step in taken:
        match = next((s for s in waiting if s[1] == text), None)
        kind = match[0] if match else "prompt"
        ax.plot([step], [lanes["transcript"]], marker="D", color=COLOURS[kind], markersize=7, zorder=3)
        if not match:
            ax.text(step, lanes["transcript"] - 0.32, "prompt", fontsize=7.5, ha="center",
                    color=COLOURS["prompt"])
        if match:
            waiting.remove(match)
            ax.annotate("", xy=(step, lanes["transcript"] + 0.12), xytext=(match[2], lanes["you"] - 0.12),
                        arrowprops={"arrowstyle": "->", "color": COLOURS[kind], "linewidth": 1.1}, zorder=4)
    for n, (kind, text, step) in enumerate(spoken):
        ax.plot([step], [lanes["you"]], marker="v", color=COLOURS[kind], markersize=9, zorder=3)
        ax.text(step, lanes["you"] + 0.22 + 0.25 * (n % 2), f"{kind.replace('_', '-')}: {text}",
                fontsize=7.5, ha="left", color=COLOURS[kind])
    ax.set_yticks(list(lanes.values()), ["you speak", "model calls (blue)\ntool runs (green)",
                                         "recorded in\nthe transcript"], fontsize=8)
    ax.set_ylim(-0.6, 2.85)
    ax.set_xlim(-1, end)
    ax.set_xlabel("what happened, in order (one step per event or word); shaded: a gap between "
                  "turns, where the loop asks", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.suptitle(f"{title}: when the user spoke, and when the loop took the words", fontsize=10,
                 x=0.02, ha="left")
    fig.subplots_adjust(left=0.17, right=0.98, top=0.88, bottom=0.17)
    drawn = Drawn(spoken, taken, gaps, len(model), len(tools))
    alt = [f"{title}: a run of {len(model)} model calls and {len(tools)} tool runs over "
           f"{end} steps."]
    for kind, text, step in spoken:
        at = next((s for t, s in taken if t == text and s > step), None)
        alt.append(f"{kind.replace('_', '-')} {text!r} spoken at step {step}, "
                   + (f"recorded at step {at}." if at is not None else "never recorded."))
    return fig, " ".join(alt), drawn
