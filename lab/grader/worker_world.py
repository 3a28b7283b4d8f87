"""The world a sandboxed worker is shown, and what it may use there: the folders it sees read-only
(/usr, the Python installation, the virtual environment's site-packages) and those hidden from it
(every other site-packages, and the course's own packages wherever they are installed), the
script that builds its root in new namespaces, its resource limits, and its CPU time as /proc
tells it. lab/grader/sandbox.py starts the worker in this world.
"""

import glob
import os
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYTHON = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
PREFIX = os.path.realpath(sys.base_prefix)

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
# Every folder and device file at once: each command here is a process started, for every worker.
mkdir -p dev scratch $SANDBOX_MKDIR
touch dev/null dev/zero dev/urandom dev/random
for dir in $SANDBOX_BINDS; do
    mount --bind "$dir" ".$dir"
    mount -o remount,bind,ro ".$dir" 2>/dev/null || mount -o remount,bind,ro,nosuid,nodev ".$dir"
done
for pair in $SANDBOX_LINKS; do ln -s "${pair#*:}" ".${pair%%:*}"; done
for pair in $SANDBOX_EXTRA; do
    fd=${pair%%:*}
    dir=packages/$fd    # not at its own path: nothing of the repository's path shows
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
chmod 1777 scratch
for node in null zero urandom random; do
    mount --bind "/dev/$node" "dev/$node"
done
exec chroot /tmp "$@"
'''

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


def namespace_command(mode, loader, rfd, wfd):
    """(command, environment, cwd) of a namespaced worker running `loader` (python -c), shown /usr, Python and the virtual
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
           "SANDBOX_BINDS": " ".join(binds),
           "SANDBOX_LINKS": " ".join(f"{link}:{os.readlink(link)}" for link in links),
           "SANDBOX_MKDIR": " ".join([f".{d}" for d in binds] + [f"packages/{fd}" for fd, _ in extra]),
           "SANDBOX_EXTRA": " ".join(f"{fd}:{path}" for fd, path in extra),
           "SANDBOX_HIDE": " ".join(d for d in package_dirs(binds) if " " not in d),
           # the course's own packages in the shown site-packages: not even listed
           "SANDBOX_DENY": " ".join(f"/packages/{fd}/{name}" for fd, path in extra
                                    for name in COURSE_PACKAGES if os.path.isdir(os.path.join(path, name)))}
    inner = drop + [PYTHON, "-I", "-S", "-B", "-X", "utf8", "-c", loader, str(rfd), str(wfd)]
    return unshare + ["/bin/sh", "-c", SETUP, "sandbox-setup"] + inner, env, "/scratch"


def shown_packages(mode, rfd, wfd):
    """The worker's own paths of the site-packages it is shown: in namespaces, where SETUP bound
    them (/packages/<descriptor>); in process mode, where they are."""
    if mode == "process":
        return third_party()
    free = [n for n in range(3, 10) if n not in (rfd, wfd)]
    return [f"/packages/{fd}" for fd, _ in zip(free, [d for d in third_party() if " " not in d and ":" not in d])]


class Limits:
    """What one worker may use."""

    def __init__(self, memory_mb=1024, cpu_seconds=120, file_mb=8, open_files=64):
        self.memory_mb, self.cpu_seconds = memory_mb, cpu_seconds
        self.file_mb, self.open_files = file_mb, open_files

    def rlimits(self):
        return {"RLIMIT_AS": self.memory_mb << 20, "RLIMIT_CPU": self.cpu_seconds,
                "RLIMIT_FSIZE": self.file_mb << 20, "RLIMIT_NOFILE": self.open_files,
                "RLIMIT_NPROC": 0, "RLIMIT_CORE": 0}


def _stat_fields(pid):
    """The fields of /proc/PID/stat after the command name (which is in parentheses and may hold
    anything), or None if it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rpartition(b")")[2].split()
    except OSError:
        return None   # gone meanwhile, or not ours to read


def group_members(pgid):
    """The pids of the live processes of process group `pgid`, read from /proc; None where /proc
    cannot tell (not Linux)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    found = []
    for name in names:
        fields = _stat_fields(name) if name.isdigit() else None
        if fields is not None and len(fields) > 12 and int(fields[2]) == pgid:
            found.append(int(name))
    return found


def cpu_seconds_of(pids):
    """CPU seconds (user and system) used so far by the processes `pids` that still run; None
    where /proc cannot tell."""
    if pids is None:
        return None
    ticks, total = os.sysconf("SC_CLK_TCK"), 0
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is not None and len(fields) > 12:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def queued_seconds_of(pids):
    """Seconds every thread of the processes `pids` has spent ready to run but waiting for a CPU
    (the second field of Linux's /proc/PID/task/TID/schedstat, in nanoseconds); None where the
    kernel does not keep it. What a busy machine costs a cell, not what the cell did."""
    if pids is None:
        return None
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            if not os.path.exists("/proc/self/task"):
                return None
            continue   # gone meanwhile
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as stat:
                    total += int(stat.read().split()[1])
            except FileNotFoundError:
                if not os.path.exists("/proc/self/schedstat"):
                    return None   # a kernel without schedstat
            except (OSError, ValueError, IndexError):
                continue
    return total / 1e9
