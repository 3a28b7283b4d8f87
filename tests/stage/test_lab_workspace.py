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


# -- lesson 11's accidents: a power cut and a full disk ----------------------------------------

def test_a_power_cut_tears_the_next_append_and_stops_the_process():
    ws = lab.Workspace({"log.jsonl": "one\n"})
    ws.cut_power(after_bytes=3)
    with pytest.raises(lab.PowerCut) as cut:
        ws.append_text("log.jsonl", "second line\n")
    assert str(cut.value) == ("The power went out while writing log.jsonl: 3 of 12 bytes reached "
                              "the disk. ws.reboot() starts a new process over the same disk.")
    assert (cut.value.path, cut.value.landed, cut.value.wanted) == ("log.jsonl", 3, 12)
    with pytest.raises(lab.PowerCut):  # the old process is gone, reads included
        ws.read_text("log.jsonl")
    after = ws.reboot()
    assert after.read_text("log.jsonl") == "one\nsec"
    after.append_text("log.jsonl", "!")  # the new process has its power
    assert after.read_text("log.jsonl") == "one\nsec!"


def test_a_power_cut_during_write_text_leaves_only_the_start_of_the_new_text():
    ws = lab.Workspace({"session.json": '["old", "copy"]'})
    ws.cut_power(after_bytes=4)
    with pytest.raises(lab.PowerCut):
        ws.write_text("session.json", '["new", "longer", "copy"]')
    assert ws.reboot().read_text("session.json") == '["ne'


def test_a_power_cut_is_not_an_exception_that_harness_code_catches():
    ws = lab.Workspace()
    ws.cut_power(after_bytes=0)
    caught = None
    try:
        try:
            ws.write_text("a.txt", "text")
        except Exception as error:  # what a careless harness writes
            caught = error
    except lab.PowerCut:
        pass
    assert caught is None and ws.reboot().read_text("a.txt") == ""


def test_a_power_cut_counts_bytes_and_never_keeps_half_a_character():
    ws = lab.Workspace()
    ws.cut_power(after_bytes=2)  # "é" is two bytes, "ü" two more: the second is cut in half
    with pytest.raises(lab.PowerCut):
        ws.append_text("t.txt", "éü")
    assert ws.reboot().read_text("t.txt") == "é"
    ws = lab.Workspace()
    ws.cut_power(after_bytes=3)
    with pytest.raises(lab.PowerCut):
        ws.append_text("t.txt", "éü")
    assert ws.reboot().read_text("t.txt") == "é"


def test_a_cut_longer_than_the_write_still_stops_the_process_after_it():
    ws = lab.Workspace()
    ws.cut_power(after_bytes=100)
    with pytest.raises(lab.PowerCut):
        ws.append_text("a.txt", "all of it\n")
    assert ws.reboot().read_text("a.txt") == "all of it\n"


def test_the_cut_belongs_to_the_process_that_arranged_it():
    ws = lab.Workspace()
    ws.cut_power(after_bytes=1)
    other = ws.reboot()
    other.append_text("a.txt", "whole\n")  # another process: no cut arranged there
    assert other.read_text("a.txt") == "whole\n"


@pytest.mark.parametrize("bad", [-1, 1.5, "10", True, None])
def test_cut_power_and_fill_disk_refuse_what_is_not_a_byte_count(bad):
    ws = lab.Workspace()
    with pytest.raises(ValueError, match=r"cut_power\(after_bytes=\.\.\.\) takes a whole number"):
        ws.cut_power(after_bytes=bad)
    if bad is not None:
        with pytest.raises(ValueError, match=r"fill_disk\(after_bytes=\.\.\.\) takes a whole number"):
            ws.fill_disk(after_bytes=bad)


def test_a_full_disk_refuses_an_append_whole_and_keeps_what_is_there():
    import errno
    ws = lab.Workspace()
    ws.append_text("log.jsonl", "one\n")
    ws.fill_disk(after_bytes=6)
    ws.append_text("log.jsonl", "two\n")  # 4 of the 6 bytes
    with pytest.raises(OSError) as full:
        ws.append_text("log.jsonl", "three\n")
    assert full.value.errno == errno.ENOSPC
    assert str(full.value) == "[Errno 28] No space left on device: 'log.jsonl'"
    assert ws.read_text("log.jsonl") == "one\ntwo\n"
    ws.append_text("log.jsonl", "4\n")  # the 2 bytes that are left
    assert ws.reboot().read_text("log.jsonl") == "one\ntwo\n4\n"
    with pytest.raises(OSError):  # the room is the disk's, so the new process finds it full too
        ws.reboot().append_text("log.jsonl", "x")


def test_a_full_disk_empties_a_file_that_write_text_was_replacing():
    ws = lab.Workspace({"session.json": "[1, 2]"})
    ws.fill_disk(after_bytes=3)
    ws.write_text("session.json", "[1, 2, 3]")  # 9 bytes in place of 6: 3 more, which fit
    with pytest.raises(OSError):
        ws.write_text("session.json", "[1, 2, 3, 4]")
    assert ws.read_text("session.json") == ""
    ws.write_text("session.json", "[1]")  # the emptied file gave its bytes back
    ws.fill_disk(after_bytes=None)
    ws.append_text("session.json", "x" * 1000)
    assert len(ws.read_text("session.json")) == 1003
