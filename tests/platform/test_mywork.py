"""The learner's own copy (lab/learner/mywork.py) and the commands that open it (start.py, `make lab`)."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from lab import lessons
from lab.learner import mywork
from lab.lessons import build

ROOT = Path(__file__).resolve().parents[2]
LESSON = 12
MASTER = build.notebook_path(LESSON)
# Lessons being written may have no notebook yet; refresh() names them and copies nothing.
UNBUILT = [n for n in lessons.written() if not build.notebook_path(n).is_file()]


@pytest.fixture(scope="module")
def master_text():
    return MASTER.read_text(encoding="utf-8")


def solutions_of(nb):
    """The text between the solution markers of every solution cell of a master notebook."""
    found = []
    for cell in nb.cells:
        for body in re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", cell.source, re.S):
            if body.strip():
                found.append(body)
    return found


def test_a_fresh_run_makes_the_learners_edition_of_every_written_lesson(tmp_path):
    added, unbuilt = mywork.refresh(tmp_path / "mywork")
    expected = [build.notebook_path(n).name for n in lessons.written() if n not in unbuilt]
    assert [p.name for p in added] == expected and expected
    master = nbformat.read(MASTER, as_version=4)
    solutions = solutions_of(master)
    assert solutions, "the master notebook has no solution cell: nothing to compare against"
    for path in added:
        text = path.read_text(encoding="utf-8")
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
        assert "### BEGIN SOLUTION" not in text and "### END SOLUTION" not in text
        assert "BEGIN HIDDEN TESTS" not in text and "hidden=True" not in text
        assert all(not c.get("outputs") and c.get("execution_count") is None
                   for c in nb.cells if c.cell_type == "code")
        if path.name == MASTER.name:
            for body in solutions:
                assert body not in text, f"a solution was copied verbatim:\n{body[:200]}"
            # The same cells as the master, in the same order: it is the lesson, gaps open.
            assert [c.id for c in nb.cells] == [c.id for c in master.cells]


def test_a_later_run_keeps_the_learners_edits_and_answers(tmp_path):
    folder = tmp_path / "mywork"
    added, _ = mywork.refresh(folder)
    mine = folder / MASTER.name
    nb = nbformat.read(mine, as_version=4)
    nb.cells[0].source += "\n\nMy own note."
    edited = nbformat.writes(nb)
    mine.write_text(edited, encoding="utf-8")
    answers = folder / ".rungs" / f"lesson{LESSON:02d}.json"
    answers.parent.mkdir()
    answers.write_text('{"some-rung": "my answer"}\n')
    own = folder / "scratch.py"
    own.write_text("print('mine')\n")

    assert mywork.refresh(folder) == ([], UNBUILT)
    assert mine.read_text(encoding="utf-8") == edited
    assert answers.read_text() == '{"some-rung": "my answer"}\n'
    assert own.read_text() == "print('mine')\n"


def test_a_lesson_added_later_appears_and_the_others_are_left_alone(tmp_path, monkeypatch):
    folder = tmp_path / "mywork"
    mywork.refresh(folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    # A `git pull` brings lesson 99: its folder (written) and its master notebook.
    later = tmp_path / "notebooks" / "99-a-later-lesson.ipynb"
    later.parent.mkdir()
    shutil.copy(MASTER, later)
    real_written, real_path = lessons.written, build.notebook_path
    monkeypatch.setattr(lessons, "written", lambda: real_written() + [99])
    monkeypatch.setattr(build, "notebook_path", lambda n: later if n == 99 else real_path(n))

    added, unbuilt = mywork.refresh(folder)
    assert [p.name for p in added] == [later.name] and unbuilt == UNBUILT
    assert "### BEGIN SOLUTION" not in added[0].read_text(encoding="utf-8")
    # Everything is as it was, but the course's start page, which now maps lesson 99 too.
    before.pop("START.md")
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name in before} == before


def test_a_deleted_notebook_comes_back_fresh(tmp_path):
    folder = tmp_path / "mywork"
    added, _ = mywork.refresh(folder)
    fresh = added[0].read_bytes()
    added[0].unlink()
    again, _ = mywork.refresh(folder)
    assert again == [added[0]] and added[0].read_bytes() == fresh


def test_a_lesson_without_a_notebook_is_named_not_copied(tmp_path, monkeypatch):
    real_written, real_path = lessons.written, build.notebook_path
    monkeypatch.setattr(lessons, "written", lambda: real_written() + [98])
    monkeypatch.setattr(build, "notebook_path",
                        lambda n: tmp_path / "98-unbuilt.ipynb" if n == 98 else real_path(n))
    added, unbuilt = mywork.refresh(tmp_path / "mywork")
    assert unbuilt == UNBUILT + [98] and all(p.name != "98-unbuilt.ipynb" for p in added)


def test_the_command_line(tmp_path):
    folder = tmp_path / "mine"
    first = subprocess.run([sys.executable, "-m", "lab.learner.mywork", str(folder)], capture_output=True,
                           text=True, cwd=ROOT)
    assert first.returncode == 0 and first.stderr == ""
    assert f"added {MASTER.name} to mine/" in first.stdout
    second = subprocess.run([sys.executable, "-m", "lab.learner.mywork", str(folder)], capture_output=True,
                            text=True, cwd=ROOT)
    assert (second.returncode, second.stderr) == (0, "") and "added" not in second.stdout
    (tmp_path / "afile").write_text("")
    bad = subprocess.run([sys.executable, "-m", "lab.learner.mywork", str(tmp_path / "afile")],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "is a file, not a folder" in bad.stderr


def test_git_ignores_the_learners_folder():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    paths = ["mywork/12-x.ipynb", "mywork/.rungs/lesson12.json", ".venv-3.13/bin/python"]
    done = subprocess.run(["git", "check-ignore", *paths], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.split() == paths


def start_command(*args):
    done = subprocess.run([sys.executable, str(ROOT / "start.py"), "--print-command", *args],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.split()


def test_start_opens_the_learners_copy_and_author_the_masters():
    learner = start_command("--no-browser")
    assert learner[1:3] == ["lab", "--notebook-dir=mywork"] and learner[-1] == "--no-browser"
    assert "--ContentsManager.pre_save_hook=lab.learner.jupyter_hooks.keep_widget_text" in learner
    assert start_command("--author")[2] == "--notebook-dir=notebooks"


def test_start_refuses_an_option_it_does_not_have():
    done = subprocess.run([sys.executable, str(ROOT / "start.py"), "--autor", "--"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "--autor is not an option of start.py" in done.stderr


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_lab_and_make_author_run_start_py():
    for target, folder in (("lab", "mywork"), ("author", "notebooks")):
        done = subprocess.run(["make", "-s", "--no-print-directory", target,
                               f"PYTHON={sys.executable}", "ARGS=--print-command"],
                              capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        assert f"--notebook-dir={folder}" in done.stdout.split()


def test_the_start_page_maps_every_lesson_and_says_how_the_course_works(tmp_path):
    from lab import lessons
    from lab.course import manifest
    from lab.learner import startpage
    mywork.refresh(tmp_path)
    page = (tmp_path / startpage.NAME).read_text(encoding="utf-8")
    for lesson in lessons.written():
        data = lessons.load(lesson)
        row = next(line for line in page.splitlines() if line.startswith(f"| {lesson:02d} |"))
        assert f"[{data.TITLE}]({data.NOTEBOOK})" in row and (tmp_path / data.NOTEBOOK).exists()
        assert all(f"`{name}`" in row for name in manifest.names(lesson))
    assert sum(line.startswith("| ") and line[2:4].isdigit() for line in page.splitlines()) == \
        len(set(startpage.PLANNED) | set(lessons.written()))
    from lab.rungs import store
    for needed in ("lab.check(N, lab=K)", ".rungs/lesson03.json", f".rungs/{store.name(3)}", "lab.progress()", "compared",
                   "[general]", "Our simplification", "`A!`", "`?`", "Lessons done: 0 of"):
        assert needed in page


def test_the_start_page_is_the_courses_and_is_written_again(tmp_path):
    from lab.learner import startpage
    (tmp_path / startpage.NAME).write_text("an old map", encoding="utf-8")
    mywork.refresh(tmp_path)
    assert (tmp_path / startpage.NAME).read_text(encoding="utf-8") == startpage.text(tmp_path)


def test_jupyterlab_opens_on_the_start_page_rendered():
    import json
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "start.py", "--print-command"], cwd=root, capture_output=True, text=True)
    assert "--LabApp.default_url=/lab/tree/START.md" in done.stdout.split()
    assert "--ServerApp.jpserver_extensions=lab.learner.frontdoor=True" in done.stdout.split()
    author = subprocess.run([sys.executable, "start.py", "--author", "--print-command"], cwd=root,
                            capture_output=True, text=True)
    assert "START.md" not in author.stdout and "frontdoor" not in author.stdout
    overrides = json.loads((root / "jupyter" / "overrides.json").read_text())
    assert overrides["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]["markdown"] == "Markdown Preview"


def test_the_start_page_shows_progress_and_follows_each_answer(tmp_path, monkeypatch):
    from lab import lessons
    from lab.learner import startpage
    from lab.rungs import store
    mywork.refresh(tmp_path)
    page = (tmp_path / startpage.NAME).read_text(encoding="utf-8")
    first = lessons.written()[0]
    data = lessons.load(first)
    assert f"**Next:** lesson {first:02d}, [{data.TITLE}]({data.NOTEBOOK}): start it from the top" in page
    assert "| not begun |" in next(l for l in page.splitlines() if l.startswith(f"| {first:02d} |"))
    # A kernel runs in the learner's folder: its next save rewrites the page.
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LAB_RUNGS_DIR", raising=False)
    spec = next(s for s in data.RUNGS if s.kind == "choice" and not s.optional)
    store.put(first, "rungs", spec.id, {"choice": 0})
    page = (tmp_path / startpage.NAME).read_text(encoding="utf-8")
    required = len([s for s in data.RUNGS if not s.optional])
    row = next(l for l in page.splitlines() if l.startswith(f"| {first:02d} |"))
    assert row.endswith(f"| 1 of {required} questions, 0 of 1 labs |"), row
    assert f"Questions answered: 1 of" in page
    assert f"{required - 1} of its questions are still open" in page


def test_a_folder_without_the_start_page_is_left_alone(tmp_path, monkeypatch):
    from lab import lessons
    from lab.learner import startpage
    from lab.rungs import store
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LAB_RUNGS_DIR", raising=False)
    (tmp_path / startpage.NAME).write_text("my own notes\n", encoding="utf-8")
    store.put(lessons.written()[0], "labs", "1", True)
    assert (tmp_path / startpage.NAME).read_text(encoding="utf-8") == "my own notes\n"


def test_every_text_names_the_answers_files_as_the_store_does():
    """README, the docs, the start page, the lessons and lab/ name the answers files one way:
    the store's (lesson03.json), never lessonNN.json or lesson3.json."""
    import re
    from lab import lessons
    from lab.learner import startpage
    from lab.rungs import store
    root = Path(__file__).resolve().parents[2]
    texts = {"START.md": startpage.text()}
    for path in [root / "README.md", *sorted((root / "docs").glob("*.md")),
                 *sorted((root / "lab").rglob("*.py")), *sorted((root / "lab").rglob("*.md"))]:
        texts[str(path.relative_to(root))] = path.read_text(encoding="utf-8")
    named = {}
    for where, text in texts.items():
        for found in re.findall(r"\blesson(\w+)\.json\b", text):
            named.setdefault(found, where)
    wrong = {f"lesson{n}.json": where for n, where in named.items()
             if not (n.isdigit() and store.name(int(n)) == f"lesson{n}.json")}
    # The store's own docstring names the old form, to say it is renamed.
    wrong = {n: w for n, w in wrong.items() if not (w.endswith("store.py") and n == "lesson3.json")}
    assert not wrong, f"these name an answers file another way than the store ({store.name(3)}): {wrong}"
    for lesson in lessons.written():
        assert f".rungs/{store.name(lesson)}" in startpage.text() or lesson not in (1, max(lessons.written()))


def test_the_readme_the_start_page_and_the_starter_say_the_same_of_the_plan():
    import re
    import subprocess
    import sys
    from lab import lessons
    from lab.learner import startpage
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    planned = [n for n in startpage.PLANNED if n not in lessons.written()]
    assert "the map of the sixteen lessons" in " ".join(readme.split()) and len(startpage.PLANNED) == 16
    page = startpage.text()
    if not planned:
        # Every lesson of the plan is written: nothing anywhere may still call one planned, and
        # the README's table and the start page's map both have a row for each of the sixteen.
        assert "planned, not written yet" not in readme and "planned, not written yet" not in page
        for n, title in startpage.PLANNED.items():
            assert re.search(rf"^\| {n:02d} \| {re.escape(title)} \|", readme, re.M), n
            assert re.search(rf"^\| {n:02d} \| .*{re.escape(title)}", page, re.M), n
        beyond = max(startpage.PLANNED) + 1
        done = subprocess.run([sys.executable, "-m", "lab", "starter", str(beyond)], capture_output=True,
                              text=True, cwd=root)
        assert done.returncode == 2 and "is not in the course's plan" in done.stderr
    else:
        row = next(line for line in readme.splitlines() if line.startswith(f"| {planned[0]:02d}"))
        assert "planned, not written yet" in row
        assert all(startpage.PLANNED[n] in row for n in planned)
        for n in planned:
            assert re.search(rf"^\| {n:02d} \| {re.escape(startpage.PLANNED[n])} \| planned, not written yet \|", page, re.M)
        done = subprocess.run([sys.executable, "-m", "lab", "starter", str(planned[0])], capture_output=True,
                              text=True, cwd=root)
        assert "planned, not written yet" in done.stderr
    assert "--from" in readme and " -o " in readme
