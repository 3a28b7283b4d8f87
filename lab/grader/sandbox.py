"""Where the learner's code runs while it is graded: a worker process that can see almost nothing.

The strongest mode this machine allows is chosen once and reported by `python -m lab.grader
doctor`:

namespaces  Linux namespaces made with util-linux's `unshare`: a new mount namespace whose root is
            a small tmpfs holding read-only binds of /usr and of the Python installation, and
            nothing else (no repository, no course directory, no home, no other worker's files);
            a new network namespace with no interface up; new PID, IPC and UTS namespaces. When
            the grader runs as root the worker then becomes `nobody` with every capability
            dropped; otherwise a user namespace maps the grader's own user, and the capability
            bounding set is emptied. `setpriv --no-new-privs` in both cases.
process     No namespaces could be made (a container without the privilege, a kernel without user
            namespaces). The worker is a plain child process in a fresh temporary directory, and
            the audit hook alone keeps it from the network, from new processes and from the
            protected directories. Audit hooks are not a security boundary against a determined
            attacker with native code; ctypes and the subprocess machinery cannot be imported.

In both modes: a fresh interpreter (`python -I -S -B`, no environment, and of the site-packages
only the virtual environment's, read-only, with the course's own packages hidden in it), resource
limits (address space, CPU seconds, file size, open files, no new processes), a wall-clock limit
enforced by the grader, which kills the whole process group, and the starter harness (every gap a
stub) as its `harness` module: the reference is never in the worker's reach. What the worker is
shown, and the limits it runs under, are in lab/grader/worker_world.py; this module starts it.
"""

import base64
import functools
import marshal
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from lab.grader import wire
# Its functions are called through the module, so that a test can stand in for one of them
# (tests/grading/test_sandbox.py replaces third_party); its constants are taken by name.
from lab.grader import worker_world
from lab.grader.worker_world import (ONE_THREAD, PREFIX, PYTHON, REPO, Limits, cpu_seconds_of,
                                     group_members, queued_seconds_of)

LOADER = r'''
import os, sys
r, w = int(sys.argv[1]), int(sys.argv[2])
low, high = sorted((r, w))
os.closerange(3, low); os.closerange(low + 1, high); os.closerange(high + 1, 65536)
def exact(n):
    b = b""
    while len(b) < n:
        c = os.read(r, n - len(b))
        if not c:
            os._exit(4)
        b += c
    return b
import marshal
code = marshal.loads(exact(int(exact(10))))
g = {"__name__": "grader_wire"}
exec(code, g)
g["worker_main"](r, w)
'''

_mode = None
_lock = threading.Lock()

# The names of lab that the learner's code may use while it is graded (`import lab` in a cell of
# its own): the message builders and the stage's data objects, which read nothing of the
# notebook's and nothing on disk. Each runs in the grader, and the learner's code gets what it
# returns (plain data, or a handle to a Workspace or a ScriptedModel). Never lab.check, the
# reference (lab.use_reference, lab.harness_at) or anything that reads the notebook.
LAB_NAMES = ("call", "reply", "say", "text", "tool_result", "user", "count_tokens", "shape",
             "event_types", "Workspace", "ScriptedModel", "fail", "forever")


def course_exceptions():
    """{name: class} of lab's exception classes: each crosses the wire as itself."""
    import lab
    found = {}
    for name, value in vars(lab).items():   # not dir(lab): that would load what lab loads when asked
        if isinstance(value, type) and issubclass(value, BaseException) and not name.startswith("_"):
            found[name] = value
    return found


wire.COURSE_EXCEPTIONS.update(course_exceptions())


def _builtin_base(cls):
    return next(c.__name__ for c in cls.__mro__ if c.__module__ == "builtins")


def serve_lab(name):
    """The object of lab that LAB_NAMES lets the learner's code have: a class as a function that
    makes one (the grader hands over no class)."""
    import lab
    if name not in LAB_NAMES:
        raise AttributeError(f"lab.{name} is not available while your code is graded")
    value = getattr(lab, name)
    if isinstance(value, type):
        cls = value

        def make(*args, **kwargs):
            return cls(*args, **kwargs)
        make.__name__ = make.__qualname__ = name
        return make
    return value


def _run_to_end(awaitable):
    """Await `awaitable` (a cell's coroutine in the worker) on an event loop of its own, as the
    kernel's loop runs a cell with `await` at its top level. A check may start the worker while
    a loop runs in this thread (an async test), so the loop runs in a thread of its own then;
    the caller waits for it, so the wire still has one user at a time."""
    import asyncio

    async def awaited():
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(awaited())
        return
    outcome = {}

    def run():
        try:
            asyncio.run(awaited())
        except BaseException as error:
            outcome["error"] = error
    thread = threading.Thread(target=run, name="learner-cell")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]


class SandboxError(RuntimeError):
    """The sandbox could not be started at all (not the learner's fault)."""


def _set_parent_death_signal():
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


@functools.cache
def wire_code():
    """lab/grader/wire.py compiled, as marshal bytes: the worker runs the same interpreter, and
    compiling the file in every worker would cost each submission some 20 ms."""
    source = Path(wire.__file__).read_text(encoding="utf-8")
    return marshal.dumps(compile(source, "grader_wire.py", "exec"))


@functools.lru_cache(maxsize=64)
def starter_code(starter):
    """The starter harness compiled, as marshal bytes: compiled here once, not in every worker
    (some 8 ms a worker for a lesson's starter), as wire_code is."""
    try:
        return marshal.dumps(compile(starter, "harness.py", "exec"))
    except SyntaxError as error:
        raise SandboxError(f"the starter harness does not compile (line {error.lineno}: "
                           f"{error.msg}); rebuild it with python -m lab starter") from None


class Worker:
    """One sandboxed interpreter that has loaded the starter harness and answers the grader."""

    def __init__(self, starter, *, mode=None, limits=None, protect=(), start_timeout=15.0, learner_names=(),
                 refusals=None, doors=None):
        self.mode = mode or detect()
        self.limits = limits or Limits()
        compiled = starter_code(starter)
        to_worker_r, to_worker_w = os.pipe()
        from_worker_r, from_worker_w = os.pipe()
        self.tempdir = None
        errlog = tempfile.TemporaryFile()
        try:
            if self.mode == "process":
                self.tempdir = tempfile.mkdtemp(prefix="lab-grader-worker-")
                command = [PYTHON, "-I", "-S", "-B", "-X", "utf8", "-c", LOADER,
                           str(to_worker_r), str(from_worker_w)]
                env, cwd, workdir = {"PATH": "/usr/bin:/bin", **ONE_THREAD}, self.tempdir, self.tempdir
                protect = (list(protect) + worker_world.package_dirs([PREFIX, "/usr"])
                           + [str(REPO), os.path.realpath(sys.prefix), tempfile.gettempdir(), os.path.expanduser("~")]
                           + worker_world.course_in(worker_world.third_party()))
            else:
                command, env, cwd = worker_world.namespace_command(self.mode, LOADER, to_worker_r, from_worker_w)
                cwd, workdir, protect = "/", "/scratch", []
            site = worker_world.shown_packages(self.mode, to_worker_r, from_worker_w)
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errlog,
                pass_fds=(to_worker_r, from_worker_w), env=env, cwd=cwd,
                start_new_session=True, preexec_fn=_set_parent_death_signal)
        finally:
            os.close(to_worker_r)
            os.close(from_worker_w)
        os.set_blocking(to_worker_w, False)
        self.peer = wire.Peer(from_worker_r, to_worker_w, grader=True)
        self._fds = (from_worker_r, to_worker_w)
        self._members = None   # its processes' pids, once it is ready (cpu_seconds)
        self.closed = False
        try:
            self.peer.deadline = time.monotonic() + start_timeout
            code = wire_code()
            self._raw_send(b"%010d" % len(code) + code)
            self.peer.course = serve_lab
            self.peer.send({"starter": base64.b64encode(compiled).decode("ascii"),
                            "limits": self.limits.rlimits(),
                            "course_exceptions": [[n, _builtin_base(c)] for n, c in sorted(wire.COURSE_EXCEPTIONS.items())],
                            "lab_names": list(LAB_NAMES),
                            "protect": protect, "workdir": workdir, "learner_names": list(learner_names),
                            "refusals": refusals or {}, "doors": doors or {},
                            "site": site})
            ready = self.peer.receive()
            if ready.get("k") != "ready":
                raise wire.Gone("the worker did not start")
        except (wire.Abort, wire.WireError) as error:
            self.kill()
            errlog.seek(0)
            detail = errlog.read(2000).decode("utf-8", "replace").strip()
            raise SandboxError(f"the sandboxed worker did not start ({error})"
                               + (f": {detail}" if detail else "")) from None
        finally:
            self.peer.deadline = None
            errlog.close()

    def _raw_send(self, data):
        view = memoryview(data)
        while view:
            left = self.peer.deadline - time.monotonic()
            import select
            if left <= 0 or not select.select([], [self._fds[1]], [], left)[1]:
                raise wire.TimedOut("the worker did not read its set-up")
            try:
                view = view[os.write(self._fds[1], view):]
            except BlockingIOError:
                continue
            except OSError:
                raise wire.Gone("the worker process has ended") from None

    # what the grader asks of it
    def run_cell(self, source, filename, deadline):
        """Run one cell of the learner's code. Returns None, or the exception it raised."""
        self.peer.deadline = deadline
        try:
            pending = self.peer.request("exec", source=source, filename=filename)
            if pending is not None:   # `await` at the cell's top level: its coroutine, run to its end
                _run_to_end(pending)
        except wire.Abort:
            raise
        except Exception as error:
            return error
        return None

    def lookup(self, name):
        """The learner's `name` (dotted names allowed): plain data, or a Remote."""
        return self.peer.request("lookup", name=name)

    def cpu_seconds(self):
        """CPU seconds the worker's processes have used so far (None if that cannot be read).
        They are looked for once, in its own group (start_new_session), after it is ready: from
        then on it can start no process (RLIMIT_NPROC is 0), and a read of each is far cheaper
        than a scan of every process of the machine, which each check cell would make often."""
        return cpu_seconds_of(self._group())

    def queued_seconds(self):
        """Seconds the worker's processes have spent waiting for a CPU (None if that cannot be
        read); see cpu_seconds."""
        return queued_seconds_of(self._group())

    def _group(self):
        if self._members is None:
            self._members = group_members(self.process.pid)
        return self._members

    def exit_status(self):
        code = self.process.poll()
        if code is None:
            return "running"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"

    def kill(self):
        if self.closed:
            return
        self.closed = True
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self._cleanup()

    def close(self):
        """Say goodbye, and make sure the process is gone."""
        if self.closed:
            return
        if self.peer.dead is None:
            try:
                self.peer.deadline = time.monotonic() + 2
                self.peer.send({"k": "q", "n": 0, "op": "bye"})
            except wire.Abort:
                pass
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def _cleanup(self):
        for fd in self._fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = (-1, -1)
        if self.tempdir:
            shutil.rmtree(self.tempdir, ignore_errors=True)
            self.tempdir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


PROBE = "VALUE = 42\n"


def _works(mode):
    try:
        with Worker(PROBE, mode=mode, start_timeout=10) as worker:
            worker.peer.deadline = time.monotonic() + 10
            return worker.lookup("VALUE") == 42
    except (SandboxError, wire.Abort, OSError):
        return False


def detect():
    """The strongest sandbox that works here: "namespaces-root", "namespaces-user" or
    "process". LAB_GRADER_SANDBOX forces one (and fails loudly if it does not work)."""
    global _mode
    with _lock:
        if _mode is not None:
            return _mode
        forced = os.environ.get("LAB_GRADER_SANDBOX")
        candidates = []
        if shutil.which("unshare") and shutil.which("setpriv") and shutil.which("chroot"):
            if os.geteuid() == 0:
                candidates.append("namespaces-root")
            candidates.append("namespaces-user")
        candidates.append("process")
        if forced:
            if forced not in ("namespaces-root", "namespaces-user", "process"):
                raise SandboxError(f"LAB_GRADER_SANDBOX={forced} is not a sandbox mode; use "
                                   "namespaces-root, namespaces-user or process")
            if not _works(forced):
                raise SandboxError(f"LAB_GRADER_SANDBOX={forced} was asked for, but that sandbox "
                                   "does not start on this machine")
            _mode = forced
            return _mode
        for mode in candidates:
            if mode == "process" or _works(mode):
                _mode = mode
                return _mode
    return _mode


DESCRIPTIONS = {
    "namespaces-root": "Linux namespaces (mount, network, PID, IPC, UTS), a private root holding "
                       "only /usr, Python and the course's dependencies read-only, run as nobody with no capabilities",
    "namespaces-user": "Linux namespaces inside a user namespace (mount, network, PID, IPC, UTS), "
                       "a private root holding only /usr, Python and the course's dependencies read-only, "
                       "no capabilities",
    "process": "a plain child process guarded by an audit hook (no namespaces available here): "
               "weaker, see docs/instructors.md",
}
