"""Scope administration and edit in place: list with counts, drop (undoable until purged),
purge, edit (history kept, vector and claims recomputed, undoable); API and CLI."""

from __future__ import annotations

from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput
from tests.helpers import assert_one_line_error, data
from tests.snapshots import difference, snapshot


def _fill(rg: Recollect, scope_id: str) -> None:
    rg.remember("Alice maintains the billing service.", scope_id=scope_id, owner_id="kai")
    rg.remember("We deploy with Helm charts.", scope_id=scope_id, owner_id="kai")
    rg.documents.ingest(
        "Runbook", "# Runbook\n\nCarol restarts Grafana.\n", owner_id="kai", scope_id=scope_id
    )


def _listed(rg: Recollect, scope_id: str, **kw: Any) -> dict[str, Any] | None:
    return next((s for s in rg.scopes.list(**kw) if s["scope_id"] == scope_id), None)


def test_drop_hides_everything_and_undo_brings_it_back_exactly(
    rg: Recollect, scope_id: str
) -> None:
    _fill(rg, scope_id)
    other = scope_id + "-other"
    rg.remember("Another scope keeps its note.", scope_id=other, owner_id="kai")
    row = _listed(rg, scope_id)
    assert row and row["entries"] == 2 and row["documents"] == 1 and row["dropped"] is False
    before, before_other = snapshot(rg, scope_id), snapshot(rg, other)
    out = rg.scopes.drop(scope_id)
    # every node of the scope, counted once per node (labels with equal counts included)
    assert out["nodes"] == len(before["nodes"]) and out["operation_id"]
    # gone from every call that names the scope; the other scope untouched
    assert rg.recent(scope_id) == [] and rg.search("billing", scope_id=scope_id) == []
    assert snapshot(rg, scope_id)["nodes"] == []
    assert difference(before_other, snapshot(rg, other)) == {}
    assert _listed(rg, scope_id) is None
    assert (_listed(rg, scope_id, include_dropped=True) or {})["dropped"] is True
    assert [o.kind for o in rg.operations(scope_id)] == ["scope_drop"]
    rg.undo(out["operation_id"], scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
    # the same counts, and the drop's own operation in the log
    assert _listed(rg, scope_id) == {**row, "operations": row["operations"] + 1}


def test_purge_deletes_a_dropped_scope_for_good(rg: Recollect, scope_id: str) -> None:
    _fill(rg, scope_id)
    out = rg.scopes.drop(scope_id)
    purged = rg.scopes.purge(scope_id)
    assert purged["purged"] == [
        {"scope_id": scope_id, "operation_id": out["operation_id"], "nodes": out["nodes"]}
    ]
    assert _listed(rg, scope_id, include_dropped=True) is None
    with pytest.raises(InvalidInput, match="purged"):
        rg.undo(out["operation_id"], scope_id=scope_id)
    assert rg.scopes.purge(scope_id)["purged"] == []
    # an empty scope cannot be dropped: nothing happens, no operation
    with pytest.raises(InvalidInput, match="nothing to drop"):
        rg.scopes.drop(scope_id + "-empty")
    assert rg.operations(scope_id + "-empty") == []


def test_edit_in_place_recomputes_and_undo_restores_exactly(rg: Recollect, scope_id: str) -> None:
    e = rg.remember("The frontend build uses webpack.", scope_id=scope_id, owner_id="kai")
    rg.remember("Alice maintains the billing service.", scope_id=scope_id, owner_id="kai")
    before = snapshot(rg, scope_id)
    edited, op = rg.edit(e.id, "The frontend build uses vite.", scope_id=scope_id)
    assert edited.id == e.id and edited.content == "The frontend build uses vite." and op
    # the claims follow the new text
    claims = rg.query(
        "MATCH (:Entry {id: $id})-[:ASSERTS]->(c:Claim) RETURN c.object_key AS o", {"id": e.id}
    )
    assert claims and all("webpack" not in str(c["o"]).lower() for c in claims)
    ops = rg.operations(scope_id)
    assert ops[0].kind == "edit" and ops[0].entry_ids == [e.id]
    # the same content again: nothing changes, no operation
    assert rg.edit(e.id, "The frontend build uses vite.", scope_id=scope_id)[1] is None
    assert len(rg.operations(scope_id)) == len(ops)
    rg.undo(op, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
    # the vector follows the new text: an edited entry is found by it
    rg.edit(e.id, "The frontend build uses vite.", scope_id=scope_id)
    assert rg.search("vite bundler", scope_id=scope_id)[0].entry.id == e.id


def test_edit_refuses_another_scopes_entry(rg: Recollect, scope_id: str) -> None:
    e = rg.remember("A private note.", scope_id=scope_id, owner_id="kai")
    with pytest.raises(Exception, match=e.id):
        rg.edit(e.id, "changed", scope_id=scope_id + "-b")
    assert rg.get(e.id, scope_id=scope_id, touch=False).content == "A private note."


def test_cli_scopes_and_edit(run: Any, rg: Recollect, scope_id: str) -> None:
    _fill(rg, scope_id)
    rows = data(run("scopes", "list", "--json"))
    assert any(r["scope_id"] == scope_id and r["entries"] == 2 for r in rows)
    assert scope_id in run("scopes", "list").stdout
    before = snapshot(rg, scope_id)
    out = data(run("scopes", "drop", "--scope", scope_id, "--json"))
    assert out["operation_id"]
    run("undo", out["operation_id"], "--scope", scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
    eid = rg.recent(scope_id)[0].id
    r = run("edit", eid, "We deploy with Argo CD.", "--scope", scope_id)
    assert r.stdout.startswith(f"edited {eid}; undo with: recollect-graph undo ")
    bad = run("edit", "no-such-entry", "x", "--scope", scope_id, ok=False)
    assert_one_line_error(bad, "no-such-entry")
    bad = run("scopes", "drop", "--scope", scope_id + "-none", "--yes", ok=False)
    assert_one_line_error(bad, "nothing to drop")
