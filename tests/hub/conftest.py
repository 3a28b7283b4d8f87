"""One term on a real JupyterHub, run once for all the hub tests.

The hub is grading/hub/jupyterhub_config.py, started as root on free ports; its accounts are real
Unix accounts made here (one instructor, two learners) and removed afterwards, whatever happens.
The instructor releases lesson 12 to the exchange; each learner fetches it through their own
single-user server, writes their answer into it through that server's contents API and submits;
the instructor collects, autogrades with the sandboxed grader, writes and releases feedback and
exports the grades; each learner fetches their feedback. The tests then read what happened.

Only root can make accounts and start servers as them: elsewhere the tests that need the term
are skipped with one line, except under CI, where not being root is an error.
"""

import concurrent.futures
import csv
import datetime
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from . import hubkit as hk

LESSON = 12
ASSIGNMENT = "12-memory-that-outlives-the-process"
NAMES = {"instructor": f"{hk.PREFIX}-inst", "ada": f"{hk.PREFIX}-ada", "bo": f"{hk.PREFIX}-bo"}
ANSWERS = {"ada": "correct", "bo": "lab1-only"}     # fixtures in lab/grader/fixtures.py


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    reason = None
    if os.geteuid() != 0:
        if os.environ.get("CI"):
            raise pytest.UsageError("tests/hub must run as root under CI: it makes Unix accounts "
                                    "and starts servers as them")
        reason = "the hub tests make Unix accounts, so they run only as root (CI does)"
    if reason:
        for item in items:
            if Path(str(item.fspath)).is_relative_to(here) and "term" in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.skip(reason=reason))


def require_tools():
    missing = hk.which_missing()
    if missing:
        pytest.fail(f"the hub test needs {', '.join(missing)} (Debian's passwd and util-linux "
                    f"packages); install them with apt-get", pytrace=False)
    if not hk.proxy_installed():
        pytest.fail(f"configurable-http-proxy is not installed at {hk.PROXY}; run `make hub-proxy`",
                    pytrace=False)


class Timer:
    def __init__(self):
        self.start, self.marks = time.monotonic(), {}
        self.load = os.getloadavg()[0]     # how busy the machine was when the term began

    def mark(self, name):
        self.marks[name] = round(time.monotonic() - self.start, 1)


def course_env(exchange):
    """The environment the instructor's course commands see: the exchange settings the hub's
    single-user servers get, from the same file."""
    return {"JUPYTER_CONFIG_PATH": str(hk.EXCHANGE_CONFIG_DIR), "NBGRADER_EXCHANGE": str(exchange),
            "NBGRADER_COURSE_ID": hk.COURSE_ID, "PYTHONPATH": str(hk.REPO)}


def grader(account, course_dir, exchange, *args):
    """`python -m lab.grader --course COURSE ARGS` as the instructor, in the repository."""
    return hk.as_user(account, str(hk.VENV_BIN / "python"), "-m", "lab.grader", "--course",
                      str(course_dir), *args, env=course_env(exchange), cwd=str(hk.REPO))


def must(result, what):
    code, output = result
    assert code == 0, f"{what} failed ({code}):\n{output}"
    return output


def contents_path(*parts):
    from urllib.parse import quote
    return "api/contents/" + quote("/".join(parts))


def fetched_path():
    return (hk.COURSE_ID, ASSIGNMENT, f"{ASSIGNMENT}.ipynb")


@pytest.fixture(scope="session")
def term():
    require_tools()
    timer = Timer()
    base = Path(tempfile.mkdtemp(prefix="hub-term-"))
    os.chmod(base, 0o755)
    exchange = base / "exchange"
    exchange.mkdir()
    os.chmod(exchange, 0o1777)          # the recipe: an existing directory, writable by all, sticky
    accounts = {}
    opened = {}
    hub = None
    try:
        accounts = hk.make_accounts(NAMES)
        opened = hk.opened_path_for_others([hk.REPO, os.path.realpath(sys.executable), sys.prefix])
        timer.mark("accounts")
        hub = hk.Hub(base / "state", exchange).start()
        timer.mark("hub started")
        inst = accounts["instructor"]
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            # the instructor's release does not need the hub: it runs while the servers start
            release = pool.submit(grader, inst, inst.home / "course", exchange,
                                  "release", ASSIGNMENT, "--exchange")
            list(pool.map(lambda a: (hub.login_token(a), hub.start_server(a), hub.wait_ready(a)),
                          accounts.values()))
            timer.mark("three servers up")
            released = must(release.result(), "the instructor's release")
        timer.mark("released")
        yield run_term(hub, accounts, exchange, timer, released)
    finally:
        if hub:
            hub.stop()
        hk.restore_modes(opened)
        hk.remove_accounts(accounts)
        shutil.rmtree(base, ignore_errors=True)


def run_term(hub, accounts, exchange, timer, released):
    from lab.grader import fixtures
    inst = accounts["instructor"]
    learners = {role: accounts[role] for role in ANSWERS}
    course_dir = inst.home / "course"
    out = SimpleNamespace(hub=hub, accounts=accounts, exchange=exchange, course=course_dir,
                          timer=timer, feedback={}, log={})

    out.log["release"] = released

    master = fixtures.master_of(LESSON)

    def learner_turn(role):
        account = learners[role]
        status, listing = hub.user_api(account, "assignments/fetch", "POST",
                                       {"course_id": hk.COURSE_ID, "assignment_id": ASSIGNMENT})
        assert status == 200, (status, listing)
        status, model = hub.user_api(account, contents_path(*fetched_path()) + "?content=1")
        assert status == 200, f"{account.name} has no fetched notebook: {status} {model}"
        fetched = nbformat.from_dict(model["content"])
        answered = fixtures.build(fixtures.by_name(LESSON)[ANSWERS[role]], fetched, master, {})
        status, saved = hub.user_api(account, contents_path(*fetched_path()), "PUT",
                                     {"type": "notebook", "format": "json", "content": answered})
        assert status == 200, (status, saved)
        return {"fetched": fetched, "answered": answered, "submit": submit(account)}

    def submit(account):
        return hub.user_api(account, "assignments/submit", "POST",
                            {"course_id": hk.COURSE_ID, "assignment_id": ASSIGNMENT})

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        turns = dict(zip(learners, pool.map(learner_turn, learners)))
    out.turns = turns
    timer.mark("fetched, answered, submitted")

    # The deadline passes; then bo hands the same answer in again: a second submission, and a late
    # one. The instructor records that deadline in the gradebook meanwhile (collect reads it).
    out.deadline = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    time.sleep(0.05)   # the resubmission's timestamp is strictly after the deadline
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        deadline = pool.submit(hk.as_user, inst, str(hk.VENV_BIN / "python"), "-m", "nbgrader", "db",
                               "assignment", "add", ASSIGNMENT, f"--duedate={out.deadline}",
                               env=course_env(exchange), cwd=str(course_dir))
        out.resubmit = submit(learners["bo"])
        must(deadline.result(), "setting the deadline")
    timer.mark("deadline set, bo resubmitted")

    out.log["collect"] = must(grader(inst, course_dir, exchange, "collect", ASSIGNMENT), "collect")
    timer.mark("collected")
    out.log["autograde"] = must(grader(inst, course_dir, exchange, "autograde", ASSIGNMENT, "--quiet",
                                       "--jobs", "2"), "autograde")
    timer.mark("autograded")
    with concurrent.futures.ThreadPoolExecutor(2) as pool:   # both only read the gradebook
        feedback = pool.submit(grader, inst, course_dir, exchange, "feedback", ASSIGNMENT, "--exchange")
        export = pool.submit(grader, inst, course_dir, exchange, "export")
        out.log["feedback"] = must(feedback.result(), "feedback")
        out.log["export"] = must(export.result(), "export")
    with open(course_dir / "grades.csv", newline="", encoding="utf-8") as f:
        out.grades = list(csv.DictReader(f))
    timer.mark("feedback released, grades exported")

    def fetch_feedback(role):
        account = learners[role]
        status, _ = hub.user_api(account, "assignments/fetch_feedback", "POST",
                                 {"course_id": hk.COURSE_ID, "assignment_id": ASSIGNMENT})
        assert status == 200
        folder = contents_path(hk.COURSE_ID, ASSIGNMENT, "feedback")
        status, listing = hub.user_api(account, folder)
        assert status == 200, f"{account.name} got no feedback folder: {status} {listing}"
        pages = []
        for stamp in listing["content"]:
            status, inner = hub.user_api(account, contents_path(stamp["path"]))
            for item in inner["content"]:
                status, page = hub.user_api(account, contents_path(item["path"]) + "?format=text&type=file")
                pages.append((item["path"], page["content"]))
        return pages

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        out.feedback = dict(zip(learners, pool.map(fetch_feedback, learners)))
    timer.mark("feedback fetched")
    return out
