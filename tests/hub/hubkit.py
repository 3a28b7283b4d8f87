"""What the hub tests need: real Unix accounts, a real JupyterHub started from
grading/hub/jupyterhub_config.py, and HTTP calls to it and to the single-user servers behind it.

Accounts are created with useradd and removed with userdel in every case (a `finally`, and a sweep
at the start for any left by a run that was killed). Their names are this run's own, and their
comment carries MARK and the test's process id, so the sweep never touches an account this test
did not make, nor one of another run still going.

The learners' servers run this checkout's Python: when it sits under a folder other accounts
cannot enter (a clone in /root, say), the test gives that folder o+x for its own duration and puts
the mode back afterwards.
"""

import fcntl
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HUB_DIR = REPO / "grading" / "hub"
CONFIG = HUB_DIR / "jupyterhub_config.py"
EXCHANGE_CONFIG_DIR = HUB_DIR / "exchange"
VENV_BIN = Path(sys.prefix) / "bin"
PROXY = Path(sys.prefix) / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
MARK = "harness-course hub test"      # the comment (GECOS) of every account this test makes
# Names of this run's own: two runs on one machine (two developers' `make test`) never share one.
PREFIX = "hubt" + secrets.token_hex(2)
LEARNERS_GROUP, INSTRUCTORS_GROUP = f"{PREFIX}-learners", f"{PREFIX}-instructors"
COURSE_ID = "harness-course"


def sh(*args, check=True, **kw):
    done = subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))} failed ({done.returncode}): {done.stdout.strip()}")
    return done


def free_ports(count):
    """`count` distinct TCP ports on 127.0.0.1 that nothing uses right now (all held while chosen,
    so two of them are never the same port)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


# -- accounts -----------------------------------------------------------------------------------

def _comment():
    return f"{MARK} (pid {os.getpid()})"


def _ours(name):
    import pwd
    try:
        return pwd.getpwnam(name).pw_gecos.startswith(MARK)
    except KeyError:
        return False


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def sweep():
    """Remove the accounts and groups of runs that were killed before they could: those carrying
    MARK whose test process is gone. A run still going keeps its own."""
    import grp
    import pwd
    for entry in pwd.getpwall():
        found = re.fullmatch(re.escape(MARK) + r" \(pid (\d+)\)", entry.pw_gecos)
        if found and not _alive(int(found.group(1))):
            Account(entry.pw_name, None).remove()
    in_use = {entry.pw_gid for entry in pwd.getpwall()}
    for group in grp.getgrall():
        if re.fullmatch(r"hubt[0-9a-f]{4}-(learners|instructors)", group.gr_name) and \
                not group.gr_mem and group.gr_gid not in in_use:
            sh("groupdel", group.gr_name, check=False)


class Account:
    def __init__(self, name, group):
        self.name, self.group = name, group
        self.password = secrets.token_urlsafe(18)
        self.home = Path("/home") / name
        self.token = None

    def create(self):
        # HOME_MODE 0700: the recipe's rule that no learner can read another's home
        sh("useradd", "--create-home", "--key", "HOME_MODE=0700", "--comment", _comment(),
           "--shell", "/bin/sh", "--gid", self.group, self.name)
        sh("chpasswd", input=f"{self.name}:{self.password}\n")

    def remove(self):
        if _ours(self.name):
            import pwd
            uid = pwd.getpwnam(self.name).pw_uid
            for pid in processes_of(uid):   # a server the hub failed to stop: this account's only
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass
            sh("userdel", "--remove", self.name, check=False)


def processes_of(uid):
    """The ids of the processes running as `uid` (read from /proc)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as status:
                for line in status:
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == uid:
                            pids.append(int(entry))
                        break
        except OSError:
            continue
    return pids


def make_accounts(names):
    """Create the groups and accounts: {role: Account}. Removes what it made if any step fails."""
    made = {}
    # Another run's sweep would take our groups for a dead run's between groupadd and the first
    # useradd (a group with no account yet): sweeping and creating take turns across processes.
    with open(Path(tempfile.gettempdir()) / "harness-course-hub-accounts.lock", "w") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)
        sweep()
        try:
            sh("groupadd", LEARNERS_GROUP)
            sh("groupadd", INSTRUCTORS_GROUP)
            for role, name in names.items():
                account = Account(name,
                                  INSTRUCTORS_GROUP if role == "instructor" else LEARNERS_GROUP)
                account.create()
                made[role] = account
        except BaseException:
            remove_accounts(made)
            raise
    return made


def remove_accounts(accounts):
    for account in accounts.values():
        account.remove()
    for group in (LEARNERS_GROUP, INSTRUCTORS_GROUP):
        sh("groupdel", group, check=False)


# -- letting the accounts run this checkout's Python ----------------------------------------------

def opened_path_for_others(paths):
    """Directories above `paths` that other accounts cannot enter (a checkout or a Python under
    /root, say) get o+x for the length of the test: {dir: old mode}, for `restore_modes`."""
    changed = {}
    for path in paths:
        path = Path(os.path.realpath(path))
        for parent in [path, *path.parents]:
            if not parent.is_dir() or str(parent) in changed:
                continue
            mode = parent.stat().st_mode & 0o7777
            if not mode & 0o001:
                changed[str(parent)] = mode
                os.chmod(parent, mode | 0o001)
    return changed


def restore_modes(changed):
    for path, mode in changed.items():
        try:
            os.chmod(path, mode)
        except OSError:
            pass


# -- running things as an account -----------------------------------------------------------------

def as_user(account, *command, env=None, cwd=None, timeout=300):
    """Run `command` as `account` (runuser), with a clean environment: (returncode, output)."""
    base = {"HOME": str(account.home), "USER": account.name, "LOGNAME": account.name,
            "PATH": f"{VENV_BIN}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    base.update(env or {})
    done = subprocess.run(["runuser", "-u", account.name, "--", "env", "-i",
                           *[f"{k}={v}" for k, v in base.items()], *command],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          cwd=cwd or "/", timeout=timeout)
    return done.returncode, done.stdout


def python_as(account, code, **kw):
    return as_user(account, str(VENV_BIN / "python"), "-c", code, **kw)


# -- the hub --------------------------------------------------------------------------------------

# in the hub's and its proxy's EADDRINUSE, and in jupyterhub_config.py's own port check
PORT_TAKEN = "already in use"


class Hub:
    """A JupyterHub started from grading/hub/jupyterhub_config.py, as root, on free ports."""

    def __init__(self, state, exchange, learners_group=LEARNERS_GROUP, instructors_group=INSTRUCTORS_GROUP,
                 extra_env=None):
        self.state = Path(state)
        self.env = dict(os.environ)
        self.env.update({
            "PATH": f"{VENV_BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "COURSE_HUB_STATE": str(self.state),
            "COURSE_LEARNERS": learners_group, "COURSE_INSTRUCTORS": instructors_group,
            "NBGRADER_EXCHANGE": str(exchange), "NBGRADER_COURSE_ID": COURSE_ID,
        })
        self.env.update(extra_env or {})
        self._choose_ports()
        self.process = None
        self.log = self.state / "jupyterhub.log"

    def _choose_ports(self):
        self.port, api, proxy_api = free_ports(3)
        self.url = f"http://127.0.0.1:{self.port}"
        self.env.update({"COURSE_HUB_PORT": str(self.port), "COURSE_HUB_API_PORT": str(api),
                         "COURSE_HUB_PROXY_API_PORT": str(proxy_api)})

    def command(self):
        return [str(VENV_BIN / "jupyterhub"), "-f", str(CONFIG)]

    def start(self, timeout=60, tries=3):
        for attempt in range(1, tries + 1):
            try:
                return self._start_once(timeout)
            except RuntimeError:
                # a port chosen free was taken before the hub or its proxy bound it (by a
                # client's ephemeral port or a sibling test's server): stop what this attempt
                # started and choose again
                if attempt == tries or PORT_TAKEN not in self.log.read_text():
                    raise
                self._kill_group()
                self._choose_ports()

    def _kill_group(self):
        try:
            os.killpg(self.process.pid, 9)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)

    def _start_once(self, timeout):
        self.state.mkdir(parents=True, exist_ok=True)
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(self.command(), cwd=self.state, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterHub ended at start:\n{self.log.read_text()[-3000:]}")
            try:
                status, _ = request(f"{self.url}/hub/api/", timeout=2)
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"JupyterHub did not answer within {timeout} s:\n{self.log.read_text()[-3000:]}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()       # the hub stops the servers and the proxy it started
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait(timeout=10)

    # API calls
    def login(self, account):
        """Log in on the hub's login page with the account's Unix password, as a browser would (the
        PAM authenticator checks it). Returns the final status; the hub then knows the account."""
        import http.cookiejar
        import urllib.parse
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with opener.open(f"{self.url}/hub/login", timeout=30) as page:
            form = page.read().decode()
        xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', form)
        fields = {"username": account.name, "password": account.password}
        if xsrf:
            fields["_xsrf"] = xsrf.group(1)
        data = urllib.parse.urlencode(fields).encode()
        # no redirect to the user's server: the test starts it through the API
        with opener.open(urllib.request.Request(f"{self.url}/hub/login?next=/hub/home", data=data),
                         timeout=60) as page:
            return page.status, page.geturl()

    def login_token(self, account):
        """A token for `account`, asked for with its Unix password: the PAM authenticator checks it."""
        self.login(account)
        status, body = request(f"{self.url}/hub/api/users/{account.name}/tokens", "POST",
                               {"auth": {"username": account.name, "password": account.password},
                                "note": "hub test", "expires_in": 600})
        if status != 201:
            raise RuntimeError(f"no token for {account.name}: {status} {body}")
        account.token = body["token"]
        return account.token

    def start_server(self, account):
        status, body = request(f"{self.url}/hub/api/users/{account.name}/server", "POST", {}, token=account.token)
        if status not in (201, 202):
            raise RuntimeError(f"the hub did not start {account.name}'s server: {status} {body}")
        return status

    def wait_ready(self, account, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, body = request(f"{self.url}/hub/api/users/{account.name}", token=account.token)
            server = (body or {}).get("servers", {}).get("")
            if server and server.get("ready"):
                return server
            time.sleep(0.2)
        raise RuntimeError(f"{account.name}'s server was not ready within {timeout} s:\n"
                           f"{self.log.read_text()[-3000:]}")

    def user_api(self, account, path, method="GET", body=None, timeout=120):
        """Call `account`'s single-user server through the proxy, with the account's token."""
        return request(f"{self.url}/user/{account.name}/{path.lstrip('/')}", method, body,
                       token=account.token, timeout=timeout)


def request(url, method="GET", body=None, token=None, timeout=30):
    """(status, decoded JSON or text) of one HTTP request; HTTP errors are returned, not raised."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token:
        headers["Authorization"] = f"token {token}"
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    text = raw.decode("utf-8", "replace")
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text


def proxy_installed():
    return os.access(PROXY, os.X_OK)


def which_missing():
    return [tool for tool in ("useradd", "userdel", "groupadd", "groupdel", "chpasswd", "runuser")
            if not shutil.which(tool)]
