"""A notebook open in JupyterLab in Chromium, seen and driven the way a learner does it.

Actions go through the page (menus, clicks, keys), as a learner makes them. Waiting and reading go
through `window.jupyterapp` (the test server config exposes it) where the DOM alone cannot say it:
whether the kernel is idle, which cells have run, what a cell's source and outputs are. Every wait
has a limit and fails with a `LearnerSawProblem` that says what it waited for and what the page
showed instead.

`Problems` watches a page for the three things a learner must never meet: a console error or an
uncaught page error, "Error displaying widget" in an output, and a widget whose model or view
failed (ipywidgets draws those as `.jupyter-widgets-error-widget`).
"""

import json
import re
import time

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

# (path) => the NotebookPanel of that path among the main area's widgets, or null.
_FIND_PANEL = """
(path) => {
  const app = window.jupyterapp;
  if (!app) return null;
  for (const w of app.shell.widgets('main')) {
    if (w.context && w.context.path === path && w.content && w.content.widgets) return w;
  }
  return null;
}
""".strip()

# ([path, full]) => the notebook as the learner's JupyterLab holds it: kernel, and for every cell
# its type, execution count, whether it runs, the widget views its outputs ask for and draw, and
# (when `full`) its source and errors. A wait asks many times a second and needs neither: read
# in full, every poll would copy each cell's text and outputs (pictures included) out of the page.
_STATE_JS = """
([path, full]) => {
  const panel = (FIND_PANEL)(path);
  if (!panel) return '{"found": false}';
  const session = panel.sessionContext.session;
  const kernel = session && session.kernel;
  const cells = panel.content.widgets.map((cell, index) => {
    const prompt = cell.node.querySelector('.jp-InputPrompt');
    const info = {
      index,
      type: cell.model.type,
      count: cell.model.type === 'code' ? cell.model.executionCount : null,
      running: !!(prompt && prompt.textContent.includes('*')),
      source: full ? cell.model.sharedModel.getSource() : null,
      widgets: 0, views: 0, loading: false, errors: [],
    };
    if (cell.model.type !== 'code') return info;
    const outputs = cell.model.outputs;
    for (let i = 0; i < outputs.length; i++) {
      const item = outputs.get(i);
      if (item.type === 'display_data' || item.type === 'execute_result') {
        const view = (item.data || {})['WIDGET_MIME'];
        if (view && view.model_id) info.widgets += 1;
      }
      if (!full || (item.type !== 'error' && item.type !== 'stream')) continue;
      const out = item.toJSON();
      if (out.output_type === 'error') {
        info.errors.push(`${out.ename}: ${out.evalue}`);
      } else if (out.output_type === 'stream' && out.name === 'stderr') {
        const text = Array.isArray(out.text) ? out.text.join('') : String(out.text);
        info.errors.push('stderr: ' + text.trim().split('\\n').slice(-2).join(' | '));
      }
    }
    const area = cell.node.querySelector('.jp-OutputArea');
    if (area) {
      const children = ':scope > .jp-OutputArea-child > .jp-OutputArea-output';
      for (const node of area.querySelectorAll(children)) {
        if (node.querySelector(':scope > .jupyter-widgets')) info.views += 1;
        // ipywidgets writes "Loading widget..." as the output's one text until the view is
        // drawn: the first child tells, where the whole textContent would read every output.
        const first = node.firstChild;
        if (first && first.nodeType === 3 && first.data.startsWith('Loading widget')) info.loading = true;
      }
    }
    return info;
  });
  return JSON.stringify({
    found: true,
    ready: panel.context.isReady && panel.sessionContext.isReady,
    kernel: kernel ? kernel.status : null,
    dirty: panel.context.model.dirty,
    windowing: panel.content.notebookConfig ? panel.content.notebookConfig.windowingMode : null,
    cells,
  });
}
""".replace("FIND_PANEL", _FIND_PANEL).replace("WIDGET_MIME", WIDGET_MIME)

# () => close every document in the main area without asking to save it, then shut down every
# kernel session: the next notebook starts as if the tab were new. Nothing, where the tab shows
# no JupyterLab.
_CLOSE_ALL_JS = """
async () => {
  const app = window.jupyterapp;
  if (!app) return;
  for (const w of [...app.shell.widgets('main')]) {
    if (w.context && w.context.model) w.context.model.dirty = false;
    w.dispose();
  }
  await app.serviceManager.sessions.shutdownAll();
}
"""

# (path) => open the notebook at `path` in the main area, as the file browser does.
_OPEN_JS = """
async (path) => {
  await window.jupyterapp.commands.execute('docmanager:open', {path, factory: 'Notebook'});
}
"""

# (path) => arm a flag that the kernel's status passes through a restart.
_ARM_RESTART_JS = """
(path) => {
  const panel = (FIND_PANEL)(path);
  window.__labRestarted = false;
  panel.sessionContext.statusChanged.connect((_, status) => {
    if (['restarting', 'autorestarting', 'starting'].includes(status)) window.__labRestarted = true;
  });
}
""".replace("FIND_PANEL", _FIND_PANEL)

# (path) => arm a flag that the notebook's next save has completed.
_ARM_SAVE_JS = """
(path) => {
  const context = (FIND_PANEL)(path).context;
  window.__labSaved = false;
  const listen = (_, state) => {
    if (state === 'completed') {
      window.__labSaved = true;
      context.saveState.disconnect(listen);
    }
  };
  context.saveState.connect(listen);
}
""".replace("FIND_PANEL", _FIND_PANEL)

# ([path, index]) => arm a flag that cell `index` is given an execution count.
_ARM_RUN_JS = """
([path, index]) => {
  const model = (FIND_PANEL)(path).content.widgets[index].model;
  window.__labRan = false;
  const listen = (_, change) => {
    if (change.name === 'executionCount' && change.newValue !== null) {
      window.__labRan = true;
      model.stateChanged.disconnect(listen);
    }
  };
  model.stateChanged.connect(listen);
}
""".replace("FIND_PANEL", _FIND_PANEL)

# () => [kind, where, text] for each broken widget on the page; where is "cell N" of the
# notebook that shows it (with the notebook's name, if more than one is open).
_BROKEN_WIDGETS_JS = r"""
() => {
  const panels = [...document.querySelectorAll('.jp-NotebookPanel')];
  const where = (n) => {
    const panel = n.closest('.jp-NotebookPanel');
    const cells = panel ? [...panel.querySelectorAll('.jp-Cell')] : [];
    const index = cells.indexOf(n.closest('.jp-Cell'));
    const tab = panel
      ? document.querySelector(`[data-id="${panel.id}"] .lm-TabBar-tabLabel`) : null;
    return panels.length > 1 && tab ? `${tab.textContent}, cell ${index}` : `cell ${index}`;
  };
  const text = (n) => n.textContent.replace(/\s+/g, ' ').trim().slice(0, 200);
  const found = [];
  for (const n of document.querySelectorAll('.jp-OutputArea-output')) {
    if (n.textContent.startsWith('Error displaying widget'))
      found.push(["'Error displaying widget' shown", where(n), text(n)]);
  }
  for (const n of document.querySelectorAll('.jupyter-widgets-error-widget')) {
    const out = n.closest('.jp-OutputArea-output') || n;
    found.push(['failed widget model or view', where(n), text(out)]);
  }
  return found;
}
"""


class LearnerSawProblem(AssertionError):
    """What a learner would have met, in a sentence, followed by the evidence."""


def first_line(source, limit=70):
    line = next((l for l in source.splitlines() if l.strip()), "")
    return line if len(line) <= limit else line[:limit - 3] + "..."


class Problems:
    """Console errors, page errors and broken widgets seen on a page.

    attach(page) starts listening; note(page, moment) records the broken widgets the page shows
    at that moment; check(page, moment) adds what the page shows now and raises LearnerSawProblem
    listing every problem, each once, with the places it was seen."""

    def __init__(self):
        self.seen = []          # (kind, moment, what, where), in the order they happened
        self._listening = []    # (page, event, handler), for detach()

    def attach(self, page):
        handlers = {
            "console": self._console,
            "pageerror": lambda exc: self.seen.append(
                ("uncaught page error", "", str(exc).splitlines()[0], "")),
            "crash": lambda *_: self.seen.append(("page crash", "", "the Chromium tab crashed", "")),
        }
        for event, handler in handlers.items():
            page.on(event, handler)
            self._listening.append((page, event, handler))
        return self

    def detach(self):
        """Stop listening: a tab kept for the next test gets a Problems of its own."""
        for page, event, handler in self._listening:
            page.remove_listener(event, handler)
        self._listening = []

    def _console(self, message):
        if message.type == "error":
            where = message.location or {}
            url = where.get("url", "")
            origin = f"{url}:{where.get('lineNumber', '')}" if url else ""
            text = message.text.splitlines()[0] if message.text else "(empty)"
            self.seen.append(("console error", "", text, origin))

    def _dom(self, page, moment):
        return [(kind, moment, what, where)
                for kind, where, what in page.evaluate(_BROKEN_WIDGETS_JS)]

    def note(self, page, moment):
        """Record the broken widgets the page shows now, for check() to report."""
        self.seen += self._dom(page, moment)

    def check(self, page, moment):
        noted = {(kind, what, where) for kind, _, what, where in self.seen}
        problems = self.seen + [p for p in self._dom(page, "")
                                if (p[0], p[2], p[3]) not in noted]
        if not problems:
            return
        groups = {}
        for kind, when, what, where in problems:
            groups.setdefault((kind, when, what), []).append(where)
        lines = []
        for (kind, when, what), places in groups.items():
            label = f"{kind}, {when}" if when else kind
            if kind == "console error":
                count = f"x{len(places)}, " if len(places) > 1 else ""
                lines.append(f"  - {label}: {what} ({count}at {places[0] or 'no location'})")
            else:
                where = ", ".join(dict.fromkeys(p for p in places if p))
                lines.append(f"  - {label}: {what!r}" + (f" in {where}" if where else ""))
        why = ""
        if any("model not found" in p[2] for p in problems):
            why = ("\n'model not found': a saved output shows a widget whose model lived in a "
                   "kernel that is gone (ipywidgets keeps models in the kernel only).")
        raise LearnerSawProblem(f"{moment}: the page showed {len(problems)} problem(s):\n"
                                + "\n".join(lines) + why)


def close_everything(page):
    """Close every notebook the tab's JupyterLab shows and shut their kernels down (the tab is
    kept for the next test). What the page logs meanwhile, JupyterLab's own noise about requests
    a closed kernel never answered, belongs to no test: call it after the test's Problems are
    detached."""
    page.evaluate(_CLOSE_ALL_JS)


class NotebookPage:
    """The notebook at `path` (relative to the server's root) in JupyterLab at `lab_url`,
    in the Playwright `page`. Screenshots go to `screenshots`, numbered in the order taken."""

    def __init__(self, page, lab_url, path, screenshots=None):
        self.page, self.lab_url, self.path = page, lab_url, path
        self.screenshots = screenshots
        self.shots = []

    # --- reading and waiting -------------------------------------------------------------------

    def state(self, full=True):
        """The notebook as the page holds it (_STATE_JS); without `full`, no source or errors."""
        # As one JSON string: Playwright hands a structured result over value by value, which
        # for a hundred cells costs more than the reading itself.
        return json.loads(self.page.evaluate(_STATE_JS, [self.path, full]))

    def wait_until(self, what, predicate, timeout, describe, full=False):
        """Poll `predicate(state)` until true; LearnerSawProblem naming `what` after `timeout` s.
        The predicate sees the state without sources and errors unless `full`; `describe` always
        sees it in full."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state(full)
            if state.get("found") and predicate(state):
                return state
            if time.monotonic() > deadline:
                state = self.state()
                instead = describe(state) if state.get("found") else self._missing()
                raise LearnerSawProblem(f"waited {timeout} s for {what}; instead {instead}")
            self.page.wait_for_timeout(100)

    def _missing(self):
        tabs = self.page.evaluate(
            "() => window.jupyterapp ? [...window.jupyterapp.shell.widgets('main')]"
            ".map(w => w.title.label) : null")
        if tabs is None:
            return "JupyterLab never started in the page"
        return f"{self.path} is not open (the main area holds {tabs})"

    def open(self, timeout=60):
        """Open the notebook by its URL, as a bookmark would, in a fresh workspace; wait for an
        idle kernel. Fails if JupyterLab's windowing would leave cells out of the page."""
        # ?reset: a fresh workspace, so no notebook of an earlier test is reopened beside it.
        self.page.goto(f"{self.lab_url}/lab/tree/{self.path}?reset", wait_until="domcontentloaded",
                       timeout=timeout * 1000)
        return self._opened(timeout)

    def open_in_place(self, timeout=60):
        """Open the notebook in the JupyterLab this tab already shows, as a learner opens the
        next lesson from the file browser: every notebook open in it is closed first, unsaved
        changes left unsaved, and its kernel shut down. A tab that shows no JupyterLab of this
        server opens it by its URL instead (open). Loading JupyterLab costs Chromium some two
        CPU-seconds, which a walk through every lesson would otherwise pay for each."""
        if not self.page.url.startswith(f"{self.lab_url}/lab") or \
                not self.page.evaluate("() => !!window.jupyterapp"):
            return self.open(timeout)
        close_everything(self.page)
        self.page.evaluate(_OPEN_JS, self.path)
        return self._opened(timeout)

    def reload(self, timeout=60):
        """Reload the page (F5), as a learner does; wait as open() does."""
        self.page.reload(wait_until="domcontentloaded", timeout=timeout * 1000)
        return self._opened(timeout)

    def _opened(self, timeout):
        state = self.wait_until("the notebook to open with an idle kernel",
                                lambda s: s["ready"] and s["kernel"] == "idle" and s["cells"],
                                timeout, lambda s: f"the kernel is {s['kernel']!r}")
        # Every cell must be in the page, or a rung below the fold goes untested and the DOM's
        # n-th cell is not the notebook's n-th.
        if state["windowing"] != "none":
            raise LearnerSawProblem(
                f"JupyterLab's notebook windowing is {state['windowing']!r}, which leaves cells "
                f"out of the page, so not every cell of {self.path} can be tested (the test sets "
                "windowingMode to \"none\")")
        return state

    def cell_index(self, needle, kind="code", after=-1):
        """Index of the first `kind` cell after index `after` whose source contains `needle`."""
        for cell in self.state()["cells"]:
            if cell["index"] > after and cell["type"] == kind and needle in cell["source"]:
                return cell["index"]
        raise LearnerSawProblem(f"no {kind} cell of {self.path} after cell {after} "
                                f"contains {needle!r}")

    def cells(self):
        return self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell")

    def cell(self, index):
        """The cell's DOM node. Every cell is in the DOM: the test turns windowing off."""
        return self.cells().nth(index)

    def _finished(self, state, cells):
        if state["kernel"] != "idle":
            return False
        for c in state["cells"]:
            if c["type"] != "code" or (cells is not None and c["index"] not in cells):
                continue
            if c["running"] or c["count"] is None or c["loading"] or c["views"] < c["widgets"]:
                return False
        return True

    def _unfinished(self, state, cells):
        parts = [f"the kernel is {state['kernel']!r}"]
        chosen = [c for c in state["cells"] if c["type"] == "code"
                  and (cells is None or c["index"] in cells)]
        unrun = [c for c in chosen if c["running"] or c["count"] is None]
        if unrun:
            c = unrun[0]
            parts.append(f"{len(unrun)} code cell(s) have not run; the first is cell {c['index']} "
                         f"({first_line(c['source'])!r})")
        failed = [c for c in state["cells"] if c["errors"]]
        if failed:
            c = failed[0]
            parts.append(f"cell {c['index']} ({first_line(c['source'])!r}) shows "
                         f"{c['errors'][0]!r}")
        undrawn = [c for c in chosen if c["loading"] or c["views"] < c["widgets"]]
        if undrawn:
            c = undrawn[0]
            parts.append(f"cell {c['index']} drew {c['views']} of its {c['widgets']} widget(s)")
        return "; ".join(parts)

    def wait_for_run(self, timeout, cells=None):
        """Wait until the kernel is idle, no cell shows [*], every code cell (or each of `cells`)
        has an execution count, and every widget output has drawn its view."""
        return self.wait_until("the run to finish and every widget to draw",
                               lambda s: self._finished(s, cells), timeout,
                               lambda s: self._unfinished(s, cells))

    def errors(self):
        """(cell index, first line of source, error) for every error or stderr output."""
        return [(c["index"], first_line(c["source"]), e)
                for c in self.state()["cells"] for e in c["errors"]]

    def output_text(self, index):
        return self.cell(index).locator(".jp-OutputArea").inner_text()

    # --- acting --------------------------------------------------------------------------------

    def menu(self, top, item):
        """Open the menu bar's `top` menu and click `item`: a learner's way of giving a command."""
        self.page.locator(".lm-MenuBar-itemLabel",
                          has_text=re.compile(f"^{re.escape(top)}$")).click()
        self.page.locator(".lm-Menu-content .lm-Menu-item .lm-Menu-itemLabel",
                          has_text=re.compile(f"^{re.escape(item)}$")).first.click()

    def run_all(self, timeout):
        self.menu("Run", "Run All Cells")
        return self.wait_for_run(timeout)

    def restart_kernel(self, timeout=60):
        """Kernel > Restart Kernel…, confirm the dialog, wait until the new kernel is idle."""
        self.page.evaluate(_ARM_RESTART_JS, self.path)
        self.menu("Kernel", "Restart Kernel…")
        self.page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept").click()
        self.wait_until("the kernel to restart and be idle",
                        lambda s: s["kernel"] == "idle"
                        and self.page.evaluate("() => window.__labRestarted"),
                        timeout, lambda s: f"the kernel is {s['kernel']!r}")

    def save(self, timeout=30):
        """File > Save Notebook, as a learner does; wait until the file is written."""
        self.page.evaluate(_ARM_SAVE_JS, self.path)
        self.menu("File", "Save Notebook")
        self.wait_until("the notebook to be saved",
                        lambda s: self.page.evaluate("() => window.__labSaved"), timeout,
                        lambda s: f"the save has not completed (it is "
                                  f"{'still' if s['dirty'] else 'not'} marked as changed)")

    def select_cell(self, index):
        """Click the cell's prompt, which selects the cell without editing it."""
        cell = self.cell(index)
        cell.scroll_into_view_if_needed()
        cell.locator(".jp-InputPrompt").first.click()

    def run_cell(self, index, timeout=60):
        """Select the cell, press Ctrl+Enter, wait for it and its widgets to finish."""
        # A run ends when the cell is given an execution count. The count alone cannot say so
        # (after a restart the new count may equal the old), so the page is asked to tell.
        self.page.evaluate(_ARM_RUN_JS, [self.path, index])
        self.select_cell(index)
        self.page.keyboard.press("Control+Enter")
        self.wait_until(f"cell {index} to run",
                        lambda s: self.page.evaluate("() => window.__labRan") and
                        not s["cells"][index]["running"], timeout,
                        lambda s: f"its execution count is {s['cells'][index]['count']} "
                                  f"and the kernel is {s['kernel']!r}")
        return self.wait_for_run(timeout, cells={index})

    def type_into_cell(self, index, text):
        """Replace a code cell's text from the keyboard, as a learner writing a gap. Returns the
        source the notebook now holds, for the caller to compare with `text`."""
        cell = self.cell(index)
        cell.scroll_into_view_if_needed()
        cell.locator(".cm-content").first.click()
        self.page.keyboard.press("Control+a")
        self.page.keyboard.press("Delete")
        # insert_text is what a paste or an IME does: the editor takes the text as it is,
        # without the auto-indent and bracket-closing that key-by-key typing would add.
        self.page.keyboard.insert_text(text)
        self.page.keyboard.press("Escape")
        return self.state()["cells"][index]["source"]

    def insert_cell_below(self, index, text):
        """Select cell `index`, press B for a new code cell below it, type `text` into it.
        Returns the new cell's index."""
        self.select_cell(index)
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("b")
        self.wait_until("a new cell below", lambda s: len(s["cells"]) > index + 1
                        and s["cells"][index + 1]["source"] == "", 10,
                        lambda s: "no empty cell appeared", full=True)
        typed = self.type_into_cell(index + 1, text)
        if typed != text:
            raise LearnerSawProblem(f"typing into the new cell {index + 1} left {typed!r}, "
                                    f"not {text!r}")
        return index + 1

    def screenshot(self, name, locator=None):
        """Save a screenshot of the page (or of `locator`) as NN-name.png; return its path."""
        if self.screenshots is None:
            return None
        self.screenshots.mkdir(parents=True, exist_ok=True)
        path = self.screenshots / f"{len(self.shots) + 1:02d}-{name}.png"
        (locator or self.page).screenshot(path=str(path))
        self.shots.append(path)
        return path
