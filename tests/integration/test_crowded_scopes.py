"""Many scopes holding the same content: each scope's own nearest items still come back.

One scope gets memories, a conversation session and a document; it is exported and imported
into 20 other scopes (ids remapped, the vectors copied as they are), so every vector lookup
meets 21 identical candidates for each item, more than the index window the search asks for
(10 candidates here), and the items of one scope are a small minority of the index. Entries
(search), chunks (context packs) and sessions (recall) of the scope asked must come back, and
nothing from the other scopes. On Neo4j 2026 the vector indexes filter by scope inside the index;
on 5.26 the callers widen the window until the scope's items are in it (``make test-526`` runs
this file there too).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from recollect_graph import Recollect, Settings
from tests.integration.test_context_pack import add_document

COPIES = 20
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
MEMORIES = [
    "The nightly deploy of the billing service runs at 02:00 UTC from the release branch.",
    "Redis cache eviction is set to allkeys-lru because the session store filled memory.",
    "The staging cluster uses three worker nodes with 8 GB each and one control plane.",
    "Payments retries back off exponentially up to five attempts before alerting on-call.",
    "The search service indexes product titles with an English analyzer and synonyms.",
    "Feature flags live in LaunchDarkly; the checkout redesign flag is at 20 percent.",
    "Postgres vacuum runs every Sunday; autovacuum is tuned for the orders table.",
    "The mobile app talks to the API gateway through a GraphQL layer with persisted queries.",
    "Log retention is 30 days in Loki and one year in the cold S3 bucket.",
    "The on-call rotation changes every Monday at 10:00 and is kept in PagerDuty.",
    "CDN cache for static assets is purged on every frontend release by the pipeline.",
    "The data warehouse loads from Kafka topics every fifteen minutes through Airbyte.",
]
TURNS = [
    ("user", "The CI cache keeps getting invalidated on every run, builds take forty minutes."),
    ("assistant", "The cache key hashes the lockfile and the runner image tag; the tag changes."),
    ("user", "Pin the runner image digest so the cache key stays stable across runs."),
]
CHUNKS = [
    "Rotating the TLS certificates: run the renew job, then reload the ingress controllers.",
    "Backups of the ledger database are encrypted with the KMS key of the finance account.",
    "Incident reviews are written within five days and shared in the reliability channel.",
]


@pytest.fixture(scope="module")
def scopes(rg: Recollect) -> Iterator[list[str]]:
    """21 scopes with identical content (one written, 20 imported copies); the last is asked."""
    base = f"crowd-{uuid.uuid4().hex[:8]}"
    rg.remember_many([{"content": m} for m in MEMORIES], scope_id=base, owner_id="kai")
    rg.sessions.add_turns(
        "ci-cache",
        [
            {"id": f"t{i}", "speaker": who, "text": text, "at": NOW}
            for i, (who, text) in enumerate(TURNS)
        ],
        scope_id=base,
        owner_id="kai",
        title="CI cache invalidation",
    )
    add_document(rg, base, f"{base}-runbook", "Operations runbook", CHUNKS)
    lines = list(rg.export(base))
    copies = [f"{base}-{i:02d}" for i in range(COPIES)]
    for scope in copies:
        rg.import_(lines, scope_id=scope)
    yield [base, *copies]


@pytest.fixture(scope="module")
def narrow(rg: Recollect, server_settings: Settings) -> Iterator[Recollect]:
    """The same graph, searched with the narrowest index window (10 candidates per index)."""
    with Recollect.open(server_settings.model_copy(update={"search_candidates": 10})) as r:
        yield r


def _own(rg: Recollect, scope: str, label: str) -> set[str]:
    rows = rg.query(f"MATCH (n:{label} {{scope_id: $s}}) RETURN n.id AS id", {"s": scope})
    return {r["id"] for r in rows}


def test_search_returns_the_scopes_own_nearest_entries(
    narrow: Recollect, scopes: list[str]
) -> None:
    asked = scopes[-1]
    own = _own(narrow, asked, "Entry")
    for i, memory in enumerate(MEMORIES[:4]):
        hits = narrow.search(memory, scope_id=asked, limit=5, touch=False, kinds=["entry"])
        assert hits, memory
        assert {h.entry.id for h in hits} <= own
        assert hits[0].entry.content == memory, (i, hits[0].entry.content)
        assert hits[0].signals.semantic > 0.98  # int8 ONNX query vs stored vector


def test_context_pack_cites_the_scopes_own_chunks(narrow: Recollect, scopes: list[str]) -> None:
    asked = scopes[-1]
    own = _own(narrow, asked, "Chunk")
    pack = narrow.context(CHUNKS[1], scope_id=asked, budget_tokens=1500)
    cited = [c for c in pack.citations if c["kind"] == "chunk"]
    assert cited, pack.markdown
    assert {c["id"] for c in cited} <= own
    assert "encrypted with the KMS key" in pack.markdown


def test_recall_finds_the_scopes_own_session(rg: Recollect, scopes: list[str]) -> None:
    asked = scopes[-1]
    own = _own(rg, asked, "Session")
    result = rg.recall(
        "the session where the CI cache kept being invalidated", scope_id=asked, now=NOW
    )
    assert result.candidates, result.prose
    assert result.candidates[0].session_id in own
    assert {c.session_id for c in result.candidates} <= own


def test_keyword_matches_of_the_scope_are_not_crowded_out(
    narrow: Recollect, scopes: list[str]
) -> None:
    """Every scope has the same rare words: the full-text index (which cannot filter by scope)
    ranks 21 equal matches, more than its window of 10, yet the asked scope's match is seen."""
    asked = scopes[-1]
    own = _own(narrow, asked, "Entry")
    for word, memory in (
        ("LaunchDarkly", MEMORIES[5]),
        ("Airbyte", MEMORIES[11]),
        ("PagerDuty", MEMORIES[9]),
        ("Loki", MEMORIES[8]),
    ):
        hits = narrow.search(word, scope_id=asked, limit=3, touch=False, kinds=["entry"])
        assert hits and {h.entry.id for h in hits} <= own
        assert hits[0].entry.content == memory, word
        assert hits[0].signals.keyword == 1.0, (word, hits[0].signals)


def test_keyword_matches_of_the_scopes_chunks_are_not_crowded_out(
    narrow: Recollect, scopes: list[str]
) -> None:
    """The same for document chunks (``chunk_text``): 21 equal matches, a window of 10."""
    asked = scopes[-1]
    own = _own(narrow, asked, "Chunk")
    for word, chunk in (("KMS", CHUNKS[1]), ("ingress", CHUNKS[0]), ("reliability", CHUNKS[2])):
        hits = narrow.search(word, scope_id=asked, limit=3, touch=False, kinds=["chunk"])
        assert hits and {h.entry.id for h in hits} <= own
        assert hits[0].entry.content == chunk, word
        assert hits[0].signals.keyword == 1.0, (word, hits[0].signals)
