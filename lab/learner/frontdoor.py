"""The learner's front door: a Jupyter server extension that makes `/lab` open on the course's
start page, START.md (lab/learner/startpage.py), as `/` and the address the server prints already do
(start.py gives JupyterLab `--LabApp.default_url=/lab/tree/START.md`).

    jupyter lab --ServerApp.jpserver_extensions='{"lab.learner.frontdoor": true}'

JupyterLab serves `/lab` itself and restores the last layout there, which is the Launcher on a
first visit; `/lab/tree/START.md` restores the same layout and brings the start page to the front.
So a bare `/lab` (with its query: a token, `?reset`) is sent on to `/lab/tree/START.md`; every
other address, a notebook's `/lab/tree/...` included, is JupyterLab's as before. start.py loads
this for the learner's folder only, never for `make author`.
"""

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado.routing import HostMatches, Rule

START = "START.md"


class ToStartPage(JupyterHandler):
    """A bare /lab, sent on to the start page with its query string kept."""

    def get(self):
        query = self.request.query
        self.redirect(url_path_join(self.base_url, "lab", "tree", START) + (f"?{query}" if query else ""))


def _jupyter_server_extension_points():
    return [{"module": "lab.learner.frontdoor"}]


def _load_jupyter_server_extension(serverapp):
    """Add the redirect ahead of JupyterLab's own handlers: tornado takes the first host rule
    whose handlers match, and extensions load in name order, JupyterLab's before this one."""
    app = serverapp.web_app
    pattern = url_path_join(app.settings.get("base_url", "/"), "lab") + "/?"
    app.add_handlers(".*$", [(pattern, ToStartPage)])
    rules = app.default_router.rules
    ours = rules.pop(-2)   # add_handlers puts a host rule just before the fallback rule
    assert isinstance(ours, Rule) and isinstance(ours.matcher, HostMatches)
    rules.insert(0, ours)
