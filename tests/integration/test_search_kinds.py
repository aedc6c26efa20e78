"""One search over everything a scope knows (issue 19 item 1): entries, turns and chunks.

Before: ingested documents were invisible to ``search`` (0 hits after ``docs ingest``).
"""

from __future__ import annotations

from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput
from tests.helpers import data

DOC = """# Operations handbook

## Deploys

### Rollback

To roll back a bad deploy, run `deployctl revert` with the previous release tag; the load
balancer drains old pods over ninety seconds.

## Billing

Invoices are generated on the first business day of each month by the ledger job.
"""


@pytest.fixture
def mixed(rg: Recollect, scope_id: str) -> dict[str, str]:
    e = rg.remember(
        "We decided to keep the previous release image for a week to allow rollbacks",
        scope_id=scope_id,
        owner_id="kai",
    )
    rg.sessions.add_turns(
        "chat-1",
        [
            {
                "id": "t1",
                "speaker": "ana",
                "text": "How do I roll back the deploy from this morning?",
            },
            {
                "id": "t2",
                "speaker": "kai",
                "text": "Use deployctl revert with yesterday's release tag.",
            },
        ],
        scope_id=scope_id,
        owner_id="kai",
    )
    doc = rg.documents.ingest("Operations handbook", DOC, owner_id="kai", scope_id=scope_id)
    return {"entry": e.id, "document": doc.document_id}


def test_documents_turns_and_entries_in_one_ranked_list(
    rg: Recollect, scope_id: str, mixed: dict[str, str]
) -> None:
    hits = rg.search("how to roll back a bad deploy", scope_id=scope_id, limit=10)
    kinds = {h.kind for h in hits}
    assert kinds == {"entry", "turn", "chunk"}
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assert all(hits[i].score >= hits[i + 1].score for i in range(len(hits) - 1))
    chunk = next(h for h in hits if h.kind == "chunk")
    assert "deployctl revert" in chunk.entry.content
    assert chunk.origin["document_id"] == mixed["document"]
    assert chunk.origin["document_title"] == "Operations handbook"
    assert "Rollback" in (chunk.origin["heading"] or "")
    assert isinstance(chunk.origin["chunk"], int)
    assert chunk.signals.semantic > 0 and chunk.signals.strength > 0
    turn = next(h for h in hits if h.kind == "turn")
    assert turn.origin["session_id"] == "chat-1" and turn.origin["speaker"] in ("ana", "kai")
    entry = next(h for h in hits if h.kind == "entry")
    assert entry.entry.id == mixed["entry"] and entry.origin == {}


def test_kinds_filter(rg: Recollect, scope_id: str, mixed: dict[str, str]) -> None:
    q = "how to roll back a bad deploy"
    assert {h.kind for h in rg.search(q, scope_id=scope_id, kinds=["chunk"])} == {"chunk"}
    assert {h.kind for h in rg.search(q, scope_id=scope_id, kinds=["turn"])} == {"turn"}
    both = rg.search(q, scope_id=scope_id, kinds=["entry", "chunk"])
    assert {h.kind for h in both} == {"entry", "chunk"}
    with pytest.raises(InvalidInput, match="kinds must be some of entry, turn, chunk"):
        rg.search(q, scope_id=scope_id, kinds=["page"])
    # a chunk has no entry type or tags: entry-only filters keep to entries
    typed = rg.search(q, scope_id=scope_id, entry_types=["note"])
    assert {h.kind for h in typed} == {"entry"}


def test_a_forgotten_document_leaves_search(
    rg: Recollect, scope_id: str, mixed: dict[str, str]
) -> None:
    rg.documents.forget(mixed["document"], scope_id=scope_id)
    hits = rg.search("invoices ledger job first business day", scope_id=scope_id)
    assert all(h.kind != "chunk" for h in hits)


def test_cli_search_kind_and_origin(run: Any, scope_id: str, mixed: dict[str, str]) -> None:
    r = run("search", "when are invoices generated", "--scope", scope_id, "--kind", "chunk",
            "--json")  # fmt: skip
    hits = data(r)
    assert hits and {h["kind"] for h in hits} == {"chunk"}
    assert hits[0]["origin"]["document_title"] == "Operations handbook"
    assert "ledger job" in hits[0]["entry"]["content"]
    text = run("search", "when are invoices generated", "--scope", scope_id).stdout
    assert "chunk" in text and "Operations handbook" in text
    r = run("search", "x", "--scope", scope_id, "--kind", "page", ok=False)
    assert r.exit_code != 0 and "page" in r.output
