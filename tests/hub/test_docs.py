"""The JupyterHub section of docs/instructors.md links the configuration the hub test runs, and
never holds a copy of it that could drift: no configuration code in it, every setting it writes
out with a value is set that way in the shipped files, and every variable, make target and failure
sentence it names is real."""

import re
from pathlib import Path

from . import hubkit as hk

DOC = hk.REPO / "docs" / "instructors.md"
HEADING = "## A large course on JupyterHub with nbgrader's exchange"
SHIPPED = (hk.CONFIG, hk.EXCHANGE_CONFIG_DIR / "nbgrader_config.py")


def section(text=None):
    text = DOC.read_text(encoding="utf-8") if text is None else text
    assert HEADING in text, f"docs/instructors.md has no section {HEADING!r}"
    rest = text.split(HEADING, 1)[1]
    return re.split(r"\n## ", rest, maxsplit=1)[0]


def shipped_text():
    return "\n".join(path.read_text(encoding="utf-8") for path in SHIPPED)


def problems(doc_section):
    """Every way the section disagrees with the shipped files: [sentence]."""
    found = []
    config = shipped_text()
    linked = {Path(target).name for target in re.findall(r"\]\((\.\./grading/hub/[^)]+)\)", doc_section)}
    for target in re.findall(r"\]\((\.\./grading/hub/[^)]+)\)", doc_section):
        if not (DOC.parent / target).resolve().is_file():
            found.append(f"the link {target} leads nowhere")
    for needed in ("jupyterhub_config.py", "nbgrader_config.py", "package.json", "package-lock.json"):
        if needed not in linked:
            found.append(f"the section does not link grading/hub's {needed}")
    for block in re.findall(r"```[^\n]*\n(.*?)```", doc_section, re.S):
        if re.search(r"^\s*c\.\w+\.\w+\s*=|get_config\(", block, re.M):
            found.append(f"a code block copies configuration: {block.strip()[:60]!r}")
    for statement in re.findall(r"`(c\.\w+\.\w+\s*=[^`]*)`", doc_section):
        if statement not in config:
            found.append(f"{statement!r} is written in the guide but not set so in grading/hub")
    for variable in sorted(set(re.findall(r"\b((?:COURSE|NBGRADER)_[A-Z_]+)\b", doc_section))):
        if variable not in config:
            found.append(f"{variable} is named in the guide but grading/hub never reads it")
    makefile = (hk.REPO / "Makefile").read_text(encoding="utf-8")
    for target in sorted(set(re.findall(r"`make ([a-z-]+(?: [a-z-]+)*)`", doc_section))):
        for name in target.split():
            if not re.search(rf"^{re.escape(name)}:", makefile, re.M):
                found.append(f"`make {name}` is in the guide but not in the Makefile")
    said = failure_sentences()
    for quoted in re.findall(r"\(`((?:port|the proxy) [^`]*)`\)", doc_section):
        pattern = ".*".join(re.escape(piece) for piece in quoted.split("..."))
        if not any(re.match(pattern, sentence) for sentence in said):
            found.append(f"the failure sentence {quoted!r} is not what jupyterhub_config.py says")
    return found


def failure_sentences():
    """The sentences jupyterhub_config.py stops with, made by loading it with port 8000 taken,
    then with no proxy (backticks dropped: the guide quotes them inside code)."""
    import os
    import socket
    from unittest import mock

    from traitlets.config import Config

    def load(**env):
        with mock.patch.dict(os.environ, env):
            try:
                exec(compile(hk.CONFIG.read_text(), str(hk.CONFIG), "exec"),
                     {"get_config": Config, "__file__": str(hk.CONFIG)})
            except SystemExit as stop:
                return str(stop).split(": ", 1)[1].replace("`", "")
        raise AssertionError(f"jupyterhub_config.py did not stop with {env}")

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        in_use = load(COURSE_HUB_PORT=str(port)).replace(str(port), "8000")
    free = dict(zip(("COURSE_HUB_PORT", "COURSE_HUB_API_PORT", "COURSE_HUB_PROXY_API_PORT"),
                    map(str, hk.free_ports(3))))
    missing = load(COURSE_HUB_PROXY="/nonexistent/configurable-http-proxy", **free)
    return [in_use, missing]


def test_the_guide_links_the_shipped_configuration_and_copies_none_of_it():
    assert problems(section()) == []


def test_a_guide_that_drifted_is_caught():
    # each kind of drift the test above is there to catch, made on a copy of the section
    good = section()
    drifts = {
        "a copied block": good + "\n```python\nc.Exchange.root = '/srv/x'\n```\n",
        "a setting that differs": good + "\nSet `c.Exchange.path_includes_course = False`.\n",
        "a variable nobody reads": good + "\nSet `COURSE_HUB_COLOUR`.\n",
        "a missing make target": good + "\nRun `make hub-everything`.\n",
        "a broken link": good.replace("(../grading/hub/package.json)", "(../grading/hub/package.jsn)"),
        "a failure sentence changed": good.replace("is already in use by another program", "is busy"),
    }
    for name, text in drifts.items():
        assert problems(text), f"{name} went unnoticed"
