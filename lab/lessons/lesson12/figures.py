"""Lesson 12's own figures and the line under each demonstration that says whose code drew it.

    ran_on("figure-12-1")                     display "Figure 12.1 ran on: the reference find_cut..."
    budget_slider(messages, later, summary)   Figure 12.1 with a slider for keep_recent_tokens
    per_prompt(model)                         input tokens of each prompt's largest request
    tokens_chart(runs, window, reserve)       Figure 12.2: those numbers for whole runs

Everything is drawn from objects the notebook's own cells made (a model's recorded calls, a real
SessionLog cut by whichever find_cut harness holds), never from numbers typed here. Figures have
an opaque white background, so that they read the same on a dark page.
"""

import harness

from lab.runtime import figures, lesson_harness

LESSON = 12


def ran_on(cell_id):
    """Display, as a note of its own, whose code the demonstration `cell_id` ran on (a cell's
    printed text stays what it always was)."""
    lesson_harness.ran_on(LESSON, cell_id)


# -- Figure 12.1 with a budget slider -------------------------------------------------------------

def compacted_log(messages, later, summary, budget):
    """A fresh SessionLog of `messages`, compacted where harness.find_cut puts the cut for
    `budget` (if it leaves something on each side), then `later` appended. Returns (log, the rows
    before compacting, the index the walk back stopped on, the cut)."""
    import lab
    log = harness.SessionLog(lab.Workspace(), "session.jsonl")
    for message in messages:
        log.append_message(message)
    rows = log.rows()
    stop = figures.walk_back(rows, budget)
    cut = harness.find_cut(rows, budget)
    if 0 < cut < len(rows):
        log.append_compaction(summary, rows[cut][0])
    for message in later:
        log.append_message(message)
    return log, rows, stop, cut


def budget_line(rows, stop, cut, budget):
    """One sentence: where the walk back stopped and where find_cut cut, for `budget`."""
    if cut == 0:
        return (f"keep_recent_tokens={budget}: the whole log fits, so find_cut returns 0 and there is "
                "nothing to compact.")
    if cut >= len(rows):
        return (f"keep_recent_tokens={budget}: the walk back stops on {rows[stop][0]}, and find_cut "
                f"returns len(rows) = {len(rows)}: no tail can be kept, so compact would say no.")
    return (f"keep_recent_tokens={budget}: the walk back stops on {rows[stop][0]}; find_cut cuts at "
            f"{rows[cut][0]}, so {rows[0][0]} to {rows[cut - 1][0]} are summarised and "
            f"{len(rows) - cut} row{'s are' if len(rows) - cut > 1 else ' is'} kept word for word.")


def budget_view(messages, later, summary, budget, title="Figure 12.1"):
    """(the figure, its sentence) for `budget`: the log compacted as find_cut says, drawn."""
    log, rows, stop, cut = compacted_log(messages, later, summary, budget)
    fig = figures.log_figure(log, budget, title=f"{title}, keep_recent_tokens={budget}; ran on: "
                                                  f"{lesson_harness.whose(LESSON, ['find_cut', 'SessionLog.rows'])}")
    return fig, budget_line(rows, stop, cut, budget)


def budget_slider(messages, later, summary, start=35, title="Figure 12.1"):
    """Show an IntSlider for keep_recent_tokens over the log of `messages`, the figure for its
    value, and a sentence saying where find_cut cut. Each time the slider is let go, the figure and
    the sentence are replaced where they stand (display handles, which a saved notebook keeps as
    ordinary outputs, so its first drawing is there before anything is run). Returns the slider."""
    import base64

    import ipywidgets as widgets
    from IPython.display import display

    total = sum(harness.estimate_tokens([m]) for m in messages)
    slider = widgets.IntSlider(value=start, min=1, max=total + 5, step=1, continuous_update=False,
                               description="keep_recent_tokens", style={"description_width": "initial"},
                               layout=widgets.Layout(width="32em"))

    def parts(budget):
        fig, line = budget_view(messages, later, summary, budget, title)
        data = {"image/png": base64.b64encode(figures.png(fig)).decode("ascii"),
                "text/plain": f"{title} for keep_recent_tokens={budget}"}
        fig.clear()
        return data, {"text/plain": line}

    picture, words = parts(start)
    display(slider)
    meta = {"image/png": {"width": int(figures.WIDTH * 100)}}
    shown_picture = display(picture, raw=True, metadata=meta, display_id=True)
    shown_words = display(words, raw=True, display_id=True)

    def redraw(change):
        picture, words = parts(change["new"])
        shown_picture.update(picture, raw=True, metadata=meta)
        shown_words.update(words, raw=True)

    slider.observe(redraw, names="value")
    return slider


# -- Figure 12.2: input tokens per prompt --------------------------------------------------------

def per_prompt(model):
    """[(input tokens, refused)] for each prompt a ScriptedModel was sent: a prompt's requests run
    from one that ends on a user message to the next such one, and its size is its largest request
    (the one that carried its tool result). `refused` is True when any request of that prompt was
    turned away as too long."""
    prompts = []
    for request in model.calls:
        last = request.messages[-1] if request.messages else {}
        refused = request.reply.get("stop_reason") == "error" and "too long" in str(request.reply.get("error_message"))
        if last.get("role") == "user" or not prompts:
            prompts.append([request.input, refused])
        else:
            prompts[-1] = [max(prompts[-1][0], request.input), prompts[-1][1] or refused]
    return [tuple(p) for p in prompts]


def tokens_chart(runs, *, window, reserve, title="Figure 12.2"):
    """Figure: input tokens per prompt for each run in `runs` ((label, model, prompts compacted
    before)), with the window, the trigger (window - reserve) and each compaction marked."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    fig = Figure(figsize=(figures.WIDTH, 4.2), dpi=100, facecolor="white")
    fig.patch.set_alpha(1.0)
    ax = fig.add_axes([0.09, 0.27, 0.89, 0.57])
    ax.set_facecolor("white")
    colours = ["#C44E52", "#4C72B0", "#55A868"]
    longest = 1
    handles, labels = [], []
    for (label, model, compacted), colour in zip(runs, colours):
        sizes = per_prompt(model)
        longest = max(longest, len(sizes))
        xs = list(range(1, len(sizes) + 1))
        ax.plot(xs, [s for s, _ in sizes], color=colour, linewidth=1.6, marker="o", markersize=3,
                gid=f"run-{label}")
        refused = [(x, s) for x, (s, r) in zip(xs, sizes) if r]
        if refused:
            ax.plot([x for x, _ in refused], [s for _, s in refused], linestyle="none", marker="x",
                    markersize=7, color=colour, markeredgewidth=2)
        for k in compacted:
            ax.axvline(k - 0.5, color=colour, linestyle=":", linewidth=1.0, gid=f"compaction-{label}-{k}")
        handles.append(Line2D([0], [0], color=colour, marker="o", markersize=3))
        labels.append(label)
    ax.axhline(window, color="#222222", linewidth=1.4, gid="window")
    ax.axhline(window - reserve, color="#888888", linestyle="--", linewidth=1.2, gid="trigger")
    # Labelled at the left, where every run is still far below both lines.
    ax.text(0.8, window + 25, f"window {window}", va="bottom", ha="left", fontsize=8, color="#222222")
    ax.text(0.8, window - reserve + 25, f"trigger {window - reserve}", va="bottom", ha="left",
            fontsize=8, color="#666666")
    ax.set_xlim(0.5, longest + 1)
    ax.set_ylim(0, window * 1.2)
    ax.set_xlabel("prompt", fontsize=9)
    ax.set_ylabel("input tokens sent", fontsize=9)
    ax.tick_params(labelsize=8)
    handles += [Line2D([0], [0], color="#222222", linewidth=1.4),
                Line2D([0], [0], color="#888888", linestyle="--"),
                Line2D([0], [0], color="#555555", linestyle=":"),
                Line2D([0], [0], color="#555555", marker="x", linestyle="none", markeredgewidth=2)]
    labels += ["context window: larger requests are refused",
               "trigger: maybe_compact compacts when chars/4 of the record passes it",
               "a compaction, just before that prompt", "refused: prompt is too long"]
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=7.5, frameon=False)
    fig.suptitle(f"{title}: input tokens of each prompt's largest request\nran on: "
                 f"{lesson_harness.whose(LESSON, ['summarize', 'find_cut', 'SessionLog.rows', 'compact'])}",
                 fontsize=9.5, x=0.02, ha="left", y=0.98)
    return fig


def show_tokens_chart(runs, *, window, reserve, title="Figure 12.2"):
    """Draw tokens_chart and display it, with a text form that lists each run's numbers."""
    fig = tokens_chart(runs, window=window, reserve=reserve, title=title)
    lines = [f"{title}: input tokens per prompt."]
    for label, model, compacted in runs:
        sizes = per_prompt(model)
        lines.append(f"{label}: {len(sizes)} prompts, largest {max(s for s, _ in sizes)} tokens, "
                     f"{sum(r for _, r in sizes)} refused, compactions before prompts {list(compacted)}")
    figures.show(fig, "\n".join(lines))
    return fig
