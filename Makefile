# recollect-graph: the two promises are `make demo` and `make test`; each sets itself up.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup neo4j-build test test-unit test-integration lint demo bench stop status clean

setup: $(STAMP) neo4j-build

# The virtual environment and every Python package (torch comes from pip's cache after the
# first install on a machine).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	@touch $(STAMP)

# The embedded Neo4j: built once per machine with Maven into the user's cache directory.
neo4j-build: $(STAMP)
	$(BIN)/recollect-graph neo4j build

test: setup
	$(BIN)/pytest

test-unit: setup
	$(BIN)/pytest tests/unit

test-integration: setup
	$(BIN)/pytest tests/integration

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The main job on real data: start (or attach to) the embedded Neo4j, apply the schema, load this
# project's own docs and git history as linked entries, and search them with score breakdowns.
demo: setup
	$(BIN)/recollect-graph neo4j start
	$(BIN)/recollect-graph init
	$(BIN)/recollect-graph doctor
	@echo
	$(BIN)/recollect-graph demo --path .
	@echo
	$(BIN)/recollect-graph neo4j status
	@echo "Stop it with: make stop"

# Benchmarks (ratios against baselines run side by side; see docs/benchmarks.md).
bench: setup
	$(BIN)/python benchmarks/bench_core.py --sizes 10000 100000

stop: $(STAMP)
	$(BIN)/recollect-graph neo4j stop

status: $(STAMP)
	$(BIN)/recollect-graph neo4j status

clean:
	rm -rf $(VENV) dist build .pytest_cache .mypy_cache .ruff_cache
