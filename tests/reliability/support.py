"""Shared pieces of the reliability tests: a server that may be killed, counts, invariants."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from neo4j import GraphDatabase

from recollect_graph import Recollect, Settings
from recollect_graph.db.client import Db, Tx
from recollect_graph.db.host import ensure_password
from recollect_graph.db.server import LocalServer
from recollect_graph.models import ServerStatus


class Crashable:
    """A Neo4j server of its own that a test may kill -9, stop and restart.

    Args:
        settings: Settings of a throwaway server (``tests.helpers.make_settings``).
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.server = LocalServer(settings)
        self.kills = 0
        self.restarts = 0

    def status(self) -> ServerStatus:
        return self.server.status()

    def start(self) -> ServerStatus:
        """Start it (or attach); it exits with this test process."""
        st = self.server.start(watch_pid=os.getpid())
        assert st.running
        return st

    def kill9(self) -> int:
        """SIGKILL the launcher JVM and wait until it is gone. Returns the pid killed."""
        pid = self.status().pid
        assert pid, "the server is not running"
        os.kill(pid, signal.SIGKILL)
        self.kills += 1
        deadline = time.monotonic() + 30
        while self.status().running and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not self.status().running, f"pid {pid} survived SIGKILL"
        return pid

    def restart(self) -> ServerStatus:
        """Start again after a kill (Neo4j recovers committed transactions from its log)."""
        st = self.start()
        self.restarts += 1
        return st

    def ensure_up(self) -> ServerStatus:
        return self.status() if self.status().running else self.restart()

    def recollect(self, embedder: Any, *, retry_s: float = 2.0) -> Recollect:
        """A client over a driver whose retry budget is ``retry_s`` seconds (the library's is 30).

        The embedding model is shared with the session's client, so no second load.
        """
        st = self.ensure_up()
        password = ensure_password(self.settings) if st.auth else None
        driver = GraphDatabase.driver(
            st.bolt_uri,
            auth=("neo4j", password) if password else None,
            max_transaction_retry_time=retry_s,
            connection_acquisition_timeout=10.0,
            connection_timeout=5.0,
            user_agent="recollect-graph-reliability",
            notifications_min_severity="OFF",
        )
        r = Recollect(Db(driver, self.settings.neo4j_database), self.settings, embedder=embedder)
        r.check(auto_init=True)
        return r

    def env(self) -> dict[str, str]:
        """Environment for a subprocess (library or CLI) that uses this server."""
        s = self.settings
        return {
            **os.environ,
            "RECOLLECT_DATA_DIR": str(s.data_dir),
            "RECOLLECT_CONFIG_DIR": str(s.config_dir),
            "RECOLLECT_BOLT_PORT": str(s.bolt_port),
            "RECOLLECT_HTTP_PORT": str(s.http_port),
            "RECOLLECT_HEAP_MB": str(s.heap_mb),
            "RECOLLECT_PAGECACHE_MB": str(s.pagecache_mb),
            "HF_HUB_OFFLINE": "1",
        }


def scope_counts(rg: Recollect, scope_id: str) -> dict[str, int]:
    """Nodes of a scope and the relationships that touch them (a cheap "unchanged" check)."""
    rows = rg.query(
        "MATCH (n) WHERE n.scope_id = $s "
        "OPTIONAL MATCH (n)-[r]-() "
        "RETURN count(DISTINCT n) AS nodes, count(DISTINCT r) AS rels",
        {"s": scope_id},
    )
    return {"nodes": int(rows[0]["nodes"]), "rels": int(rows[0]["rels"])}


def violations(rg: Recollect, scope_id: str | None) -> dict[str, list[dict[str, Any]]]:
    """The non-empty results of ``check_invariants``."""
    return {k: v for k, v in rg.check_invariants(scope_id).items() if v}


def write_notes(folder: Path, n: int) -> None:
    """``n`` short Markdown notes (one entry each) for a notes-learner run."""
    folder.mkdir(parents=True, exist_ok=True)
    topics = ["Postgres", "Redis", "Kafka", "Vite", "Terraform", "Grafana", "Nginx", "Celery"]
    for i in range(n):
        t = topics[i % len(topics)]
        (folder / f"note-{i:03d}.md").write_text(
            f"# {t} note {i}\n\nThe team uses {t} for service {i}. Runbook step {i}: restart "
            f"the {t} worker when the queue backs up.\n"
        )


@contextlib.contextmanager
def stop_inside_tx(rg: Recollect, statement: str, step: Callable[[], None]) -> Iterator[None]:
    """Call ``step()`` inside ``rg``'s next write transaction, right after ``statement`` ran.

    The transaction is then half-way (some statements run, nothing committed): the place where
    a test kills the server or the client. ``step`` is called once, even if the driver retries.
    """
    write_tx = rg.db.write_tx
    fired: list[int] = []

    class Stopping:
        def __init__(self, tx: Tx) -> None:
            self.tx = tx

        def run(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
            out = self.tx.run(name, **params)
            if name == statement and not fired:
                fired.append(1)
                step()
            return out

    def patched(fn: Callable[[Any], Any]) -> Any:
        return write_tx(lambda tx: fn(Stopping(tx)))

    rg.db.write_tx = patched  # type: ignore[method-assign]
    try:
        yield
    finally:
        del rg.db.write_tx


_SYLLABLES = ["ka", "lo", "mi", "ru", "te", "sa", "vo", "ni", "ze", "pu", "do", "ge"]


def consolidation_items(clusters: int) -> list[dict[str, Any]]:
    """``clusters`` groups of 3 near-duplicate entries; no two groups share a word.

    Each group is one sentence of five made-up words, with and without a full stop or an
    exclamation mark (cosine near 1, word overlap 1); other groups share none of its words, so
    ``consolidate`` merges exactly one entry per group.
    """
    items = []
    for c in range(clusters):
        words = []
        for w in range(5):
            n = c * 5 + w
            words.append("".join(_SYLLABLES[(n // 12**k) % 12] for k in range(3)) + "x")
        text = " ".join(words)
        for end in ("", ".", "!"):
            items.append({"content": f"{text}{end}", "tags": ["merge"], "force": True})
    return items
