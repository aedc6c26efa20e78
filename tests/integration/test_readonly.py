"""The analyst's own Cypher (``rg.query``, ``recollect-graph cypher``) cannot get out of the graph.

Read-only, it may not read local files or URLs (LOAD CSV), call procedures outside the read-only
allow-list, terminate or list other clients' transactions, or run administration commands; each
is refused with one line naming what was refused, and nothing is sent to the network. With
``--write`` LOAD CSV is still refused (``RECOLLECT_ALLOW_CSV_URLS`` is off), and the embedded
server refuses it too when asked directly. Normal reads keep working.
"""

from __future__ import annotations

import socketserver
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import Result

from recollect_graph import Recollect, Settings
from recollect_graph.errors import ForbiddenQuery, QueryError, ReadOnlyViolation
from recollect_graph.models import ServerStatus
from tests.helpers import assert_one_line_error, data


class Listener:
    """A TCP server on 127.0.0.1 that records every connection and answers a CSV over HTTP."""

    def __init__(self) -> None:
        self.hits: list[bytes] = []
        hits = self.hits

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                self.request.settimeout(2)
                try:
                    hits.append(self.request.recv(1024))
                except OSError:
                    hits.append(b"")
                self.request.sendall(b"HTTP/1.0 200 OK\r\n\r\nsecret,row\r\n")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.port = int(self.server.server_address[1])
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    srv = Listener()
    yield srv
    srv.close()


def _load_csv_urls(settings: Settings, port: int) -> dict[str, str]:
    return {
        "/etc/passwd": "file:///etc/passwd",
        "the password file": settings.password_file.as_uri(),
        "http": f"http://127.0.0.1:{port}/x.csv",
        "http localhost": f"http://localhost:{port}/x.csv",
        "ftp": f"ftp://127.0.0.1:{port}/x",
    }


#: Statements refused read-only, and the words the refusal names.
REFUSED: dict[str, tuple[str, str]] = {
    "procedure dbms.listConfig": ("CALL dbms.listConfig()", "dbms.listConfig"),
    "procedure dbms.listConnections": (
        "CALL dbms.listConnections() YIELD clientAddress RETURN clientAddress",
        "dbms.listConnections",
    ),
    "procedure in a subquery": (
        "MATCH (n) WITH n LIMIT 1 CALL { CALL dbms.info() YIELD id RETURN id } RETURN id",
        "dbms.info",
    ),
    "tx.setMetaData": ("CALL tx.setMetaData({a: 1})", "tx.setMetaData"),
    "SHOW SETTINGS": ("SHOW SETTINGS YIELD name, value", "SHOW SETTINGS"),
    "SHOW TRANSACTIONS": ("SHOW TRANSACTIONS YIELD currentQuery", "SHOW TRANSACTIONS"),
    "TERMINATE TRANSACTIONS": ("TERMINATE TRANSACTIONS 'neo4j-transaction-1'", "TERMINATE"),
    "administration command": ("SHOW USERS", "administration command"),
    "IN TRANSACTIONS": ("CALL { MATCH (n) RETURN n } IN TRANSACTIONS RETURN n", "IN TRANSACTIONS"),
}


def test_load_csv_is_refused_read_only_and_reaches_nothing(
    rg: Recollect, run: Callable[..., Result], server_settings: Settings, listener: Listener
) -> None:
    for name, url in _load_csv_urls(server_settings, listener.port).items():
        for query in (
            "LOAD CSV FROM $url AS row RETURN row",
            "CALL { LOAD CSV FROM $url AS row RETURN row } RETURN row",
        ):
            with pytest.raises(ForbiddenQuery, match="LOAD CSV") as e:
                rg.query(query, {"url": url})
            assert "read-only" in str(e.value), name
        r = run("cypher", f"LOAD CSV FROM '{url}' AS row RETURN row", ok=False)
        assert_one_line_error(r, "LOAD CSV")
        assert "root:" not in r.output and "secret" not in r.output
    assert listener.hits == []


def test_load_csv_is_refused_with_write_and_by_the_server_itself(
    rg: Recollect, run: Callable[..., Result], server_settings: Settings, listener: Listener
) -> None:
    for name, url in _load_csv_urls(server_settings, listener.port).items():
        with pytest.raises(ForbiddenQuery, match="RECOLLECT_ALLOW_CSV_URLS"):
            rg.query("LOAD CSV FROM $url AS row CREATE (:CsvProbe {v: row[0]})", {"url": url},
                     write=True)  # fmt: skip
        r = run("cypher", f"LOAD CSV FROM '{url}' AS row RETURN row", "--write", ok=False)
        assert_one_line_error(r, "RECOLLECT_ALLOW_CSV_URLS")
        # the server's own settings, with the client's check out of the way
        opted_in = Recollect(rg.db, rg.settings.model_copy(update={"allow_csv_urls": True}),
                             embedder=rg.embedder)  # fmt: skip
        with pytest.raises(QueryError) as e:
            opted_in.query("LOAD CSV FROM $url AS row RETURN row", {"url": url}, write=True)
        assert e.value.neo4j_code == "Neo.ClientError.Statement.ExternalResourceFailed", name
        expected = "allow_csv_import_from_file_urls" if url.startswith("file") else "ip_blocklist"
        assert expected in str(e.value), (name, str(e.value))
    assert rg.query("MATCH (p:CsvProbe) RETURN count(p) AS n") == [{"n": 0}]
    assert listener.hits == []


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_procedures_and_commands_outside_the_allow_list_are_refused(
    rg: Recollect, run: Callable[..., Result], name: str
) -> None:
    query, needle = REFUSED[name]
    with pytest.raises(ForbiddenQuery, match=needle):
        rg.query(query)
    assert_one_line_error(run("cypher", query, ok=False), needle)


def test_writes_stay_refused_read_only(rg: Recollect) -> None:
    for query in (
        "CREATE (:ReadOnlyProbe)",
        "CALL { MATCH (n:Entry) SET n.x = 1 } RETURN 1 AS one",
        "CREATE INDEX read_only_probe IF NOT EXISTS FOR (n:ReadOnlyProbe) ON (n.x)",
    ):
        with pytest.raises(ReadOnlyViolation, match="--write"):
            rg.query(query)
    assert rg.query("MATCH (n:ReadOnlyProbe) RETURN count(n) AS n") == [{"n": 0}]
    assert "read_only_probe" not in {r["name"] for r in rg.query("SHOW INDEXES YIELD name")}


def _open_write_tx(rg: Recollect, marker: str) -> tuple[Any, Any, str]:
    """Another client's write transaction, held open; returns (session, tx, transaction id)."""
    session = rg.db.driver.session(database=rg.db.database)
    tx = session.begin_transaction(metadata={"marker": marker})
    tx.run("CREATE (:TxProbe {marker: $m})", m=marker).consume()
    with rg.db.driver.session(database=rg.db.database) as admin:  # the test's own view
        rows = admin.run(
            "SHOW TRANSACTIONS YIELD transactionId, metaData WHERE metaData.marker = $m "
            "RETURN transactionId",
            m=marker,
        ).data()
    assert len(rows) == 1, rows
    return session, tx, str(rows[0]["transactionId"])


def test_another_clients_write_transaction_survives_terminate_and_stays_unlisted(
    rg: Recollect, run: Callable[..., Result]
) -> None:
    marker = f"victim-{uuid.uuid4().hex[:10]}"
    session, tx, tx_id = _open_write_tx(rg, marker)
    try:
        with pytest.raises(ForbiddenQuery, match="TERMINATE TRANSACTIONS"):
            rg.query("TERMINATE TRANSACTIONS $ids", {"ids": [tx_id]})
        r = run("cypher", "TERMINATE TRANSACTIONS $ids", "-p", f'ids=["{tx_id}"]', ok=False)
        assert_one_line_error(r, "TERMINATE TRANSACTIONS")
        for query in ("SHOW TRANSACTIONS YIELD currentQuery", "SHOW TRANSACTIONS",
                      "SHOW TRANSACTIONS YIELD * RETURN *"):  # fmt: skip
            with pytest.raises(ForbiddenQuery, match="SHOW TRANSACTIONS") as e:
                rg.query(query)
            assert marker not in str(e.value)
            r = run("cypher", query, "--json", ok=False)
            assert_one_line_error(r, "SHOW TRANSACTIONS")
            assert marker not in r.output
        tx.commit()  # it was not terminated
    finally:
        if not tx.closed():
            tx.close()
        session.close()
    rows = rg.query("MATCH (p:TxProbe {marker: $m}) RETURN count(p) AS n", {"m": marker})
    assert rows == [{"n": 1}]
    rg.query("MATCH (p:TxProbe {marker: $m}) DELETE p", {"m": marker}, write=True)


def test_analyst_reads_still_work(
    rg: Recollect, run: Callable[..., Result], scope_id: str, neo4j_server: ServerStatus
) -> None:
    entry = rg.remember("The nightly import reads the ledger export", scope_id=scope_id,
                        owner_id="kai")  # fmt: skip
    p = {"s": scope_id}
    reads = {
        "MATCH (e:Entry {scope_id: $s}) RETURN e.id AS id": [{"id": entry.id}],
        "MATCH (e:Entry {scope_id: $s}) OPTIONAL MATCH (e)-[r]->(m) WITH e, count(m) AS c "
        "WHERE c >= 0 RETURN e.id AS id ORDER BY id SKIP 0 LIMIT 5": [{"id": entry.id}],
        "UNWIND [1, 2] AS x RETURN x UNION RETURN 3 AS x": [{"x": 1}, {"x": 2}, {"x": 3}],
        "MATCH (e:Entry {scope_id: $s}) CALL (e) { MATCH (e)--(m) RETURN count(m) AS n } "
        "RETURN e.id AS id, n >= 0 AS ok, EXISTS { (e)--() } OR true AS x": [
            {"id": entry.id, "ok": True, "x": True}
        ],
        "CALL db.index.fulltext.queryNodes('entry_text', 'ledger') YIELD node "
        "WHERE node.scope_id = $s RETURN node.id AS id": [{"id": entry.id}],
        "PROFILE MATCH (e:Entry {scope_id: $s}) RETURN count(e) AS n": [{"n": 1}],
        "EXPLAIN MATCH (e:Entry {scope_id: $s}) RETURN e": [],
    }
    for query, expected in reads.items():
        assert rg.query(query, p) == expected, query
    assert "Entry" in {r["label"] for r in rg.query("CALL db.labels() YIELD label")}
    kinds = {r["type"] for r in rg.query("SHOW INDEXES YIELD name, type")}
    assert {"VECTOR", "FULLTEXT", "RANGE"} <= kinds
    assert rg.query("SHOW CONSTRAINTS YIELD name")
    assert rg.query("CALL dbms.components() YIELD edition")[0]["edition"] == "community"
    names = {r["name"] for r in rg.query("SHOW PROCEDURES YIELD name")}
    assert "db.labels" in names
    assert data(run("cypher", "CALL db.labels() YIELD label RETURN count(*) > 0 AS ok",
                    "--json")) == [{"ok": True}]  # fmt: skip
    r = run("cypher", "SHOW INDEXES YIELD name, type WHERE type = 'FULLTEXT' RETURN name")
    assert "entry_text" in r.stdout
