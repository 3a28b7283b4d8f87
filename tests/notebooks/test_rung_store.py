"""The answer store never loses a learner's answers: a damaged file is set aside and read for what
it still holds, two kernels writing at once lose nothing, a folder that cannot be written keeps
answers in memory, and the file's format is versioned (lab/rungs/store.py says how).

These go through the public face of lab.rungs where they can (rung, choose, record_lab,
progress, store_path), so the same tests can be run against an older lab/rungs to see it fail.
"""

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lab import rungs

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def answers(tmp_path, monkeypatch):
    """Each test keeps its answers in a folder of its own, and starts as a fresh kernel would."""
    monkeypatch.setenv("LAB_RUNGS_DIR", str(tmp_path / ".rungs"))
    restart()
    yield tmp_path / ".rungs" / "lesson12.json"
    restart()


def restart():
    """What a kernel restart leaves: only the files."""
    import importlib
    for name in list(sys.modules):
        if name.startswith("lab.rungs."):
            importlib.reload(sys.modules[name])
    importlib.reload(rungs)
    importlib.reload(sys.modules["lab.learner.startpage"])   # it hooks itself onto the new store


def full_file(answers):
    """Give five answers and pass a lab, as a learner would; return the file's bytes."""
    rungs.rung(12, "what-is-sent").choose(1)
    rungs.rung(12, "throw-away").choose(2)
    rungs.rung(12, "tail-start").submit("10")
    rungs.rung(12, "wall-count").submit("8")
    rungs.rung(12, "no-entry").tap(0)
    rungs.record_lab(12, 1, True)
    return answers.read_bytes()


def test_a_cut_off_file_is_set_aside_and_what_it_still_holds_is_kept(answers, capsys):
    whole = full_file(answers)
    cut = whole[: whole.index(b'"wall-count"') + 5]      # a crash part way through an entry
    answers.write_bytes(cut)
    restart()
    capsys.readouterr()
    rung = rungs.rung(12, "throw-away")
    said = capsys.readouterr().out
    aside = answers.with_name("lesson12.json.damaged-1")
    assert aside.read_bytes() == cut, "the damaged file must be kept, byte for byte"
    assert said.count("\n") == 1 and "damaged" in said and aside.name in said, said
    assert "lab-rung-chosen" in rung.buttons[2]._dom_classes
    kept = json.loads(answers.read_text())
    # Entries are written in order of their ids: those before the cut are whole.
    assert sorted(kept["rungs"]) == ["no-entry", "tail-start", "throw-away"]
    assert kept["rungs"]["tail-start"] == {"typed": "10", "value": 10}
    assert kept["labs"] == {"1": True}
    assert "damaged" in rung.notice.value


def test_the_damage_is_told_once_not_on_every_later_rung(answers, capsys):
    full_file(answers)
    answers.write_bytes(b"{not json")
    restart()
    first = rungs.rung(12, "throw-away")
    later = rungs.rung(12, "what-is-sent")
    assert "damaged" in first.notice.value
    assert later.notice.value == "" and later.notice.layout.display == "none"
    later.choose(0)
    assert "damaged" not in later.notice.value
    assert capsys.readouterr().out.count("was damaged") == 1


def test_a_deleted_answers_file_is_said_once_and_not_taken_for_a_new_lesson(answers, capsys):
    full_file(answers)
    answers.unlink()
    restart()
    capsys.readouterr()
    rung = rungs.rung(12, "throw-away")
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "is not there any more" in said and "lesson 12 starts again" in said
    assert "is not there any more" in rung.notice.value
    assert not rung.answered
    again = rungs.rung(12, "what-is-sent")
    assert again.notice.value == "" and capsys.readouterr().out == ""
    restart()
    rungs.rung(12, "what-is-sent")
    assert capsys.readouterr().out == "", "told once, not in every later kernel"


def test_a_lesson_never_begun_says_nothing(answers, capsys):
    rung = rungs.rung(12, "throw-away")
    assert capsys.readouterr().out == "" and rung.notice.value == ""


def test_a_second_damage_never_overwrites_the_first_kept_copy(answers):
    full_file(answers)
    answers.write_text("{not json")
    restart()
    rungs.rung(12, "what-is-sent")
    answers.write_text("[]")
    restart()
    rungs.rung(12, "what-is-sent")
    assert answers.with_name("lesson12.json.damaged-1").read_text() == "{not json"
    assert answers.with_name("lesson12.json.damaged-2").read_text() == "[]"


def test_a_file_of_the_wrong_shape_keeps_every_entry_of_the_right_one(answers):
    answers.parent.mkdir(parents=True)
    answers.write_text(json.dumps({"format": 1, "lesson": 12, "rungs": {"what-is-sent": {
        "choice": 1}, "throw-away": "garbled"}, "hints": [], "labs": {"1": True}}))
    rung = rungs.rung(12, "what-is-sent")
    assert "lab-rung-chosen" in rung.buttons[1]._dom_classes
    assert answers.with_name("lesson12.json.damaged-1").exists()
    kept = json.loads(answers.read_text())
    assert kept["rungs"] == {"what-is-sent": {"choice": 1}} and kept["labs"] == {"1": True}


WRITER = """
import sys, time
from pathlib import Path
from lab import rungs
first, count, go = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
while not go.exists():
    time.sleep(0.001)
for lab_number in range(first, first + count):
    rungs.record_lab(12, lab_number, True)
"""


def test_two_kernels_saving_at_once_lose_no_answer(answers, tmp_path):
    go, count = tmp_path / "go", 150
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(first), str(count), str(go)],
                                cwd=tmp_path, env=dict(os.environ), stderr=subprocess.PIPE,
                                text=True)
               for first in (1000, 2000)]
    time.sleep(1.0)       # both have imported lab and wait at the line
    go.touch()
    for writer in writers:
        assert writer.wait(120) == 0, writer.stderr.read()
        assert writer.stderr.read() == ""
    labs = json.loads(answers.read_text())["labs"]
    lost = [n for first in (1000, 2000) for n in range(first, first + count) if str(n) not in labs]
    assert not lost, f"{len(lost)} of {2 * count} answers were lost, the first {lost[:5]}"
    assert sorted(p.name for p in answers.parent.iterdir()) == ["lesson12.json", "lesson12.json.started"], \
        "a lock or temporary file was left behind"


@pytest.fixture
def unwritable(tmp_path, monkeypatch):
    """A folder that cannot be made: its parent is a file (as good as read-only, even as root)."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("LAB_RUNGS_DIR", str(blocker / ".rungs"))
    return blocker


def test_an_unwritable_folder_keeps_answers_in_memory_and_says_so_once(unwritable, capsys):
    rung = rungs.rung(12, "what-is-sent")
    rung.choose(2)
    rung.choose(1)
    rungs.rung(12, "tail-start").submit("10")
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "cannot be saved" in said, said
    assert "lab-rung-chosen" in rung.buttons[1]._dom_classes
    assert "cannot be saved" in rung.notice.value
    again = rungs.rung(12, "what-is-sent")      # the cell run again in the same kernel
    assert "lab-rung-chosen" in again.buttons[1]._dom_classes
    rungs.progress(12)
    assert "[x] what-is-sent" in capsys.readouterr().out


def test_a_full_disk_keeps_answers_until_a_save_succeeds(answers, monkeypatch, capsys):
    real = os.replace

    def full(source, target):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", full)
    rungs.rung(12, "what-is-sent").choose(1)
    assert "No space left on device" in capsys.readouterr().out
    assert not answers.exists() or "what-is-sent" not in answers.read_text()
    assert [p.name for p in answers.parent.iterdir() if p.suffix == ".tmp"] == [], \
        "a temporary file was left on the full disk"
    monkeypatch.setattr(os, "replace", real)
    rungs.rung(12, "throw-away").choose(0)         # space is freed: the next save writes both
    stored = json.loads(answers.read_text())["rungs"]
    assert stored["what-is-sent"] == {"choice": 1} and stored["throw-away"] == {"choice": 0}
    assert "cannot be saved" not in rungs.rung(12, "what-is-sent").notice.value


def test_the_file_carries_its_format_and_an_older_one_is_read(answers):
    answers.parent.mkdir(parents=True)
    # What lab/rungs.py wrote before the format had a number.
    answers.write_text(json.dumps({"lesson": 12, "rungs": {"what-is-sent": {"choice": 1}},
                                   "hints": {"1": 2}, "labs": {}}))
    rung = rungs.rung(12, "what-is-sent")
    assert "lab-rung-chosen" in rung.buttons[1]._dom_classes
    assert not answers.with_name("lesson12.json.damaged-1").exists()
    rungs.record_lab(12, 1, True)
    stored = json.loads(answers.read_text())
    assert stored["format"] == 1
    assert stored["rungs"] == {"what-is-sent": {"choice": 1}} and stored["hints"] == {"1": 2}


def test_a_newer_format_is_refused_in_a_sentence_and_never_written_over(answers, capsys):
    answers.parent.mkdir(parents=True)
    newer = json.dumps({"format": 99, "lesson": 12, "answers": ["kept as they are"]})
    answers.write_text(newer)
    rung = rungs.rung(12, "what-is-sent")
    rung.choose(1)
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "newer version of the course" in said, said
    assert answers.read_text() == newer
    assert "lab-rung-chosen" in rung.buttons[1]._dom_classes
    assert "lab-rung-chosen" in rungs.rung(12, "what-is-sent").buttons[1]._dom_classes


def test_a_lock_left_by_a_kernel_that_died_is_broken(answers):
    answers.parent.mkdir(parents=True)
    lock = answers.with_name("lesson12.json.lock")
    lock.write_text("12345\n")
    old = time.time() - 3600
    os.utime(lock, (old, old))
    started = time.monotonic()
    rungs.record_lab(12, 1, True)
    assert time.monotonic() - started < 2
    assert json.loads(answers.read_text())["labs"] == {"1": True}
    assert not lock.exists()


UNIX_ONLY_BLOCKED = """
import os, sys
for name in ("fcntl", "resource", "termios"):
    sys.modules[name] = None          # import fails, as on Windows
del os.fork
from lab.rungs import store
store.put(12, "labs", 1, True)
assert store.load(12)["labs"] == {"1": True}
print("saved")
"""


def test_the_store_works_where_unix_only_modules_do_not_exist(tmp_path):
    done = subprocess.run([sys.executable, "-c", UNIX_ONLY_BLOCKED], cwd=tmp_path,
                          env=dict(os.environ, LAB_RUNGS_DIR=str(tmp_path / "r")),
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "saved\n", "")


def test_the_file_is_named_as_the_lessons_say_and_an_old_name_is_adopted(answers, tmp_path):
    assert rungs.store_path(3).name == "lesson03.json" and answers.name == "lesson12.json"
    folder = tmp_path / ".rungs"
    folder.mkdir(exist_ok=True)
    (folder / "lesson3.json").write_text(json.dumps({"format": 1, "lesson": 3, "rungs": {},
                                                     "hints": {"1": 2}, "labs": {"1": True}}))
    restart()
    assert rungs.store.load(3)["labs"] == {"1": True}
    assert (folder / "lesson03.json").exists() and not (folder / "lesson3.json").exists()
