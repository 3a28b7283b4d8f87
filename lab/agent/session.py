"""The session on disk: lesson 11's SessionLog in DIR/.agent/session.jsonl, every message
appended as it is finished (persist_to), replayed by --resume; and lesson 12's compaction, tried
before each prompt (maybe_compact, awaited since lesson 15).

Without --resume a session that is already there is not lost: it is renamed
session-YYYYmmdd-HHMMSS.jsonl first. A last line cut off by a killed process (the one way the
log's own appends can leave it invalid) is moved to session.jsonl.torn on resume, so the lines
before it replay and the next append starts on a line of its own.
"""

import datetime
import os

from lab.agent.local import PRIVATE, LocalWorkspace

LOG = f"{PRIVATE}/session.jsonl"

WINDOW = 100_000          # tokens of context assumed; --context-window changes it
RESERVE = 16_000          # compaction starts when the transcript is within this of the window
KEEP_RECENT = 20_000      # tokens of the newest messages kept word for word


def lock(directory):
    """Hold DIR/.agent/lock for as long as this process lives, so that two agents never append
    to one session file at once. The lock's file descriptor, or None where there is no flock
    (Windows). Raises BlockingIOError when another process holds it; the system lets go of it
    when the process ends, however it ends (kill -9 included)."""
    try:
        import fcntl
    except ImportError:
        return None
    folder = os.path.join(os.path.realpath(directory), PRIVATE)
    os.makedirs(folder, exist_ok=True)
    fd = os.open(os.path.join(folder, "lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise BlockingIOError(f"{folder}/lock is held") from None
    return fd


def log_workspace(directory):
    """A workspace over the directory in which the agent's own folder may be written."""
    return LocalWorkspace(directory, private=())


def path_of(directory):
    return os.path.join(os.path.realpath(directory), *LOG.split("/"))


def set_aside(directory):
    """Rename an existing, non-empty session file out of the way; its new name, or None."""
    path = path_of(directory)
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    new = path[:-len(".jsonl")] + f"-{stamp}.jsonl"
    n = 1
    while os.path.exists(new):
        n += 1
        new = path[:-len(".jsonl")] + f"-{stamp}-{n}.jsonl"
    os.rename(path, new)
    return new


def mend_tail(directory):
    """If the session file's last line has no newline at its end (a write cut off), move that
    piece to session.jsonl.torn and cut the file back to its last whole line. The torn file's
    path, or None when there was nothing to mend."""
    path = path_of(directory)
    try:
        with open(path, "rb") as file:
            data = file.read()
    except FileNotFoundError:
        return None
    if not data or data.endswith(b"\n"):
        return None
    keep = data.rfind(b"\n") + 1
    torn = path + ".torn"
    with open(torn, "ab") as out:
        out.write(data[keep:] + b"\n")
    with open(path, "r+b") as file:
        file.truncate(keep)
    return torn
