"""python -m lab.grader: the instructor's commands, one a step, each wrapping nbgrader for the
whole course. Run them from anywhere; --course names the course directory (default: grading/).

    setup                  make grading/ from notebooks/ (nbgrader_config.py, source/); --check
                           only says whether it is current
    check                  after a release, before handing it out: `nbgrader validate` passes
                           on every source notebook, `nbgrader validate --invert` fails every
                           check cell of the release, the release holds no solution and no
                           hidden test, the points add up; refuses a course with nothing released
    release [A ...]        setup, then nbgrader generate_assignment (all lessons by default);
                           --exchange also runs nbgrader release_assignment
    collect [A ...]        nbgrader collect from the exchange into submitted/
    autograde [A ...]      grade every submission in parallel into the gradebook (--jobs,
                           --timeout, --student, --force); resumable: run it again after an
                           interruption
    feedback [A ...]       nbgrader generate_feedback, several students at once; --exchange also
                           runs nbgrader release_feedback
    export                 nbgrader export, to grades.csv in the course directory (--to FILE)
    report                 the class: class.csv (a row per learner, a column per assignment, its
                           status and each test's points; missing and late marked), failures.csv
                           and failures.png (the tests failed most), into reports/ (--to DIR)
    extend S A --hours H   give learner S H more hours for assignment A (extensions.csv and the
                           gradebook), counted by autograde, the late penalty and the report
    doctor                 which sandbox the autograder gets on this machine, and why
    fixtures [NAME ...]    write the sample and attack submissions into submitted/ (--lesson N,
                           every released lesson's by default)
"""

import argparse
import sys
from pathlib import Path

from lab.grader import course


def _assignments(root, given):
    known = course.assignments(root)
    for name in given or []:
        if name not in known:
            raise SystemExit(f"python -m lab.grader: {name} is not an assignment of {root} "
                             f"(known: {', '.join(known) or 'none; run setup'})")
    return list(given) if given else known


def _fail(message):
    print(f"python -m lab.grader: {message}", file=sys.stderr)
    return 1


def cmd_setup(args):
    stale = course.setup(args.course, check=args.check)
    doc = course.grade_id_doc()
    if not course.GRADE_IDS.exists() or course.GRADE_IDS.read_text(encoding="utf-8") != doc:
        if not args.check:
            course.GRADE_IDS.write_text(doc, encoding="utf-8")
        stale.append(str(course.GRADE_IDS.relative_to(course.REPO)))
    if args.check:
        if stale:
            return _fail("grading/ is stale: " + ", ".join(stale) + ". Run: python -m lab.grader setup")
        print(f"{args.course} is current")
        return 0
    print(f"{args.course}: " + (f"wrote {', '.join(stale)}" if stale else "already current"))
    return 0


def cmd_release(args):
    written = course.setup(args.course)   # release what notebooks/ holds now, never a stale copy
    if written:
        print(f"{args.course}: wrote {', '.join(written)}")
    application = course.app(args.course)
    api = course.api(application)
    for assignment in _assignments(args.course, args.assignments):
        result = api.generate_assignment(assignment, force=True, create=True)
        if not result.get("success"):
            return _fail(f"nbgrader generate_assignment {assignment} failed:\n{result.get('error') or result.get('log')}")
        print(f"released {assignment} to {Path(args.course, 'release', assignment)}")
        if args.exchange:
            ok, output = course.nbgrader(args.course, "release_assignment", assignment, "--force")
            if not ok:
                return _fail(f"nbgrader release_assignment {assignment} failed:\n{output}")
            print("  and to the exchange")
    return 0


def cmd_collect(args):
    for assignment in _assignments(args.course, args.assignments):
        ok, output = course.nbgrader(args.course, "collect", assignment, "--update")
        if not ok:
            return _fail(f"nbgrader collect {assignment} failed:\n{output}")
        print(f"collected {assignment} into {Path(args.course, 'submitted')}")
        from lab.grader import inbound   # handed in twice, or late: said, never dropped
        for sentence in inbound.notes(args.course, assignment):
            print(f"  {sentence}")
    return 0


def cmd_autograde(args):
    from lab.grader import autograde, report
    try:
        report.extensions(args.course)   # read before any grading, so a bad row costs no work
    except ValueError as error:
        return _fail(f"{error}; nothing was graded")
    try:
        submissions = autograde.run(args.course, assignments=args.assignments or None,
                                    students=args.student or None, jobs=args.jobs,
                                    timeout=args.timeout, force=args.force, progress=not args.quiet)
    except KeyboardInterrupt:
        return 130
    for line in autograde.summary(submissions):
        print(line)
    return 1 if any(s.status == "error" for s in submissions) else 0


def cmd_feedback(args):
    from lab.grader import feedback
    problems = []
    for assignment in _assignments(args.course, args.assignments):
        failed = feedback.run(args.course, assignment, only=args.student, jobs=args.jobs)
        done = len(feedback.students(args.course, assignment)) - len(failed)
        print(f"feedback for {assignment}: {done} written to {Path(args.course, 'feedback')}")
        # one broken submission costs its learner their feedback, never the rest of the class's
        for student, error in failed.items():
            print(f"  {student}/{assignment}: no feedback written: {error}")
        problems += [f"{student}/{assignment}" for student in failed]
        if args.exchange:
            ok, output = course.nbgrader(args.course, "release_feedback", assignment)
            if not ok:
                print(f"  {assignment}: nbgrader release_feedback failed: {_last_line(output)}")
                problems.append(f"the release of {assignment}'s feedback")
                continue
            print("  and released to the exchange")
    if problems:
        return _fail(f"no feedback for {', '.join(problems)}; every other submission has its feedback")
    return 0


def _last_line(text):
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1] if lines else "it gave no reason"


def cmd_export(args):
    from lab.grader import grades
    target = Path(args.to) if args.to else Path(args.course, "grades.csv")
    rows = grades.export(args.course, target)
    print(f"wrote {rows} rows to {target}")
    return 0


def cmd_report(args):
    from lab.grader import report
    try:
        paths = report.write(args.course, args.to)
    except ValueError as error:
        return _fail(str(error))
    for line in report.summary_lines(args.course):
        print(line)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def cmd_extend(args):
    from lab.grader import report
    try:
        report.extend(args.course, args.student, args.assignment, args.hours)
    except ValueError as error:
        return _fail(str(error))
    print(f"{args.student} has {args.hours:g} more hours for {args.assignment} (in {report.EXTENSIONS}); "
          "run autograde again to count it")
    return 0


def cmd_check(args):
    from lab.grader import release_checks
    problems = release_checks.run(args.course, _assignments(args.course, args.assignments),
                                  out=sys.stdout)
    if problems:
        return _fail(f"{len(problems)} problem{'s' if len(problems) > 1 else ''}:\n  " + "\n  ".join(problems))
    print("all checks pass")
    return 0


def cmd_doctor(args):
    from lab.grader import sandbox, worker_world
    mode = sandbox.detect()
    print(f"sandbox: {mode}: {sandbox.DESCRIPTIONS[mode]}")
    print(f"python in the sandbox: {worker_world.PYTHON}")
    return 0


def cmd_fixtures(args):
    from lab import lessons
    from lab.grader import fixtures
    chosen = [args.lesson] if args.lesson else lessons.written()
    for lesson in chosen:
        name = fixtures.assignment(lesson)
        if not (args.course / "release" / name).is_dir():
            if args.lesson:
                print(f"python -m lab.grader: lesson {lesson} is not released in {args.course}: "
                      f"run python -m lab.grader release {name} first", file=sys.stderr)
                return 2
            continue
        written = fixtures.write(args.course, lesson, names=args.names or None)
        for student, fixture in written.items():
            print(f"{name} {student}: expects {fixture.score:g}: {fixture.about}")
    return 0


def main(argv=None):
    args = parser().parse_args(argv)
    args.course = args.course.resolve()
    return args.run(args)


def parser():
    """The command line's parser: every command, its arguments and its help."""
    head, _, rest = __doc__.partition("\n\n")
    parser = argparse.ArgumentParser(prog="python -m lab.grader", description=" ".join(head.split()),
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=rest)
    parser.add_argument("--course", type=Path, default=course.COURSE,
                        help="the nbgrader course directory (default: %(default)s)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("setup", help="make grading/ from notebooks/")
    p.add_argument("--check", action="store_true", help="only say whether grading/ is current")
    p.set_defaults(run=cmd_setup)
    p = sub.add_parser("check", help="validate the source and the release, look for leaks and points")
    p.add_argument("assignments", nargs="*")
    p.set_defaults(run=cmd_check)
    p = sub.add_parser("release", help="nbgrader generate_assignment")
    p.add_argument("assignments", nargs="*")
    p.add_argument("--exchange", action="store_true", help="also nbgrader release_assignment")
    p.set_defaults(run=cmd_release)
    p = sub.add_parser("collect", help="nbgrader collect")
    p.add_argument("assignments", nargs="*")
    p.set_defaults(run=cmd_collect)
    p = sub.add_parser("autograde", help="grade every submission, in parallel")
    p.add_argument("assignments", nargs="*")
    p.add_argument("--student", action="append", help="only this student (repeatable)")
    p.add_argument("--jobs", type=int, help="grader processes at once (default: one more than the CPUs)")
    p.add_argument("--timeout", type=int, help="CPU seconds a check cell may take (default: nbgrader_config.py's)")
    p.add_argument("--force", action="store_true", help="grade again what is already graded")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.set_defaults(run=cmd_autograde)
    p = sub.add_parser("feedback", help="nbgrader generate_feedback, in parallel")
    p.add_argument("assignments", nargs="*")
    p.add_argument("--student", action="append", help="only this student (repeatable)")
    p.add_argument("--jobs", type=int, help="processes at once (default: one a CPU)")
    p.add_argument("--exchange", action="store_true", help="also nbgrader release_feedback")
    p.set_defaults(run=cmd_feedback)
    p = sub.add_parser("export", help="the gradebook as CSV")
    p.add_argument("--to", help="the file to write (default: grades.csv in the course directory)")
    p.set_defaults(run=cmd_export)
    p = sub.add_parser("report", help="the class: per-learner, per-test CSV and the tests failed most")
    p.add_argument("--to", help="the folder to write into (default: reports/ in the course directory)")
    p.set_defaults(run=cmd_report)
    p = sub.add_parser("extend", help="give a learner more time for an assignment")
    p.add_argument("student")
    p.add_argument("assignment")
    p.add_argument("--hours", type=float, required=True, help="hours past the due date")
    p.set_defaults(run=cmd_extend)
    p = sub.add_parser("doctor", help="which sandbox works here")
    p.set_defaults(run=cmd_doctor)
    p = sub.add_parser("fixtures", help="write sample and attack submissions into submitted/")
    p.add_argument("names", nargs="*")
    p.add_argument("--lesson", type=int, help="only this lesson's submissions")
    p.set_defaults(run=cmd_fixtures)
    return parser


if __name__ == "__main__":
    sys.exit(main())
