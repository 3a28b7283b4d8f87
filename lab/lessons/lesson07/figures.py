"""Figure 7.1: a run's events along the virtual clock, and the silence a loop without events
leaves a frontend.

    fig, alt = events_figure(timed_events, model, silent_until=40.0)
    lab.runtime.figures.show(fig, alt)

Everything drawn is read from a real run: `timed_events` is [(virtual seconds, event)] as a
consumer received them (stage.timed), `model` the run's ScriptedModel, whose requests carry
.started and .ended on the same clock. The top row is the model at work, one bar per request;
the middle rows are the events, one row per kind; the bottom row is what a caller of lesson 6's
run_agent had to show over the same run: nothing, until the answer came back. The figure has an
opaque white background, so that it reads the same on a dark page.
"""

from lab.runtime import figures

ROWS = ("model working", "turn_start / turn_end", "message_end", "tool_execution_start / _end",
        "agent_start / agent_end", "lesson 6's caller")
SPREAD = 0.5   # seconds between two events drawn at the same virtual second
ROLE_MARK = {"user": ("U", "#2e86c1"), "assistant": ("A", "#b03a2e"), "toolResult": ("R", "#229954")}


def _row(event):
    kind = event["type"]
    if kind in ("turn_start", "turn_end"):
        return 1
    if kind == "message_end":
        return 2
    if kind in ("tool_execution_start", "tool_execution_end"):
        return 3
    return 4


def events_figure(timed_events, model, silent_until, title="Figure 7.1"):
    """(figure, alt text) for one run: its events at the virtual second each reached the
    consumer, the model's requests as bars, and lesson 6's silence up to `silent_until`."""
    from matplotlib.figure import Figure

    if not timed_events:
        raise ValueError("events_figure() needs the events of a run: [(seconds, event), ...].")
    fig = Figure(figsize=(figures.WIDTH, 4.2), facecolor="white")
    ax = fig.add_subplot(1, 1, 1)
    ax.set_facecolor("white")
    y = {n: len(ROWS) - 1 - n for n in range(len(ROWS))}   # first row on top
    for request in model.calls:
        ax.barh(y[0], request.ended - request.started, left=request.started, height=0.5,
                color="#d5dbdb", edgecolor="#7f8c8d")
    seen_at = {}
    for true_at, event in timed_events:
        # Events handed over at the same virtual second are drawn a little apart, in the order
        # the consumer received them, so that none hides another.
        order = seen_at[true_at] = seen_at.get(true_at, -1) + 1
        at = true_at + SPREAD * order
        row = _row(event)
        if event["type"] == "message_end":
            letter, colour = ROLE_MARK.get(event["message"].get("role"), ("?", "black"))
            failed = event["message"].get("stop_reason") == "error"
            ax.text(at, y[row], letter + ("!" if failed else ""), ha="center", va="center",
                    fontsize=8, color="white", fontweight="bold",
                    bbox={"boxstyle": "round,pad=0.25", "facecolor": colour, "edgecolor": "none"})
        else:
            ending = event["type"].endswith("_end")
            ax.plot([at], [y[row]], marker="|" if ending else "o", markersize=10 if ending else 5,
                    color="#34495e", markeredgewidth=2, linestyle="none")
    ax.barh(y[5], silent_until, left=0, height=0.5, color="white", edgecolor="#7f8c8d", hatch="///")
    ax.text(silent_until / 2, y[5], f"nothing to show for {silent_until:g} s", ha="center",
            va="center", fontsize=8, bbox={"facecolor": "white", "edgecolor": "none"})
    ax.plot([silent_until], [y[5]], marker="*", markersize=12, color="#b03a2e", linestyle="none")
    ax.text(0.99, 0.985, "o a start   | an end   U A R: message_end of a user message, a reply, a "
            "result\nevents at one moment are drawn side by side, in the order they came",
            transform=ax.transAxes, ha="right", va="top", fontsize=7, color="#34495e")
    ax.set_yticks([y[n] for n in range(len(ROWS))])
    ax.set_yticklabels(ROWS, fontsize=8)
    end = max(silent_until, max(at for at, _ in timed_events))
    ax.set_xlim(-1, end + 2)
    ax.set_ylim(-0.7, len(ROWS) + 0.2)
    ax.set_xlabel("virtual seconds since the prompt (lab.clock)")
    ax.grid(True, axis="x", color="#eeeeee", linewidth=0.6)
    ax.set_title(f"{title}: one run's events as a frontend receives them, and lesson 6's silence",
                 fontsize=10, loc="left")
    fig.subplots_adjust(left=0.27, right=0.98, top=0.9, bottom=0.14)
    kinds = {}
    for _, event in timed_events:
        kinds[event["type"]] = kinds.get(event["type"], 0) + 1
    moments = sorted({at for at, _ in timed_events})
    alt = (f"{title}: {len(timed_events)} events over {end:g} virtual seconds, arriving at "
           f"{len(moments)} moments ({', '.join(f'{m:g}' for m in moments)} s); "
           + ", ".join(f"{n} {kind}" for kind, n in kinds.items())
           + f". {len(model.calls)} model requests drawn as bars. Lesson 6's caller shows nothing "
             f"until {silent_until:g} s.")
    return fig, alt
