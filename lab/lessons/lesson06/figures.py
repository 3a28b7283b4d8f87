"""Figure 6.1: the size of each tool result before and after the budget, drawn from real runs.

    fig, alt = sizes([("big.log", before, after), ...], budget=harness.MAX_BYTES)
    lab.runtime.figures.show(fig, alt)

`before` and `after` are the content of one result: what lesson 5's tool returned for a call,
and what lesson 6's returned for the same call. Each call gets two bars, on a logarithmic axis
of UTF-8 bytes, with the budget drawn across them. Nothing is placed by hand: change the runs
and the picture changes. The figure has an opaque white background, so that it reads the same on
a dark page.
"""

from lab.runtime import figures

COLOURS = {"before": "#b9b9b9", "after": "#4c72b0", "budget": "#c44e52", "edge": "#444444"}


def _size(n):
    """A byte count, exact: the budget is exact, and a result a few bytes over it (its notice)
    must not round down to look like one under it."""
    return f"{n:,} byte{'s' if n != 1 else ''}"


def _lines(n):
    return f"{n:,} line{'s' if n != 1 else ''}"


def measure(rows):
    """[(label, bytes before, lines before, bytes after, lines after)] of `rows`, as (label,
    before, after) contents."""
    out = []
    for label, before, after in rows:
        out.append((label, len(before.encode()), len(before.splitlines()),
                    len(after.encode()), len(after.splitlines())))
    return out


def sizes(rows, budget, title="Figure 6.1"):
    """(figure, alt text) for `rows`, a list of (label, content before, content after)."""
    from matplotlib.figure import Figure
    measured = measure(rows)
    fig = Figure(figsize=(figures.WIDTH, 1.1 + 0.75 * len(measured)), facecolor="white")
    fig.patch.set_alpha(1.0)
    ax = fig.add_subplot()
    ax.set_facecolor("white")
    top = max(max(b, a) for _, b, _, a, _ in measured)
    for n, (label, before, lines_before, after, lines_after) in enumerate(measured):
        for offset, key, value, lines in ((-0.19, "before", before, lines_before),
                                          (0.19, "after", after, lines_after)):
            ax.barh(n + offset, max(value, 1), height=0.34, color=COLOURS[key],
                    edgecolor=COLOURS["edge"], linewidth=0.6)
            ax.text(max(value, 1) * 1.12, n + offset,
                    f"{_size(value)}, {_lines(lines)}",
                    va="center", fontsize=7.5)
    ax.axvline(budget, color=COLOURS["budget"], linestyle="--", linewidth=1.2)
    ax.text(budget * 1.05, -0.72, f"budget: {budget:,} bytes", color=COLOURS["budget"], fontsize=8,
            va="center")
    ax.set_xscale("log")
    ax.set_xlim(10, top * 60)
    ax.set_ylim(len(measured) - 0.45, -0.95)
    ax.set_yticks(range(len(measured)), [label for label, *_ in measured], fontsize=8.5)
    ax.set_xlabel("size of the result the model is sent, in UTF-8 bytes (log scale)", fontsize=8)
    ax.tick_params(axis="x", labelsize=7.5)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(facecolor=COLOURS["before"], edgecolor=COLOURS["edge"],
                             label="lesson 5's tools: everything"),
                       Patch(facecolor=COLOURS["after"], edgecolor=COLOURS["edge"],
                             label="lesson 6's tools: cut to the budget, notice included")],
              loc="upper center", bbox_to_anchor=(0.45, -0.2), ncol=2, fontsize=7.5, frameon=False)
    fig.suptitle(f"{title}: one result each, before and after the budget", fontsize=10, x=0.02,
                 ha="left")
    fig.subplots_adjust(left=0.2, right=0.98, top=0.9, bottom=0.26)
    alt = [f"{title}: the size of one tool result per call, in UTF-8 bytes on a logarithmic "
           f"axis, with the budget of {budget:,} bytes drawn across."]
    for label, before, lines_before, after, lines_after in measured:
        alt.append(f"{label}: {_size(before)} in {_lines(lines_before)} before, "
                   f"{_size(after)} in {_lines(lines_after)} after.")
    return fig, " ".join(alt)
