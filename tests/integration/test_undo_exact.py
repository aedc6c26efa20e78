"""Undo restores exactly: the scope's whole graph after undo equals the one before the change.

Each test takes an exact snapshot of the scope (every node and property, vectors by hash, every
relationship; tests/snapshots.py), makes one destructive change through the public API, undoes it,
and compares. These are the regression tests of issue 19's undo bugs.
"""

from __future__ import annotations

import pytest

from recollect_graph import Recollect
from tests.snapshots import difference, snapshot


def _rich_entry(rg: Recollect, scope_id: str) -> str:
    """An entry with mentions, an entity only it mentions, a relation it evidences, a sibling."""
    rg.remember("Alice maintains the billing service.", scope_id=scope_id, owner_id="kai")
    e = rg.remember(
        "The billing service depends on PostgreSQL for invoices.",
        scope_id=scope_id,
        owner_id="kai",
    )
    rg.entities.index_entries(scope_id, rg.documents.pipeline)
    return e.id


def test_forget_then_undo_restores_derived_data_exactly(rg: Recollect, scope_id: str) -> None:
    eid = _rich_entry(rg, scope_id)
    before = snapshot(rg, scope_id)
    assert before["labels"].get("Relation") and before["types"].get("EVIDENCED_BY")
    rg.forget(eid, scope_id=scope_id)
    gone = snapshot(rg, scope_id)
    assert gone["labels"].get("Relation", 0) < before["labels"]["Relation"]
    op = rg.operations(scope_id)[0]
    assert op.kind == "forget"
    rg.undo(op.id, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
    # and the undone scope still searches (vectors and full text are back)
    assert rg.search("PostgreSQL invoices", scope_id=scope_id)[0].entry.id == eid
