"""Entities: de-duplication per scope, merge and undo, review pairs, graph queries."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput

SAMPLE = Path(__file__).parents[1] / "data" / "docs_sample"


def _entity_names(rg: Recollect, scope: str) -> list[str]:
    rows = rg.query(
        "MATCH (e:Entity {scope_id: $s}) RETURN e.normalized_name AS k ORDER BY k", {"s": scope}
    )
    return [r["k"] for r in rows]


def test_one_entity_per_normalised_name_across_documents(rg: Recollect, scope_id: str) -> None:
    rg.documents.ingest_path(SAMPLE, owner_id="kai", scope_id=scope_id)
    names = _entity_names(rg, scope_id)
    assert len(names) == len(set(names))
    assert {"alice", "bob", "carol", "postgresql", "grafana"} <= set(names)
    # the same name in another scope is another entity
    other = scope_id + "-b"
    rg.documents.ingest(
        "x", "Alice restarts the PostgreSQL server.", owner_id="kai", scope_id=other
    )
    a = rg.entities.show("alice", scope_id=scope_id)
    b = rg.entities.show("alice", scope_id=other)
    assert a["id"] != b["id"] and b["mention_count"] == 1


def test_entries_and_documents_share_entities(rg: Recollect, scope_id: str) -> None:
    rg.remember("Alice is working on the billing migration.", scope_id=scope_id, owner_id="kai")
    rg.documents.ingest(
        "Ops",
        "Alice restarts the PostgreSQL server every night.",
        owner_id="kai",
        scope_id=scope_id,
    )
    alice = rg.entities.show("alice", scope_id=scope_id)
    kinds = {m["kind"] for m in alice["mentions"]}
    assert kinds == {"entry", "chunk"}


def test_merge_moves_everything_and_unmerge_restores_it(rg: Recollect, scope_id: str) -> None:
    rg.documents.ingest(
        "Stack",
        "# Stack\n\nThe team runs Postgres for billing. Alice tunes PostgreSQL every week. "
        "Bob depends on Postgres for reports.\n",
        owner_id="kai",
        scope_id=scope_id,
    )
    before = rg.entities.show("postgresql", scope_id=scope_id)
    absorbed = rg.entities.show("postgres", scope_id=scope_id)
    op = rg.entities.merge("postgresql", "postgres", scope_id=scope_id)
    merged = rg.entities.show("postgresql", scope_id=scope_id)
    assert merged["mention_count"] == before["mention_count"] + absorbed["mention_count"]
    assert "Postgres" in merged["aliases"]
    assert rg.entities.show("Postgres", scope_id=scope_id)["id"] == merged["id"]  # by alias
    assert len(merged["relations"]) == len(before["relations"]) + len(absorbed["relations"])
    assert not {k: v for k, v in rg.check_invariants(scope_id).items() if v}

    rg.entities.unmerge(op, scope_id=scope_id)
    again = rg.entities.show("postgresql", scope_id=scope_id)
    back = rg.entities.show("postgres", scope_id=scope_id)
    assert back["id"] == absorbed["id"]
    assert again["mention_count"] == before["mention_count"]
    assert back["mention_count"] == absorbed["mention_count"]
    assert "Postgres" not in (again.get("aliases") or [])
    assert {r["id"] for r in back["relations"]} == {r["id"] for r in absorbed["relations"]}
    assert not {k: v for k, v in rg.check_invariants(scope_id).items() if v}
    with pytest.raises(InvalidInput):
        rg.entities.unmerge(op, scope_id=scope_id)
    with pytest.raises(InvalidInput):
        rg.entities.merge("postgresql", "postgresql", scope_id=scope_id)


def test_neighbours_hops_and_bad_arguments(rg: Recollect, scope_id: str) -> None:
    rg.documents.ingest(
        "Chain",
        "Alice works with Bob. Bob works with Carol. Carol works with Dave.",
        owner_id="kai",
        scope_id=scope_id,
    )
    one = {n["name"].lower() for n in rg.entities.neighbours("alice", scope_id=scope_id, hops=1)}
    two = {n["name"].lower() for n in rg.entities.neighbours("alice", scope_id=scope_id, hops=3)}
    assert "bob" in one and "carol" not in one
    assert {"bob", "carol"} <= two
    path = rg.entities.path("alice", "carol", scope_id=scope_id)
    assert [p["name"].lower() for p in path if p["kind"] == "entity"] == ["alice", "bob", "carol"]
    with pytest.raises(InvalidInput):
        rg.entities.neighbours("alice", scope_id=scope_id, hops=0)
    with pytest.raises(InvalidInput):
        rg.entities.show("nobody-at-all", scope_id=scope_id)


def test_entries_get_entities_and_relations_with_entry_evidence(
    rg: Recollect, scope_id: str
) -> None:
    e = rg.remember(
        "The billing service depends on PostgreSQL for invoices.",
        scope_id=scope_id,
        owner_id="kai",
    )
    first = rg.entities.index_entries(scope_id, rg.documents.pipeline)
    assert first["entries"] == 1 and first["relations"] >= 1
    assert rg.entities.index_entries(scope_id, rg.documents.pipeline)["entries"] == 0
    rels = rg.entities.show("billing service", scope_id=scope_id)["relations"]
    assert ("depend on", "postgresql") in {(r["predicate"], r["other"].lower()) for r in rels}
    rg.forget(e.id, scope_id=scope_id)  # the only evidence goes: the relation and entities go
    assert (
        rg.query(
            "MATCH (n {scope_id: $s}) WHERE n:Relation OR n:Entity RETURN count(n) AS n",
            {"s": scope_id},
        )[0]["n"]
        == 0
    )
    assert not {k: v for k, v in rg.check_invariants(scope_id).items() if v}
