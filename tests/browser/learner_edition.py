"""The learner's edition of a lesson (lesson 12 by default), made the way the course makes it: the
instructor's release command, `python -m lab.grader --course DIR release` (grading's setup from
notebooks/, then nbgrader's generate_assignment), into a temporary course directory.

The master copy (notebooks/, solutions in) is never what a learner opens; the browser test opens
what the release writes: solutions replaced by stubs, hidden tests gone, outputs cleared.

One release command makes the editions of every lesson a run needs (`release_lessons`, once a
session): a command run costs some seven seconds whatever it releases, and sixteen of them were
a fifth of the browser tests' time.
"""

import os
import shutil
import subprocess
from pathlib import Path

from labserver import REPO, VENV, SetupFailed, tail

LESSON12 = "12-memory-that-outlives-the-process.ipynb"
MASTER = REPO / "notebooks" / LESSON12
MASTERS = "masters"   # in the course directory: each master as it was released


def release(work, masters, timeout=300):
    """Release `masters` (notebooks/ paths) into the temporary course directory `work` with one
    run of the instructor's command; return `work`. `work` becomes a course directory
    (nbgrader_config.py, source/, release/, gradebook.db, release.log) and holds, under
    masters/, each master as it was released (notebooks/ may be rebuilt meanwhile)."""
    missing = [m for m in masters if not m.exists()]
    if missing:
        raise SetupFailed(f"{missing[0].relative_to(REPO)} does not exist, so there is no lesson "
                          "to open in the browser.")
    work = Path(work)
    shutil.rmtree(work, ignore_errors=True)
    (work / MASTERS).mkdir(parents=True)
    for master in masters:
        shutil.copy2(master, work / MASTERS / master.name)
    command = [str(VENV / "bin" / "python"), "-m", "lab.grader", "--course", str(work),
               "release", *[m.stem for m in masters]]
    # nbgrader runs `alembic` by name to set up its gradebook: the .venv's bin must be on PATH.
    env = dict(os.environ, PATH=f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    log = work / "release.log"
    with open(log, "w") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        try:
            done = subprocess.run(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise SetupFailed(f"the release took more than {timeout} s. "
                              f"Last lines of {log}:\n{tail(log)}") from None
    if done.returncode != 0:
        raise SetupFailed(f"the release failed (exit code {done.returncode}). "
                          f"Last lines of {log}:\n{tail(log)}")
    return work


def release_lessons(work, numbers):
    """The master notebooks of the lessons `numbers`, released at once into `work`."""
    from lab.lessons import build
    return release(work, [build.notebook_path(lesson) for lesson in sorted(numbers)])


def released_master(work, master=MASTER):
    """The master copy of `master` as it was when `work`'s release was made from it."""
    return Path(work) / MASTERS / master.name


def learner_edition(dest, work, master=MASTER):
    """Copy the learner's edition of `master` from the course directory `work` (made by `release`)
    into the folder `dest`; return the copy's path. A lesson the release left out is a set-up
    failure, never a second release: that would start the shared course directory afresh."""
    work = Path(work)
    released = work / "release" / master.stem / master.name
    if not released.exists():
        raise SetupFailed(f"the course directory's release holds no {released.relative_to(work)}: "
                          f"release {master.stem} with the others (release_lessons). "
                          f"Last lines of {work / 'release.log'}:\n{tail(work / 'release.log')}")
    text = released.read_text()
    for marker in ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS"):
        if marker in text:
            raise SetupFailed(f"the release of {master.stem} still holds {marker!r}: it is not the "
                              "learner's edition")
    Path(dest).mkdir(parents=True, exist_ok=True)
    target = Path(dest) / master.name
    shutil.copy2(released, target)
    return target
