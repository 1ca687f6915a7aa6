# Every target sets itself up: a fresh clone needs only python3 (3.11+).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
RUNTIME := $(VENV)/.runtime
# Quiet installs: no pip progress, and no setuptools banner from the editable build.
PIP    := PYTHONWARNINGS=ignore $(BIN)/pip --quiet --quiet

.PHONY: setup demo test test-fast lint bench scale chaos corpus docs docs-build clean

setup: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

# The tool alone: what `make demo` needs.
$(RUNTIME): pyproject.toml | $(BIN)/python
	$(PIP) install -e .
	touch $(RUNTIME)

# The tool and the development tools (tests, lint).
$(STAMP): pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[dev]'
	touch $(RUNTIME) $(STAMP)

demo: $(RUNTIME)
	$(BIN)/importer forms add sample_data/orders.form.toml
	$(BIN)/importer submit sample_data/orders.xlsx; \
	  code=$$?; [ $$code -eq 0 ] || [ $$code -eq 3 ]

test: setup
	$(BIN)/pytest

# The edit-and-check loop: everything but the tests marked slow (crashes, chaos, big files).
test-fast: setup
	$(BIN)/pytest -m "not slow"

lint: setup
	$(BIN)/ruff check importer tests bench sample_data
	$(BIN)/ruff format --check importer tests bench sample_data
	$(BIN)/mypy

bench: setup $(VENV)/.bench
	@command -v soffice >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libreoffice-calc-nogui >/dev/null; } \
	  || echo "bench: LibreOffice is not installed (libreoffice-calc-nogui): its case is skipped"
	@# An installed tool starts from bytecode (pip compiles it); an editable one where Python
	@# may not write it (PYTHONDONTWRITEBYTECODE) would compile every module at each start.
	$(BIN)/python -m compileall -q importer
	$(BIN)/python -m bench

$(VENV)/.bench: pyproject.toml | $(STAMP)
	$(PIP) install -e '.[dev,bench]'
	touch $(VENV)/.bench

# A database of ten million jobs and a hundred million rows against an empty one (tens of GB,
# ~10 minutes on 2 cores), then 32 workers x 4 on 8 test hosts (root: network namespaces;
# ~15 minutes). SCALE_FLAGS=--small FLEET_FLAGS=--quick: a few minutes.
scale: setup
	$(BIN)/python -m bench.scale $(SCALE_FLAGS)
	$(BIN)/python -m bench.scale_fleet $(FLEET_FLAGS)

chaos: setup
	$(BIN)/python -m tests.chaos

# Every real-world spreadsheet of tests/corpus through forms infer -> forms add -> submit.
corpus: setup
	$(BIN)/python -m tests.corpus

# The documentation site: served at http://127.0.0.1:8000 while you edit docs/, or built
# (strictly: a broken link or a page outside the navigation fails) into site/, a folder
# anyone can open (site/index.html).
docs: $(VENV)/.docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

docs-build: $(VENV)/.docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

$(VENV)/.docs: pyproject.toml | $(STAMP)
	$(PIP) install -e '.[dev,docs]'
	touch $(VENV)/.docs

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist site *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
