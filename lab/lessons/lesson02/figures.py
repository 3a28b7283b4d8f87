"""Figure 2.1: what every request of a run was made of, and what its tool definitions cost.

    parts = request_parts(model)       # one Part per request the model received
    draw_parts(parts, title=..., alt=...)

Measured, not typed: each request is split by the lab's own token rule (lab.count_tokens over
lab.render_request, the text the lab's provider counts) into three parts. "Framing and system
prompt" is the request with no messages and no tools; "tool definitions" is what offering the
tools added to that; "messages" is the rest. The figure has an opaque white background.
"""

from typing import NamedTuple

import lab
from lab.runtime import figures

WIDTH = figures.WIDTH
_COLOURS = {"frame": "#bbbbbb", "tools": "#DD8452", "messages": "#4C72B0"}


class Part(NamedTuple):
    """One request, in tokens."""
    number: int      # 1 for the model's first request
    frame: int       # the system prompt and the request's framing
    tools: int       # the tool definitions
    messages: int    # everything else: the conversation so far
    total: int       # what the request cost, request.input

    @property
    def share(self):
        """The tool definitions' part of the request, from 0 to 1."""
        return self.tools / self.total if self.total else 0.0


def request_parts(model):
    """[Part] for every request `model` (a lab.ScriptedModel) has received, in order."""
    parts = []
    for request in model.calls:
        bare = lab.count_tokens(lab.render_request(request.system, [], []))
        offered = lab.count_tokens(lab.render_request(request.system, [], request.tools))
        parts.append(Part(request.number, bare, offered - bare, request.input - offered,
                          request.input))
    return parts


def table(parts):
    """The numbers of the figure as text, one line per request, then the run's sums."""
    lines = ["request  system+framing  tool definitions  messages  total  definitions' share"]
    for p in parts:
        lines.append(f"{p.number:7}  {p.frame:14}  {p.tools:16}  {p.messages:8}  {p.total:5}  "
                     f"{p.share:18.0%}")
    tools, total = sum(p.tools for p in parts), sum(p.total for p in parts)
    lines.append(f"the run: {len(parts)} requests, {total} tokens billed, of which {tools} were "
                 f"tool definitions ({tools / total:.0%})" if total else "the run: no requests")
    return "\n".join(lines)


def parts_figure(parts, *, labels=None, xlabel="request", title=None):
    """A stacked bar for every request: framing, tool definitions, messages; under the bars, what
    the definitions came to over the whole run."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH, 3.6), dpi=100, facecolor="white")
    ax = fig.add_axes([0.08, 0.22, 0.9, 0.6 if title else 0.68])
    ax.set_facecolor("white")
    xs = range(len(parts))
    bottoms = [0] * len(parts)
    for key, name in (("frame", "system prompt and framing"), ("tools", "tool definitions"),
                      ("messages", "messages")):
        heights = [getattr(p, key) for p in parts]
        ax.bar(xs, heights, bottom=bottoms, color=_COLOURS[key], width=0.6, label=name,
               edgecolor="white")
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    for x, p in zip(xs, parts):
        ax.text(x, p.frame + p.tools / 2, str(p.tools), ha="center", va="center", fontsize=8,
                color="black")
        ax.text(x, p.total + max(bottoms) * 0.02, str(p.total), ha="center", va="bottom",
                fontsize=8)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels or [f"request {p.number}" for p in parts], fontsize=8)
    ax.set_ylabel("tokens", fontsize=9)
    ax.set_xlabel(xlabel, fontsize=8)
    tools, total = sum(p.tools for p in parts), sum(p.total for p in parts)
    if total:
        fig.text(0.98, 0.02, f"tool definitions over the run: {tools:,} of {total:,} tokens "
                 f"billed ({tools / total:.0%})", ha="right", va="bottom", fontsize=8,
                 color=_COLOURS["tools"])
    ax.set_ylim(0, max(bottoms) * 1.15 if parts else 1)
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(fontsize=8, frameon=False, loc="upper left", ncol=3)
    if title:
        fig.suptitle(title, fontsize=10, x=0.02, ha="left", y=0.97)
    return fig


def draw_parts(parts, *, alt, labels=None, xlabel="request", title=None):
    """Draw the figure for `parts` and show it with `alt` as its text form."""
    figures.show(parts_figure(parts, labels=labels, xlabel=xlabel, title=title), alt)
