"""Reading an answers file, for the store (lab/rungs/store.py says what the file holds and what the
store promises): its format number and sections, which entries are valid, and what can still be
salvaged of a file that was cut off or garbled. Nothing here moves, writes or tells anything."""

import json

FORMAT = 1
SECTIONS = ("rungs", "hints", "labs")


def empty():
    """A fresh set of sections, each with no entry."""
    return {section: {} for section in SECTIONS}


def _valid(section, value):
    if section == "rungs":
        return isinstance(value, dict)
    if section == "hints":
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3
    return isinstance(value, bool)


def _normalise(raw):
    """(data, whole): the sections of `raw` with every entry of the right type, and whether
    nothing had to be left out. Keys this version does not know are kept as they are."""
    if not isinstance(raw, dict):
        return empty(), False
    data, whole = dict(raw), True
    for section in SECTIONS:
        entries = raw.get(section, {})
        if not isinstance(entries, dict):
            data[section], whole = {}, False
            continue
        data[section] = {str(k): v for k, v in entries.items() if _valid(section, v)}
        whole = whole and len(data[section]) == len(entries)
    return data, whole


def _salvage(text):
    """The whole entries of a JSON object that was cut off or garbled part way: the longest
    prefix that ends between two entries of a section (or between sections), closed. An entry
    that was cut is left out rather than guessed at."""
    cuts, stack, in_string, escaped = [], [], False, False
    for i, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            stack.append(char)
        elif char in "}]":
            if not stack:
                break
            stack.pop()
            if 1 <= len(stack) <= 2:
                cuts.append((i + 1, "".join(stack)))
        elif char == "," and 1 <= len(stack) <= 2:
            cuts.append((i, "".join(stack)))
    closing = {"{": "}", "[": "]"}
    for cut, open_ in reversed(cuts[-2000:]):
        try:
            data = json.loads(text[:cut] + "".join(closing[c] for c in reversed(open_)))
        except ValueError:
            continue
        if isinstance(data, dict):
            return data
    return {}


def read(file):
    """(status, data): status is "missing", "ok", "damaged", "newer" or "unreadable"; data holds
    the sections (for "damaged", what could be salvaged)."""
    try:
        raw_bytes = file.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return "missing", empty()
    except OSError as error:
        return "unreadable", empty() | {"error": error.strerror or str(error)}
    text = raw_bytes.decode("utf-8", errors="replace")
    try:
        raw = json.loads(raw_bytes.decode("utf-8"))
    except ValueError:
        data, _ = _normalise(_salvage(text))
        return "damaged", data
    version = raw.get("format", 0) if isinstance(raw, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT:
        return "newer", empty() | {"format": version}
    data, whole = _normalise(raw)
    if version is None or isinstance(version, bool) or not isinstance(version, int) or version < 0:
        whole = False
    return ("ok" if whole else "damaged"), data


def count(data):
    """How many entries `data` holds, over every section."""
    return sum(len(data.get(section, {})) for section in SECTIONS)
