"""Lesson 1's demonstration helpers and Figure 1.1, drawn from a real run.

    run_agent()                 the run_agent the demonstrations call: yours once lab 1 passes
                                in this kernel, lesson 1's reference before that
    ran_on(cell_id)             the note under a demonstration: whose code it ran on
    growth_figure(model, alt=)  Figure 1.1: each request of `model.calls`, as a stack of what it
                                carried (the system prompt, then every message), displayed

Nothing is typed in: each bar is the units of one request the model really received, measured
with the lab's token rule. The figure has an opaque white background.
"""

from lab.course import manifest
from lab.runtime import figures, takeover
from lab.stage.display import count_tokens

LESSON = 1
WIDTH = 8.0
_COLOURS = {"system": "#bbbbbb", "user": "#4C72B0", "assistant": "#DD8452"}


def run_agent():
    """Yours, once lab 1's check has passed in this kernel (it put yours into harness);
    otherwise run_agent as lesson 1 leaves it in the reference."""
    if takeover.running_on(LESSON)["run_agent"] == "yours":
        import harness
        return harness.run_agent
    return manifest.reference("run_agent", LESSON)


def ran_on(cell_id):
    """Display, as a note of its own, whose code the demonstration `cell_id` ran on."""
    from lab.runtime import lesson_harness
    lesson_harness.ran_on(LESSON, cell_id)


def parts(request):
    """[(kind, tokens)] of one recorded request: the system prompt, then each message by role.
    A unit's tokens are what adding it to the rendered request added, so the parts sum to the
    request's measured input exactly and a message costs the same in every request that holds it."""
    from lab.stage.display import _frame
    from lab.stage.model import _units
    units = _units(request.system, request.messages, request.tools)
    kinds = ["system"] + [m.get("role", "user") for m in request.messages]
    sizes = [count_tokens(_frame(units[:n])) for n in range(len(units) + 1)]
    return [(kind, sizes[n + 1] - sizes[n]) for n, kind in enumerate(kinds)]


def growth_figure(model, *, title=None):
    """A bar per request of `model.calls`: stacked from the bottom, the system prompt and then
    every message it carried, oldest first; the request's measured input on top."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    fig = Figure(figsize=(WIDTH, 4.2), dpi=100, facecolor="white")
    fig.patch.set_alpha(1.0)
    ax = fig.add_axes([0.09, 0.2, 0.88, 0.68 if title else 0.74], facecolor="white")
    for n, request in enumerate(model.calls, start=1):
        bottom = 0
        for kind, tokens in parts(request):
            ax.bar(n, tokens, bottom=bottom, width=0.7, color=_COLOURS[kind], edgecolor="white",
                   linewidth=0.6)
            bottom += tokens
        ax.text(n, bottom + 2, f"{request.input}", ha="center", va="bottom", fontsize=8.5,
                color="#333333")
    ax.set_xticks(range(1, len(model.calls) + 1))
    ax.set_xlabel("request (one per prompt)", fontsize=9)
    ax.set_ylabel("tokens sent", fontsize=9)
    ax.tick_params(labelsize=8.5)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    top = max((r.input for r in model.calls), default=1)
    ax.set_ylim(0, top * 1.15)
    fig.legend([Patch(facecolor=_COLOURS[k]) for k in ("system", "user", "assistant")],
               ["system prompt", "user message", "assistant message"],
               loc="lower center", ncol=3, fontsize=8.5, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10, x=0.02, ha="left", y=0.97)
    return fig


def draw_growth(model, *, alt, title=None):
    """Draw Figure 1.1 for `model` and display it with `alt` as its text form."""
    figures.show(growth_figure(model, title=title), alt)
