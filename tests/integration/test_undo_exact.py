"""Undo restores exactly: the scope's whole graph after undo equals the one before the change.

Each test takes an exact snapshot of the scope (every node and property, vectors by hash, every
relationship; tests/snapshots.py), makes one destructive change through the public API, undoes it,
and compares. These are the regression tests of issue 19's undo bugs.
"""

from __future__ import annotations

from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput, NothingToSupersede
from tests.helpers import data
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


def _conflict(rg: Recollect, scope_id: str) -> tuple[str, str]:
    old = rg.remember("Kai owns the search service.", scope_id=scope_id, owner_id="kai").id
    new = rg.remember("Ana owns the search service.", scope_id=scope_id, owner_id="ana").id
    assert [c.source.id for c in rg.conflicts(scope_id)] == [new]
    return old, new


@pytest.mark.parametrize("forget_loser", [True, False])
def test_resolve_then_undo_reopens_the_conflict_exactly(
    rg: Recollect, scope_id: str, forget_loser: bool
) -> None:
    old, new = _conflict(rg, scope_id)
    before = snapshot(rg, scope_id)
    out = rg.resolve(scope_id, new, old, keep=new, forget_loser=forget_loser)
    assert rg.conflicts(scope_id) == []
    assert out.operation_id is not None
    rg.undo(out.operation_id, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
    # the conflict is open again and listed
    assert [(c.source.id, c.target.id) for c in rg.conflicts(scope_id)] == [(new, old)]


def test_entity_merge_then_unmerge_restores_everything(rg: Recollect, scope_id: str) -> None:
    rg.documents.ingest(
        "Stack",
        "# Stack\n\nThe team runs Postgres for billing. Alice tunes PostgreSQL every week. "
        "Bob depends on Postgres for reports.\n",
        owner_id="kai",
        scope_id=scope_id,
    )
    rg.remember("Postgres backups run nightly.", scope_id=scope_id, owner_id="kai")
    before = snapshot(rg, scope_id)
    absorbed = rg.entities.show("postgres", scope_id=scope_id)
    assert absorbed.get("first_seen_at") and absorbed["mentions"]
    op = rg.entities.merge("postgresql", "postgres", scope_id=scope_id)
    assert rg.operations(scope_id)[0].kind == "entity_merge"
    rg.entities.unmerge(op, scope_id=scope_id)
    # first_seen_at/last_seen_at, MENTIONS snippets, counts and aliases: all exactly back
    assert difference(before, snapshot(rg, scope_id)) == {}
    with pytest.raises(InvalidInput, match="already undone"):
        rg.undo(op, scope_id=scope_id)
    # and undo of the merge operation is the same as unmerge
    op2 = rg.entities.merge("postgresql", "postgres", scope_id=scope_id)
    rg.undo(op2, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}


def test_document_forget_is_one_exact_undoable_operation(rg: Recollect, scope_id: str) -> None:
    rg.remember("Alice tunes PostgreSQL.", scope_id=scope_id, owner_id="kai")
    doc = rg.documents.ingest(
        "Runbook",
        "# Runbook\n\nCarol restarts Grafana when the dashboards stall. "
        "The billing service depends on PostgreSQL.\n\n## Later\n\nBob owns the pager.\n",
        owner_id="kai",
        scope_id=scope_id,
    )
    before = snapshot(rg, scope_id)
    out = rg.documents.forget(doc.document_id, scope_id=scope_id)
    assert out["chunks"] >= 1 and out["operation_id"]
    assert rg.operations(scope_id)[0].kind == "document_forget"
    assert "Document" not in snapshot(rg, scope_id)["labels"]
    rg.undo(out["operation_id"], scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}


def test_soft_delete_by_feedback_is_undoable(rg: Recollect, scope_id: str) -> None:
    mem = rg.memories.in_scope(scope_id, "agent")
    a = rg.remember("The VPN config lives in /etc/old", scope_id=scope_id, owner_id="k").id
    mem.feedback([{"id": a, "useful": False, "confidence": 1}])
    before = snapshot(rg, scope_id)
    out = mem.feedback([{"id": a, "useful": False, "confidence": 1}])
    assert out["soft_deleted_memories"] == [a] and out["operation_id"]
    op = rg.operations(scope_id)[0]
    assert op.kind == "soft_delete" and op.entry_ids == [a] and op.reason == "feedback"
    rg.undo(op.id, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
    # a rating that soft-deletes nothing writes no operation
    ops = len(rg.operations(scope_id))
    assert mem.feedback([{"id": a, "useful": True, "confidence": 8}])["operation_id"] is None
    assert len(rg.operations(scope_id)) == ops


def test_soft_delete_and_supersede_and_invalidate_that_match_nothing_write_nothing(
    rg: Recollect, scope_id: str
) -> None:
    rg.remember("We deploy with Helm charts.", scope_id=scope_id, owner_id="kai")
    ops = len(rg.operations(scope_id))
    assert rg.knowledge.soft_delete(["no-such-entry"], scope_id=scope_id)["operation_id"] is None
    with pytest.raises(NothingToSupersede, match="nothing changed"):
        rg.supersede(scope_id, "frontend build", "uses", "vite")
    inv = rg.invalidate(scope_id, "webpack", reason="moved")
    assert inv.invalidated == [] and inv.operation_id is None
    assert len(rg.operations(scope_id)) == ops


def test_supersede_and_invalidate_undo_exactly(rg: Recollect, scope_id: str) -> None:
    rg.remember("The frontend build uses webpack.", scope_id=scope_id, owner_id="kai")
    rg.remember("Webpack config lives in build/.", scope_id=scope_id, owner_id="kai")
    before = snapshot(rg, scope_id)
    sup = rg.supersede(scope_id, "frontend build", "uses", "vite")
    assert sup.superseded and sup.operation_id
    rg.undo(sup.operation_id, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
    inv = rg.invalidate(scope_id, "webpack", reason="moved", replacement="We build with vite.")
    assert inv.invalidated and inv.operation_id
    rg.undo(inv.operation_id, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}


def test_consolidate_then_undo_restores_exactly(rg: Recollect, scope_id: str) -> None:
    texts = [
        "The nightly backup job runs at 2am and writes to the S3 bucket backups-prod.",
        "The nightly backup job runs at 2 am and writes to the S3 bucket backups-prod.",
        "Nightly backup job: runs at 2am, writes to the S3 bucket backups-prod.",
    ]
    for t in texts:
        rg.remember(t, scope_id=scope_id, owner_id="kai", force=True)
    before = snapshot(rg, scope_id)
    out = rg.consolidate(scope_id, dry_run=False)
    assert out.applied and out.operation_id
    rg.undo(out.operation_id, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}


def test_cli_forget_then_undo_restores_exactly(run: Any, rg: Recollect, scope_id: str) -> None:
    eid = _rich_entry(rg, scope_id)
    before = snapshot(rg, scope_id)
    run("forget", eid, "--scope", scope_id)
    op = data(run("operations", "--scope", scope_id, "--json"))[0]
    assert op["kind"] == "forget"
    run("undo", op["id"], "--scope", scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}


def test_cli_supersede_matching_nothing_says_so(run: Any, scope_id: str) -> None:
    r = run("supersede", "frontend build", "uses", "vite", "--scope", scope_id, ok=False)
    assert r.exit_code == 1 and "nothing changed" in r.stderr and "undo" not in r.stdout
    r = run("invalidate", "webpack", "--reason", "moved", "--scope", scope_id)
    assert "nothing matched" in r.stdout and "no operation" in r.stdout
    assert data(run("operations", "--scope", scope_id, "--json")) == []


def test_topic_rebuild_removals_undo_exactly(rg: Recollect, scope_id: str) -> None:
    from tests.integration.test_topics import THEMES

    for texts in THEMES.values():
        rg.remember_many([{"content": t} for t in texts], scope_id=scope_id, owner_id="t")
    rg.topics.build(scope_id)
    before = snapshot(rg, scope_id)
    assert before["labels"].get("Topic") == 3
    report = rg.topics.build(scope_id, min_size=7)  # a larger min_size drops every topic
    assert report["removed"] == 3 and report["operation_id"]
    assert "Topic" not in snapshot(rg, scope_id)["labels"]
    rg.undo(report["operation_id"], scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
    # a rebuild that removes nothing writes no operation
    assert rg.topics.build(scope_id)["operation_id"] is None


def test_import_into_an_existing_scope_is_one_exact_undoable_operation(
    rg: Recollect, scope_id: str
) -> None:
    source = scope_id + "-src"
    _rich_entry(rg, source)
    rg.remember("We deploy with Helm charts.", scope_id=source, owner_id="kai")
    lines = list(rg.export(source))
    rg.remember("The target keeps its own note.", scope_id=scope_id, owner_id="kai")
    before = snapshot(rg, scope_id)
    report = rg.import_(lines, scope_id=scope_id, batch_size=3)  # several batches, one operation
    assert report.nodes_created > 3 and report.operation_id
    assert [o.kind for o in rg.operations(scope_id)] == ["import"]
    rg.undo(report.operation_id, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
    # the same import twice: the second changes nothing and writes no operation
    first = rg.import_(lines, scope_id=scope_id)
    assert first.operation_id and rg.import_(lines, scope_id=scope_id).operation_id is None


def test_an_import_that_alters_nodes_and_relationships_undoes_exactly(
    rg: Recollect, scope_id: str
) -> None:
    _rich_entry(rg, scope_id)
    rg.remember("We deploy with Helm charts.", scope_id=scope_id, owner_id="kai")
    lines = list(rg.export(scope_id))
    before = snapshot(rg, scope_id)
    # its own export back changes nothing (timestamps keep their UTC offset, not a named zone)
    again = rg.import_(lines)
    assert again.nodes_unchanged == again.nodes and again.operation_id is None
    nodes = [x for x in lines if x.get("kind") == "node"]
    rels = [x for x in lines if x.get("kind") == "rel"]
    assert nodes and rels
    entry = next(x for x in nodes if "Entry" in x["labels"])
    altered_entry = {**entry, "props": {**entry["props"], "summary": "rewritten by the import"}}
    altered_rel = {**rels[0], "props": {**rels[0]["props"], "note": "set by the import"}}
    # the altered entry twice in one batch (the last line wins) and one relationship altered
    edited = [lines[0], *nodes, altered_entry, altered_entry, altered_rel]
    report = rg.import_(edited, scope_id=scope_id, batch_size=500)
    assert report.nodes_updated in (1, 2) and report.rels_updated == 1
    assert report.nodes_unchanged == len(nodes)
    after = snapshot(rg, scope_id)
    assert difference(before, after) != {}
    summary = rg.query(
        "MATCH (e:Entry {id: $id}) RETURN e.summary AS s", {"id": entry["props"]["id"]}
    )
    assert summary[0]["s"] == "rewritten by the import"
    rg.undo(report.operation_id, scope_id=scope_id)
    assert difference(before, snapshot(rg, scope_id)) == {}
