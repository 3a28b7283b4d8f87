"""One instructor flow, run once for all the grading tests: a course directory made from
notebooks/, every written lesson released as its own assignment, every lesson's sample
submissions (and lesson 12's attacks) in one parallel autograde, the feedback and the export.
`nbgrader validate` on lesson 12's source and `--invert` on its release run in the background
meanwhile (test_release.py says why one lesson is enough). graded.lessons[n] holds each lesson's
part; the top-level names are lesson 12's, the assignment the attacks aim at."""

import hashlib
import io
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 2   # CPU seconds a test (and a check cell less its tests) may take here: each
              # lesson's looping sample spends them once a cell it loops in. Every honest
              # sample of every lesson still earns its exact score at half this, three grading
              # jobs on two CPUs. The wall backstop (three times this) leaves out the time spent
              # waiting for a CPU, which a suite running beside the grading jobs makes long.
FEEDBACK = ("unchanged", "lab2-cut-backwards", "hidden-only")


def snapshot(*folders):
    """{path: sha256} of every file under `folders`: to prove that grading changed none."""
    out = {}
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


ATTACKED = 12   # the lesson whose extra submissions hold the attacks
VALIDATED = 12  # the lesson nbgrader's own Validator checks (test_release.py)


def _validations(root, pairs):
    """Both validations of each (source, release), in a forked process that runs while the
    autograde does: (receive, process)."""
    import multiprocessing
    from lab.grader import release_checks

    def work(conn):
        try:
            conn.send({name: {"source": release_checks.validate(root, source),
                              "release": release_checks.validate(root, release, invert=True)}
                       for name, (source, release) in pairs.items()})
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
    from lab import lessons
    from lab.grader import autograde, course, feedback, fixtures, grades
    root = tmp_path_factory.mktemp("course")
    course.setup(root)
    # the limits every grading of this course runs under, here and in the tests that grade again
    (root / "instructor_config.py").write_text(
        f"c = get_config()  # noqa: F821\nc.SandboxedTests.timeout = {TIMEOUT}\n"
        f"c.SandboxedTests.test_seconds = {TIMEOUT}\n")
    application = course.app(root)
    api = course.api(application)
    # GRADING_ONLY=7,8 grades those lessons alone, for an author at work on them: select their
    # tests with -k too (each test's id names its lesson), since the others would find no part.
    only = {int(n) for n in os.environ.get("GRADING_ONLY", "").split(",") if n.strip()}
    names = {lesson: fixtures.assignment(lesson) for lesson in lessons.written()
             if not only or lesson in only}
    pairs = {}
    for lesson, name in names.items():
        result = api.generate_assignment(name, force=True, create=True)
        assert result["success"], result.get("error")
        pairs[name] = (root / "source" / name / f"{name}.ipynb", root / "release" / name / f"{name}.ipynb")
    validations, validating = _validations(root, {name: pair for name, pair in pairs.items()
                                                  if name == names.get(VALIDATED)})
    protected = snapshot(REPO / "lab", REPO / "harness", REPO / "notebooks")
    written = {lesson: fixtures.write(root, lesson) for lesson in names}
    progress = io.StringIO()
    submissions = autograde.run(root, jobs=2, progress=True, out=progress)
    if ATTACKED in names:
        failed = feedback.run(root, names[ATTACKED], only=FEEDBACK, jobs=2)
        assert not failed, failed
    rows = grades.export(root, root / "grades.csv")
    validated = validations.recv() if validations.poll(300) else {"error": "the validations took over 300 s"}
    validating.join(timeout=10)
    parts = {}
    for lesson, name in names.items():
        parts[lesson] = SimpleNamespace(
            lesson=lesson, assignment=name, written=written[lesson],
            submissions={s.student: s for s in submissions if s.assignment == name},
            scores=grades.scores(root, name),
            validated=(validated.get(name, validated) if "error" not in validated else validated)
            if lesson == VALIDATED else None,
            source=pairs[name][0], release=pairs[name][1], master=REPO / "notebooks" / f"{name}.ipynb")
    main = parts.get(ATTACKED)
    return SimpleNamespace(
        root=root, lessons=parts, progress=progress.getvalue(), rows=rows, all_submissions=submissions,
        protected_before=protected, protected_after=snapshot(REPO / "lab", REPO / "harness", REPO / "notebooks"),
        **(vars(main) if main else {}))
