"""The throwaway Neo4j every benchmark runs against."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from recollect_graph import Settings
from recollect_graph.db.host import free_port
from recollect_graph.db.queries import register_root
from recollect_graph.db.server import LocalServer
from recollect_graph.models import ServerStatus

# The statements only tests and benchmarks run (bulk loaders, brute-force scans) live in
# tests/cypher/ and are loaded as ``testing/<name>``; the wheel ships none of them.
register_root("testing", Path(__file__).resolve().parents[1] / "tests" / "cypher")


@contextlib.contextmanager
def bench_server(
    heap_mb: int = 2048,
    pagecache_mb: int = 1024,
    neo4j_version: str | None = None,
    store: Path | None = None,
) -> Iterator[tuple[Settings, LocalServer, ServerStatus]]:
    """An embedded Neo4j in a temporary directory on a free port (2 GB heap, 1 GB page cache).

    ``neo4j_version`` (default ``RECOLLECT_NEO4J_VERSION``, else the embedded default) picks the
    Neo4j, e.g. ``5.26.30`` for the LTS fallback. The server watches this process, so an
    interrupted benchmark leaves no JVM behind. With ``RECOLLECT_BENCH_KEEP=1`` the directory
    (the store and the server's logs) is kept and its path printed, to diagnose a failed run;
    ``store`` (such a kept directory) starts the server on that store instead, and keeps it.
    """
    keep = store is not None or os.environ.get("RECOLLECT_BENCH_KEEP") == "1"
    with _bench_dir(keep, store) as tmp:
        settings = Settings.from_env(
            environ={},
            data_dir=Path(tmp) / "data",
            config_dir=Path(tmp) / "config",
            bolt_port=free_port(),
            http_port=0,
            local_auth=False,
            heap_mb=heap_mb,
            pagecache_mb=pagecache_mb,
            neo4j_version=neo4j_version or os.environ.get("RECOLLECT_NEO4J_VERSION") or None,
            start_timeout_s=600.0,
        )
        server = LocalServer(settings)
        status = server.start(progress=lambda m: print(m, file=sys.stderr), watch_pid=os.getpid())
        try:
            yield settings, server, status
        finally:
            server.stop()
            if keep:
                print(f"kept the benchmark's store and logs in {tmp}", file=sys.stderr)


@contextlib.contextmanager
def _bench_dir(keep: bool, store: Path | None = None) -> Iterator[str]:
    """A temporary directory, removed afterwards unless ``keep``; ``store`` when given."""
    if store is not None:
        yield str(store)
        return
    if keep:
        yield tempfile.mkdtemp(prefix="rg-bench-keep-")
        return
    with tempfile.TemporaryDirectory(prefix="rg-bench-") as tmp:
        yield tmp
