"""Start the course: python start.py   (on Windows: py start.py)

What `make lab` runs, and all it needs is Python 3.11 or newer: no make, nothing installed first.
It uses only the standard library, because it runs before anything else is installed.

    python start.py                 build .venv if needed, add any new lesson to mywork/, and
                                    open JupyterLab on mywork/, your own copy of the lessons
    python start.py --author        open JupyterLab on notebooks/, the master copies with the
                                    solutions in (for authors and instructors; `make author`)
    python start.py --install-only  build or refresh .venv, then stop (`make venv`, `make test`)
    python start.py --print-command print the JupyterLab command it would run, install nothing
    python start.py --no-browser    any other argument goes to `jupyter lab` as it is (or put
                                    them after `--`: python start.py --author -- --help-all)

.venv is (re)built when it is missing or when pyproject.toml, constraints.txt or
jupyter/overrides.json changed since the last install; an existing .venv is kept, whichever
Python made it.
"""

import os
import shlex
import subprocess
import sys

MINIMUM = (3, 11)
ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
STAMP = os.path.join(VENV, ".installed")
INPUTS = ("pyproject.toml", "constraints.txt", os.path.join("jupyter", "overrides.json"))
OWN_OPTIONS = ("--author", "--install-only", "--print-command")
# Saves keep a rung's text when its widget model is gone (lab/learner/jupyter_hooks.py says why).
HOOKS = "--ContentsManager.pre_save_hook=lab.learner.jupyter_hooks.keep_widget_text"
# Loaded besides the extensions the environment enables (a dict given here is merged with theirs).
FRONT_DOOR = "--ServerApp.jpserver_extensions=lab.learner.frontdoor=True"


class Failed(Exception):
    """A step could not be done; the message is one sentence saying what to do."""


def venv_program(name):
    """The path, relative to the repository, of `name` inside .venv on this platform."""
    if os.name == "nt":
        return os.path.join(".venv", "Scripts", name + ".exe")
    return os.path.join(".venv", "bin", name)


def stale():
    """True when .venv must be (re)installed: no stamp, or an input newer than it."""
    if not os.path.isfile(STAMP) or not os.path.isfile(os.path.join(ROOT, venv_program("python"))):
        return True
    built = os.path.getmtime(STAMP)
    return any(os.path.getmtime(os.path.join(ROOT, name)) > built for name in INPUTS)


def run(command, what, echo=True):
    """Run `command` from the repository's root; Failed naming `what` if it fails."""
    if echo:
        print("+ " + " ".join(command), flush=True)
    try:
        code = subprocess.call(command, cwd=ROOT)
    except OSError as exc:
        raise Failed(f"could not {what}: {exc}") from None
    if code != 0:
        raise Failed(f"could not {what}: `{' '.join(command)}` exited with code {code}, and "
                     "its output above says why.")


def install():
    """Make .venv and install the course into it, pinned by constraints.txt, if it is stale."""
    if not stale():
        return
    python = os.path.join(ROOT, venv_program("python"))
    if not os.path.isfile(python):
        run([sys.executable, "-m", "venv", ".venv"], "create .venv with the venv module "
            "(on Debian and Ubuntu, install the python3-venv package)")
    run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "-c", "constraints.txt", "-e", "."], "install the course into .venv")
    # JupyterLab reads settings overrides from the environment's share/jupyter/lab/settings.
    settings = os.path.join(VENV, "share", "jupyter", "lab", "settings")
    os.makedirs(settings, exist_ok=True)
    with open(os.path.join(ROOT, "jupyter", "overrides.json"), "rb") as source:
        data = source.read()
    with open(os.path.join(settings, "overrides.json"), "wb") as target:
        target.write(data)
    with open(STAMP, "a"):
        pass
    os.utime(STAMP)   # opening an empty file does not always change its time


def lab_command(author, extra):
    """The JupyterLab command, relative to the repository's root, where it is run."""
    command = [venv_program("jupyter"), "lab",
               "--notebook-dir=" + ("notebooks" if author else "mywork")]
    if not author:
        # The learner lands on the course's start page (lab/learner/startpage.py) from the printed
        # address and from `/` (JupyterLab's own default_url wins over the server's, so it is
        # LabApp's that is set), and from `/lab` (lab/learner/frontdoor.py).
        command.append("--LabApp.default_url=/lab/tree/START.md")
        command.append(FRONT_DOOR)
    # JupyterLab refuses to start as root unless told; containers and CI machines often are root.
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    return command + [HOOKS] + list(extra)


def start(command):
    """Hand over to JupyterLab and return its exit status."""
    os.chdir(ROOT)
    if os.name == "posix":
        # Replacing this process lets Ctrl-C and a terminal's hang-up reach JupyterLab alone.
        os.execv(command[0], command)
    process = subprocess.Popen(command)
    while True:
        try:
            return process.wait()
        except KeyboardInterrupt:
            # Windows sends Ctrl-C to JupyterLab too, which asks whether to stop: wait for it.
            continue


def main(argv):
    if sys.version_info[:2] < MINIMUM:
        print(f"start.py: this is Python {sys.version_info[0]}.{sys.version_info[1]}; the course "
              "needs Python 3.11 or newer (3.11, 3.12 and 3.13 are tested): run it with one of those.",
              file=sys.stderr)
        return 2
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if "--" in argv:
        at = argv.index("--")
        own, extra = argv[:at], argv[at + 1:]
    else:
        own, extra = [], []
        for arg in argv:
            (own if arg in OWN_OPTIONS else extra).append(arg)
    unknown = [a for a in own if a not in OWN_OPTIONS]
    if unknown:
        print(f"start.py: {unknown[0]} is not an option of start.py (it has "
              f"{', '.join(OWN_OPTIONS)}); JupyterLab's own options go after `--`.", file=sys.stderr)
        return 2
    author = "--author" in own
    command = lab_command(author, extra)
    if "--print-command" in own:
        print(shlex.join(command))
        return 0
    try:
        install()
        if "--install-only" in own:
            return 0
        if not author:
            run([os.path.join(ROOT, venv_program("python")), "-m", "lab.learner.mywork"],
                "bring mywork/ up to date", echo=False)
    except Failed as error:
        print(f"start.py: {error}", file=sys.stderr)
        return 1
    return start(command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
