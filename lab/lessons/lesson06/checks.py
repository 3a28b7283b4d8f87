"""The lab tests of lesson 06, "The firehose": truncate_head and truncate_tail, the budget of one
tool result.

The visible tests are the plan's list, plus one for each wrong idea a question of the lesson
argues against: weighing characters instead of UTF-8 bytes, cutting inside a line or inside a
character, keeping part of a line that is too big, keeping the head of command output, a limit
off by one, and counting bytes (or every line) where the lines shown are asked for. The hidden
ones hold the contract's edge cases: empty text, a text exactly at both limits, limits of 0 and 1,
a character that straddles the byte limit, a last line with no newline, "\\r\\n" line endings, and
a huge line in the middle of a file.

The read and bash tools are the given ones of lesson 6 (the reference's), built here so that they
call the learner's functions: they write the notices, the learner's code decides the cut.
"""

import types

import harness
import harness.tools
import lab
from lab.checks import expect, Failed, test


def _clip(value, n=90):
    """`value`'s repr on one line, cut to `n` characters with its length said."""
    text = repr(value)
    return text if len(text) <= n else text[:n] + f"... ({len(text)} characters)"


def _args(max_lines, max_bytes):
    said = [f"max_lines={max_lines}"] if max_lines is not None else []
    said += [f"max_bytes={max_bytes}"] if max_bytes is not None else []
    return ", ".join(said)


def cut(ns, name, text, max_lines=None, max_bytes=None):
    """What the learner's `name` (truncate_head or truncate_tail) returns for `text`, checked to
    be a (str, int) pair; Failed, naming the function, if it raised or returned something else."""
    function = getattr(ns, name)
    kwargs = {k: v for k, v in (("max_lines", max_lines), ("max_bytes", max_bytes)) if v is not None}
    where = f"{name}({_clip(text, 40)}{', ' if kwargs else ''}{_args(max_lines, max_bytes)})"
    try:
        value = function(text, **kwargs)
    except NotImplementedError:
        raise  # a stub is "not done yet", never a verdict
    except Exception as error:  # judged here, in a sentence that names the function
        raise Failed(f"{where} raised {type(error).__name__}: {str(error)[:120]}; it should "
                     "return (kept, lines_shown) and raise nothing") from None
    ok = (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str)
          and isinstance(value[1], int) and not isinstance(value[1], bool))
    expect(ok, f"{where} returned {_clip(value)}; it should return a pair (kept, lines_shown): "
               "the text kept and how many lines it holds")
    return value


def same(ns, name, text, want, why, max_lines=None, max_bytes=None):
    """The learner's `name` must give exactly `want` for `text`; `why` ends the sentence."""
    got = cut(ns, name, text, max_lines, max_bytes)
    if got == want:
        return
    limits = _args(max_lines, max_bytes)
    where = f"{name}({_clip(text, 40)}{', ' + limits if limits else ''})"
    if "\ufffd" in got[0]:
        raise Failed(f"{where} returned {_clip(got)}, with a broken character (U+FFFD) in it: it "
                     f"cut inside a UTF-8 sequence; it should return {_clip(want)}, {why}")
    raise Failed(f"{where} returned {_clip(got)}; it should return {_clip(want)}, {why}")


def with_cuts(factory, ns):
    """The given tool factory (make_read_tool or make_bash_tool), remade so that the tool it builds
    calls the learner's truncate_head and truncate_tail: the same code, other globals."""
    scope = dict(vars(harness.tools), truncate_head=ns.truncate_head, truncate_tail=ns.truncate_tail)
    return types.FunctionType(factory.__code__, scope, factory.__name__, factory.__defaults__)


def run(tool, arguments, name):
    """What `tool` returns for `arguments`; Failed, naming `name`, if it raised."""
    try:
        return tool["execute"](arguments)
    except NotImplementedError:
        raise
    except Exception as error:  # judged here, in a sentence that names the function
        raise Failed(f"with your {name}, the {tool['name']} tool raised {type(error).__name__} "
                     f"for {arguments}: {str(error)[:160]}") from None


LINES3 = "alpha\nbeta\ngamma\n"
GREEK = "αβγ\n" * 10        # each line 4 characters and 7 bytes
PYTEST = ("============ test session starts ============\n"
          "collected 10 items\n"
          + "".join(f"test_app.py::test_{n} {'FAILED' if n in (2, 5, 7) else 'PASSED'}\n"
                    for n in range(1, 8))
          + "============ 3 failed, 7 passed in 0.42s ============\n")


def numbered(n, width=5):
    """`n` short lines, "line 00001\\n" and so on, each 11 bytes."""
    return "".join(f"line {i:0{width}d}\n" for i in range(1, n + 1))


# -- visible ----------------------------------------------------------------------------------

@test(6, 1, "Whole lines, newlines kept, and the line limit exact: truncate_head(\"alpha\\nbeta\\n"
            "gamma\\n\", max_lines=2) is (\"alpha\\nbeta\\n\", 2), truncate_tail is (\"beta\\ngamma\\n\", "
            "2), and max_lines=3 keeps all three.")
def whole_lines_and_line_limit(ns):
    same(ns, "truncate_head", LINES3, ("alpha\nbeta\n", 2),
         "the first two lines, each with its newline, and the count 2", max_lines=2)
    same(ns, "truncate_head", LINES3, (LINES3, 3), "all three lines: 3 lines fit a limit of 3",
         max_lines=3)
    same(ns, "truncate_tail", LINES3, ("beta\ngamma\n", 2),
         "the last two lines, in the order they were printed, and the count 2", max_lines=2)
    same(ns, "truncate_tail", LINES3, (LINES3, 3), "all three lines: 3 lines fit a limit of 3",
         max_lines=3)


@test(6, 1, "The budget is in UTF-8 bytes, not characters: ten lines of \"αβγ\\n\" (4 characters, 7 "
            "bytes each) under max_bytes=20 keep 2 lines, from the top for truncate_head and from the "
            "end for truncate_tail.")
def bytes_not_characters(ns):
    for name in ("truncate_head", "truncate_tail"):
        got = cut(ns, name, GREEK, max_bytes=20)
        if got == ("αβγ\n" * 5, 5):
            raise Failed(f"{name}(ten lines of 'αβγ\\n', max_bytes=20) kept 5 lines, 35 bytes: it "
                         "counted characters (4 a line) instead of UTF-8 bytes (7 a line); it should "
                         "keep 2 lines, 14 bytes")
        expect(got == ("αβγ\n" * 2, 2),
               f"{name}(ten lines of 'αβγ\\n', max_bytes=20) returned {_clip(got)}; at 7 bytes a "
               "line, 2 lines (14 bytes) fit and a third (21) does not: ('αβγ\\nαβγ\\n', 2)")


@test(6, 1, "The byte limit is exact and counts each line's newline: four lines of \"abcd\\n\" (20 "
            "bytes) are kept whole under max_bytes=20, and lose one line under max_bytes=19.")
def byte_limit_exact(ns):
    text = "abcd\n" * 4
    same(ns, "truncate_head", text, (text, 4), "all of it: 20 bytes fit a budget of 20",
         max_bytes=20)
    same(ns, "truncate_tail", text, (text, 4), "all of it: 20 bytes fit a budget of 20",
         max_bytes=20)
    same(ns, "truncate_head", text, ("abcd\n" * 3, 3),
         "three lines: each line's newline is one of its 5 bytes, so 4 lines are 20 and only 3 fit",
         max_bytes=19)
    same(ns, "truncate_tail", text, ("abcd\n" * 3, 3),
         "three lines: each line's newline is one of its 5 bytes, so 4 lines are 20 and only 3 fit",
         max_bytes=19)


@test(6, 1, "A cut never falls inside a line or inside a character: where the budget ends in the "
            "middle of \"für Größe\\n\", what is kept is whole lines of the original text.")
def never_inside_a_line(ns):
    text = "# config\n" + "name = für Größe und Maß\n" * 3 + "end\n"
    lines = text.splitlines(keepends=True)
    # 47 bytes end inside "ü" of the third line from the top, and inside "ö" of the second from
    # the end: a cut made on the bytes alone splits a character either way.
    for name, budget, want in (("truncate_head", 47, ("".join(lines[:2]), 2)),
                               ("truncate_tail", 47, ("".join(lines[-2:]), 2))):
        got = cut(ns, name, text, max_bytes=budget)
        kept = got[0]
        if "\ufffd" in kept:
            raise Failed(f"{name} cut a German config file at {budget} bytes and returned "
                         f"{_clip(kept)}: a character was split in two (U+FFFD); cut between lines")
        if kept and not kept.endswith("\n") and kept in text:
            raise Failed(f"{name} cut a config file at {budget} bytes and returned {_clip(kept)}, "
                         "which stops in the middle of a line; keep whole lines only")
        expect(got == want, f"{name} cut a config file at {budget} bytes and returned {_clip(got)}; "
                            f"it should keep the whole lines that fit: {_clip(want)}")


@test(6, 1, "A first line over max_bytes gives (\"\", 0): truncate_head on a 300 KB line followed by "
            "short ones, and truncate_tail on short lines followed by a 300 KB last line.")
def first_line_too_big(ns):
    huge = "x" * 300_000
    for name, text in (("truncate_head", huge + "\nshort\n"), ("truncate_tail", "short\n" + huge)):
        got = cut(ns, name, text, max_bytes=50_000)
        if got == ("", 0):
            continue
        if got[0] == "short\n":
            raise Failed(f"{name} left out the 300 KB line and kept the short one beyond it, "
                         f"{_clip(got)}: the result then claims to be where the text starts (or "
                         "ends), and it is not; the answer is ('', 0)")
        if got[0] and got[0] in huge:
            raise Failed(f"{name} returned part of a 300 KB line, {len(got[0].encode())} bytes of "
                         f"it and the count {got[1]}: half a line reads as if it were whole; the "
                         "answer is ('', 0)")
        raise Failed(f"{name} returned {_clip(got)} for a text whose {'first' if name.endswith('head') else 'last'} "
                     "line alone is over max_bytes; the answer is ('', 0)")


@test(6, 1, "truncate_tail keeps the end of pytest's output, where the verdict is: with max_lines=3, "
            "the last three lines in order, ending \"3 failed, 7 passed\".")
def tail_keeps_the_verdict(ns):
    lines = PYTEST.splitlines(keepends=True)
    got = cut(ns, "truncate_tail", PYTEST, max_lines=3)
    if "3 failed" not in got[0]:
        raise Failed(f"truncate_tail kept {_clip(got[0], 70)} of pytest's output and lost the "
                     "verdict '3 failed, 7 passed', printed last; command output is cut from the "
                     "top and its end is kept")
    expect(got == ("".join(lines[-3:]), 3),
           f"truncate_tail(pytest's output, max_lines=3) returned {_clip(got)}; it should be the last "
           f"three lines in the order pytest printed them, and 3: {_clip(''.join(lines[-3:]))}")


@test(6, 1, "read on a file of 3,000 short lines returns lines 1-2000 ending \"[Showing lines 1-2000 "
            "of 3000. Use offset=2001 to continue.]\", and offset=2001 returns the rest with no notice.")
def read_notice_and_offset(ns):
    text = numbered(3000)
    lines = text.splitlines(keepends=True)
    read = with_cuts(harness.tools.make_read_tool, ns)(lab.Workspace({"app.log": text}))
    first = run(read, {"path": "app.log"}, "truncate_head")
    notice = "[Showing lines 1-2000 of 3000. Use offset=2001 to continue.]"
    if not first.endswith(notice):
        tail = first[-80:]
        raise Failed(f"with your truncate_head, reading a 3,000-line file ends {tail!r}; it should end "
                     f"{notice!r}, and the tool writes that from truncate_head's count of the lines "
                     "it kept (2000)")
    expect(first == "".join(lines[:2000]) + notice,
           "with your truncate_head, reading a 3,000-line file does not give lines 1-2000 whole, "
           "then the notice")
    rest = run(read, {"path": "app.log", "offset": 2001}, "truncate_head")
    expect(rest == "".join(lines[2000:]),
           f"with your truncate_head, read with offset=2001 returned {_clip(rest[-60:])} at its end; "
           "it should return lines 2001-3000 and no notice")


@test(6, 1, "read of bundle.min.js, one line of 300 KB, returns the over-budget notice and no piece "
            "of the line.")
def read_one_huge_line(ns):
    bundle = "var a=1;" * 37_500   # 300,000 bytes, and no newline
    read = with_cuts(harness.tools.make_read_tool, ns)(lab.Workspace({"bundle.min.js": bundle}))
    got = run(read, {"path": "bundle.min.js"}, "truncate_head")
    want = ("[Line 1 of bundle.min.js is 300000 bytes, over the 50000-byte budget of one read, so "
            "none of it is shown.]")
    if "var a=1;" in got:
        raise Failed(f"with your truncate_head, reading bundle.min.js (one 300 KB line) returned "
                     f"{len(got.encode())} bytes with part of the line in them; truncate_head must "
                     "give ('', 0) so that the tool says the line is over budget")
    expect(got == want, f"with your truncate_head, reading bundle.min.js returned {_clip(got)}; it "
                        f"should return {want!r}")


@test(6, 1, "bash with 5,000 lines of output and exit code 1 returns the last 2,000, the notice "
            "\"[Showing the last 2000 of 5000 lines. Narrow the command for more.]\" and \"Command "
            "exited with code 1\".")
def bash_tail_and_notice(ns):
    output = numbered(4999) + "FAILED: 1 of 4999 checks\n"
    lines = output.splitlines(keepends=True)
    shell = lab.Shell({"make check": (output, 1)})
    bash = with_cuts(harness.tools.make_bash_tool, ns)(shell)
    got = run(bash, {"command": "make check"}, "truncate_tail")
    want = ("".join(lines[-2000:]) + "\n[Showing the last 2000 of 5000 lines. Narrow the command "
            "for more.]\nCommand exited with code 1")
    if "FAILED: 1 of 4999 checks" not in got:
        raise Failed("with your truncate_tail, the bash tool's result for 5,000 lines of output lost "
                     "the last line, 'FAILED: 1 of 4999 checks': the verdict must be kept")
    expect(got == want,
           f"with your truncate_tail, the bash tool's result for 5,000 lines ends {got[-110:]!r} and "
           f"starts {got[:22]!r}; it should be lines 3001-5000, then the notice 'Showing the last "
           "2000 of 5000 lines', then 'Command exited with code 1'")


# -- hidden -----------------------------------------------------------------------------------

@test(6, 1, "Empty text: both functions give (\"\", 0); read of an empty file gives \"\" and bash "
            "with no output and exit 0 gives \"\".", hidden=True)
def empty(ns):
    same(ns, "truncate_head", "", ("", 0), "nothing kept, no line")
    same(ns, "truncate_tail", "", ("", 0), "nothing kept, no line")
    read = with_cuts(harness.tools.make_read_tool, ns)(lab.Workspace({"empty.txt": ""}))
    got = run(read, {"path": "empty.txt"}, "truncate_head")
    expect(got == "", f"with your truncate_head, reading an empty file returned {_clip(got)}, not ''")
    bash = with_cuts(harness.tools.make_bash_tool, ns)(lab.Shell({"true": ""}))
    got = run(bash, {"command": "true"}, "truncate_tail")
    expect(got == "", f"with your truncate_tail, a command that printed nothing gave {_clip(got)}, not ''")


@test(6, 1, "A text exactly at both limits is kept whole, and the tools add no notice: 2,000 lines "
            "and exactly 50,000 bytes through read and bash.", hidden=True)
def exactly_at_both_limits(ns):
    text = "".join(f"{i:024d}\n" for i in range(2000))   # 2,000 lines of 25 bytes: 50,000
    same(ns, "truncate_head", text, (text, 2000), "all of it: it is exactly the budget")
    same(ns, "truncate_tail", text, (text, 2000), "all of it: it is exactly the budget")
    read = with_cuts(harness.tools.make_read_tool, ns)(lab.Workspace({"exact.txt": text}))
    got = run(read, {"path": "exact.txt"}, "truncate_head")
    expect(got == text, f"with your truncate_head, reading a file exactly at the budget returned "
                        f"{len(got)} characters ending {got[-70:]!r}; it should return the file, no notice")
    bash = with_cuts(harness.tools.make_bash_tool, ns)(lab.Shell({"cat exact.txt": text}))
    got = run(bash, {"command": "cat exact.txt"}, "truncate_tail")
    expect(got == text, f"with your truncate_tail, output exactly at the budget came back ending "
                        f"{got[-70:]!r}; it should come back whole, with no notice")


@test(6, 1, "Limits of 0 and 1: max_lines=0 or max_bytes=0 keeps nothing; max_lines=1 keeps one "
            "line; max_bytes=1 keeps a line that is only a newline.", hidden=True)
def limits_zero_and_one(ns):
    for name in ("truncate_head", "truncate_tail"):
        same(ns, name, LINES3, ("", 0), "nothing: a budget of 0 lines", max_lines=0)
        same(ns, name, LINES3, ("", 0), "nothing: a budget of 0 bytes", max_bytes=0)
    same(ns, "truncate_head", LINES3, ("alpha\n", 1), "the first line", max_lines=1)
    same(ns, "truncate_tail", LINES3, ("gamma\n", 1), "the last line", max_lines=1)
    same(ns, "truncate_head", "\nab\n", ("\n", 1), "the empty first line, one byte", max_bytes=1)
    same(ns, "truncate_tail", "ab\n\n", ("\n", 1), "the empty last line, one byte", max_bytes=1)
    same(ns, "truncate_head", "ab\n", ("", 0), "nothing: 'ab\\n' is 3 bytes", max_bytes=1)


@test(6, 1, "A multi-byte character straddling the byte limit: the line that holds it is left out "
            "whole (\"é\" is 2 bytes, \"🙂\" 4).", hidden=True)
def character_straddles_limit(ns):
    same(ns, "truncate_head", "ab\nxé\n", ("ab\n", 1),
         "the first line: the limit falls inside 'é'", max_bytes=5)
    same(ns, "truncate_tail", "xé\nab\n", ("ab\n", 1),
         "the last line: the limit falls inside 'é'", max_bytes=5)
    same(ns, "truncate_tail", "ab\nxé\n", ("xé\n", 1), "'xé\\n', exactly 4 bytes", max_bytes=4)
    same(ns, "truncate_head", "🙂\nok\n", ("", 0), "nothing: the first line is 5 bytes", max_bytes=3)
    same(ns, "truncate_tail", "ok\n🙂🙂\n", ("", 0), "nothing: the last line is 9 bytes", max_bytes=8)


@test(6, 1, "A last line with no newline is a line: truncate_head(\"a\\nb\", ...) keeps \"a\\nb\" as "
            "2 lines, truncate_tail(..., max_lines=1) keeps \"b\".", hidden=True)
def no_trailing_newline(ns):
    same(ns, "truncate_head", "a\nb", ("a\nb", 2), "both lines, the last with no newline", max_lines=5)
    same(ns, "truncate_tail", "a\nb", ("b", 1), "the last line, as it is", max_lines=1)
    same(ns, "truncate_head", "ab\ncd", ("ab\ncd", 2), "all 5 bytes", max_bytes=5)
    same(ns, "truncate_tail", "ab\ncde", ("cde", 1), "the last line: all 6 bytes do not fit",
         max_bytes=5)


@test(6, 1, "\"\\r\\n\" line endings are kept as they were and weighed with the line: \"ab\\r\\n\" is "
            "one line of 4 bytes.", hidden=True)
def crlf(ns):
    text = "ab\r\n" * 3
    same(ns, "truncate_head", text, ("ab\r\nab\r\n", 2), "two lines with their \\r\\n", max_lines=2)
    same(ns, "truncate_tail", text, ("ab\r\nab\r\n", 2), "two lines with their \\r\\n", max_bytes=11)
    same(ns, "truncate_head", text, ("ab\r\nab\r\n", 2), "two lines: 3 are 12 bytes", max_bytes=11)


@test(6, 1, "A huge line in the middle: truncate_head keeps the lines above it, truncate_tail the "
            "lines below, and read says how to skip it.", hidden=True)
def huge_line_in_the_middle(ns):
    text = "one\ntwo\n" + "z" * 80_000 + "\nfour\n"
    same(ns, "truncate_head", text, ("one\ntwo\n", 2), "the two lines above the huge one")
    same(ns, "truncate_tail", text, ("four\n", 1), "the line below the huge one")
    read = with_cuts(harness.tools.make_read_tool, ns)(lab.Workspace({"mixed.txt": text}))
    got = run(read, {"path": "mixed.txt", "offset": 3}, "truncate_head")
    want = ("[Line 3 of mixed.txt is 80001 bytes, over the 50000-byte budget of one read, so none "
            "of it is shown. Use offset=4 to skip it.]")
    expect(got == want, f"with your truncate_head, read of mixed.txt at offset=3 returned "
                        f"{_clip(got)}; it should return {want!r}")
    got = run(read, {"path": "mixed.txt"}, "truncate_head")
    expect(got == "one\ntwo\n[Showing lines 1-2 of 4. Use offset=3 to continue.]",
           f"with your truncate_head, read of mixed.txt returned {_clip(got)}")


@test(6, 1, "Called with the text alone, both use the budget MAX_LINES and MAX_BYTES: 2,500 short "
            "lines keep 2,000.", hidden=True)
def default_budget(ns):
    text = numbered(2500)
    lines = text.splitlines(keepends=True)
    same(ns, "truncate_head", text, ("".join(lines[:2000]), 2000), "the first MAX_LINES lines")
    same(ns, "truncate_tail", text, ("".join(lines[-2000:]), 2000), "the last MAX_LINES lines")
