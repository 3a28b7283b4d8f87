"""python -m lab: the course's command line.

    python -m lab starter 12 [--lab 2]   the harness.py lesson 12 (or its lab 2) starts from
    python -m lab starter 12 --from F    the same, with your own earlier work taken from F wherever
                                         it passes its lessons' tests (the report goes to stderr)
    python -m lab end 11                 the harness.py as lesson 11 leaves it
    python -m lab diff 11 12             what changed from the end of lesson 11 to lesson 12's starter
                                         (12.2 names lab 2's starter)
    python -m lab build 12 [--check]     make lesson 12's notebook from its source and run it, and
                                         regenerate docs/grade-ids.md
    python -m lab new 15 "Title" --gap NAME   a new lesson from the template (lab/lessons/new.py)
"""

import argparse
import os
import sys

from lab import starters


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m lab", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("starter", help="print the harness.py a lesson (or one of its labs) starts from")
    p.add_argument("lesson", type=int)
    p.add_argument("--lab", type=int, default=1)
    p.add_argument("--from", dest="source", metavar="FILE",
                   help="your own harness.py: your earlier work is taken from it where it passes")
    p = sub.add_parser("end", help="print the harness.py as a lesson leaves it")
    p.add_argument("lesson", type=int)
    p = sub.add_parser("diff", help="what changed between two points of the course")
    p.add_argument("old", help="11 is the end of lesson 11")
    p.add_argument("new", help="12 is lesson 12's starter, 12.2 its lab 2's")
    p = sub.add_parser("build", help="make a lesson's notebook from its source and run it")
    p.add_argument("rest", nargs=argparse.REMAINDER, help="the lesson, then --check or --no-run")
    p = sub.add_parser("new", help="write a new lesson's folder, gap text and syllabus rows from the template")
    p.add_argument("lesson", type=int)
    p.add_argument("title")
    p.add_argument("--gap", action="append", default=[], metavar="NAME",
                   help="a definition lab 1 asks the learner to write (repeatable): summarize, SessionLog.rows")
    args = parser.parse_args(argv)
    if args.command == "new":
        from lab.lessons import new
        try:
            written, steps = new.new(args.lesson, args.title, args.gap)
        except new.NewLessonError as error:
            print(f"python -m lab new: {error}", file=sys.stderr)
            return 2
        print("wrote " + ", ".join(written))
        print("next:")
        for n, step in enumerate(steps, 1):
            print(f"  {n}. {step}")
        return 0
    if args.command == "build":
        from lab.lessons.build import main as build
        status = build(["build"] + args.rest)
        if status == 0 and not {"--check", "--no-run"} & set(args.rest):
            from lab.grader import course
            doc = course.grade_id_doc()
            if not course.GRADE_IDS.exists() or course.GRADE_IDS.read_text(encoding="utf-8") != doc:
                course.GRADE_IDS.write_text(doc, encoding="utf-8")
                print(course.GRADE_IDS.relative_to(course.REPO))
        return status
    try:
        if args.command == "starter" and args.source:
            from lab import carry
            if not os.path.isfile(args.source):
                raise starters.StarterError(f"there is no file {args.source}: pass your own harness.py with --from")
            text, report = carry.text_from(starters.Stage(args.lesson, args.lab), args.source)
            for line in carry.describe(report):
                print(line, file=sys.stderr)
        elif args.command == "starter":
            text = starters.text_at(starters.Stage(args.lesson, args.lab))
        elif args.command == "end":
            text = starters.text_at(starters.Stage(args.lesson))
        else:
            old = starters.Stage.parse(args.old)
            new = starters.Stage.parse(args.new)
            if new.lab is None:
                new = new._replace(lab=1)
            text = starters.diff(old, new)
    except starters.StarterError as error:
        print(f"python -m lab: {error}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
