"""The db layer: managed transactions, batching, read-only analyst Cypher, error translation."""

from __future__ import annotations

import pytest

from recollect_graph import Recollect
from recollect_graph.db.client import Tx
from recollect_graph.errors import ConstraintViolation, InvalidInput, QueryError, ReadOnlyViolation


def _count(rg: Recollect, scope_id: str) -> int:
    return int(
        rg.query("MATCH (n:Entry {scope_id: $s}) RETURN count(n) AS n", {"s": scope_id})[0]["n"]
    )


def test_write_tx_is_atomic(rg: Recollect, scope_id: str) -> None:
    def create_then_fail(tx: Tx) -> None:
        tx.run("admin/record_migration", version=999, name="probe", checksum="x")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        rg.db.write_tx(create_then_fail)
    assert rg.query("MATCH (m:SchemaMigration {version: 999}) RETURN m") == []


def test_adhoc_writes_are_refused_unless_asked(rg: Recollect, scope_id: str) -> None:
    with pytest.raises(ReadOnlyViolation, match="--write"):
        rg.query("CREATE (:Entry {id: $id, scope_id: $s})", {"id": scope_id, "s": scope_id})
    assert _count(rg, scope_id) == 0
    rg.query("CREATE (:Entry {id: $id, scope_id: $s})", {"id": scope_id, "s": scope_id}, write=True)
    assert _count(rg, scope_id) == 1


def test_a_read_only_query_may_search_the_vector_index_by_scope(
    rg: Recollect, scope_id: str
) -> None:
    """Cypher 25's SEARCH clause (the filtered vector search of Neo4j 2026) is a read."""
    rg.remember(
        "The tide tables for the harbour are pinned by the door", scope_id=scope_id, owner_id="t"
    )
    rg.remember("Someone else's note", scope_id=scope_id + "-other", owner_id="t")
    vector = rg.embedder.embed_one("harbour tides")
    if not rg.db.filtered_vectors:  # Neo4j 5.26: the procedure, filtered afterwards
        rows = rg.query(
            "CALL db.index.vector.queryNodes('entry_embedding', 50, $v) YIELD node "
            "WHERE node.scope_id = $s RETURN node.content AS content",
            {"v": vector, "s": scope_id},
        )
    else:
        rows = rg.query(
            "CYPHER 25 MATCH (node:Entry) SEARCH node IN (VECTOR INDEX entry_embedding "
            "FOR $v WHERE node.scope_id = $s LIMIT 5) SCORE AS score "
            "RETURN node.content AS content",
            {"v": vector, "s": scope_id},
        )
    assert [r["content"] for r in rows] == [
        "The tide tables for the harbour are pinned by the door"
    ]


def test_constraint_violation_is_translated(rg: Recollect, scope_id: str) -> None:
    rg.query("CREATE (:Entry {id: $id, scope_id: $s})", {"id": scope_id, "s": scope_id}, write=True)
    with pytest.raises(ConstraintViolation, match="already exists"):
        rg.query(
            "CREATE (:Entry {id: $id, scope_id: $s})", {"id": scope_id, "s": scope_id}, write=True
        )
    assert _count(rg, scope_id) == 1


def test_syntax_error_is_a_query_error(rg: Recollect) -> None:
    with pytest.raises(QueryError, match="SyntaxError"):
        rg.query("MATCH (n RETURN n")
    with pytest.raises(InvalidInput):
        rg.query("   ")


def test_values_travel_as_parameters_never_as_text(rg: Recollect, scope_id: str) -> None:
    hostile = "x'}) DETACH DELETE n //"
    rg.query(
        "CREATE (:Entry {id: $id, scope_id: $s, content: $c})",
        {"id": scope_id, "s": scope_id, "c": hostile},
        write=True,
    )
    rows = rg.query("MATCH (n:Entry {scope_id: $s}) RETURN n.content AS c", {"s": scope_id})
    assert rows == [{"c": hostile}]


def test_named_statement_params_must_match_exactly(rg: Recollect) -> None:
    with pytest.raises(InvalidInput, match="expected parameters"):
        rg.db.write("admin/record_migration", version=1, name="x")  # checksum missing
    with pytest.raises(InvalidInput, match="expected parameters"):
        rg.db.read("admin/show_indexes", extra=1)


def test_write_batches_streams_in_transactions(rg: Recollect, scope_id: str) -> None:
    done: list[int] = []
    rows = ({"id": f"{scope_id}-{i}", "content": f"note {i}"} for i in range(2500))
    out = rg.db.write_batches(
        "testing/upsert_probe_entries",
        rows,
        batch_size=1000,
        progress=done.append,
        scope_id=scope_id,
    )
    assert done == [1000, 2000, 2500]
    assert sum(r["n"] for r in out) == 2500
    # idempotent: the same rows again change nothing
    rg.db.write_batches(
        "testing/upsert_probe_entries",
        ({"id": f"{scope_id}-{i}", "content": f"note {i}"} for i in range(2500)),
        scope_id=scope_id,
    )
    assert _count(rg, scope_id) == 2500


def test_temporal_values_come_back_as_iso_strings(rg: Recollect) -> None:
    row = rg.query("RETURN datetime('2026-01-02T03:04:05Z') AS t, date('2026-01-02') AS d")[0]
    assert row["t"].startswith("2026-01-02T03:04:05") and row["d"] == "2026-01-02"
