"""Suite-wide: when `make test` runs the suite in several processes (pytest-xdist, --dist
loadgroup), the tests that share one expensive set-up stay together in one process: the grading
suite (one course, autograded once), the browser tests (one JupyterLab, one Chromium), the hub
test (one JupyterHub) and each lesson's tests in tests/lessons (its notebook runs, made once).
Everything else is shared out test by test.

The browser tests are two groups, each with a JupyterLab and a Chromium of its own: the walk
through every lesson and the themes (WALKS), and the rest. One group took some 350 s of one
process, longer than any other, and the rest of the suite could not make up for it. For the same
reason the grading tests that share nothing with the graded course (SHARED_OUT, some 90 s) are
shared out like the tests of no group.

`-n auto` starts one process more than the machine has cores (pytest_xdist_auto_num_workers):
part of the time each process waits on a browser, a kernel or a server, and with one a core a
core stood idle for 5 to 10% of a run; with one more, both stay busy.

The longest shared set-ups go first: pytest-xdist would otherwise hand out the groups largest
first by their number of tests, which starts the browser tests (few tests, the longest set-up and
walks) last and leaves one process working alone at the end. The Makefile passes
--no-loadscope-reorder so that the order made here is the order they start in.

A test run for one lesson carries "lessonNN" in its id, so that `make test LESSON=NN` (pytest -k
lessonNN) selects exactly that lesson's tests; collection stops on a test that does not."""

import asyncio
import collections
import gc
import os

import pytest

GROUPS = ("grading", "browser", "hub")
# The browser tests of this group share a JupyterLab and a Chromium apart from the other ones.
WALKS = ("test_every_lesson_in_browser.py", "test_themes.py")
# Tests of tests/grading that share no set-up with it (neither the graded course nor a worker of
# their module's): shared out test by test, not added to the grading suite's one long process.
SHARED_OUT = ("test_wrong_answers.py", "test_partial_credit.py", "test_nbgrader_messages.py",
              "test_guide.py")
# The groups that start first, in this order: each takes minutes in one process.
FIRST = ("browser", "grading", "browser-walks")


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config):
    """How many processes `-n auto` starts: one more than the cores (see above), or what
    PYTEST_XDIST_AUTO_NUM_WORKERS says, as pytest-xdist's own hook would."""
    asked = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if asked.isdigit() and int(asked) > 0:
        return int(asked)
    return (os.cpu_count() or 1) + 1


def group_for(parts):
    """The xdist group of the test whose node id is `parts` (split on "/"), or None."""
    if len(parts) > 2 and parts[0] == "tests" and parts[1] in GROUPS:
        if parts[1] == "browser" and parts[2].split("::")[0] in WALKS:
            return "browser-walks"
        if parts[1] == "grading" and parts[2].split("::")[0] in SHARED_OUT:
            return None
        return parts[1]
    return None


def lesson_of(item):
    """The lesson a parametrized test runs for (its "lesson" parameter), or None."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    lesson = params.get("lesson")
    return lesson if isinstance(lesson, int) else None


# First: pytest-xdist's own hook reads the xdist_group marks to group the tests, so they must be
# on before it runs (tests/test_layout.py shows that the grouping holds).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        lesson = lesson_of(item)
        if lesson is not None and f"lesson{lesson:02d}" not in item.nodeid:
            raise pytest.UsageError(
                f"{item.nodeid} runs lesson {lesson} but its id does not say lesson{lesson:02d}, so "
                f"`make test LESSON={lesson:02d}` would leave it out: give its parametrize ids that name it")
    for item in items:
        parts = item.nodeid.split("/")
        group = group_for(parts)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
        elif len(parts) > 2 and parts[:2] == ["tests", "lessons"]:
            # A lesson's notebook runs are made once per process and shared by its tests
            # (tests/lessons/conftest.py), so its tests stay together.
            lesson = lesson_of(item)
            folder = parts[2] if parts[2].startswith("lesson") else None
            group = f"lesson{lesson:02d}" if lesson is not None else folder
            if group:
                item.add_marker(pytest.mark.xdist_group(group))
    items[:] = schedule_order(items)


def group_of(item):
    """The xdist group `item` is marked for, or None."""
    mark = item.get_closest_marker("xdist_group")
    return (mark.args[0] if mark.args else mark.kwargs.get("name")) if mark else None


def schedule_order(items):
    """`items` in the order their groups should start: FIRST's groups in its order, then the
    other groups, most tests first, then the tests of no group as collected. Within a group the
    collection order is kept."""
    groups = [group_of(item) for item in items]
    sizes = collections.Counter(groups)

    def rank(position):
        group = groups[position]
        if group in FIRST:
            return (0, FIRST.index(group), "")
        if group is not None:
            return (1, -sizes[group], group)
        return (2, 0, "")
    return [items[i] for i in sorted(range(len(items)), key=rank)]


_FROZEN_AT = [None]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """At the first test of each file: collect the garbage, then freeze what is left (gc.freeze)
    out of the collector's sight. A worker process holds every set-up made so far (a graded
    course, notebooks run, lessons loaded), and a full collection reads all of it: lesson 15's
    event loop collects in full after every run (lab/stage/virtual_loop.py), which cost its tests
    seconds apiece late in a run. Frozen, that is read once a file. Only what survives a
    collection is frozen; what of it becomes garbage in a cycle later stays until the process
    ends (a finished file's set-ups, a few at most)."""
    if item.path != _FROZEN_AT[0]:
        _FROZEN_AT[0] = item.path
        gc.collect()
        gc.freeze()


@pytest.fixture(autouse=True)
def no_stale_running_loop(request):
    """A test elsewhere in the same worker (a kernel client run through a synchronous wrapper, as
    nbclient and nbgrader do) can leave asyncio's per-thread record of a running loop behind after
    its loop has stopped, and then a test's own asyncio.run or lab.meanwhile would believe a loop
    runs. A plain test function never runs inside a loop, so each test starts with that record
    clear and gets it back as it was afterwards (lab.meanwhile itself does not believe a stale one:
    tests/stage/test_virtual_loop.py). Except the browser tests: Playwright's synchronous API
    keeps its own loop's record while a session of it is open."""
    if "browser" in request.node.path.relative_to(request.config.rootpath).parts[:2]:
        yield
        return
    left = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    yield
    asyncio._set_running_loop(left)
