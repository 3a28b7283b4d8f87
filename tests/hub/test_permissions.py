"""What a learner's account can and cannot do to the exchange and the course, tried as that
learner (runuser) on the accounts and files the term left behind.

nbgrader's file-system exchange keeps submissions apart by names a learner cannot list or guess
(the inbound folder is write-only to learners, and every submission's name ends in a random
string); the course directory is the instructor's alone (mode 0700 home); a release is the
instructor's files in a folder learners can only read.
"""

import json

from . import hubkit as hk
from .conftest import ASSIGNMENT

PROBE = r'''
import json, os, sys
def attempt(what, action):
    try:
        action()
        return "allowed"
    except PermissionError:
        return "refused"
    except OSError as error:
        return type(error).__name__
paths = json.loads(sys.argv[1])
out = {}
for name, (kind, path) in paths.items():
    if kind == "list":
        out[name] = attempt(name, lambda: os.listdir(path))
    elif kind == "read":
        out[name] = attempt(name, lambda: open(path, "rb").read(1))
    elif kind == "write":
        out[name] = attempt(name, lambda: open(path, "r+b").write(b"x"))
    elif kind == "create":
        out[name] = attempt(name, lambda: open(path, "xb").close())
    elif kind == "remove":
        out[name] = attempt(name, lambda: os.remove(path))
    elif kind == "rename":
        out[name] = attempt(name, lambda: os.rename(path, path + ".moved"))
print(json.dumps(out))
'''


def try_as(account, paths):
    code, output = hk.python_as(account, PROBE.replace("sys.argv[1]", repr(json.dumps(paths))))
    assert code == 0, output
    return json.loads(output.strip().splitlines()[-1])


def test_a_learner_cannot_read_the_other_learners_work_or_the_instructors(term):
    ada, bo, inst = term.accounts["ada"], term.accounts["bo"], term.accounts["instructor"]
    course_exchange = term.exchange / hk.COURSE_ID
    bo_submission = next(p for p in (course_exchange / "inbound").iterdir() if p.name.startswith(bo.name + "+"))
    bo_feedback_folder = bo.home / hk.COURSE_ID / ASSIGNMENT / "feedback"
    paths = {
        "the exchange's inbound folder": ("list", str(course_exchange / "inbound")),
        "the exchange's feedback folder": ("list", str(course_exchange / "feedback")),
        "bo's home": ("list", str(bo.home)),
        "bo's answered notebook": ("read", str(bo.home / hk.COURSE_ID / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")),
        "bo's feedback": ("list", str(bo_feedback_folder)),
        "the course directory": ("list", str(term.course)),
        "the source notebook": ("read", str(term.course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")),
        "the gradebook": ("read", str(term.course / "gradebook.db")),
        "bo's collected submission": ("read", str(term.course / "submitted" / bo.name / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")),
        # positive controls: the same probe is allowed where it should be
        "the release, to read": ("read", str(course_exchange / "outbound" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")),
        "ada's own notebook": ("read", str(ada.home / hk.COURSE_ID / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")),
    }
    seen = try_as(ada, paths)
    allowed = {"the release, to read", "ada's own notebook"}
    assert {k: v for k, v in seen.items() if k in allowed} == {k: "allowed" for k in allowed}, seen
    assert {k: v for k, v in seen.items() if k not in allowed} == {k: "refused" for k in paths if k not in allowed}, seen
    # what the random ending protects: bo's submission is named by more than a time stamp
    student, assignment, stamp, secret = bo_submission.name.split("+")
    assert (student, assignment) == (bo.name, ASSIGNMENT) and len(secret) >= 12
    assert inst.home.stat().st_mode & 0o077 == 0


def test_a_learner_cannot_overwrite_replace_or_add_to_a_release(term):
    ada = term.accounts["ada"]
    outbound = term.exchange / hk.COURSE_ID / "outbound" / ASSIGNMENT
    released = outbound / f"{ASSIGNMENT}.ipynb"
    before = released.read_bytes()
    paths = {
        "overwrite the released notebook": ("write", str(released)),
        "add a file to the release": ("create", str(outbound / "extra.ipynb")),
        "delete the released notebook": ("remove", str(released)),
        "move the release away": ("rename", str(outbound)),
        "add an assignment to the outbound folder": ("create", str(outbound.parent / "fake.ipynb")),
    }
    assert try_as(ada, paths) == {k: "refused" for k in paths}
    assert released.read_bytes() == before
