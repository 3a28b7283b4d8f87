"""Wrong answers to lesson 06's gaps, truncate_head and truncate_tail. Each is a design one of the
lesson's questions argues against, and its docstring names that question (its id in RUNGS). A
visible lab test must catch every one, in a sentence that names the function at fault
(tests/lessons/test_checks.py).

The notebook's question cells run several of them, so that the learner watches the argument
happen on the same code the tests reject."""


def _lines(text):
    return text.splitlines(keepends=True)


def _take(lines, max_lines, max_bytes, weight=lambda line: len(line.encode()),
          full=lambda taken, max_lines: len(taken) == max_lines, over=lambda total, cap: total > cap):
    """The lines taken from the front of `lines` until one does not fit, with the three judgements
    a wrong answer gets wrong passed in: what a line weighs, when the count is full, and when the
    total is over. With the defaults, it is the right walk."""
    taken, total = [], 0
    for line in lines:
        total = total + weight(line)
        if full(taken, max_lines) or over(total, max_bytes):
            return taken
        taken.append(line)
    return taken


def _after_taking(taken, max_lines):
    return len(taken) > max_lines   # one line too many gets through


def _at_or_over(total, cap):
    return total >= cap             # the cap itself counts as over


# -- truncate_head ----------------------------------------------------------------------------

def head_counts_characters(text, max_lines=2000, max_bytes=50_000):
    """Weighs each line with len(), in characters: simpler, and right for English
    (bytes-or-characters)."""
    taken = _take(_lines(text), max_lines, max_bytes, weight=len)
    return "".join(taken), len(taken)


def head_slices_the_bytes(text, max_lines=2000, max_bytes=50_000):
    """Takes the first max_bytes bytes as they come and decodes them, replacing what will not
    decode: a cut in the middle of a line, and of a character (first-line)."""
    lines = _lines(text)[:max_lines]
    kept = "".join(lines).encode()[:max_bytes].decode("utf-8", errors="replace")
    return kept, len(_lines(kept))


def head_part_of_a_line(text, max_lines=2000, max_bytes=50_000):
    """Whole lines while they fit, then as much of the next line as fits, cut on a character
    boundary: something beats nothing (first-line)."""
    whole = _take(_lines(text), max_lines, max_bytes)
    rest = _lines(text)[len(whole):]
    room = max_bytes - len("".join(whole).encode())
    if rest and len(whole) < max_lines and room > 0:
        whole.append(rest[0].encode()[:room].decode("utf-8", errors="ignore"))
    return "".join(whole), len(whole)


def head_skips_what_does_not_fit(text, max_lines=2000, max_bytes=50_000):
    """Leaves out a line that is too big and keeps going, to fill the budget with every line that
    fits (first-line: what the kept text claims to be)."""
    chosen, used = [], 0
    for line in _lines(text):
        size = len(line.encode())
        if len(chosen) < max_lines and used + size <= max_bytes:
            chosen.append(line)
            used += size
    return "".join(chosen), len(chosen)


def head_one_line_too_many(text, max_lines=2000, max_bytes=50_000):
    """Checks the line count after taking a line instead of before: max_lines + 1 lines
    (exactly-at-the-limit)."""
    taken = _take(_lines(text), max_lines, max_bytes, full=_after_taking)
    return "".join(taken), len(taken)


def head_refuses_the_last_byte(text, max_lines=2000, max_bytes=50_000):
    """Treats the byte budget as a bound never to reach: a result of exactly max_bytes loses its
    last line (exactly-at-the-limit)."""
    taken = _take(_lines(text), max_lines, max_bytes, over=_at_or_over)
    return "".join(taken), len(taken)


def head_counts_bytes_not_lines(text, max_lines=2000, max_bytes=50_000):
    """Returns the size of what it kept, in bytes, as the second value: the budget is bytes, so
    report bytes (what-the-count-is-for)."""
    kept = "".join(_take(_lines(text), max_lines, max_bytes))
    return kept, len(kept.encode())


def head_counts_every_line(text, max_lines=2000, max_bytes=50_000):
    """Returns how many lines the text had, not how many it kept: the caller wants to know how
    big the file is (what-the-count-is-for, must-say)."""
    return "".join(_take(_lines(text), max_lines, max_bytes)), len(_lines(text))


def head_drops_line_endings(text, max_lines=2000, max_bytes=50_000):
    """Splits with splitlines() and joins with "\\n": the line endings are not part of a line's
    text, so they cost nothing (bytes-or-characters)."""
    taken = _take(text.splitlines(), max_lines, max_bytes)
    return "\n".join(taken), len(taken)


# -- truncate_tail ----------------------------------------------------------------------------

def _from_the_end(text, max_lines, max_bytes, **judgements):
    """The right walk, or a wrong one, from the last line back, in the text's order."""
    return _take(_lines(text)[::-1], max_lines, max_bytes, **judgements)[::-1]


def tail_keeps_the_head(text, max_lines=2000, max_bytes=50_000):
    """Cuts command output as it cuts files, from the top: one rule for every tool
    (head-or-tail)."""
    taken = _take(_lines(text), max_lines, max_bytes)
    return "".join(taken), len(taken)


def tail_backwards(text, max_lines=2000, max_bytes=50_000):
    """Walks from the end and returns the lines in the order it met them, the newest first
    (head-or-tail)."""
    taken = _take(_lines(text)[::-1], max_lines, max_bytes)
    return "".join(taken), len(taken)


def tail_both_ends(text, max_lines=2000, max_bytes=50_000):
    """Half the budget for the first lines and half for the last, with "..." between them: the
    start and the verdict both (head-or-tail)."""
    lines = _lines(text)
    first = _take(lines, max_lines // 2, max_bytes // 2)
    last = _take(lines[len(first):][::-1], max_lines - max_lines // 2, max_bytes // 2)[::-1]
    if len(first) + len(last) == len(lines):
        return text, len(lines)
    return "".join(first) + "...\n" + "".join(last), len(first) + len(last)


def tail_counts_characters(text, max_lines=2000, max_bytes=50_000):
    """Weighs each line with len(), in characters (bytes-or-characters)."""
    taken = _from_the_end(text, max_lines, max_bytes, weight=len)
    return "".join(taken), len(taken)


def tail_slices_the_bytes(text, max_lines=2000, max_bytes=50_000):
    """Takes the last max_bytes bytes as they come and decodes them, replacing what will not
    decode: a cut in the middle of a line, and of a character (first-line)."""
    lines = _lines(text)[-max_lines:] if max_lines else []
    data = "".join(lines).encode()
    kept = data[max(len(data) - max_bytes, 0):].decode("utf-8", errors="replace")
    return kept, len(_lines(kept))


def tail_one_line_too_many(text, max_lines=2000, max_bytes=50_000):
    """Checks the line count after taking a line: max_lines + 1 lines (exactly-at-the-limit)."""
    taken = _from_the_end(text, max_lines, max_bytes, full=_after_taking)
    return "".join(taken), len(taken)


def tail_counts_bytes_not_lines(text, max_lines=2000, max_bytes=50_000):
    """Returns the size of what it kept, in bytes (what-the-count-is-for)."""
    kept = "".join(_from_the_end(text, max_lines, max_bytes))
    return kept, len(kept.encode())


def tail_part_of_a_line(text, max_lines=2000, max_bytes=50_000):
    """Whole lines from the end while they fit, then the end of the line before them, cut on a
    character boundary: something beats nothing (first-line)."""
    whole = _from_the_end(text, max_lines, max_bytes)
    rest = _lines(text)[:len(_lines(text)) - len(whole)]
    room = max_bytes - len("".join(whole).encode())
    if rest and len(whole) < max_lines and room > 0:
        data = rest[-1].encode()
        whole.insert(0, data[len(data) - room:].decode("utf-8", errors="ignore"))
    return "".join(whole), len(whole)


# -- misreadings no question names, and shortcuts ---------------------------------------------

def head_newlines_cost_nothing(text, max_lines=2000, max_bytes=50_000):
    """Keeps each line's newline but weighs the line without it, so a budget met exactly by
    whole lines lets one line too many through."""
    taken = _take(_lines(text), max_lines, max_bytes, weight=lambda line: len(line.rstrip("\r\n").encode()))
    return "".join(taken), len(taken)


def head_stops_only_on_lines(text, max_lines=2000, max_bytes=50_000):
    """Reads the byte budget as a cap on one line, not on the whole result: every line under
    max_bytes is kept, up to max_lines of them."""
    taken = []
    for line in _lines(text)[:max_lines]:
        if len(line.encode()) > max_bytes:
            break
        taken.append(line)
    return "".join(taken), len(taken)


def tail_skips_what_does_not_fit(text, max_lines=2000, max_bytes=50_000):
    """From the end, leaves out a line that is too big and keeps going, so the lines kept were
    never next to each other in the output (first-line)."""
    chosen, used = [], 0
    for line in reversed(_lines(text)):
        size = len(line.encode())
        if len(chosen) < max_lines and used + size <= max_bytes:
            chosen.insert(0, line)
            used += size
    return "".join(chosen), len(chosen)


def head_adds_the_last_newline(text, max_lines=2000, max_bytes=50_000):
    """Gives a last line that had no newline one, so every kept line ends alike. Caught by a
    hidden test: a last line with no newline is kept as it is."""
    kept, shown = "".join(_take(_lines(text), max_lines, max_bytes)), 0
    shown = len(_lines(kept))
    return (kept + "\n" if kept and not kept.endswith("\n") else kept), shown


def head_own_default_budget(text, max_lines=1000, max_bytes=50_000):
    """Picks a budget of its own for a call that gives none, 1,000 lines. Caught by a hidden test:
    the defaults are MAX_LINES and MAX_BYTES."""
    taken = _take(_lines(text), max_lines, max_bytes)
    return "".join(taken), len(taken)


WRONG = {1: {
    "truncate_head": [
        head_counts_characters,
        head_slices_the_bytes,
        head_part_of_a_line,
        head_skips_what_does_not_fit,
        head_one_line_too_many,
        head_refuses_the_last_byte,
        head_counts_bytes_not_lines,
        head_counts_every_line,
        head_drops_line_endings,
        head_newlines_cost_nothing,
        head_stops_only_on_lines,
    ],
    "truncate_tail": [
        tail_keeps_the_head,
        tail_backwards,
        tail_both_ends,
        tail_counts_characters,
        tail_slices_the_bytes,
        tail_one_line_too_many,
        tail_counts_bytes_not_lines,
        tail_part_of_a_line,
        tail_skips_what_does_not_fit,
    ],
}}

# Wrong answers that only a hidden test catches: clauses no question of the lesson argues about
# (tests/lessons/lesson06 shows each caught, in a sentence naming the function).
HIDDEN_WRONG = {1: {"truncate_head": [head_adds_the_last_newline, head_own_default_budget]}}
