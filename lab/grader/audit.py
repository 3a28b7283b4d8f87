"""Checks on what an instructor hands out and hands back: the release and the feedback hold no
solution code and no hidden test's code, and the points add up to what the headings say."""

import html
import re
from html.parser import HTMLParser

import nbformat

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"


def _regions(source, begin, end):
    lines, inside = [], False
    for line in source.splitlines():
        if begin in line:
            inside = True
            continue
        if end in line:
            inside = False
            continue
        if inside:
            lines.append(line)
    return lines


def _normal(line):
    return " ".join(line.split())


def secret_lines(master):
    """{"solution": [...], "hidden": [...]}: the normalized lines of the master's solution and
    hidden-test regions that occur nowhere else in the master (so that finding one elsewhere is
    evidence of a leak, not a coincidence)."""
    solution, hidden, public = [], [], []
    for cell in master.cells:
        source = cell.get("source", "")
        sol = _regions(source, BEGIN_SOLUTION, END_SOLUTION)
        hid = _regions(source, BEGIN_HIDDEN, END_HIDDEN)
        secret = set(sol) | set(hid)
        solution += sol
        hidden += hid
        public += [l for l in source.splitlines() if l not in secret
                   and BEGIN_SOLUTION not in l and END_SOLUTION not in l
                   and BEGIN_HIDDEN not in l and END_HIDDEN not in l]
    public = {_normal(l) for l in public}

    def keep(lines):
        out = []
        for line in lines:
            n = _normal(line)
            if n and n not in public and n not in out:
                out.append(n)
        return out

    return {"solution": keep(solution), "hidden": keep(hidden)}


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def text_of_html(document):
    parser = _Text()
    parser.feed(document)
    return html.unescape("".join(parser.parts))


def text_of_notebook(nb):
    """Every line a reader of the notebook could see: sources and outputs."""
    parts = []
    for cell in nb.cells:
        parts.append(cell.get("source", ""))
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            for value in output.get("data", {}).values():
                parts.append(value if isinstance(value, str) else "")
            parts += output.get("traceback", [])
    return "\n".join(parts)


def leaks(text, lines):
    """The lines of `lines` that occur, as a line, in `text` (white space normalized)."""
    present = {_normal(l) for l in text.splitlines()}
    return [line for line in lines if line in present]


HEADING = re.compile(r"^(#+)\s.*\((\d+(?:\.\d+)?) points?(?::\s*(\d+(?:\.\d+)?) for the tests you can see, "
                     r"(\d+(?:\.\d+)?) for hidden ones)?\)", re.MULTILINE)


def point_problems(nb):
    """Sentences saying where a heading's points differ from the grade cells under it."""
    problems, headings = [], []   # (level, total, visible, hidden, index, text)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        for match in HEADING.finditer(cell.source):
            level = len(match.group(1))
            headings.append((level, float(match.group(2)),
                             float(match.group(3)) if match.group(3) else None,
                             float(match.group(4)) if match.group(4) else None,
                             index, match.group(0).strip()))
    grades = []
    for index, cell in enumerate(nb.cells):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade"):
            grades.append((index, float(meta.get("points", 0)), BEGIN_HIDDEN in cell.source))
    for n, (level, total, visible, hidden, start, text) in enumerate(headings):
        end = len(nb.cells)
        for later in headings[n + 1:]:
            if later[0] <= level and later[4] > start:
                end = later[4]
                break
        under = [g for g in grades if start < g[0] < end]
        got = sum(p for _, p, _ in under)
        if got != total:
            problems.append(f"the heading {text!r} says {total:g} points; the check cells under it hold {got:g}")
        if visible is not None:
            seen = sum(p for _, p, h in under if not h)
            if seen != visible:
                problems.append(f"the heading {text!r} says {visible:g} points for visible tests; "
                                f"the cells without hidden tests hold {seen:g}")
        if hidden is not None:
            concealed = sum(p for _, p, h in under if h)
            if concealed != hidden:
                problems.append(f"the heading {text!r} says {hidden:g} points for hidden tests; "
                                f"the cells with hidden tests hold {concealed:g}")
    if not headings:
        problems.append("no heading states the notebook's points")
    return problems


def read(path):
    return nbformat.read(str(path), as_version=4)
