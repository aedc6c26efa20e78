"""Helpers shared by the tests."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import Result

from recollect_graph import Settings
from recollect_graph.db.host import free_port
from recollect_graph.db.queries import register_root

# The statements only tests and benchmarks run (bulk loaders, brute-force scans) live in
# tests/cypher/ and are loaded as ``testing/<name>``; the wheel ships none of them.
register_root("testing", Path(__file__).resolve().parent / "cypher")


def make_settings(base: Path, **overrides: object) -> Settings:
    """Settings for a throwaway server under ``base`` (the user's launcher build is reused)."""
    values: dict[str, object] = {
        "data_dir": base / "data",
        "config_dir": base / "config",
        "bolt_port": free_port(),
        "http_port": free_port(),
        "heap_mb": 768,
        "pagecache_mb": 128,
        # a loaded 2-core machine (8 sessions' tests at once) takes over 120 s to start a store;
        # RECOLLECT_START_TIMEOUT gives it longer still
        "start_timeout_s": float(os.environ.get("RECOLLECT_START_TIMEOUT") or 300.0),
        "cache_dir": os.environ.get("RECOLLECT_CACHE_DIR"),
        # `make test-526` runs the suite against the 5.26 LTS fallback.
        "neo4j_version": os.environ.get("RECOLLECT_NEO4J_VERSION"),
    }
    values.update(overrides)
    return Settings.from_env(environ={}, **values)


@contextmanager
def own_store(base: Path, **overrides: object) -> Iterator[Any]:
    """A :class:`~recollect_graph.Recollect` on a server of its own under ``base``, stopped after.

    For a module whose store must differ from the session's (another embedding model).
    """
    from recollect_graph import Recollect
    from recollect_graph.db.server import LocalServer

    settings = make_settings(base, **overrides)
    server = LocalServer(settings)
    server.start(watch_pid=os.getpid())
    try:
        with Recollect.open(settings) as r:
            yield r
    finally:
        server.stop()


def data(r: Result) -> Any:
    """The parsed ``--json`` output of a CLI run."""
    return json.loads(r.stdout)


def assert_one_line_error(r: Result, needle: str) -> None:
    """The command failed with one "Error: ..." line on stderr and no traceback."""
    assert r.exit_code == 1, (r.stdout, r.stderr)
    assert isinstance(r.exception, SystemExit)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    assert needle in lines[0]
    assert "Traceback" not in r.output


def stored_text(rg: Any, scope_id: str) -> str:
    """Every property of every node in a scope (embeddings left out), as one JSON string."""
    rows = rg.query("MATCH (n) WHERE n.scope_id = $s RETURN properties(n) AS p", {"s": scope_id})
    return json.dumps(
        [{k: v for k, v in r["p"].items() if k != "embedding"} for r in rows], default=str
    )


def candidate_params(vector: list[float], scope_id: str, **overrides: Any) -> dict[str, Any]:
    """The parameters of the ``search/candidates`` statement: no filters, nothing named."""
    from datetime import UTC, datetime

    params: dict[str, Any] = {
        "vector": vector,
        "vector_unnamed": None,
        "lucene": None,
        "terms": [],
        "names": [],
        "k": 50,
        "scope_clause": "",
        "scope_id": scope_id,
        "entry_types": None,
        "tags": None,
        "source_types": None,
        "created_after": None,
        "as_of": None,
        "valid_at": None,
        "kinds": None,
        "time_windows": [],
        "k_time": 0,
        "feedback_k": 0,
        "event_pattern": None,
        "turn_context": 0.0,
        "want_text": False,
        "include_superseded": False,
        "include_deleted": False,
        "now": datetime.now(UTC),
    }
    return {**params, **overrides}
