# Blitz: `make run` sets up and serves the app on SQLite; `make test` runs every test.
# Both are safe to run again: the virtualenv is rebuilt only when requirements.lock or
# pyproject.toml changes. requirements.lock pins every package at the version CI tested
# (`make lock` writes it again from pyproject.toml's dependencies and its test,postgres extras).

VENV    := .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
PYTHON3 ?= python3
HOST    ?= 127.0.0.1
PORT    ?= 8000

LOCKER  := $(VENV)/lock-tools
# `make lock` upgrades every pin; `make lock LOCK_FLAGS="--upgrade-package django"` only one,
# and `make lock LOCK_FLAGS=` adds a new dependency keeping the other pins.
LOCK_FLAGS ?= --upgrade

.PHONY: setup run test lint unit fast lock chromium axe bench check-data

$(STAMP): requirements.lock pyproject.toml
	@test -x $(PY) || $(PYTHON3) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $(STAMP)

lock:
	@test -x $(LOCKER)/bin/pip-compile || { $(PYTHON3) -m venv $(LOCKER) \
	  && $(LOCKER)/bin/pip install --quiet --disable-pip-version-check pip-tools; }
	$(LOCKER)/bin/pip-compile --quiet $(LOCK_FLAGS) --extra test --extra postgres --strip-extras \
	  --no-emit-index-url --no-emit-find-links --output-file requirements.lock pyproject.toml

setup: $(STAMP)

run: $(STAMP)
	DEBUG=1 $(PY) manage.py migrate --noinput
	@echo ""
	@echo "  Blitz is starting at http://$(HOST):$(PORT)/  (SQLite, debug on; Ctrl+C stops it)"
	@echo ""
	@# An ASGI server (uvicorn, as in production), so the boards' live streams push; it restarts
	@# when a Python file of the app changes (templates and static files need no restart).
	DEBUG=1 $(VENV)/bin/uvicorn blitz_site.asgi:application --host $(HOST) --port $(PORT) --reload \
	  --reload-dir blitz_site --reload-dir armies --reload-dir matches --reload-dir rules

# The whole suite: lint, rules, app and browser tests, with Hypothesis' full profile.
test: $(STAMP) chromium axe lint
	HYPOTHESIS_PROFILE=blitz $(VENV)/bin/pytest

# The rules tests alone: no database, about 9 s of CPU (property tests try a tenth of their
# examples: HYPOTHESIS_PROFILE=dev, see tests/examples.py; `make test` runs them in full).
unit: $(STAMP)
	HYPOTHESIS_PROFILE=dev $(VENV)/bin/pytest tests/rules

# Everything but the fuzz, browser and multi-server tests (marked slow): the loop while working
# (with the inner loop's Hypothesis profile, as `make unit`).
fast: $(STAMP)
	HYPOTHESIS_PROFILE=dev $(VENV)/bin/pytest -m "not slow"

# mypy checks rules/ strictly (pyproject.toml [tool.mypy]).
lint: $(STAMP)
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	@if command -v node >/dev/null 2>&1; then for f in static/js/*.js; do node --check $$f || exit 1; done; \
	  else echo "node is missing: the JavaScript syntax check is skipped"; fi

# Installs Debian's Chromium for the browser tests when it is missing and we can (root + apt).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Chromium for the browser tests (apt-get install -y chromium)..."; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "!!! Could not install Chromium: the browser tests will be SKIPPED. !!!"; \
	  else \
	    echo "!!! Chromium is missing and cannot be installed here (needs root and apt):"; \
	    echo "!!! the browser tests will be SKIPPED. Install it with: apt-get install -y chromium"; \
	  fi; \
	fi

# axe-core (npm) for the browser tests' accessibility checks, at the version package.json pins.
axe: node_modules/axe-core/axe.min.js

node_modules/axe-core/axe.min.js: package.json
	@command -v npm >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	  && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; }
	npm install --no-audit --no-fund --loglevel=error
	@touch $@

bench: $(STAMP)
	$(PY) bench/run.py

check-data: $(STAMP)
	$(PY) -m rules.hgb check
