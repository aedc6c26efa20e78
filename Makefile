# recollect-graph: the two promises are `make demo` and `make test`; each sets itself up.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Claude Code transcripts for the demo's recall step (point it at ~/.claude/projects for yours).
AGENT_TRANSCRIPTS ?= tests/data/agent_transcripts

.PHONY: setup neo4j-build neo4j-auth browser-deps test test-unit test-integration lint demo bench stop status clean notebooks

setup: $(STAMP) neo4j-build

# The virtual environment and every Python package (torch comes from pip's cache after the
# first install on a machine).
# Light install: `make setup TORCH=cpu` installs the CPU-only build of torch first, from
# TORCH_INDEX (PyTorch's CPU wheel index unless you name your own mirror), instead of PyPI's
# CUDA build (about 5 GB less; see docs/operations.md "A light install"). Start from no .venv.
TORCH ?=
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	@if [ "$(TORCH)" = cpu ]; then \
	  echo "installing the CPU-only torch from $(TORCH_INDEX)"; \
	  $(BIN)/pip install -q torch --index-url '$(TORCH_INDEX)' || { \
	    echo "no CPU-only torch at $(TORCH_INDEX): set TORCH_INDEX to an index that has one" >&2; \
	    exit 1; }; \
	elif [ -n "$(TORCH)" ]; then echo "TORCH must be cpu or unset (got $(TORCH))" >&2; exit 1; fi
	$(BIN)/pip install -q -e '.[dev]'
	@touch $(STAMP)

# The embedded Neo4j (2026, on Java 21+; RECOLLECT_NEO4J_VERSION=5.26.30 for the Java 17 LTS):
# built once per machine and version with Maven into the user's cache directory.
neo4j-build: $(STAMP)
	$(BIN)/recollect-graph neo4j build

# The password file of docker-compose.yml (NEO4J_AUTH_FILE): one line `neo4j/<password>`, created
# with mode 0600 (umask 077), from NEO4J_PASSWORD when set, else a random one. An existing file is
# kept: the password only applies to a new data volume (docs/operations.md, "Changing the password").
NEO4J_AUTH_PATH ?= .neo4j-auth
neo4j-auth:
	@if [ -e "$(NEO4J_AUTH_PATH)" ]; then echo "$(NEO4J_AUTH_PATH) exists: kept"; else \
	  umask 077; pw="$${NEO4J_PASSWORD:-$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(24))')}"; \
	  if [ $${#pw} -lt 8 ]; then echo "NEO4J_PASSWORD must have 8+ characters" >&2; exit 2; fi; \
	  printf 'neo4j/%s\n' "$$pw" > "$(NEO4J_AUTH_PATH)"; \
	  echo "wrote $(NEO4J_AUTH_PATH) (mode 0600)"; fi

# Debian's Chromium drives the real-browser test (tests/integration/test_browser.py); installed
# with apt when missing and this runs as root, else a clear message.
browser-deps:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's chromium for the browser test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "the browser test needs Chromium: sudo apt-get install chromium" >&2; exit 1; fi; }

test: setup browser-deps
	$(BIN)/pytest

test-unit: setup
	$(BIN)/pytest tests/unit

test-integration: setup
	$(BIN)/pytest tests/integration

# The fallback for servers older than Neo4j 2026.01 (5.26 LTS, an old Aura): the vector lookups
# that filter after the index (queryNodes), and the import's branched statements (one branch per
# key label, where 2026 uses a dynamic label), against an embedded 5.26 LTS on Java 17. Only the
# files that cover that path, so CI stays short (docs/operations.md, "Neo4j versions").
NEO4J_LTS ?= 5.26.30
TESTS_526 := tests/integration/test_search.py tests/integration/test_recall.py \
	tests/integration/test_links_feedback.py tests/integration/test_crowded_scopes.py \
	tests/integration/test_schema.py tests/integration/test_transfer.py \
	tests/integration/test_turn_context.py tests/integration/test_search_gathering.py
.PHONY: test-526 neo4j-build-526
neo4j-build-526: $(STAMP)
	RECOLLECT_NEO4J_VERSION=$(NEO4J_LTS) $(BIN)/recollect-graph neo4j build

test-526: setup neo4j-build-526
	RECOLLECT_NEO4J_VERSION=$(NEO4J_LTS) $(BIN)/pytest $(TESTS_526)

# The heavy reliability variants (8 processes x 1,000 operations; see docs/reliability.md).
.PHONY: test-heavy
test-heavy: setup
	$(BIN)/pytest -m heavy tests/reliability

# The whole reliability suite, default and heavy variants together (docs/reliability.md): crashes,
# faults, concurrency, isolation, bad input, documents, backup under load, security, doctor --deep.
# The process concurrency run is 8 x 250 operations here so the suite fits 15 min on 2 cores
# (about 14 min idle); RECOLLECT_HEAVY_OPS=1000 (or make test-heavy) runs the full 8 x 1,000.
.PHONY: test-reliability
test-reliability: setup
	RECOLLECT_HEAVY_OPS=$${RECOLLECT_HEAVY_OPS:-250} $(BIN)/pytest -m "heavy or not heavy" tests/reliability

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
	@echo "== agent sessions: ingest transcripts (AGENT_TRANSCRIPTS, default: the sample projects), then recall"
	$(BIN)/recollect-graph learn agents --path $(AGENT_TRANSCRIPTS) --scope demo-agents --owner demo
	$(BIN)/recollect-graph recall "the session in spring where I was fed up with the CI cache" --scope demo-agents --no-interactive
	$(BIN)/recollect-graph recall "what did the helper conclude about mmap crashing on truncated logs" --scope demo-agents --no-interactive
	@echo
	@echo "== documents: ingest the project's docs (again: nothing to embed), entities, topics of the demo scope, a context pack"
	$(BIN)/recollect-graph docs ingest docs/ --scope demo-docs --owner demo
	$(BIN)/recollect-graph docs ingest docs/ --scope demo-docs --owner demo
	$(BIN)/recollect-graph entities neighbours neo4j --hops 1 --limit 10 --scope demo-docs
	$(BIN)/recollect-graph topics build --scope demo
	$(BIN)/recollect-graph topics list --scope demo
	$(BIN)/recollect-graph context "how is the embedded Neo4j started?" --budget 400 --scope demo-docs
	@echo
	$(BIN)/recollect-graph neo4j status
	@echo "Stop it with: make stop"

# Benchmarks (ratios against baselines run side by side; see docs/benchmarks.md).
# make bench: the 10k and 100k suites (results/scale.json); make bench-1m: the 1M suite
# (results/scale-1m.json, about an hour on 2 cores); make bench-report: growth table and plot.
.PHONY: bench-1m bench-report
bench: setup
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/bench_scale.py --sizes 10000 100000
	$(BIN)/python benchmarks/report.py

bench-1m: setup
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/bench_scale.py --sizes 1000000 --ingest 0 --queries 100 \
	    --slow-every 5 --max-sessions 2000 --no-extras --heap-mb 4096 --pagecache-mb 3072 \
	    --out benchmarks/results/scale-1m.json
	$(BIN)/python benchmarks/report.py

bench-report:
	$(BIN)/python benchmarks/report.py

# Retrieval quality on a LoCoMo-format file (not shipped: pass its path), e.g.
# make bench-locomo DATA=../shared/data/locomo-dev.json ARGS="--samples conv-26"
.PHONY: bench-locomo
DATA ?=
bench-locomo:
	@test -n "$(DATA)" || { echo "bench-locomo: set DATA to a LoCoMo-format JSON file, e.g. make bench-locomo DATA=path/to/locomo10.json" >&2; exit 2; }
	@test -f "$(DATA)" || { echo "bench-locomo: no such file: $(DATA)" >&2; exit 2; }
	@$(MAKE) --no-print-directory setup
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/locomo.py --data "$(DATA)" $(ARGS)

# Retrieval quality on a LongMemEval file (not shipped: pass its path; .json or .json.gz), e.g.
# make bench-longmemeval DATA=../shared/data/longmemeval-s-dev.json.gz ARGS="--per-type 3"
.PHONY: bench-longmemeval
bench-longmemeval:
	@test -n "$(DATA)" || { echo "bench-longmemeval: set DATA to a LongMemEval JSON file, e.g. make bench-longmemeval DATA=path/to/longmemeval_s.json.gz" >&2; exit 2; }
	@test -f "$(DATA)" || { echo "bench-longmemeval: no such file: $(DATA)" >&2; exit 2; }
	@$(MAKE) --no-print-directory setup
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/longmemeval.py --data "$(DATA)" $(ARGS)

# Strip outputs from the notebooks before committing (`make test` executes them against its
# own Neo4j; see docs/notebooks.md).
notebooks: $(STAMP)
	$(BIN)/python notebooks/strip.py

stop: $(STAMP)
	$(BIN)/recollect-graph neo4j stop

status: $(STAMP)
	$(BIN)/recollect-graph neo4j status

clean:
	rm -rf $(VENV) dist build .pytest_cache .mypy_cache .ruff_cache
