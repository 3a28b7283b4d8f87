"""Figure 13.1: cached against uncached input tokens, request by request, for sessions that differ
only in how they treat their briefing.

    fig, alt = cache_chart([("time on top, rebuilt every prompt", model1), ("held", model2)])
    lab.runtime.figures.show(fig, alt)

Each panel is one real run, read from the Requests its ScriptedModel kept: a stacked bar per
request, the cached part below and the part billed in full above it. A request whose system
prompt is SUMMARY_SYSTEM is a compaction's summary call, hatched and marked with a dashed
line. Nothing is
placed by hand. The figure has an opaque white background, so that it reads the same on a dark
page.
"""

import harness

from lab.runtime import figures

LESSON = 13

CACHED, UNCACHED, MARK = "#4C72B0", "#F0B37E", "#444444"


def cache_chart(runs):
    """(figure, alt text) for `runs`, a list of (label, ScriptedModel) drawn one panel each."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(figures.WIDTH, 2.2 + 2.1 * len(runs)), dpi=100, facecolor="white")
    fig.patch.set_alpha(1.0)
    tallest = max(r.input for _, model in runs for r in model.calls)
    alts = []
    for row, (label, model) in enumerate(runs):
        ax = fig.add_subplot(len(runs), 1, row + 1)
        ax.set_facecolor("white")
        numbers = [r.number for r in model.calls]
        cached = [r.cached for r in model.calls]
        uncached = [r.uncached for r in model.calls]
        ax.bar(numbers, cached, color=CACHED, width=0.8, label="cached (billed at a tenth)")
        ax.bar(numbers, uncached, bottom=cached, color=UNCACHED, width=0.8,
               label="uncached (billed in full)")
        summaries = [r.number for r in model.calls if r.system == harness.SUMMARY_SYSTEM]
        sizes = {r.number: r.input for r in model.calls}
        for n in summaries:
            # the summary call itself, hatched: a request of its own, outside the transcript
            ax.bar([n], [sizes[n]], width=0.8, fill=False, hatch="///", edgecolor=MARK, linewidth=0,
                   label="a compaction's summary call" if n == summaries[0] else None)
            ax.axvline(n, color=MARK, linestyle="--", linewidth=1)
            ax.text(n, tallest * 1.02, "compaction", fontsize=7, ha="center", va="bottom",
                    color=MARK)
        ax.set_ylim(0, tallest * 1.18)
        ax.set_xlim(0.3, max(numbers) + 0.7)
        ax.set_ylabel("input tokens", fontsize=8)
        ax.tick_params(labelsize=7)
        hits = sum(1 for r in model.calls if r.cached)
        ax.set_title(f"{label}: {hits} of {len(model.calls)} requests hit the cache, "
                     f"cost {model.cost:,.1f} of a bill of {model.bill:,}",
                     fontsize=9, loc="left")
        if row == len(runs) - 1:
            ax.set_xlabel("request", fontsize=8)
        if row == 0:
            ax.legend(fontsize=7, loc="upper left", frameon=False)
        alts.append(f"{label}: {len(model.calls)} requests, {hits} with a cache hit, "
                    f"{model.cached:,} of {model.bill:,} input tokens cached"
                    + (f", compactions at requests {', '.join(map(str, summaries))}"
                       if summaries else ""))
    fig.tight_layout()
    alt = "Figure 13.1, cached and uncached input tokens per request. " + "; ".join(alts) + "."
    return fig, alt


def ran_on(cell_id):
    """Display, as a note of its own, whose code the demonstration `cell_id` (one of the lesson's
    DEMOS) just ran on; the cell's printed text stays the same either way."""
    from lab.runtime import lesson_harness
    lesson_harness.ran_on(LESSON, cell_id)
