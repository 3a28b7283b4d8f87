"""Figure 1.1 is drawn from the requests a model really received: each bar's slices add up to
that request's measured input, and a message costs the same in every request that carries it."""

import harness
import lab
from lab.lessons.lesson01 import figures
from lab.lessons.lesson01.props import recall


def conversation(prompts):
    model, messages = lab.ScriptedModel([recall()]), []
    for prompt in prompts:
        figures.run_agent()(model, harness.SYSTEM, messages, prompt)
    return model


def test_each_bar_is_its_request_and_grows_by_the_last_exchange():
    model = conversation(["My name is Ada.", "I like tea.", "What is my name?"])
    bars = [figures.parts(request) for request in model.calls]
    assert [sum(tokens for _, tokens in bar) for bar in bars] == [r.input for r in model.calls]
    assert [kind for kind, _ in bars[-1]] == ["system", "user", "assistant", "user", "assistant", "user"]
    for before, after in zip(bars, bars[1:]):
        assert after[:len(before)] == before and len(after) == len(before) + 2


def test_the_figure_draws_one_bar_per_request_on_white():
    model = conversation(["My name is Ada.", "What is my name?"])
    fig = figures.growth_figure(model)
    ax = fig.axes[0]
    assert fig.get_facecolor()[:3] == (1.0, 1.0, 1.0)
    assert len(ax.patches) == sum(len(figures.parts(r)) for r in model.calls)
    from lab.runtime import figures as drawing
    assert drawing.png(fig).startswith(b"\x89PNG")
