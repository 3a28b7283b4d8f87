"""Fixtures of the browser tests: Chromium (installed if missing), the learner's edition of
lesson 12 in a temporary course, one JupyterLab over it, one headless Chromium, and one tab that
the tests share, recording each test's console errors apart.

Set-up that cannot be done fails the test with the reason and the log that explains it
(labserver.SetupFailed); it never skips, so CI cannot pass without having run the browser.
"""

import os
import shutil
import time
from pathlib import Path

import pytest

from faults import break_rung
from labserver import SetupFailed, JupyterLab, ensure_chromium, launch_chromium
from lab_page import NotebookPage, Problems, close_everything
from learner_edition import LESSON12, learner_edition, release_lessons, released_master as _released_master
from standin import write_standin
from tests.conftest import lesson_of

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
ACTION_TIMEOUT_MS = 15_000        # any one click or locator: a learner would not wait longer


def _setup(step):
    """Run `step()`; turn SetupFailed into a test failure that shows only the reason."""
    try:
        return step()
    except SetupFailed as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def browser_tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("browser")


@pytest.fixture(scope="session")
def chromium(browser_tmp):
    """/usr/bin/chromium, installed with apt-get first when it is missing."""
    return _setup(lambda: ensure_chromium(browser_tmp / "apt.log"))


@pytest.fixture(scope="session")
def course_root(browser_tmp):
    """The directory JupyterLab serves. It holds

    standin/   a small notebook of ipywidgets, for the tests of the browser machinery itself
    learner/   the learner's edition of lesson 12, once `learner_notebook` has made it
    and, beside these, the folders of tests that need a changed copy of their own."""
    root = browser_tmp / "root"
    (root / "standin").mkdir(parents=True)
    write_standin(root / "standin" / "standin.ipynb")
    return root


@pytest.fixture(scope="session")
def released_course(browser_tmp, request):
    """A temporary course directory in which one run of the instructor's release command made
    the learner's edition of lesson 12 and of every lesson a test of this run walks through."""
    walked = {lesson_of(item) for item in request.session.items} - {None}
    return _setup(lambda: release_lessons(browser_tmp / "nbgrader", {12} | walked))


@pytest.fixture(scope="session")
def learner_notebook(course_root, released_course, browser_tmp):
    """The learner's edition of lesson 12 (the course's release of the master copy),
    in learner/; returns its path relative to the served root.

    BROWSER_TEST_BREAK_RUNG=<fault> (see faults.py) breaks a rung's feedback in this copy, to
    watch the learner test fail."""
    path = _setup(lambda: learner_edition(course_root / "learner", released_course))
    fault = os.environ.get("BROWSER_TEST_BREAK_RUNG")
    if fault:
        break_rung(path, fault)
    # Kept apart from learner/, which a test writes into and saves: every copy starts untouched.
    pristine = browser_tmp / "pristine"
    pristine.mkdir(exist_ok=True)
    shutil.copy2(path, pristine / path.name)
    return f"learner/{path.name}"


@pytest.fixture(scope="session")
def released_master(learner_notebook, released_course):
    """The master copy of lesson 12 as it was when the learner's edition was made from it."""
    return _released_master(released_course)


@pytest.fixture(scope="session")
def jupyterlab(course_root, browser_tmp):
    """`make lab`'s JupyterLab over course_root. BROWSER_TEST_SERVER_CONFIG may name a Python
    config file whose lines are added to the test config: a way to try a server-side fix in the
    browser before it is part of `make lab`."""
    extra = os.environ.get("BROWSER_TEST_SERVER_CONFIG")
    server = JupyterLab(course_root, browser_tmp / "lab-home",
                        extra_config="\n" + Path(extra).read_text() if extra else "")
    started = time.monotonic()
    _setup(lambda: server.start(timeout=90))
    server.startup_seconds = time.monotonic() - started
    yield server
    server.stop()


@pytest.fixture(scope="session")
def playwright_driver():
    from playwright.sync_api import sync_playwright
    driver = sync_playwright().start()
    yield driver
    driver.stop()


@pytest.fixture(scope="session")
def browser(playwright_driver, chromium, browser_tmp):
    context = _setup(lambda: launch_chromium(playwright_driver, browser_tmp / "profile",
                                             browser_tmp / "chromium.log", executable=chromium))
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    yield context
    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Note on the test whether it failed, for `page` to decide whether its tab is kept."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.browser_test_failed = report.failed


@pytest.fixture(scope="session")
def kept_tab():
    """{"tab": the tab the tests share, or None}."""
    kept = {"tab": None}
    yield kept
    if kept["tab"] is not None and not kept["tab"].is_closed():
        kept["tab"].close()


@pytest.fixture
def page(browser, kept_tab, request):
    """The tab the tests share, as a learner keeps one JupyterLab open, with this test's console
    errors recorded on `page.problems` (from this test alone). A test that fails leaves it to be
    closed, and the next test gets a new one, so no failure's leftovers (an open dialog, a menu)
    reach another test."""
    tab = kept_tab["tab"]
    if tab is None or tab.is_closed():
        tab = kept_tab["tab"] = browser.new_page()
        # A reload with unsaved changes asks "leave this page?"; a learner says yes.
        tab.on("dialog", lambda dialog: dialog.accept())
    tab.problems = Problems().attach(tab)
    yield tab
    tab.problems.detach()
    if not getattr(request.node, "browser_test_failed", True):
        try:
            close_everything(tab)
            return
        except Exception:   # a tab that cannot even do that is not worth keeping
            pass
    tab.close()
    kept_tab["tab"] = None


@pytest.fixture
def screenshots(request):
    """tests/browser/screenshots/<test name>/, emptied first (git ignores the folder)."""
    folder = SCREENSHOTS / request.node.name.replace("[", "-").replace("]", "")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def open_notebook(page, jupyterlab, screenshots):
    """open_notebook(path) -> NotebookPage, open in JupyterLab with an idle kernel: in the
    JupyterLab the shared tab already shows, the notebooks of earlier tests closed and their
    kernels shut down (NotebookPage.open_in_place); with `by_url`, by its address, as a bookmark
    opens it, in a freshly loaded JupyterLab."""
    def opener(path, timeout=60, by_url=False):
        notebook = NotebookPage(page, jupyterlab.url, path, screenshots=screenshots)
        if by_url:
            notebook.open(timeout)
        else:
            notebook.open_in_place(timeout)
        return notebook
    return opener


@pytest.fixture
def copy_of_learner(course_root, learner_notebook, browser_tmp):
    """copy_of_learner(name) -> the path, relative to the served root, of a fresh copy of the
    learner's edition, as released (no edits, no answers stored), in a folder `name` of its own,
    for a test to change."""
    def make(name):
        folder = course_root / name
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(browser_tmp / "pristine", folder)   # as released, whatever learner/ holds now
        return f"{name}/{LESSON12}"
    return make
