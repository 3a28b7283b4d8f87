"""Benchmark: a whole term graded at once. Every written lesson is released, each of LEARNERS
learners hands in every lesson (200 learners and 16 lessons make 3,200 notebooks, each a distinct
file), and `python -m lab.grader autograde` grades them all into one gradebook. Every score is
checked against what its sample must earn; then a few learners' notebooks are graded again by
plain `nbgrader autograde` (one process, one notebook after another, each run in a kernel), so
that seconds per notebook can be set beside each other. Target: the term in under 5 minutes on
2 cores.

    .venv/bin/python benchmarks/term.py [--learners 200] [--jobs N] [--stock-learners 2]
                                        [--keep DIR]

What each learner hands in is one of the samples every lesson is graded on (tests/grading),
picked by learner and lesson so that a term has the mix a class has: mostly right, some partly
right (one lab, or failing a hidden test), some untouched, a few that do not parse. Each carries
its learner's name in a comment, so no two notebooks are the same code and no verdict is reused
for another learner. Samples that loop for ever are left out: each spends the full time limit by
design (tests/grading grades one a lesson), and a term of them would measure the limit, not the
grader.

Where the time goes is printed after the run: the wall time, the time the grading processes
spent (converting with nbgrader's preprocessors and running the sandboxed verdict), the time the
one gradebook writer spent, from a second run that reuses the verdicts how much of it was the
sandbox, and, from a right notebook of each lesson graded again alone, how many messages its
tests exchange with the sandboxed worker and what a worker's start and a message cost.
"""

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from lab import lessons  # noqa: E402
from lab.grader import autograde, course, fixtures, grades  # noqa: E402

# A class's mix, as a cycle of 20: 11 right, 2 failing a hidden test, 3 with one lab right (a
# lesson of one lab gets "unchanged" there), 3 untouched, 1 that does not parse.
MIX = (["correct"] * 11 + ["hidden-only"] * 2 + ["one-lab"] * 3 + ["unchanged"] * 3
       + ["does-not-parse"])
PLAIN_CONFIG = '''c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "{course_id}"
'''


def pick(learner, lesson, names):
    """The sample `learner` hands in for `lesson`: MIX, turned by learner and lesson."""
    kind = MIX[(learner * 7 + lesson * 3) % len(MIX)]
    if kind == "one-lab":
        labs = sorted(n for n in names if n.startswith("lab") and n.endswith("-only"))
        kind = labs[learner % len(labs)] if labs else "unchanged"
    return kind


def release_all(root):
    """Set up a course in `root` and release every written lesson. {lesson: assignment}."""
    course.setup(root)
    api = course.api(course.app(root))
    names = {}
    for lesson in lessons.written():
        name = fixtures.assignment(lesson)
        result = api.generate_assignment(name, force=True, create=True)
        if not result["success"]:
            raise SystemExit(f"generate_assignment {name} failed:\n{result.get('error')}")
        names[lesson] = name
    return names


def hand_in(root, names, learners):
    """Write every learner's notebook of every lesson into submitted/. {(learner, assignment):
    the score its sample must earn}."""
    import nbformat
    ctx = fixtures.context(root)
    expected = {}
    for lesson, name in names.items():
        release = nbformat.read(root / "release" / name / f"{name}.ipynb", as_version=4)
        master = fixtures.master_of(lesson)
        samples = fixtures.by_name(lesson)
        made = {}
        for learner in range(learners):
            kind = pick(learner, lesson, samples)
            if kind not in made:
                made[kind] = fixtures.build(samples[kind], release, master, ctx)
            nb = nbformat.from_dict(json.loads(json.dumps(made[kind])))
            student = f"learner{learner:03d}"
            for cell in nb.cells:   # every notebook its own code
                if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
                    cell.source += f"\n# handed in by {student}"
            folder = root / "submitted" / student / name
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{name}.ipynb").write_text(nbformat.writes(nb), encoding="utf-8")
            (folder / "timestamp.txt").write_text(fixtures.TIMESTAMP, encoding="utf-8")
            expected[student, name] = (kind, samples[kind].score)
    return expected


def grade(root, jobs, force=False):
    """(wall seconds, [Submission]) of one autograde of the whole course, in this process as
    `python -m lab.grader autograde` runs it."""
    started = time.monotonic()
    done = autograde.run(root, jobs=jobs, force=force, progress=False)
    return time.monotonic() - started, done


def stock_copy(root, sample, learners):
    """A copy of the course, before any grading, that holds only `learners` learners' notebooks
    and the plain configuration of nbgrader."""
    shutil.copytree(root, sample, ignore=shutil.ignore_patterns("submitted", "autograded", "feedback",
                                                                   ".autograde", "gradebook.db"))
    keep = [f"learner{n:03d}" for n in range(learners)]
    for student in keep:
        shutil.copytree(root / "submitted" / student, sample / "submitted" / student)
    shutil.copy(root / "gradebook.db", sample / "gradebook.db")
    (sample / "nbgrader_config.py").write_text(PLAIN_CONFIG.format(course_id=course.COURSE_ID))


def stock(sample, env):
    """Plain `nbgrader autograde` of the copy: (seconds, notebooks, {(student, assignment): cells})."""
    notebooks = sum(1 for _ in (sample / "submitted").glob("*/*/*.ipynb"))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", "*"], cwd=sample, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        print(done.stdout[-3000:])
        raise SystemExit("plain nbgrader autograde failed")
    cells = {}
    for name in sorted({p.parent.name for p in (sample / "submitted").glob("*/*/*.ipynb")}):
        for student, got in grades.scores(sample, name).items():
            cells[student, name] = got["cells"]
    return seconds, notebooks, cells


class _Counted:
    """Counts the messages the grader sends to and receives from its workers, and the workers
    started, while it is in force (this process only)."""

    def __enter__(self):
        from lab.grader import sandbox, wire
        self.sent = self.received = self.workers = 0
        self._saved = (wire.Peer.send, wire.Peer.receive, sandbox.Worker.__init__)
        send, receive, start = self._saved
        counter = self

        def counted_send(peer, message):
            counter.sent += peer.grader
            return send(peer, message)

        def counted_receive(peer):
            message = receive(peer)
            counter.received += peer.grader
            return message

        def counted_start(worker, *args, **kwargs):
            counter.workers += 1
            return start(worker, *args, **kwargs)
        wire.Peer.send, wire.Peer.receive, sandbox.Worker.__init__ = counted_send, counted_receive, counted_start
        return self

    def __exit__(self, *exc):
        from lab.grader import sandbox, wire
        wire.Peer.send, wire.Peer.receive, sandbox.Worker.__init__ = self._saved


def _children_cpu():
    import resource
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def anatomy(root, names, expected):
    """Where a sandboxed verdict's time goes: each lesson's first right notebook graded again in
    this process, one after another, counting the messages between the grader and its worker
    and the CPU seconds of each side (the worker's with its start: namespaces, Python, the
    starter). Lines to print."""
    import nbformat
    from lab.grader import nbgrader_ext, sandbox, session, verdict
    application = course.app(root)
    books = autograde._books(application, set(names.values()))
    lines = ["  a right notebook of each lesson, graded alone: messages with its worker (both ways), "
             "CPU seconds of the grader's side and of the worker's"]
    totals = [0, 0.0, 0.0]
    gc.freeze()   # as autograde does before it forks: a full collection (lesson 15's) skips what is here
    for lesson, name in sorted(names.items()):
        right = [st for (st, n), (kind, _) in expected.items() if n == name and kind == "correct"]
        if not right:
            continue   # too few learners for this lesson to have a right one
        student = min(right)
        nb = nbformat.read(root / "submitted" / student / name / f"{name}.ipynb", as_version=4)
        book = books[name, name]
        code, grade_cells = nbgrader_ext.prepared(nb, book), nbgrader_ext.grade_cells_of(book)
        sandbox.starter_code(session.worker_starter(lesson))
        worker_before, own_before = _children_cpu(), time.process_time()
        with _Counted() as counted:
            verdict.grade(lesson, code, grade_cells)
        own, worker = time.process_time() - own_before, _children_cpu() - worker_before
        messages = counted.sent + counted.received
        totals = [totals[0] + messages, totals[1] + own, totals[2] + worker]
        lines.append(f"    {lesson:02d}: {messages:5d} messages, grader {own:5.3f} s, worker {worker:5.3f} s "
                     f"({counted.workers} started)")
    gc.unfreeze()
    starter = session.worker_starter(max(names))
    before = _children_cpu()
    for _ in range(5):
        sandbox.Worker(starter).close()
    start = (_children_cpu() - before) / 5
    count = len(lines) - 1
    if not count:
        return lines
    per_message = (totals[1] + totals[2] - count * start) / max(totals[0], 1)
    lines.append(f"    on average {totals[0] / count:.0f} messages, {(totals[1] + totals[2]) / count:.3f} CPU "
                 f"seconds: a worker's start {start * 1000:.0f} ms, then some {per_message * 1e6:.0f} microseconds "
                 "a message, both sides and the tests' own work together")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=autograde.default_jobs())
    parser.add_argument("--stock-learners", type=int, default=2,
                        help="learners whose notebooks plain nbgrader grades too (0: none)")
    parser.add_argument("--keep", type=Path, help="build the course here and keep it")
    args = parser.parse_args(argv)
    base = args.keep or Path(tempfile.mkdtemp(prefix="term-bench-"))
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    root = base / "course"
    answers = tempfile.mkdtemp(prefix="term-bench-rungs-")
    os.environ["LAB_RUNGS_DIR"] = answers   # the samples' cells must not write the author's answers

    started = time.monotonic()
    names = release_all(root)
    expected = hand_in(root, names, args.learners)
    print(f"released {len(names)} lessons and wrote {len(expected)} notebooks of {args.learners} learners "
          f"in {time.monotonic() - started:.0f} s", flush=True)
    if args.stock_learners:
        stock_copy(root, base / "stock", args.stock_learners)

    wall, done = grade(root, args.jobs)
    errors = [s for s in done if s.status == "error"]
    got = {}
    for name in names.values():
        for student, score in grades.scores(root, name).items():
            got[student, name] = score
    wrong = [(key, kind, score, got.get(key, {}).get("total"))
             for key, (kind, score) in expected.items() if got.get(key, {}).get("total") != score]
    for (student, name), kind, want, have in wrong[:20]:
        print(f"  {student}/{name} ({kind}): scored {have}, must score {want}")
    for s in errors[:20]:
        print(f"  {s.name}: {s.error}")
    if wrong or errors:
        raise SystemExit(f"{len(wrong)} scores wrong and {len(errors)} errors")
    graded = [s for s in done if s.status == "graded"]
    converting = sum(s.seconds for s in graded)
    recording = sum(s.record_seconds for s in graded)
    n = len(graded)
    print(f"every one of {n} scores is what its sample must earn")

    again, _ = grade(root, args.jobs, force=True)   # the verdicts are reused: no sandbox runs
    inside = anatomy(root, names, expected)

    stock_line = ""
    if args.stock_learners:
        env = dict(os.environ, PATH=course._path_with_this_python(), PYTHONPATH=str(REPO))
        seconds, count, cells = stock(base / "stock", env)
        ours = {}
        for (student, name) in cells:
            ours[student, name] = got[student, name]["cells"]
        differ = [key for key in cells if cells[key] != ours[key]]
        for key in differ:
            print(f"  {key[0]}/{key[1]}: plain nbgrader {cells[key]}, ours {ours[key]}")
        if differ:
            raise SystemExit("plain nbgrader and the course's grader disagree on honest notebooks")
        stock_line = (f"plain nbgrader autograde:       {seconds / count:6.3f} s a notebook "
                      f"({count} notebooks in {seconds:.0f} s; a term of {n} would take "
                      f"{seconds / count * n / 60:.0f} min)")

    shutil.rmtree(answers, ignore_errors=True)
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    print(f"python -m lab.grader autograde: {wall / n:6.3f} s a notebook "
          f"({n} notebooks in {wall:.0f} s = {wall / 60:.1f} min, {args.jobs} jobs, {os.cpu_count()} CPUs)")
    if stock_line:
        print(stock_line)
    print("where the time goes, a notebook on average:")
    print(f"  grading processes, each: {converting / n:6.3f} s (nbgrader's preprocessors and the sandboxed "
          f"verdict; {args.jobs} at a time)")
    print(f"  the gradebook writer:    {recording / n:6.3f} s (one process, beside the grading ones)")
    per_lesson = {}
    for s in graded:
        per_lesson.setdefault(s.assignment, []).append(s.seconds)
    print("  a grading process, by lesson: " + ", ".join(
        f"{name[:2]} {sum(times) / len(times):.2f} s" for name, times in sorted(per_lesson.items())))
    print(f"  graded again with the verdicts kept: {again / n:6.3f} s a notebook, so the sandbox "
          f"(starting it, the learner's cells and the tests) took {(wall - again) / n:6.3f} s of wall time")
    print("\n".join(inside))
    return 0


if __name__ == "__main__":
    sys.exit(main())
