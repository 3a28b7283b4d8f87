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
stub) as its `harness` module: the reference is never in the worker's reach.
"""

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

REPO = Path(__file__).resolve().parents[2]
PYTHON = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
PREFIX = os.path.realpath(sys.base_prefix)

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
source = exact(int(exact(10))).decode("utf-8")
g = {"__name__": "grader_wire"}
exec(compile(source, "grader_wire.py", "exec"), g)
g["worker_main"](r, w)
'''

# Run inside the new namespaces, as (namespace) root, before the learner's code exists.
SETUP = r'''
set -e
# The extra folders (the virtual environment's site-packages) may live under /tmp, which the new
# root is about to cover: each is held open first, on a descriptor the grader chose free
# ("descriptor:path"), and bound from it once /tmp is covered. (A descriptor opened before
# unshare would belong to the old mount namespace, which a bind mount refuses.)
for pair in $SANDBOX_EXTRA; do eval "exec ${pair%%:*}<\"\${pair#*:}\""; done
mount -t tmpfs -o "size=${SANDBOX_MB}m,mode=755" sandbox /tmp
cd /tmp
for dir in $SANDBOX_BINDS; do
    mkdir -p ".$dir"
    mount --bind "$dir" ".$dir"
    mount -o remount,bind,ro ".$dir" 2>/dev/null || mount -o remount,bind,ro,nosuid,nodev ".$dir"
done
for link in $SANDBOX_LINKS; do ln -s "$(readlink "$link")" ".$link"; done
for pair in $SANDBOX_EXTRA; do
    fd=${pair%%:*}
    dir=packages/$fd    # not at its own path: nothing of the repository's path shows
    mkdir -p "$dir"
    mount -c --bind "/proc/self/fd/$fd" "$dir"
    mount -c -o remount,bind,ro "$dir" 2>/dev/null || mount -c -o remount,bind,ro,nosuid,nodev "$dir"
    eval "exec $fd<&-"
done
for dir in $SANDBOX_HIDE; do
    mount -t tmpfs -o "size=4k,mode=555,ro" hidden ".$dir"
done
for dir in $SANDBOX_DENY; do
    mount -t tmpfs -o "size=4k,mode=000,ro" denied ".$dir"
done
mkdir -p dev scratch
chmod 1777 scratch
for node in null zero urandom random; do
    touch "dev/$node"
    mount --bind "/dev/$node" "dev/$node"
done
exec chroot /tmp "$@"
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
    for name in dir(lab):
        value = getattr(lab, name)
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


class SandboxError(RuntimeError):
    """The sandbox could not be started at all (not the learner's fault)."""


def _binds_and_links():
    binds, links = ["/usr"], []
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            links.append(top)
        elif os.path.isdir(top):
            binds.append(top)
    if not PREFIX.startswith("/usr/"):
        binds.append(PREFIX)
    return binds, links


PACKAGE_DIRS = ("lib/python3*/site-packages", "lib/python3*/dist-packages", "lib/python3/dist-packages",
                "lib64/python3*/site-packages", "local/lib/python3*/site-packages",
                "local/lib/python3*/dist-packages")


def package_dirs(tops=None):
    """Every site-packages and dist-packages folder under /usr and the Python installation: where
    `pip install` puts the course, and with it the reference harness, when a machine installs it
    the way a learner's image does. The worker runs with no site-packages, so it loses nothing
    when these are hidden (namespaces) or refused (process mode)."""
    import glob
    if tops is None:
        tops = _binds_and_links()[0]
    found = set()
    for top in tops:
        for pattern in PACKAGE_DIRS:
            found.update(os.path.realpath(p) for p in glob.glob(os.path.join(top, pattern)) if os.path.isdir(p))
    return sorted(found)


# The course's own packages, never importable while the learner's code is graded, wherever
# they are installed: the worker's `harness` is the starter, and lab is served by the grader.
COURSE_PACKAGES = ("harness", "lab", "lab_check")


# Numerical libraries start a pool of threads when imported; the worker may start no new
# process or thread of the system's (RLIMIT_NPROC), so they are told to use the one they have.
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def third_party():
    """The virtual environment's site-packages folders: what the course installs (numpy,
    matplotlib, ...), which honest code imports as it does in the notebook. Shown to the worker
    read-only, with the course's own packages in them hidden (COURSE_PACKAGES). Outside a
    virtual environment, [] (the system's site-packages may hold the course itself, and stay
    hidden whole)."""
    import site
    if os.path.realpath(sys.prefix) == PREFIX:
        return []
    found = []
    for folder in site.getsitepackages():
        real = os.path.realpath(folder)
        if os.path.isdir(real) and real.startswith(os.path.realpath(sys.prefix) + "/") and real not in found:
            found.append(real)
    return found


def course_in(folders):
    """The course's packages found inside `folders`: the paths to hide there."""
    return [os.path.join(f, name) for f in folders for name in COURSE_PACKAGES
            if os.path.isdir(os.path.join(f, name))]


def _namespace_command(mode, rfd, wfd):
    """(command, environment, cwd) of a namespaced worker, shown /usr, Python and the virtual
    environment's site-packages read-only."""
    binds, links = _binds_and_links()
    free = [n for n in range(3, 10) if n not in (rfd, wfd)]   # one digit: any sh can redirect it
    extra = list(zip(free, [d for d in third_party() if " " not in d and ":" not in d]))
    setpriv = shutil.which("setpriv")
    if mode == "namespaces-root":
        unshare = ["unshare", "--mount", "--net", "--pid", "--ipc", "--uts", "--fork",
                   "--kill-child=SIGKILL", "--propagation", "private"]
        drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    else:
        unshare = ["unshare", "--user", "--map-root-user", "--mount", "--net", "--pid", "--ipc",
                   "--uts", "--fork", "--kill-child=SIGKILL", "--propagation", "private"]
        drop = [setpriv, "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "SANDBOX_MB": "24", **ONE_THREAD,
           "SANDBOX_BINDS": " ".join(binds), "SANDBOX_LINKS": " ".join(links),
           "SANDBOX_EXTRA": " ".join(f"{fd}:{path}" for fd, path in extra),
           "SANDBOX_HIDE": " ".join(d for d in package_dirs(binds) if " " not in d),
           # the course's own packages in the shown site-packages: not even listed
           "SANDBOX_DENY": " ".join(f"/packages/{fd}/{name}" for fd, path in extra
                                    for name in COURSE_PACKAGES if os.path.isdir(os.path.join(path, name)))}
    inner = drop + [PYTHON, "-I", "-S", "-B", "-X", "utf8", "-c", LOADER, str(rfd), str(wfd)]
    return unshare + ["/bin/sh", "-c", SETUP, "sandbox-setup"] + inner, env, "/scratch"


def shown_packages(mode, rfd, wfd):
    """The worker's own paths of the site-packages it is shown: in namespaces, where SETUP bound
    them (/packages/<descriptor>); in process mode, where they are."""
    if mode == "process":
        return third_party()
    free = [n for n in range(3, 10) if n not in (rfd, wfd)]
    return [f"/packages/{fd}" for fd, _ in zip(free, [d for d in third_party() if " " not in d and ":" not in d])]


def _set_parent_death_signal():
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


class Limits:
    """What one worker may use."""

    def __init__(self, memory_mb=1024, cpu_seconds=120, file_mb=8, open_files=64):
        self.memory_mb, self.cpu_seconds = memory_mb, cpu_seconds
        self.file_mb, self.open_files = file_mb, open_files

    def rlimits(self):
        return {"RLIMIT_AS": self.memory_mb << 20, "RLIMIT_CPU": self.cpu_seconds,
                "RLIMIT_FSIZE": self.file_mb << 20, "RLIMIT_NOFILE": self.open_files,
                "RLIMIT_NPROC": 0, "RLIMIT_CORE": 0}


def group_cpu_seconds(pgid):
    """CPU seconds (user and system) used so far by the live processes of process group `pgid`,
    read from /proc; None where /proc cannot tell (not Linux)."""
    ticks, total = os.sysconf("SC_CLK_TCK"), 0
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                # The command name is in parentheses and may hold anything: split after it.
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            continue  # gone meanwhile, or not ours to read
        if len(fields) > 12 and int(fields[2]) == pgid:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


class Worker:
    """One sandboxed interpreter that has loaded the starter harness and answers the grader."""

    def __init__(self, starter, *, mode=None, limits=None, protect=(), start_timeout=15.0, learner_names=()):
        self.mode = mode or detect()
        self.limits = limits or Limits()
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
                protect = list(protect) + package_dirs([PREFIX, "/usr"]) + [str(REPO), os.path.realpath(sys.prefix),
                                           tempfile.gettempdir(), os.path.expanduser("~")] + course_in(third_party())
            else:
                command, env, cwd = _namespace_command(self.mode, to_worker_r, from_worker_w)
                cwd, workdir, protect = "/", "/scratch", []
            site = shown_packages(self.mode, to_worker_r, from_worker_w)
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
        self.closed = False
        try:
            self.peer.deadline = time.monotonic() + start_timeout
            source = Path(wire.__file__).read_bytes()
            self._raw_send(b"%010d" % len(source) + source)
            self.peer.course = serve_lab
            self.peer.send({"starter": starter, "limits": self.limits.rlimits(),
                            "course_exceptions": [[n, _builtin_base(c)] for n, c in sorted(wire.COURSE_EXCEPTIONS.items())],
                            "lab_names": list(LAB_NAMES),
                            "protect": protect, "workdir": workdir, "learner_names": list(learner_names),
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
            self.peer.request("exec", source=source, filename=filename)
        except wire.Abort:
            raise
        except Exception as error:
            return error
        return None

    def lookup(self, name):
        """The learner's `name` (dotted names allowed): plain data, or a Remote."""
        return self.peer.request("lookup", name=name)

    def cpu_seconds(self):
        """CPU seconds the worker's processes have used so far (None if that cannot be read)."""
        return group_cpu_seconds(self.process.pid)  # its own group: start_new_session

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
