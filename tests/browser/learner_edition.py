"""The learner's edition of a lesson (lesson 12 by default), made the way the course makes it: the instructor's release
command, `python -m lab.grader --course DIR release` (grading's setup from notebooks/, then
nbgrader's generate_assignment), into a temporary course directory.

The master copy (notebooks/, solutions in) is never what a learner opens; the browser test opens
what the release writes: solutions replaced by stubs, hidden tests gone, outputs cleared.
"""

import os
import shutil
import subprocess
from pathlib import Path

from labserver import REPO, VENV, SetupFailed, tail

LESSON12 = "12-memory-that-outlives-the-process.ipynb"
MASTER = REPO / "notebooks" / LESSON12
SNAPSHOT = "master.ipynb"


def learner_edition(dest, work, master=MASTER, timeout=180):
    """Write the learner's edition of `master` into the folder `dest`; return the notebook's path.

    `work` becomes the temporary course directory (nbgrader_config.py, source/, release/,
    gradebook.db, and release.log), and holds the master as it was released (master.ipynb)."""
    if not master.exists():
        raise SetupFailed(f"{master.relative_to(REPO)} does not exist, so there is no lesson "
                          "to open in the browser.")
    work = Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    # The master as it was released, for comparing outputs with (MASTER may be rebuilt meanwhile).
    shutil.copy2(master, work / SNAPSHOT)
    assignment = master.stem
    command = [str(VENV / "bin" / "python"), "-m", "lab.grader", "--course", str(work),
               "release", assignment]
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
            raise SetupFailed(f"the release of {master.stem} took more than {timeout} s. "
                              f"Last lines of {log}:\n{tail(log)}") from None
    released = work / "release" / assignment / master.name
    if done.returncode != 0 or not released.exists():
        raise SetupFailed(f"the release of {master.stem} failed (exit code {done.returncode}). "
                          f"Last lines of {log}:\n{tail(log)}")
    text = released.read_text()
    for marker in ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS"):
        if marker in text:
            raise SetupFailed(f"the release of {master.stem} still holds {marker!r}: it is not the "
                              "learner's edition")
    Path(dest).mkdir(parents=True, exist_ok=True)
    target = Path(dest) / master.name
    shutil.copy2(released, target)
    return target
