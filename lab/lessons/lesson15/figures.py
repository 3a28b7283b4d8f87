"""Figure 15.1: two sessions on the virtual clock, one after the other on lesson 14's harness and
side by side on lesson 15's, with a steer typed mid-think and a third session's `sleep 600`
cancelled at t=30.

    serial, concurrent = await both_runs(lab.harness_at(14), lab.harness_now(15))
    fig, alt = timeline_chart(serial, concurrent)

Each run is a Run: its lab.timing() (sessions, waits, marks) and the models of its sessions. Every
bar, marker and time on the figure is read from them; nothing is placed by hand. The background is
opaque white, so the figure reads the same on a dark page.
"""

import asyncio
from typing import NamedTuple

import lab
from lab.runtime import figures
from lab.lessons.lesson15 import stage
from lab.stage.loop_outcome import at

COLOURS = {"model": "#4C72B0", "bash": "#F0B37E"}
CUT = "#C44E52"
STEER = "Use spaces."
CANCEL_AT = 30.0


class Run(NamedTuple):
    label: str
    timing: object        # lab.timing(): sessions, waits, marks
    models: dict          # session name -> its model, whose .calls say when the steer was sent
    typed: object = None  # the keyboard's Keystroke, when there was one


async def serial(old):
    """Sessions A and B on a synchronous harness with a blocking model and shell, gathered, and a
    steer typed into A at t=5."""
    timing, models, agents = lab.timing(), {}, {}
    for name in "AB":
        models[name] = stage.BlockingModel(stage.fix_script(), latency=10)
        agents[name] = old.Harness(models[name], old.SYSTEM,
                                   [old.make_bash_tool(stage.fix_shell(lab.TimedShell))])

    async def one(name):
        with timing.session(name):
            for _ in agents[name].prompt(stage.TASK):
                pass
    keys = lab.keyboard(agents["A"], [(5.0, "steer", STEER)])
    await asyncio.sleep(0)                 # the keyboard starts, and waits for t=5
    await asyncio.gather(one("A"), one("B"))
    typed = (await keys)[0]
    return Run("lesson 14's harness, each wait blocking", timing, models, typed)


async def concurrent(new):
    """Sessions A and B on an async harness, gathered, a steer typed into A at t=5, and a session
    C whose `sleep 600` is cancelled at t=30."""
    timing, models, agents = lab.timing(), {}, {}
    for name in "ABC":
        script = stage.fix_script() if name != "C" else [
            lab.reply(lab.call("bash", {"command": "sleep 600"})), lab.say("Slept.")]
        models[name] = lab.AsyncScriptedModel(script, latency=10)
        agents[name] = new.Harness(models[name], new.SYSTEM, [new.make_bash_tool(stage.fix_shell())])

    async def one(name):
        with timing.session(name):
            async for _ in agents[name].prompt(stage.TASK):
                pass

    loop = asyncio.get_running_loop()
    keys = lab.keyboard(agents["A"], [(5.0, "steer", STEER)])
    a, b, c = (loop.create_task(one(name), name=name) for name in "ABC")
    loop.call_at(loop.time() + CANCEL_AT, c.cancel)
    await asyncio.gather(a, b)
    typed = (await keys)[0]
    try:
        await c
    except asyncio.CancelledError:
        pass
    return Run("lesson 15's harness, each wait awaited", timing, models, typed)


async def both_runs(old, new):
    """(serial Run, concurrent Run), each from t=0 on the virtual clock; awaited in a cell."""
    lab.clock.reset()
    first = await _run(serial(old))
    lab.clock.reset()
    second = await _run(concurrent(new))
    return first, second


def _run(coro):
    """lab.meanwhile(coro) as an awaitable, in a notebook and outside one alike."""
    outcome = lab.meanwhile(coro)
    if asyncio.isfuture(outcome) or asyncio.iscoroutine(outcome):
        return outcome

    async def done():
        return outcome
    return done()


def steer_taken(run):
    """(typed for, reached steer(), the start of the request that carried it to the model), None
    for what did not happen."""
    if run.typed is None:
        return None, None, None
    sent = next((r.started for r in run.models["A"].calls if STEER in r.user_text), None)
    return run.typed.wanted, run.typed.at, sent


def headline(run):
    """What the panel's title says: when each session ended, or was cancelled."""
    parts = []
    for s in sorted(run.timing.sessions, key=lambda s: s.name):
        cut = any(w.cancelled for w in run.timing.waits if w.session == s.name)
        parts.append(f"{s.name} {'cancelled' if cut else 'done'} at t={at(s.end)}")
    return ", ".join(parts)


def timeline_chart(first, second):
    """(figure, alt text): one panel per Run, a row per session, a bar per wait."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    fig = Figure(figsize=(figures.WIDTH, 5.2), dpi=100, facecolor="white")
    fig.patch.set_alpha(1.0)
    end = max(s.end for run in (first, second) for s in run.timing.sessions if s.end is not None)
    alts = []
    for row, run in enumerate((first, second)):
        ax = fig.add_subplot(2, 1, row + 1)
        ax.set_facecolor("white")
        names = sorted(s.name for s in run.timing.sessions)
        for y, name in enumerate(names):
            for w in (w for w in run.timing.waits if w.session == name):
                kind = "model" if w.what == "model" else "bash"
                ax.barh(y, w.end - w.start, left=w.start, height=0.5, color=COLOURS[kind],
                        edgecolor=CUT if w.cancelled else "white", linewidth=1.5 if w.cancelled else 0.5)
                if w.cancelled:
                    ax.plot([w.end], [y], marker="x", color=CUT, markersize=9, mew=2)
            done = next(s.end for s in run.timing.sessions if s.name == name)
            ax.text(done + 1.2, y, f"t={at(done)}", va="center", fontsize=7)
        typed, reached, sent = steer_taken(run)
        if typed is not None:
            y = names.index("A") - 0.4
            ax.plot([typed], [y], marker="v", color="#333333", markersize=7)
            until = sent if sent is not None else reached
            ax.annotate("", xy=(until, y), xytext=(typed, y),
                        arrowprops={"arrowstyle": "->", "color": "#333333", "lw": 0.8,
                                    "linestyle": "-" if sent is not None else "--"})
            if sent is None:
                ax.text((typed + until) / 2, y - 0.08, f"reached steer() at t={at(until)}, too "
                        "late for A's run", ha="center", va="bottom", fontsize=7)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels([f"session {n}" for n in names], fontsize=8)
        ax.set_ylim(2.6, -0.95)            # three rows' room in each panel, the first on top
        ax.set_xlim(0, end + 6)
        ax.tick_params(labelsize=7)
        ax.set_title(f"{run.label}: {headline(run)}", fontsize=9, loc="left")
        if row == 1:
            ax.set_xlabel("virtual seconds (lab.clock)", fontsize=8)
        if row == 0:                       # the first panel's third row is free for the key
            handles = [Patch(color=COLOURS["model"], label="waiting for the model"),
                       Patch(color=COLOURS["bash"], label="waiting for bash"),
                       Line2D([], [], marker="v", color="#333333", linestyle="",
                              label=f"\"{STEER}\" typed into A; arrow: until a request carried it"),
                       Line2D([], [], marker="x", color=CUT, linestyle="", mew=2,
                              label="cancelled")]
            ax.legend(handles=handles, fontsize=7, loc="lower left", frameon=False, ncol=2)
        waits = headline(run)
        extra = ""
        if typed is not None and sent is not None:
            extra = f"; the steer typed at t={at(typed)} reached the model at t={at(sent)}"
        elif typed is not None:
            extra = (f"; the steer typed at t={at(typed)} reached steer() at t={at(reached)}, "
                     "and no request of A's run carried it")
        cut = [w for w in run.timing.waits if w.cancelled]
        if cut:
            extra += f"; {cut[0].what} was cancelled at t={at(cut[0].end)}"
        alts.append(f"{run.label}: {waits}{extra}")
    fig.tight_layout()
    alt = "Figure 15.1, two sessions on the virtual clock. " + ". ".join(alts) + "."
    return fig, alt
