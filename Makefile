# The two commands of the README: `make lab` starts the course, `make test` runs every test.
# Both build .venv first, from pyproject.toml pinned by constraints.txt, whenever either changed.

PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
ARGS   ?=

.PHONY: lab test venv clean

$(STAMP): pyproject.toml constraints.txt jupyter/overrides.json
	@command -v $(PYTHON) >/dev/null || { echo "make: $(PYTHON) not found; install Python 3.11 or run make PYTHON=/path/to/python3.11"; exit 2; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e .
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp jupyter/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	touch $(STAMP)

venv: $(STAMP)

# JupyterLab refuses to start as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)
# Saves keep a rung's text when its widget model is gone (lab/jupyter_hooks.py says why).
HOOKS := --ContentsManager.pre_save_hook=lab.jupyter_hooks.keep_widget_text

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks $(ROOT_FLAG) $(HOOKS) $(ARGS)

test: $(STAMP)
	$(PY) -m pytest -q $(ARGS)

clean:
	rm -rf $(VENV)
