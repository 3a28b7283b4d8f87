"""The harness the agent runs: the course's own (`reference`) or the learner's harness.py, loaded
as a module, after its labs are checked.

A learner's file is judged by the engine that judges it in the course (lab/checks, through
lab_check in a worker process, a time limit on each test), the way `python -m lab starter N --from
FILE` judges it (lab/course/carry.py): each definition the learner wrote goes into the reference of the
lab that last asked for it, and that lab's tests run. The first failure refuses the file in one
sentence. A pass is remembered under DIR/.agent/checked.json by the file's SHA-256 (and the
course's tests'), so the next start with the same file is quick.
"""

import argparse
import concurrent.futures
import datetime
import hashlib
import inspect
import json
import os
import tempfile
import types
from pathlib import Path

from harness import syllabus
from lab import lessons
from lab.course import carry, starters
from lab.course.starters import Stage, StarterError

ROOT = Path(__file__).resolve().parents[2]
TEST_SECONDS = 10.0
CACHE = "checked.json"

# What the agent takes from the harness module, each with the lesson that brings it in.
NEEDED = ("make_read_tool", "make_write_tool", "make_bash_tool", "gate", "command_rules",
          "session", "SessionLog", "persist_to", "maybe_compact", "JsonRenderer", "run_agent",
          "ChatCompletions", "AdapterModel")
OPTIONAL = ("QuotingWriter",)


class Refused(Exception):
    """The harness cannot be used; the message is one sentence saying why."""


def last_lesson():
    return lessons.written()[-1]


def lesson_of(name):
    steps = syllabus.UNITS.get(name)
    return steps[0].lesson if steps else None


def reference_text():
    return starters.text_at(Stage(last_lesson()))


def load_text(text, filename):
    """The module that running `text` makes, or Refused naming what went wrong."""
    module = types.ModuleType("agent_harness")
    module.__file__ = filename
    try:
        code = compile(text, filename, "exec")
    except SyntaxError as error:
        raise Refused(f"{os.path.basename(filename)} does not parse: line {error.lineno}: {error.msg}.") from None
    try:
        exec(code, module.__dict__)
    except BaseException as error:   # SystemExit too: loading must not end the agent in silence
        raise Refused(f"running {os.path.basename(filename)} raised {type(error).__name__}: {error}.") from None
    return module


def missing(filename, name):
    return (f"{filename} defines no {name} (lesson {lesson_of(name)}), which the agent needs: it "
            "runs the harness as the course's last lesson leaves it.")


def parts(module, filename):
    """{name: object} of what the agent needs from `module`, or Refused naming the first missing."""
    found = {}
    for name in NEEDED + OPTIONAL:
        if hasattr(module, name):
            found[name] = getattr(module, name)
        elif name in NEEDED:
            raise Refused(missing(filename, name))
    if not inspect.isasyncgenfunction(found["run_agent"]):
        raise Refused(f"{filename}'s run_agent is not an async generator (lesson 15), so it cannot "
                      "await a model over HTTP.")
    return found


def fingerprint():
    """A digest of the course's lab tests: a pass is remembered only while they are the same."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "lab" / "lessons").glob("lesson*/checks.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def cache_key(text):
    return hashlib.sha256(f"{last_lesson()}\0{fingerprint()}\0{text}".encode("utf-8")).hexdigest()


def cached(cache_dir, key):
    try:
        return key in json.loads((Path(cache_dir) / CACHE).read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError):
        return False


def remember(cache_dir, key, filename):
    path = Path(cache_dir) / CACHE
    try:
        known = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(known, dict):
            known = {}
    except (OSError, ValueError):
        known = {}
    known[key] = {"file": filename, "lesson": last_lesson(),
                  "when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(known, indent=1) + "\n", encoding="utf-8")
    except OSError:
        pass                        # a cache that cannot be written only costs time next start


def judge(text, lesson, lab, timeout=TEST_SECONDS):
    """"" if the harness `text` passes lab `lab` of `lesson`, else the first failure's line, in
    lab_check's words. lab_check's own pieces run it (lab/lab_check.py: one worker process under
    a time limit per test, the verdicts from lab/checks/engine.py), called here rather than as a
    command, which saves starting Python once more for each lab."""
    from lab import checks, lab_check
    from lab.checks import engine
    with tempfile.TemporaryDirectory(prefix="agent-check-") as folder:
        path = os.path.join(folder, "harness.py")
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        args = argparse.Namespace(harness=path, lesson=lesson, lab=[lab], visible_only=False,
                                  timeout=timeout, tests=None)
        worker = lab_check.Worker(args, [lab])
        try:
            first = worker.start(0)
            if "load_error" in first:
                return first["load_error"]
            if "plan" not in first:
                return ("importing it did not finish in time (an endless loop?)" if first.get("timeout")
                        else f"it ended the checking process ({first.get('crashed')})")
            worker.plan = [checks.Test(lesson, e["lab"], e["name"], e["title"], e["hidden"], e["points"], None)
                           for e in first["plan"]]
            results = engine.run_tests(worker.plan, worker)
        finally:
            worker.close()
    report = lab_check.Report("harness.py", lesson)
    lines = list(report.lines(results, first["not_started"]))
    _, status = report.count()
    return "" if status == 0 else carry._first_failure("\n".join(lines))


def check(path, cache_dir=None, notify=None, workers=2):
    """Refused, in one sentence, unless every definition the learner wrote in the file at `path`
    passes the lab that asked for it. Returns "cached" or "checked"."""
    notify = notify or (lambda text: None)
    name = os.path.basename(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
        theirs = carry.read(path)
    except (OSError, UnicodeDecodeError) as error:
        raise Refused(f"{path} cannot be read: {error}.") from None
    except StarterError as error:
        raise Refused(f"{error}.") from None
    key = cache_key(text)
    if cache_dir is not None and cached(cache_dir, key):
        return "cached"
    last = last_lesson()
    groups = sorted(carry.carried(Stage(last)).items())
    for (lesson, lab), names in groups:
        missing = [n for n in names if n not in theirs.units]
        if missing:
            raise Refused(f"{name} is refused: it has no {missing[0]}, which lesson {lesson}'s lab "
                          f"{lab} asks you to write.")
    notify(f"Checking {name} against the labs of lessons 1-{last} ({len(groups)} labs, a few "
           "seconds each); a pass is remembered, so the next start with this file is quick.")

    def one(group):
        (lesson, lab), names = group
        if lesson not in lessons.written():
            return ""
        own = {n: theirs.units[n] for n in names}
        whole = carry._with_extras(starters.text_at(Stage(lesson, lab), solved=True, own=own), theirs)
        return judge(whole, lesson, lab)

    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(one, group) for group in groups]
        try:
            for ((lesson, lab), names), future in zip(groups, futures):
                failure = future.result()
                if failure:
                    title, _, why = failure.partition(" -- ")
                    said = f"at the test \"{title.rstrip('.')}\": {why.rstrip('.')}" if why else title.rstrip(".")
                    raise Refused(f"{name} is refused: its {', '.join(names)} fail{'s' if len(names) == 1 else ''} "
                                  f"lesson {lesson}'s lab {lab}, {said}.")
        finally:
            for future in futures:
                future.cancel()
    if cache_dir is not None:
        remember(cache_dir, key, name)
    return "checked"


def load(spec, cache_dir=None, notify=None):
    """(parts, label): the agent's parts from the harness `spec` ("reference" or a file's path),
    the file checked first. Refused in one sentence when it cannot be used."""
    if spec == "reference":
        label = f"the course's harness (lesson {last_lesson()})"
        return parts(load_text(reference_text(), f"<harness.py as lesson {last_lesson()} leaves it>"),
                     "the reference"), label
    if not os.path.isfile(spec):
        raise Refused(f"there is no file {spec}: pass your harness.py with --harness, or "
                      "--harness reference for the course's.")
    name = os.path.basename(spec)
    try:
        text = Path(spec).read_text(encoding="utf-8")
        defined = carry.read(spec).units
    except (OSError, UnicodeDecodeError) as error:
        raise Refused(f"{spec} cannot be read: {error}.") from None
    except StarterError as error:
        raise Refused(f"{error}.") from None
    absent = [n for n in NEEDED if n not in defined]
    if absent:                      # said at once, before the labs and before running the file
        raise Refused(missing(name, absent[0]))
    verdict = check(spec, cache_dir, notify)      # the file runs only once its labs pass
    found = parts(load_text(text, os.path.abspath(spec)), name)
    return found, f"{name} ({'checked earlier' if verdict == 'cached' else 'its labs pass'})"
