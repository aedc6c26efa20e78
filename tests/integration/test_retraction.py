"""Withdrawal that truly retracts: forget and update documents in every order, check the graph.

After every step ``check_invariants`` must find nothing, every entity must still be supported by
a mention or a claim, every relation by evidence, and an entry a forgotten document superseded
must be current again. At the end of each order nothing derived from the documents is left.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator

import pytest

from recollect_graph import Recollect

DOCS = {
    "A": "# Billing\n\nAlice maintains the billing service. The billing service runs on "
    "PostgreSQL.\n\n## Alerts\n\nGrafana sends the billing alerts to Bob.\n",
    "B": "# Search\n\nCarol maintains the search service. The search service reads from "
    "PostgreSQL.\n\n## Alerts\n\nGrafana sends the search alerts to Bob.\n",
    "C": "# Reports\n\nAlice writes the monthly report. The report uses Grafana dashboards.\n",
}
B_EDITED = "# Search\n\nCarol maintains the search service.\n"


@pytest.fixture
def fresh(rg: Recollect) -> Iterator[str]:
    scope = f"retract-{uuid.uuid4().hex[:10]}"
    yield scope
    rg.query("MATCH (n) WHERE n.scope_id = $s DETACH DELETE n", {"s": scope}, write=True)


def _setup(rg: Recollect, scope: str) -> tuple[dict[str, str], str]:
    note = rg.remember("The billing runbook lives in the wiki.", scope_id=scope, owner_id="kai")
    ids = {}
    for name, text in DOCS.items():
        r = rg.documents.ingest(
            name,
            text,
            owner_id="kai",
            scope_id=scope,
            source_id=f"{name}.md",
            supersedes=[note.id] if name == "A" else (),
        )
        ids[name] = r.document_id
    return ids, note.id


def _check(rg: Recollect, scope: str) -> None:
    found = {k: v for k, v in rg.check_invariants(scope).items() if v}
    assert not found
    unsupported = rg.query(
        "MATCH (e:Entity {scope_id: $s}) WHERE NOT EXISTS { (e)<-[:MENTIONS|ABOUT]-() } "
        "RETURN e.name AS name",
        {"s": scope},
    )
    assert unsupported == []
    counts = rg.query(
        "MATCH (e:Entity {scope_id: $s}) OPTIONAL MATCH (e)<-[m:MENTIONS]-() "
        "WITH e, sum(coalesce(m.count, 1)) AS n WHERE n <> e.mention_count "
        "RETURN e.name AS name",
        {"s": scope},
    )
    assert counts == []


def _derived(rg: Recollect, scope: str) -> dict[str, int]:
    rows = rg.query(
        "MATCH (n {scope_id: $s}) WHERE n:Chunk OR n:Relation OR n:Document OR n:PipelineRun "
        "OR (n:Entity AND NOT EXISTS { (n)<-[:ABOUT|MENTIONS]-(:Entry) }) "
        "RETURN head(labels(n)) AS label, count(*) AS n",
        {"s": scope},
    )
    return {r["label"]: r["n"] for r in rows}


@pytest.mark.parametrize("order", list(itertools.permutations("ABC")), ids="".join)
def test_forget_in_any_order_leaves_nothing_behind(
    rg: Recollect, fresh: str, order: tuple[str, ...]
) -> None:
    ids, note = _setup(rg, fresh)
    assert rg.get(note, scope_id=fresh).retired_at is not None
    _check(rg, fresh)
    gone: set[str] = set()
    for name in order:
        rg.documents.forget(ids[name], scope_id=fresh)
        gone.add(name)
        _check(rg, fresh)
        assert (rg.get(note, scope_id=fresh).retired_at is None) == ("A" in gone)
        left = {n for n in DOCS if n not in gone}
        bob = rg.query(
            "MATCH (e:Entity {scope_id: $s, normalized_name: 'bob'}) RETURN e.mention_count AS n",
            {"s": fresh},
        )
        expected_bob = sum(1 for n in left if n in ("A", "B"))
        assert (bob[0]["n"] if bob else 0) == expected_bob
    assert _derived(rg, fresh) == {}


def test_update_then_forget_and_forget_entry_first(rg: Recollect, fresh: str) -> None:
    ids, note = _setup(rg, fresh)
    r = rg.documents.ingest("B", B_EDITED, owner_id="kai", scope_id=fresh, source_id="B.md")
    assert r.status == "updated" and r.counts["chunks_removed"] >= 1
    _check(rg, fresh)
    # the entry A superseded is forgotten first; forgetting A afterwards restores nothing
    rg.forget(note, scope_id=fresh)
    _check(rg, fresh)
    out = rg.documents.forget(ids["A"], scope_id=fresh)
    assert out["entries_restored"] == 0
    _check(rg, fresh)
    for name in ("C", "B"):
        rg.documents.forget(ids[name], scope_id=fresh)
        _check(rg, fresh)
    assert _derived(rg, fresh) == {}
    assert (
        rg.query(
            "MATCH (n {scope_id: $s}) WHERE NOT n:Operation AND NOT n:AccessEvent "
            "AND NOT n:Collection RETURN count(n) AS n",
            {"s": fresh},
        )[0]["n"]
        == 0
    )


def test_topics_of_a_forgotten_document_go_stale_and_rebuild(rg: Recollect, fresh: str) -> None:
    for i, text in enumerate(
        [
            "The billing service stores invoices in PostgreSQL.",
            "Invoices of the billing service are partitioned by month in PostgreSQL.",
            "The billing service retries failed invoice payments nightly.",
        ]
    ):
        rg.remember(text, scope_id=fresh, owner_id="kai", source_id=f"n{i}")
    doc = rg.documents.ingest(
        "Billing",
        DOCS["A"] + "\nInvoices are stored in PostgreSQL by the billing service.\n",
        owner_id="kai",
        scope_id=fresh,
    )
    rg.topics.build(fresh, min_size=2)
    topics = rg.topics.list(fresh)
    holding = [
        t
        for t in topics
        if doc.document_id in {m["id"] for m in rg.topics.show(fresh, t["id"])["members"]}
    ]
    assert holding and not any(t["stale"] for t in topics)
    out = rg.documents.forget(doc.document_id, scope_id=fresh)
    assert out["topics_stale"] == len(holding)
    assert all(t["stale"] for t in rg.topics.list(fresh) if t["id"] == holding[0]["id"])
    report = rg.topics.build(fresh, min_size=2)
    assert report["built"] + report["removed"] >= 1
    after = rg.topics.list(fresh)
    assert not any(t["stale"] for t in after)
    for t in after:
        assert doc.document_id not in {m["id"] for m in rg.topics.show(fresh, t["id"])["members"]}
    _check(rg, fresh)
