"""Figure 5.1: what a runaway loop costs, turn by turn, with a brake and without one.

    fig, alt = bill_figure([("lesson 4's loop, no brake", model4, raised4), ("max_turns=5", model5, None)])
    lab.runtime.figures.show(fig, alt)

Each line is one real run, read from its ScriptedModel: the x axis is the model call, the y axis
the bill so far (input tokens sent, summed), so each point is what the run had paid after that
call. A run that the lab's brake stopped ends in a cross at its last call; a run that recorded
its own stop ends in a square. Nothing is placed by hand: change the runs and the lines change.
The figure has an opaque white background, so that it reads the same on a dark page.
"""

from lab.runtime import figures
from lab.stage.model import ScriptError

from .stage import bills

COLOURS = ("#b03a2e", "#2e86c1", "#7d3c98", "#229954")


def bill_figure(runs, title="Figure 5.1"):
    """(figure, alt text) for `runs`, a list of (label, the run's ScriptedModel, the exception
    that ended the run or None)."""
    from matplotlib.figure import Figure

    if not runs:
        raise ValueError("bill_figure() needs at least one run: (label, model, raised).")
    fig = Figure(figsize=(figures.WIDTH, 3.8), facecolor="white")
    ax = fig.add_subplot(1, 1, 1)
    ax.set_facecolor("white")
    alt = [f"{title}: the bill (input tokens sent, summed) after each model call, one line per run."]
    for n, (label, model, raised) in enumerate(runs):
        totals = bills(model)
        turns = list(range(1, len(totals) + 1))
        colour = COLOURS[n % len(COLOURS)]
        braked = isinstance(raised, ScriptError)
        ax.plot(turns, totals, color=colour, linewidth=1.8, marker="o", markersize=3, label=label)
        if totals:
            end = "x" if braked else "s"
            ax.plot([turns[-1]], [totals[-1]], marker=end, markersize=9, color=colour,
                    markeredgewidth=2, linestyle="none")
            how = ("stopped only by the lab's brake" if braked
                   else "stopped by its own recorded stop")
            # The longest run is labelled to the left of its end, the shorter ones to the right,
            # so that no label leaves the axes.
            longest = len(totals) == max(len(model.calls) for _, model, _ in runs)
            ax.annotate(f"{totals[-1]:,} tokens after {len(totals)} calls:\n{how}",
                        (turns[-1], totals[-1]), textcoords="offset points",
                        xytext=(-30, -4) if longest else (8, 45), ha="right" if longest else "left",
                        va="top" if longest else "bottom", fontsize=8, color=colour)
            alt.append(f"{label}: {len(totals)} model calls, the bill rising from {totals[0]:,} to "
                       f"{totals[-1]:,} tokens, {how}.")
    ax.set_xlabel("model call (turn)")
    ax.set_ylabel("bill so far (input tokens)")
    ax.set_xlim(0, max(len(model.calls) for _, model, _ in runs) + 1)
    ax.set_ylim(0, 1.1 * max(max(bills(model), default=0) for _, model, _ in runs) + 1)
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    ax.set_title(f"{title}: the bill of a model that never stops asking", fontsize=10, loc="left")
    fig.subplots_adjust(left=0.1, right=0.98, top=0.9, bottom=0.13)
    return fig, " ".join(alt)
