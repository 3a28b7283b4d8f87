"""The pre-save hook keeps a widget's view only when the notebook holds its model."""

from lab.learner.jupyter_hooks import WIDGET_STATE, WIDGET_VIEW, keep_widget_text


def notebook(state_ids, view_ids):
    cells = [{"cell_type": "code", "outputs": [{"output_type": "display_data", "data": {
        "text/plain": f"rung {i}", WIDGET_VIEW: {"model_id": i, "version_major": 2}}}]} for i in view_ids]
    state = {WIDGET_STATE: {"state": {i: {} for i in state_ids}}} if state_ids is not None else {}
    return {"type": "notebook", "content": {"metadata": {"widgets": state}, "cells": cells}}


def views(model):
    return [WIDGET_VIEW in o["data"] for c in model["content"]["cells"] for o in c["outputs"]]


def test_views_whose_models_are_saved_stay():
    model = notebook(["a", "b"], ["a", "b"])
    keep_widget_text(model)
    assert views(model) == [True, True]


def test_views_whose_models_are_gone_leave_their_text():
    model = notebook(["a"], ["a", "b"])
    keep_widget_text(model)
    assert views(model) == [True, False]
    model = notebook(None, ["a"])
    keep_widget_text(model)
    assert views(model) == [False]
    assert model["content"]["cells"][0]["outputs"][0]["data"]["text/plain"] == "rung a"


def test_other_files_are_left_alone():
    model = {"type": "file", "content": "x"}
    keep_widget_text(model)
    assert model == {"type": "file", "content": "x"}
