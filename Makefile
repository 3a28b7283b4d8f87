# The two commands of the README: `make lab` starts the course, `make test` runs every test.
# Both run start.py, which builds .venv from pyproject.toml pinned by constraints.txt whenever
# either changed; a learner without make runs `python start.py` and gets the same thing.
#
# PYTHON is the newest Python 3.11 or later on PATH, in pyenv or behind the py launcher
# (scripts/find-python says which it took); `make lab PYTHON=/path/to/python3.12` chooses another. ARGS go to JupyterLab, or to pytest.

PYTHON ?=
ARGS   ?=
LESSON ?=
PY     := .venv/bin/python
# An empty PYTHON means "ask scripts/find-python", which explains itself and exits 2 if none fits.
FIND   := py="$(PYTHON)"; [ -n "$$py" ] || py=$$(sh scripts/find-python) || exit 2;

.PHONY: lab author test venv clean hub-proxy test-hub

# The learner's copy: mywork/ (lab/learner/mywork.py adds new lessons, never overwrites).
lab:
	@$(FIND) "$$py" start.py $(ARGS)

# The master notebooks, solutions in: for authors and instructors only.
author:
	@$(FIND) "$$py" start.py --author $(ARGS)

venv:
	@$(FIND) "$$py" start.py --install-only

# JupyterHub's proxy, for tests/hub and the hub recipe (docs/instructors.md): from the npm registry,
# every version pinned by grading/hub/package-lock.json, into .venv/node.
HUB_PROXY := .venv/node/node_modules/.bin/configurable-http-proxy

$(HUB_PROXY): grading/hub/package.json grading/hub/package-lock.json
	@command -v npm >/dev/null || { echo "make: npm not found; install Node.js 20 or later and npm (Debian: apt-get install nodejs npm)"; exit 2; }
	mkdir -p .venv/node
	cp grading/hub/package.json grading/hub/package-lock.json .venv/node/
	npm ci --prefix .venv/node --no-audit --no-fund --loglevel=error
	touch $(HUB_PROXY)

hub-proxy: venv $(HUB_PROXY)

# One process more than the cores (pytest-xdist; tests/conftest.py says why, and keeps each shared
# set-up in one process). LESSON=05 runs exactly lesson 05's tests (each carries "lesson05" in its id).
# Bytecode caches are written even where PYTHONDONTWRITEBYTECODE is set: the suite starts some
# hundreds of Pythons (kernels, command lines, servers), and each would compile lab and harness
# again, about 0.1 CPU-second apiece.
test: venv hub-proxy
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -n auto --dist loadgroup --no-loadscope-reorder $(if $(LESSON),-k lesson$(LESSON)) $(ARGS)

# The term on a real JupyterHub alone (tests/hub; it is part of `make test` too). Needs root.
test-hub: venv hub-proxy
	$(PY) -m pytest -q tests/hub $(ARGS)

# mywork/ is the learner's own work: no target ever removes it.
clean:
	rm -rf .venv .venv-*
