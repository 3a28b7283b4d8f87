"""docs/instructors.md works as written: every course command it gives parses with the course's
command line, and every setting its instructor_config.py example makes is a real, configurable
trait of nbgrader."""

import re
import shlex
from pathlib import Path

import pytest

from lab.grader.__main__ import parser

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "instructors.md"


def _commands():
    text = GUIDE.read_text(encoding="utf-8")
    found = set()
    for match in re.finditer(r"\.venv/bin/python -m lab\.grader ([^`\n|]*)", text):
        words = shlex.split(match.group(1).replace("[", " ").replace("]", " ").replace("...", " "))
        found.add(tuple(w for w in words if w not in ("|",)))
    return sorted(found)


COMMANDS = _commands()
PLACEHOLDERS = {"DIR": "somewhere", "FILE": "f.csv", "N": "2", "S": "30", "ID": "someone", "H": "2",
                "STUDENT": "someone", "LESSON": "12-memory-that-outlives-the-process", "NAME": "correct",
                "A": "12-memory-that-outlives-the-process"}


def test_the_guide_gives_the_commands():
    assert len(COMMANDS) >= 10, COMMANDS


@pytest.mark.parametrize("words", COMMANDS, ids=[" ".join(w) for w in COMMANDS])
def test_each_command_of_the_guide_parses(words):
    argv = [PLACEHOLDERS.get(w, w) for w in words if not w.startswith("<")]
    # "--exchange" style options shown in brackets are real options: parse them all together
    args = parser().parse_args(argv)
    assert callable(args.run)


def _settings():
    text = GUIDE.read_text(encoding="utf-8")
    block = re.search(r"```python\n# grading/instructor_config.py\n(.*?)```", text, re.S)
    assert block, "the guide shows no instructor_config.py"
    return re.findall(r"^c\.(\w+)\.(\w+) = ", block.group(1), re.M)


def _configurable():
    """{class name: [classes]} of the configurable classes of nbgrader's exchange, course
    directory, apps, plugins and preprocessors (a config section names every class of its name)."""
    import importlib
    from traitlets.config import Configurable
    found = {}
    for name in ("nbgrader.exchange.default.exchange", "nbgrader.exchange.default", "nbgrader.coursedir",
                 "nbgrader.apps.baseapp", "nbgrader.plugins", "nbgrader.preprocessors", "nbgrader.converters"):
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Configurable):
                found.setdefault(value.__name__, []).append(value)
    return found


def test_every_setting_of_the_guides_instructor_config_is_a_real_trait():
    settings = _settings()
    assert ("Exchange", "root") in settings
    known = _configurable()
    for cls, trait in settings:
        assert cls in known, f"the guide sets c.{cls}.{trait}, and nbgrader has no configurable {cls}"
        assert any(trait in c.class_traits(config=True) for c in known[cls]), \
            f"the guide sets c.{cls}.{trait}, which {cls} does not take"
