"""One instructor flow, run once for all the grading tests: a course directory made from
notebooks/, the release, every sample and attack submission, the parallel autograde, the
feedback and the export. `nbgrader validate` on the source and `--invert` on the release run in
the background meanwhile."""

import hashlib
import io
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 4   # seconds a check cell may take here: the loop fixture waits for it once
FEEDBACK = ("unchanged", "lab1-only", "hidden-tests-matter")


def snapshot(*folders):
    """{path: sha256} of every file under `folders`: to prove that grading changed none."""
    out = {}
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _validations(root, source, release):
    """Both validations, in a forked process that runs while the autograde does: (send, process)."""
    import multiprocessing
    from lab.grader import release_checks

    def work(conn):
        try:
            conn.send({"source": release_checks.validate(root, source),
                       "release": release_checks.validate(root, release, invert=True)})
        except BaseException as error:   # reported by the tests that read it
            conn.send({"error": f"{type(error).__name__}: {error}"})
        conn.close()

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=work, args=(send,), daemon=True)
    process.start()
    send.close()
    return receive, process


@pytest.fixture(scope="session")
def graded(tmp_path_factory):
    from lab.grader import autograde, course, feedback, fixtures, grades
    root = tmp_path_factory.mktemp("course")
    course.setup(root)
    application = course.app(root)
    api = course.api(application)
    result = api.generate_assignment(fixtures.LESSON12, force=True, create=True)
    assert result["success"], result.get("error")
    name = fixtures.LESSON12
    source = root / "source" / name / f"{name}.ipynb"
    release = root / "release" / name / f"{name}.ipynb"
    validations, validating = _validations(root, source, release)
    protected = snapshot(REPO / "lab", REPO / "harness", REPO / "notebooks")
    written = fixtures.write(root)
    progress = io.StringIO()
    submissions = autograde.run(root, jobs=2, timeout=TIMEOUT, progress=True, out=progress)
    failed = feedback.run(root, name, only=FEEDBACK, jobs=2)
    assert not failed, failed
    rows = grades.export(root, root / "grades.csv")
    validated = validations.recv() if validations.poll(300) else {"error": "the validations took over 300 s"}
    validating.join(timeout=10)
    return SimpleNamespace(
        root=root, assignment=name, written=written, submissions={s.student: s for s in submissions},
        progress=progress.getvalue(), scores=grades.scores(root, name), rows=rows,
        protected_before=protected, protected_after=snapshot(REPO / "lab", REPO / "harness", REPO / "notebooks"),
        validated=validated, source=source, release=release,
        master=REPO / "notebooks" / f"{name}.ipynb")
