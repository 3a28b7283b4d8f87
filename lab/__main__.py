"""python -m lab: the course's command line.

    python -m lab starter 12 [--lab 2]   the harness.py lesson 12 (or its lab 2) starts from
    python -m lab starter 12 --from F -o G   the same, with your own earlier work taken from F
                                         wherever it passes its lessons' tests, written to G (never
                                         over F); the report, name by name, goes to stderr
    python -m lab end 11                 the harness.py as lesson 11 leaves it
    python -m lab diff 11 12             what changed from the end of lesson 11 to lesson 12's starter
                                         (12.2 names lab 2's starter)
    python -m lab build 12 [--check]     make lesson 12's notebook from its source and run it, and
                                         regenerate docs/grade-ids.md
    python -m lab new 15 "Title" --gap NAME   a new lesson from the template (lab/lessons/new.py)
    python -m lab agent --harness F --base-url URL --model NAME --dir DIR ["prompt"]
                                         run a harness as an interactive coding agent (lab/agent;
                                         --demo: against the course's scripted server)
"""

import argparse
import os
import sys

from lab.course import starters


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["agent"]:       # its options are its own: lab/agent/cli.py parses them
        from lab import agent
        return agent.main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m lab", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("starter", help="print the harness.py a lesson (or one of its labs) starts from")
    p.add_argument("lesson", type=int)
    p.add_argument("--lab", type=int, default=1)
    p.add_argument("--from", dest="source", metavar="FILE",
                   help="your own harness.py: your earlier work is taken from it where it passes")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the starter to FILE instead of printing it (never over --from's file)")
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
    sub.add_parser("agent", help="run a harness as an interactive coding agent (python -m lab agent --help)")
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
            from lab.course import carry
            if not os.path.isfile(args.source):
                raise starters.StarterError(f"there is no file {args.source}: pass your own harness.py with --from")
            _refuse_to_overwrite(args.source, args.output)
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
        if getattr(args, "output", None):
            try:
                with open(args.output, "w", encoding="utf-8", newline="\n") as out:
                    out.write(text)
            except OSError as error:
                raise starters.StarterError(f"{args.output} cannot be written: {error.strerror or error}") from None
            print(f"wrote {args.output}", file=sys.stderr)
            return 0
    except starters.StarterError as error:
        print(f"python -m lab: {error}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def _same_file(a, b):
    try:
        return os.path.samestat(a if isinstance(a, os.stat_result) else os.stat(a), os.stat(b))
    except OSError:
        return False


def _refuse_to_overwrite(source, output):
    """StarterError if the starter would be written over the file it is made from: `-o` naming
    it, or standard output sent to it (`> mine.py` has emptied it by now: the sentence says so)."""
    if output and _same_file(output, source):
        raise starters.StarterError(f"-o {output} is the file given with --from: write the new "
                                    "starter to another file, so that yours is kept")
    try:
        stdout = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return
    if not output and _same_file(stdout, source):
        raise starters.StarterError(f"standard output goes to {source}, the file given with "
                                    "--from, which the shell has already emptied for it: write "
                                    "the starter to another file, with -o")


if __name__ == "__main__":
    sys.exit(main())
