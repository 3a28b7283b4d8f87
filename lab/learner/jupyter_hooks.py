"""Hooks for the Jupyter server that `make lab` starts.

keep_widget_text runs before every save. A widget's output holds two forms: its view, which points
at a widget model, and its plain text. The model lives in the kernel that made it, and is written
into the notebook only while that kernel still has it (JupyterLab's saveState, switched on in
jupyter/overrides.json). A notebook saved after a kernel restart would keep views whose models are
gone, and on reopening every rung would say "Error displaying widget: model not found". So a view
is kept only when the saved widget state has its model; otherwise the cell keeps its text form,
which tells the learner to run the cell, and running it brings their stored answer back.
"""

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def keep_widget_text(model, **kwargs):
    """A ContentsManager.pre_save_hook: drop widget views whose model the notebook does not hold."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    notebook = model["content"]
    saved = (((notebook.get("metadata") or {}).get("widgets") or {}).get(WIDGET_STATE) or {})
    known = set((saved.get("state") or {}))
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs") or []:
            data = output.get("data") or {}
            view = data.get(WIDGET_VIEW)
            if view is not None and len(data) > 1 and view.get("model_id") not in known:
                del data[WIDGET_VIEW]
