"""Figure 14.1: where the words of each request came from, request by request, in a session that
read an injected README and was then compacted.

    fig, alt = voices_chart([("lesson 13's harness", model1, shell1), ("lesson 14's", model2, shell2)])
    lab.runtime.figures.show(fig, alt)

Each panel is one real run, read from the Requests its ScriptedModel kept: a bar per request, one
stacked segment per message, its size the message's estimate_tokens and its colour the voice the
model hears it in (the user, a summary replayed as the user, the model itself, a tool). A segment
that holds the README's order, outside quotation marks, is outlined in red; a red triangle over a
bar says that the reply to that request sent the order to a shell that ran it, a hollow one that
the reply asked for it and was refused. Nothing is placed by hand. The background is opaque white, so the figure reads the same on a dark page.
"""

import harness

from lab.runtime import figures
from lab.lessons.lesson14.stage import ORDER, _unquoted_orders

COLOURS = {"user": "#4C72B0", "summary": "#8172B2", "model": "#55A868", "tool": "#F0B37E"}
LABELS = {"user": "typed by the user", "summary": "a summary, replayed as the user",
          "model": "the model's own words", "tool": "a tool's output"}
ALARM = "#C44E52"


def voice(message):
    """Whose words `message` carries, as the model hears them."""
    if message["role"] == "user":
        return "summary" if message["content"].startswith(harness.SUMMARY_PREFIX) else "user"
    return "model" if message["role"] == "assistant" else "tool"


def carries_order(message):
    """True when `message` holds the README's order as something to do, not inside quotation
    marks; a tool's output holds it whenever the text is there."""
    if message["role"] == "assistant":
        text = harness.text_of(message)
    else:
        text = message["content"]
    if message["role"] == "toolResult":
        return ORDER in text
    return ORDER in _unquoted_orders(text)


def voices_chart(runs):
    """(figure, alt text) for `runs`, a list of (label, ScriptedModel, Shell), one panel each."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    fig = Figure(figsize=(figures.WIDTH, 1.6 + 2.3 * len(runs)), dpi=100, facecolor="white")
    fig.patch.set_alpha(1.0)
    tallest = max(sum(max(1, harness.estimate_tokens([m])) for m in r.messages)
                  for _, model, _ in runs for r in model.calls)
    alts = []
    for row, (label, model, shell) in enumerate(runs):
        ax = fig.add_subplot(len(runs), 1, row + 1)
        ax.set_facecolor("white")
        ran, flagged, refused = list(shell.history), [], []
        for r in model.calls:
            bottom = 0
            for m in r.messages:
                size = max(1, harness.estimate_tokens([m]))
                red = carries_order(m)
                ax.bar([r.number], [size], bottom=bottom, width=0.7, color=COLOURS[voice(m)],
                       edgecolor=ALARM if red else "white", linewidth=1.6 if red else 0.4)
                bottom += size
            calls = [c for c in harness.tool_calls(r.reply) if c["name"] == "bash"
                     and c["arguments"].get("command") == ORDER]
            if calls and ORDER in ran:
                ran.remove(ORDER)          # one run of the order in the shell per call that did it
                flagged.append(r.number)
                ax.plot([r.number], [bottom + tallest * 0.06], marker="v", color=ALARM, markersize=8)
            elif calls:                    # asked for, and it never reached the shell
                refused.append(r.number)
                ax.plot([r.number], [bottom + tallest * 0.06], marker="v", markersize=8,
                        markerfacecolor="white", markeredgecolor=ALARM)
        ax.set_ylim(0, tallest * 1.45)
        ax.set_xlim(0.3, len(model.calls) + 0.7)
        ax.set_xticks(range(1, len(model.calls) + 1))
        ax.set_ylabel("tokens (estimate)", fontsize=8)
        ax.tick_params(labelsize=7)
        went = len(shell.network)
        ax.set_title(f"{label}: {went} command{'s' if went != 1 else ''} reached the network",
                     fontsize=9, loc="left")
        if row == len(runs) - 1:
            ax.set_xlabel("request to the agent's model", fontsize=8)
        if row == 0:
            handles = [Patch(color=COLOURS[k], label=LABELS[k]) for k in COLOURS]
            handles.append(Patch(facecolor="white", edgecolor=ALARM, linewidth=1.6,
                                 label="holds the order, unquoted"))
            handles.append(Line2D([], [], marker="v", color=ALARM, linestyle="",
                                  label="its reply ran the order"))
            handles.append(Line2D([], [], marker="v", color=ALARM, markerfacecolor="white",
                                  linestyle="", label="its reply asked for it: refused"))
            ax.legend(handles=handles, fontsize=7, loc="upper left", frameon=False, ncol=3)
        alts.append(f"{label}: {len(model.calls)} requests; the order ran after requests "
                    f"{', '.join(map(str, flagged)) or 'none'} and was refused after requests "
                    f"{', '.join(map(str, refused)) or 'none'}; {went} reached the network")
    fig.tight_layout()
    alt = "Figure 14.1, the voices in each request of an injected, compacted session. " \
          + "; ".join(alts) + "."
    return fig, alt
