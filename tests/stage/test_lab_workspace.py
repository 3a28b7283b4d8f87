"""lab.Workspace: an in-memory disk with a record of what was read."""

import pytest

import lab


def test_starts_from_a_copy_of_the_files_it_is_given():
    files = {"a.py": "A = 1\n"}
    ws = lab.Workspace(files)
    ws.write_text("a.py", "A = 2\n")
    assert files == {"a.py": "A = 1\n"}
    assert ws.read_text("a.py") == "A = 2\n"


def test_write_append_and_read_back():
    ws = lab.Workspace()
    ws.write_text("log.txt", "one\n")
    ws.append_text("log.txt", "two\n")
    ws.append_text("new.txt", "created\n")
    assert ws.read_text("log.txt") == "one\ntwo\n"
    assert ws.read_text("new.txt") == "created\n"


def test_reads_counts_each_successful_read_in_order():
    ws = lab.Workspace({"a.py": "", "b.py": ""})
    ws.read_text("b.py")
    ws.read_text("./a.py")
    ws.read_text("b.py")
    with pytest.raises(FileNotFoundError):
        ws.read_text("missing.py")
    ws.exists("a.py")
    ws.listdir()
    assert ws.reads == ["b.py", "a.py", "b.py"]


def test_a_missing_file_is_named_in_one_sentence():
    ws = lab.Workspace()
    with pytest.raises(FileNotFoundError) as error:
        ws.read_text("config.py")
    assert str(error.value) == "Cannot read config.py: there is no such file in the workspace."


def test_exists_knows_files_and_directories():
    ws = lab.Workspace({"src/app.py": "", "README.md": ""})
    assert ws.exists("README.md") and ws.exists("src") and ws.exists("src/app.py")
    assert ws.exists(".")
    assert not ws.exists("app.py") and not ws.exists("sr")


def test_listdir_is_sorted_and_one_level_deep():
    ws = lab.Workspace({"b.txt": "", "a.txt": "", "src/x.py": "", "src/deep/y.py": ""})
    assert ws.listdir() == ["a.txt", "b.txt", "src"]
    assert ws.listdir(".") == ["a.txt", "b.txt", "src"]
    assert ws.listdir("src") == ["deep", "x.py"]
    assert lab.Workspace().listdir() == []


def test_listdir_refuses_files_and_missing_directories():
    ws = lab.Workspace({"a.txt": ""})
    with pytest.raises(NotADirectoryError):
        ws.listdir("a.txt")
    with pytest.raises(FileNotFoundError):
        ws.listdir("nowhere")


def test_directories_cannot_be_read_or_written_as_files():
    ws = lab.Workspace({"src/app.py": ""})
    with pytest.raises(IsADirectoryError):
        ws.read_text("src")
    with pytest.raises(IsADirectoryError):
        ws.write_text("src", "x")
    with pytest.raises(NotADirectoryError):
        ws.write_text("src/app.py/inner", "x")


def test_bad_arguments_are_refused():
    ws = lab.Workspace()
    with pytest.raises(TypeError):
        ws.write_text("a.py", b"bytes")
    with pytest.raises(TypeError):
        ws.read_text(3)
    with pytest.raises(ValueError):
        ws.write_text("", "x")
    with pytest.raises(TypeError):
        lab.Workspace({"a.py": 1})


def test_reboot_sees_the_disk_but_not_the_memory():
    ws = lab.Workspace({"a.py": "A = 1\n"})
    ws.read_text("a.py")
    ws.write_text("b.py", "B = 2\n")
    fresh = ws.reboot()
    assert fresh.reads == []
    assert fresh.listdir() == ["a.py", "b.py"]
    assert fresh.read_text("b.py") == "B = 2\n"
    assert ws.reads == ["a.py"]
    fresh.append_text("b.py", "C = 3\n")  # one disk: the old process sees the new write
    assert ws.read_text("b.py") == "B = 2\nC = 3\n"


def test_repr_has_no_address():
    assert repr(lab.Workspace({"a": ""})) == "Workspace(1 files)"


def test_files_cannot_be_created_outside_the_workspace():
    ws = lab.Workspace()
    for path in ("/etc/passwd", "../up.txt", "."):
        with pytest.raises(ValueError, match="relative"):
            ws.write_text(path, "x")
    with pytest.raises(ValueError):
        lab.Workspace({"/abs.py": ""})
    assert not ws.exists("/etc/passwd")
    with pytest.raises(FileNotFoundError):
        ws.read_text("/etc/passwd")
