"""The machinery under the learner test fails loudly and fast: a JupyterLab that does not come up,
a Chromium that does not start, a broken widget, a widget whose model is gone, and a cell below
the fold are each reported with their reason, never waited on forever and never missed; and the
tab the tests share hands the next test nothing of the last."""

import socket
import sys
import textwrap
import time

import nbformat
import pytest
from nbformat.sign import NotebookNotary
from nbformat.v4 import new_output

import labserver
from labserver import PORT_TAKEN, TEST_SETTINGS, JupyterLab, SetupFailed, launch_chromium
from lab_page import WIDGET_MIME, LearnerSawProblem, NotebookPage, Problems, close_everything
from standin import standin_notebook, write_standin


def test_jupyterlab_that_exits_fails_with_the_last_lines_of_its_log(tmp_path):
    with socket.socket() as taken:                    # the port is in use before the server starts
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = JupyterLab(tmp_path, tmp_path / "home", port=port)
        started = time.monotonic()
        with pytest.raises(SetupFailed) as failure:
            server.start(timeout=60)
    message = str(failure.value)
    assert "JupyterLab exited with code 1 before it answered" in message
    assert f"The port {port} is already in use" in message
    assert PORT_TAKEN in message          # the words start() looks for before choosing again
    assert "Last lines of" in message and "jupyterlab.log" in message
    assert time.monotonic() - started < 30
    assert server.process is None


# A server that behaves as jupyter_server does with port_retries=0: it stops with its words when
# its port is taken, and answers /api/status and /lab when not.
FAKE_SERVER = """
import http.server, sys
port = int(next(a for a in sys.argv if a.startswith("--ServerApp.port=")).split("=")[1])
class Answer(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
try:
    server = http.server.HTTPServer(("127.0.0.1", port), Answer)
except OSError:
    print(f"The port {port} is already in use.")
    sys.exit(1)
server.serve_forever()
"""


def test_a_port_taken_after_it_was_chosen_is_chosen_again(tmp_path, monkeypatch):
    # a client's ephemeral port, or a sibling test's server, can land on the port chosen free a
    # moment before: the server stops (port_retries=0) and start() chooses another port
    program = tmp_path / "fake_server.py"
    program.write_text(FAKE_SERVER)
    real = labserver.free_port
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        choices = iter([port])
        monkeypatch.setattr(labserver, "free_port", lambda: next(choices, None) or real())
        server = JupyterLab(tmp_path, tmp_path / "home", program=[sys.executable, str(program)])
        try:
            server.start(timeout=30)
            assert server.port != port
        finally:
            server.stop()
        # a port the caller named is the caller's: taken, it fails at once, as before
        server = JupyterLab(tmp_path, tmp_path / "home", port=port, program=[sys.executable, str(program)])
        with pytest.raises(SetupFailed, match="exited with code 1"):
            server.start(timeout=30)


def test_jupyterlab_that_does_not_answer_in_time_is_stopped_and_fails(tmp_path):
    server = JupyterLab(tmp_path, tmp_path / "home")
    with pytest.raises(SetupFailed) as failure:
        server.start(timeout=0.2)                       # it takes seconds to import, always
    message = str(failure.value)
    assert "did not answer on http://127.0.0.1:" in message and "within 0.2 s" in message
    assert "Last lines of" in message
    assert server.process is None                       # stopped, not left running


@pytest.mark.parametrize("script, reason", [
    ("echo 'chromium: error while loading shared libraries: libnss3.so' >&2; exit 127",
     "libnss3.so"),
    ("sleep 600", "did not start within 3 s"),
])
def test_chromium_that_cannot_start_fails_with_its_output(tmp_path, playwright_driver,
                                                          script, reason):
    fake = tmp_path / "chromium"
    fake.write_text(f"#!/bin/sh\n{script}\n")
    fake.chmod(0o755)
    started = time.monotonic()
    with pytest.raises(SetupFailed) as failure:
        launch_chromium(playwright_driver, tmp_path / "profile", tmp_path / "chromium.log",
                        executable=str(fake), timeout=3)
    assert reason in str(failure.value)
    assert f"Chromium ({fake}) did not start within 3 s" in str(failure.value)
    assert time.monotonic() - started < 20


# A widget whose view cannot be made: ipywidgets draws its error widget and logs to the console.
BROKEN_WIDGET = textwrap.dedent('''\
    import ipywidgets as widgets
    class Broken(widgets.DOMWidget):
        from traitlets import Unicode
        _view_name = Unicode("NoSuchView").tag(sync=True)
        _view_module = Unicode("@jupyter-widgets/controls").tag(sync=True)
        _model_name = Unicode("HTMLModel").tag(sync=True)
        _model_module = Unicode("@jupyter-widgets/controls").tag(sync=True)
    Broken()''')


def test_a_widget_that_fails_to_draw_is_named(course_root, open_notebook, page):
    folder = course_root / "broken-widget"
    folder.mkdir(exist_ok=True)
    write_standin(folder / "standin.ipynb", extra_cells=[BROKEN_WIDGET])
    notebook = open_notebook("broken-widget/standin.ipynb")
    notebook.menu("Run", "Run All Cells")
    page.locator(".jupyter-widgets-error-widget").wait_for()
    page.wait_for_timeout(500)                          # the console message may come after
    with pytest.raises(LearnerSawProblem) as failure:
        page.problems.check(page, "after Run All")
    message = str(failure.value)
    last = len(notebook.state()["cells"]) - 1
    assert ("failed widget model or view: 'Click to show javascript error.' in "
            f"cell {last}") in message, message
    assert "console error" in message


def test_a_widget_whose_model_is_gone_is_named(course_root, jupyterlab, open_notebook, page):
    """What a saved widget output shows when its model is not in the kernel, as after a restart
    and a reload: ipywidgets keeps a widget's model in the kernel only."""
    nb = standin_notebook()
    nb.cells[1].execution_count = 1
    nb.cells[1].outputs = [new_output("display_data", data={
        WIDGET_MIME: {"model_id": "5a1d0c0ffee0000000000000000dead1", "version_major": 2,
                      "version_minor": 0},
        "text/plain": "VBox(children=(ToggleButtons(options=('wrong', 'right')), HTML()))"})]
    folder = course_root / "saved-widget"
    folder.mkdir(exist_ok=True)
    # Signed as JupyterLab signs what it saves: an untrusted notebook's widgets are not drawn.
    NotebookNotary(data_dir=str(jupyterlab.home / "data")).sign(nb)
    nbformat.write(nb, str(folder / "standin.ipynb"))
    open_notebook("saved-widget/standin.ipynb")
    page.locator(".jp-OutputArea-output", has_text="Error displaying widget").first.wait_for()
    with pytest.raises(LearnerSawProblem) as failure:
        page.problems.check(page, "on opening")
    message = str(failure.value)
    assert "'Error displaying widget' shown: 'Error displaying widget: model not found' in " \
        "cell 1\n" in message, message
    assert "a saved output shows a widget whose model lived in a kernel that is gone" in message


# () => [notebooks open in the main area, kernel sessions the server runs]
_LEFT_OPEN_JS = """
async () => {
  const app = window.jupyterapp;
  await app.serviceManager.sessions.refreshRunning();
  return [[...app.shell.widgets('main')].filter(w => w.content && w.content.widgets).length,
          [...app.serviceManager.sessions.running()].length];
}
"""


def test_the_shared_tab_hands_the_next_test_nothing_of_the_last(open_notebook, page):
    """What the `page` fixture does between two tests that pass, done here by hand: the first
    test's console error stays in its own record, and its notebook and kernel are gone."""
    open_notebook("standin/standin.ipynb")
    assert page.evaluate(_LEFT_OPEN_JS) == [1, 1]
    page.evaluate("() => console.error('left behind by the test before')")
    earlier = page.problems
    page.wait_for_timeout(200)   # the console event crosses to Playwright
    with pytest.raises(LearnerSawProblem, match="left behind by the test before"):
        earlier.check(page, "in the test that logged it")
    earlier.detach()
    page.evaluate("() => console.error('logged after the record stopped listening')")
    page.wait_for_timeout(200)
    assert not any("stopped listening" in what for _, _, what, _ in earlier.seen), earlier.seen
    close_everything(page)
    page.problems = Problems().attach(page)   # as the next test's is; the fixture detaches it
    assert page.evaluate(_LEFT_OPEN_JS) == [0, 0]
    page.problems.check(page, "in the next test")
    open_notebook("standin/standin.ipynb")    # and the next test opens its own as usual
    page.problems.check(page, "after the next test opened its notebook")


def test_cells_far_above_and_below_the_screen_are_drawn(open_notebook, page):
    notebook = open_notebook("standin/standin.ipynb")
    notebook.run_all(60)                                # Run All leaves the view at the bottom
    top = page.locator(".standin-rung")
    assert top.count() == 1, "the first cell's widget is not in the page"
    assert top.bounding_box()["y"] < 0, \
        "the stand-in is too short to test windowing: its first cell is still on screen"
    assert page.locator(".standin-bottom").count() == 1
    page.problems.check(page, "after Run All")


def test_windowing_left_on_is_caught(tmp_path, course_root, browser, jupyterlab):
    """JupyterLab's "full" windowing (the 4.2-4.5 default) leaves off-screen cells out of the
    page; the test must notice, not test only what happens to be on screen."""
    settings = dict(TEST_SETTINGS)
    settings["@jupyterlab/notebook-extension/tracker.jupyterlab-settings"] = {
        "windowingMode": "full"}
    server = JupyterLab(course_root, tmp_path / "home", settings=settings).start(timeout=90)
    tab = browser.new_page()
    try:
        with pytest.raises(LearnerSawProblem) as failure:
            NotebookPage(tab, server.url, "standin/standin.ipynb").open()
    finally:
        tab.close()
        server.stop()
    assert str(failure.value).startswith("JupyterLab's notebook windowing is 'full', which "
                                         "leaves cells out of the page")


def test_a_chromium_that_cannot_be_installed_fails_with_apts_last_lines(tmp_path, monkeypatch):
    import labserver
    fake = tmp_path / "bin" / "apt-get"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho \"Reading package lists...\"\n"
                    "echo \"E: Unable to locate package chromium\" >&2\nexit 100\n")
    fake.chmod(0o755)
    monkeypatch.setattr(labserver, "CHROMIUM", str(tmp_path / "no-chromium-here"))
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    monkeypatch.setattr(labserver.os, "geteuid", lambda: 0)
    with pytest.raises(SetupFailed) as failure:
        labserver.ensure_chromium(tmp_path / "apt.log", timeout=30)
    message = str(failure.value)
    assert message.startswith("`apt-get -o DPkg::Lock::Timeout=30 update` exited with code 100. "
                              "Last lines of")
    assert "E: Unable to locate package chromium" in message


def test_a_chromium_that_another_apt_installed_meanwhile_is_taken(tmp_path, monkeypatch):
    import labserver
    chromium = tmp_path / "chromium"
    fake = tmp_path / "bin" / "apt-get"
    fake.parent.mkdir()
    # The machine's own apt held the lock and installed chromium; ours must not install it again.
    fake.write_text(f"#!/bin/sh\ncase \"$*\" in *update*) printf '#!/bin/sh\\n' > {chromium}; "
                    f"chmod 755 {chromium};; *) exit 100;; esac\n")
    fake.chmod(0o755)
    monkeypatch.setattr(labserver, "CHROMIUM", str(chromium))
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    monkeypatch.setattr(labserver.os, "geteuid", lambda: 0)
    assert labserver.ensure_chromium(tmp_path / "apt.log", timeout=30) == str(chromium)


def test_apt_update_waits_while_another_apt_holds_the_package_lists(tmp_path, monkeypatch):
    import labserver
    chromium = tmp_path / "chromium"
    tries = tmp_path / "tries"
    fake = tmp_path / "bin" / "apt-get"
    fake.parent.mkdir()
    # The first update meets the lists' lock held by another apt, as DPkg::Lock::Timeout does not
    # wait for it; the second gets through, and the install puts chromium in place.
    fake.write_text(f"#!/bin/sh\ncase \"$*\" in\n"
                    f"  *update*) if [ ! -e {tries} ]; then touch {tries}; "
                    f"echo 'E: Could not get lock /var/lib/apt/lists/lock.'; exit 100; fi;;\n"
                    f"  *install*) printf '#!/bin/sh\\n' > {chromium}; chmod 755 {chromium};;\n"
                    f"esac\n")
    fake.chmod(0o755)
    monkeypatch.setattr(labserver, "CHROMIUM", str(chromium))
    monkeypatch.setattr(labserver.time, "sleep", lambda seconds: None)
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    monkeypatch.setattr(labserver.os, "geteuid", lambda: 0)
    assert labserver.ensure_chromium(tmp_path / "apt.log", timeout=30) == str(chromium)
    assert (tmp_path / "apt.log").read_text().count("update\n") == 2
