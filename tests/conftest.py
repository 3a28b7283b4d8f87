"""Suite-wide: when `make test` runs the suite in two processes (pytest-xdist, --dist loadgroup),
the tests that share one expensive set-up stay together in one process: the grading suite (one
course, autograded once), the browser tests (one JupyterLab, one Chromium) and the hub test (one
JupyterHub). Everything else is shared out test by test."""

import pytest

GROUPS = ("grading", "browser", "hub")


def pytest_collection_modifyitems(items):
    for item in items:
        parts = item.nodeid.split("/")
        if len(parts) > 2 and parts[0] == "tests" and parts[1] in GROUPS:
            item.add_marker(pytest.mark.xdist_group(parts[1]))
