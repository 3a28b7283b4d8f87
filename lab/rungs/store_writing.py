"""Writing an answers file, for the store (lab/rungs/store.py says what the file holds and what the
store promises): the lock file that keeps two kernels from writing at once, the write that puts a
whole file in place in one step, and moving a damaged file aside. What is written, and when, is
the store's to decide; these raise OSError when the disk refuses, and the store catches it."""

import contextlib
import json
import os
import secrets
import time

from .store_reading import FORMAT

LOCK_WAIT = 5.0       # seconds a save waits for another kernel's lock before breaking it
LOCK_STALE = 10.0     # a lock file older than this was left by a kernel that died mid-save


@contextlib.contextmanager
def locked(file):
    """Hold lesson12.json.lock while the body runs. O_CREAT | O_EXCL makes taking it atomic on
    every platform and file system Python runs on, where fcntl would tie the course to Unix."""
    lock = file.with_name(file.name + ".lock")
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            break
        except FileExistsError:
            if _stale(lock) or time.monotonic() > deadline:
                _break(lock)
                deadline = time.monotonic() + LOCK_WAIT
            else:
                time.sleep(0.002)
    try:
        os.write(fd, f"{os.getpid()}\n".encode())
    finally:
        os.close(fd)
    try:
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(lock)


def _stale(lock):
    try:
        return time.time() - lock.stat().st_mtime > LOCK_STALE
    except FileNotFoundError:
        return False


def _break(lock):
    """Remove a lock its holder left behind. Renamed first, so that of two kernels breaking it at
    once only one succeeds, and neither removes a lock the other has just taken."""
    aside = lock.with_name(f"{lock.name}.broken-{secrets.token_hex(4)}")
    try:
        os.replace(lock, aside)
    except OSError:
        return
    with contextlib.suppress(OSError):
        os.unlink(aside)


def write(file, data, lesson):
    """Write `data` to `file` whole: a temporary file beside it, flushed to disk, then moved
    into place in one step."""
    body = {"format": FORMAT, "lesson": int(lesson)}
    body.update({k: v for k, v in data.items() if k not in ("format", "lesson")})
    text = json.dumps(body, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    temporary = file.with_name(f".{file.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        for attempt in range(50):
            try:
                os.replace(temporary, file)
                break
            except PermissionError:
                # Windows refuses to replace a file another process has open for reading, for an
                # instant; anywhere else this is a real refusal.
                if os.name != "nt" or attempt == 49:
                    raise
                time.sleep(0.01)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def set_aside(file):
    """Move a damaged `file` to file.damaged-N, N the first number free; return the new path."""
    n = 1
    while True:
        aside = file.with_name(f"{file.name}.damaged-{n}")
        if not aside.exists():
            # Under the lock no other writer of ours is choosing a name; os.rename, unlike
            # os.replace, also refuses to overwrite on Windows.
            os.rename(file, aside)
            return aside
        n += 1
