"""Figure 16.1: one record beside the three views of it that three providers received.

    views = await three_views(h)          # h: the harness the cell runs on (lab.harness_now(16))
    lab.runtime.figures.show(*views_chart(views))

three_views runs the compacted session of the lesson's stage, plus one more prompt, against the
lab's scripted model, a ChatServer (through ChatCompletions) and a TemplateModel (through
ChatTemplate), and keeps what each received for its one request. views_chart draws four columns:
the record, then each view, one box per message or turn, coloured by role, with the call and
result ids beside their roles. A template turn made of more than one message is outlined in red,
and a result turned into labelled user text in orange.
Nothing is placed by hand. The background is opaque white, so the figure reads the same on a dark
page.
"""

import harness
import lab
from lab.lessons.lesson16 import stage

PROMPT = "Now sort them."
COLOURS = {"system": "#BBBBBB", "user": "#4C72B0", "assistant": "#55A868", "toolResult": "#F0B37E",
           "tool": "#F0B37E"}
ALARM = "#C44E52"


async def three_views(h):
    """{"record", "scripted", "chat", "template"}: the record after the run, and what each provider
    received for the request, as lists of (role, text, id or "")."""
    reply = lab.say("Sorted: bank, then milk.")
    scripted = lab.AsyncScriptedModel([reply])
    await _run(h, scripted)
    with lab.ChatServer([reply]) as server:
        record = await _run(h, h.AdapterModel(h.ChatCompletions("course-model"), stage.sender(server.url)))
    template, turns = lab.TemplateModel([reply]), []

    async def send(asked):
        turns.append(asked)
        return await template.generate(asked)
    await _run(h, h.AdapterModel(h.ChatTemplate(), send))
    return {"record": [_course(m) for m in record[:-1]],
            "scripted": [_course(m) for m in scripted.calls[-1].messages],
            "chat": [_chat(m) for m in server.requests[-1]["messages"]],
            "template": [(t["role"], t["content"], "") for t in turns[-1]]}


async def _run(h, model):
    record = stage.compacted()
    async for _ in h.run_agent(model, h.SYSTEM, record, [], PROMPT):
        pass
    return record


def _course(m):
    if m["role"] == "assistant":
        calls = harness.tool_calls(m)
        text = harness.text_of(m) or " ".join(f"{c['name']}(...)" for c in calls)
        return ("assistant", text, " ".join(c["id"] for c in calls))
    if m["role"] == "toolResult":
        return ("toolResult", m["content"], m["tool_call_id"])
    return (m["role"], m["content"], "")


def _chat(m):
    if m["role"] == "assistant":
        calls = m.get("tool_calls") or []
        text = m.get("content") or " ".join(f"{c['function']['name']}(...)" for c in calls)
        return ("assistant", text, " ".join(c["id"] for c in calls))
    if m["role"] == "tool":
        return ("tool", m["content"], m["tool_call_id"])
    return (m["role"], m["content"], "")


def _joined(role, text):
    """A template turn made of more than one message of the record (merge_runs joined them)."""
    return role == "user" and "\n\n" in text and not text.startswith("[")


def _short(text, width=34):
    line = " ".join(str(text).split())
    return line if len(line) <= width else line[:width - 1] + "…"


def _short_id(ident):
    return ident if len(ident) <= 16 else ident[:12] + "…"


def views_chart(views):
    """(fig, alt) for Figure 16.1."""
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch

    columns = [("the record", "record"), ("the scripted model's view", "scripted"),
               ("the Chat Completions payload", "chat"), ("the chat template's turns", "template")]
    rows = max(len(views[key]) for _, key in columns)
    fig = Figure(figsize=(13, 0.78 * rows + 1.4), facecolor="white")
    ax = fig.add_subplot()
    ax.set_xlim(0, 4)
    ax.set_ylim(rows + 0.2, -0.9)
    ax.axis("off")
    for x, (title, key) in enumerate(columns):
        ax.text(x + 0.48, -0.55, title, ha="center", va="center", fontsize=11, weight="bold")
        for y, (role, text, ident) in enumerate(views[key]):
            merged = key == "template" and _joined(role, text)
            labelled = key == "template" and role == "user" and text.startswith("[")
            edge = ALARM if merged else COLOURS["toolResult"] if labelled else "#777777"
            ax.add_patch(FancyBboxPatch((x + 0.04, y + 0.06), 0.88, 0.72,
                                        boxstyle="round,pad=0.01,rounding_size=0.04",
                                        facecolor=to_rgba(COLOURS[role], 0.35), edgecolor=edge,
                                        linewidth=2.4 if merged or labelled else 0.8))
            ax.text(x + 0.08, y + 0.27, role, fontsize=8.5, weight="bold", va="center")
            if merged:
                parts = text.split("\n\n")
                shown = " + ".join(_short(part, 15) for part in (parts[0], parts[-1]))
                ax.text(x + 0.9, y + 0.27, f"{len(parts)} messages, one turn", fontsize=8, va="center",
                        ha="right", color=ALARM)
            else:
                shown = _short(text)
            ax.text(x + 0.08, y + 0.55, shown, fontsize=8, va="center", family="monospace")
            if ident:
                ax.text(x + 0.9, y + 0.27, _short_id(ident), fontsize=8, va="center", ha="right",
                        family="monospace", color="#333333")
    fig.tight_layout()
    counts = ", ".join(f"{title}: {len(views[key])}" for title, key in columns)
    merged = sum(1 for role, text, _ in views["template"] if _joined(role, text))
    renamed = sorted({i for _, _, i in views["chat"] if i} - {i for _, _, i in views["record"] if i})
    alt = (f"Figure 16.1: one record beside three views. Boxes per column: {counts}. "
           f"Template turns joining more than one message: {merged}. Ids the Chat Completions "
           f"payload renamed: {', '.join(renamed) or 'none'}.")
    return fig, alt

