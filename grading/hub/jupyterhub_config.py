"""JupyterHub for the course: local Unix accounts, one single-user server per account, running as
that account, and nbgrader's exchange on the local file system.

Run it as root from the repository, after `make hub-proxy` (or `make test-hub`) has installed the
proxy:

    .venv/bin/jupyterhub -f grading/hub/jupyterhub_config.py

docs/instructors.md ("A large course on JupyterHub") links this file and says what each setting is
for; tests/hub/test_term.py starts a hub with exactly this file, changing only the environment
variables below (ports, the state folder, the exchange), so the recipe is the tested one.

    COURSE_HUB_IP, COURSE_HUB_PORT   where learners connect (default 127.0.0.1:8000; put TLS in
                                     front of it, or set c.JupyterHub.ssl_cert/ssl_key)
    COURSE_HUB_API_PORT              the hub's own port, behind the proxy (default 8081)
    COURSE_HUB_PROXY_API_PORT        the proxy's control port (default 8001)
    COURSE_HUB_STATE                 the hub's database, cookie secret and proxy pid (/srv/jupyterhub)
    COURSE_HUB_PROXY                 configurable-http-proxy (default: the one `make hub-proxy`
                                     installs in .venv/node)
    COURSE_LEARNERS, COURSE_INSTRUCTORS  the Unix groups that may log in (course-learners,
                                     course-instructors); instructors are the hub's admins
    NBGRADER_EXCHANGE, NBGRADER_COURSE_ID  passed on to every single-user server (see
                                     grading/hub/exchange/nbgrader_config.py)
"""
import errno
import os
import socket
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub defines get_config)

HERE = Path(__file__).resolve().parent
PYTHON_BIN = Path(sys.prefix) / "bin"     # the environment JupyterHub itself runs in


def _fail(sentence):
    """Stop before JupyterHub starts anything, with one sentence instead of a traceback."""
    raise SystemExit(f"jupyterhub_config.py: {sentence}")


def _free_port(name, ip, port):
    """The port, if nothing listens on it yet: JupyterHub alone would start the proxy, then die
    with a traceback half way through, leaving the proxy behind."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind((ip, port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            _fail(f"port {port} on {ip} ({name}) is already in use by another program; stop it "
                  f"or choose another port with {name}=N.")
        raise
    finally:
        probe.close()
    return port


ip = os.environ.get("COURSE_HUB_IP", "127.0.0.1")
c.JupyterHub.ip = ip
c.JupyterHub.port = _free_port("COURSE_HUB_PORT", ip, int(os.environ.get("COURSE_HUB_PORT", "8000")))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = _free_port("COURSE_HUB_API_PORT", "127.0.0.1",
                                   int(os.environ.get("COURSE_HUB_API_PORT", "8081")))
proxy_api_port = _free_port("COURSE_HUB_PROXY_API_PORT", "127.0.0.1",
                            int(os.environ.get("COURSE_HUB_PROXY_API_PORT", "8001")))
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{proxy_api_port}"

# The proxy comes from the npm registry, pinned by grading/hub/package-lock.json.
proxy = Path(os.environ.get("COURSE_HUB_PROXY",
                            Path(sys.prefix) / "node" / "node_modules" / ".bin" / "configurable-http-proxy"))
if not os.access(proxy, os.X_OK):
    _fail(f"the proxy {proxy} is not installed; run `make hub-proxy` (npm ci from "
          f"grading/hub/package-lock.json) or set COURSE_HUB_PROXY to configurable-http-proxy.")
c.ConfigurableHTTPProxy.command = [str(proxy)]
c.ConfigurableHTTPProxy.should_start = True

# Everything the hub keeps between restarts lives in one folder only root can read.
state = Path(os.environ.get("COURSE_HUB_STATE", "/srv/jupyterhub"))
state.mkdir(mode=0o700, parents=True, exist_ok=True)
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(state / "jupyterhub-proxy.pid")

# Local Unix accounts and their passwords (PAM). Only members of the course's two groups get in;
# instructors are the hub's admins. PAM sessions are not opened: containers rarely run the
# session modules (systemd-logind) they would need, and nothing here depends on them.
c.JupyterHub.authenticator_class = "pam"
learners = os.environ.get("COURSE_LEARNERS", "course-learners")
instructors = os.environ.get("COURSE_INSTRUCTORS", "course-instructors")
c.PAMAuthenticator.allowed_groups = {learners, instructors}
c.PAMAuthenticator.admin_groups = {instructors}
c.PAMAuthenticator.open_sessions = False

# Each account's server runs as that account (the hub runs as root and drops to the user), in the
# account's home folder, which must be mode 0700 so that no learner can read another's work.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [str(PYTHON_BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 60
c.Spawner.http_timeout = 60
c.Spawner.environment = {
    # grading/hub/exchange/nbgrader_config.py, unless /etc/jupyter holds the installed copy
    "JUPYTER_CONFIG_PATH": os.environ.get("COURSE_JUPYTER_CONFIG_PATH", str(HERE / "exchange")),
    "NBGRADER_EXCHANGE": os.environ.get("NBGRADER_EXCHANGE", "/srv/nbgrader/exchange"),
    "NBGRADER_COURSE_ID": os.environ.get("NBGRADER_COURSE_ID", "harness-course"),
}


def _no_formgrader_for_learners(spawner):
    """Learners never need the instructors' grading pages; their servers do not load them."""
    if not spawner.user.admin:
        spawner.args = list(spawner.args) + [
            "--ServerApp.jpserver_extensions={'nbgrader.server_extensions.formgrader': False}"]


c.Spawner.pre_spawn_hook = _no_formgrader_for_learners

# Single-user servers stop with the hub: nothing keeps running as a learner after a shutdown.
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
