"""The learner's edition of lesson 12, made the way the course makes it: nbgrader's
`generate_assignment` over the master notebook, in a temporary course directory, with the
project's nbgrader config (grading/nbgrader_config.py) when there is one.

The master copy (notebooks/, solutions in) is never what a learner opens; the browser test opens
what `generate_assignment` writes to release/: solutions replaced by stubs, hidden tests gone,
outputs cleared.
"""

import os
import shutil
import subprocess
from pathlib import Path

from labserver import REPO, VENV, SetupFailed, tail

LESSON12 = "12-memory-that-outlives-the-process.ipynb"
MASTER = REPO / "notebooks" / LESSON12
NBGRADER_CONFIG = REPO / "grading" / "nbgrader_config.py"
ASSIGNMENT = "12"


def learner_edition(dest, work, master=MASTER, timeout=180):
    """Write the learner's edition of `master` into the folder `dest`; return the notebook's path.

    `work` becomes the temporary nbgrader course (source/, release/, gradebook.db, the log)."""
    if not master.exists():
        raise SetupFailed(f"{master.relative_to(REPO)} does not exist, so there is no lesson 12 "
                          "to open in the browser.")
    work = Path(work)
    source = work / "source" / ASSIGNMENT
    shutil.rmtree(work, ignore_errors=True)
    source.mkdir(parents=True)
    shutil.copy2(master, source / master.name)
    command = [str(VENV / "bin" / "nbgrader"), "generate_assignment", ASSIGNMENT, "--force",
               f"--CourseDirectory.root={work}"]
    if NBGRADER_CONFIG.exists():
        command.append(f"--config={NBGRADER_CONFIG}")
    # nbgrader runs `alembic` by name to set up its gradebook: the .venv's bin must be on PATH.
    env = dict(os.environ, PATH=f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    log = work / "generate_assignment.log"
    with open(log, "w") as out:
        try:
            done = subprocess.run(command, cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise SetupFailed(f"nbgrader generate_assignment took more than {timeout} s. "
                              f"Last lines of {log}:\n{tail(log)}") from None
    released = work / "release" / ASSIGNMENT / master.name
    if done.returncode != 0 or not released.exists():
        raise SetupFailed(f"nbgrader generate_assignment failed (exit code {done.returncode}). "
                          f"Last lines of {log}:\n{tail(log)}")
    text = released.read_text()
    for marker in ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS"):
        if marker in text:
            raise SetupFailed(f"the release of lesson 12 still holds {marker!r}: it is not the "
                              "learner's edition")
    Path(dest).mkdir(parents=True, exist_ok=True)
    target = Path(dest) / master.name
    shutil.copy2(released, target)
    return target
