"""Documents pipeline against the real Neo4j and the real embedding model and spaCy pipeline."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.services.documents.pipeline import Pipeline
from recollect_graph.services.documents.service import DocumentNotFound, Documents, PipelineFailed

SAMPLE = Path(__file__).parents[1] / "data" / "docs_sample"

V1 = """# Runbook

## Restart

Alice restarts the billing service with systemctl. The restart takes a minute.

## Backups

Bob runs the backups of PostgreSQL every night. Backups go to the object store.
"""
V2 = V1.replace(
    "Bob runs the backups of PostgreSQL every night.", "Carol runs the backups of MySQL weekly."
)


def _violations(rg: Recollect, scope: str) -> dict[str, list[dict[str, object]]]:
    return {k: v for k, v in rg.check_invariants(scope).items() if v}


def test_ingest_then_unchanged_then_incremental_update(rg: Recollect, scope_id: str) -> None:
    first = rg.documents.ingest("Runbook", V1, owner_id="kai", scope_id=scope_id)
    assert first.status == "created"
    assert first.counts["chunks_embedded"] == first.counts["chunks_total"] >= 2
    assert set(first.steps) >= {"chunking", "embedding", "extracting", "writing"}

    again = rg.documents.ingest("Runbook", V1, owner_id="kai", scope_id=scope_id)
    assert again.status == "unchanged" and again.document_id == first.document_id

    # same document (source id), one section changed: only that chunk is embedded again
    src = {"source_id": "runbook.md", "owner_id": "kai", "scope_id": scope_id}
    a = rg.documents.ingest("Runbook", V1, **src)
    b = rg.documents.ingest("Runbook", V2, **src)
    assert b.status == "updated" and b.document_id == a.document_id
    assert b.counts["chunks_embedded"] == 1
    assert b.counts["chunks_removed"] == 1
    assert b.counts["chunks_kept"] == b.counts["chunks_total"] - 1
    chunks = rg.documents.chunks(b.document_id, scope_id=scope_id)
    text = "".join(c["text"] for c in chunks)
    assert "Carol" in text and "Bob" not in text
    content = rg.documents.content(b.document_id, scope_id=scope_id)
    for c in chunks:
        assert content[c["start_offset"] : c["end_offset"]] == c["text"]
    # what came only from the removed chunk is retracted (bob: only the first document now)
    bob = rg.entities.show("bob", scope_id=scope_id)
    assert bob["mention_count"] == 1
    assert {m["document_id"] for m in bob["mentions"]} == {first.document_id}
    rg.documents.forget(first.document_id, scope_id=scope_id)
    with pytest.raises(InvalidInput):
        rg.entities.show("bob", scope_id=scope_id)
    assert rg.entities.show("carol", scope_id=scope_id)["mention_count"] >= 1
    runs = rg.documents.runs(b.document_id, scope_id=scope_id)
    assert [r["status"] for r in runs] == ["complete", "complete"]
    assert runs[0]["chunks_embedded"] == 1
    assert not _violations(rg, scope_id)


def test_reingesting_an_unchanged_folder_embeds_nothing(
    rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    shutil.copytree(SAMPLE, folder)
    first = rg.documents.ingest_path(folder, owner_id="kai", scope_id=scope_id)
    t = first.totals()
    assert t["created"] == 4 and t["failed"] == 0 and t["chunks_embedded"] > 0
    second = rg.documents.ingest_path(folder, owner_id="kai", scope_id=scope_id)
    assert second.totals()["unchanged"] == 4
    assert second.totals()["chunks_embedded"] == 0
    # the folder's batch run in the graph says the same
    assert second.run_id is not None
    run = rg.documents.run(second.run_id, scope_id=scope_id)
    assert run["kind"] == "batch" and run["unchanged"] == 4 and run["chunks_embedded"] == 0
    assert rg.documents.run(first.run_id or "", scope_id=scope_id)["created"] == 4
    # editing one file updates only that document
    (folder / "notes.txt").write_text("Release notes\n\nVersion 3 drops MySQL.\n")
    third = rg.documents.ingest_path(folder, owner_id="kai", scope_id=scope_id)
    assert third.totals()["updated"] == 1 and third.totals()["unchanged"] == 3
    docs = rg.documents.list(scope_id)
    assert len(docs) == 4 and all(d["status"] == "ready" for d in docs)
    html = rg.documents.get("intro.html", scope_id=scope_id)
    assert html["title"] == "Platform overview"
    assert not _violations(rg, scope_id)


def test_entities_relations_and_document_links(rg: Recollect, scope_id: str) -> None:
    rg.documents.ingest_path(SAMPLE, owner_id="kai", scope_id=scope_id)
    pg = rg.entities.show("PostgreSQL", scope_id=scope_id)
    assert pg["mention_count"] >= 3
    titles = {m["title"] for m in pg["mentions"]}
    assert {"Billing service", "Search service"} <= titles
    alice = rg.entities.show("alice", scope_id=scope_id)
    rels = {(r["predicate"], r["other"].lower()) for r in alice["relations"]}
    assert ("depend on", "postgresql") in rels
    # relation weight = evidence count; evidence points at chunks
    near = rg.entities.neighbours("alice", scope_id=scope_id, hops=2)
    assert "postgresql" in {n["name"].lower() for n in near}
    path = rg.entities.path("alice", "postgresql", scope_id=scope_id)
    assert path[0]["kind"] == "entity" and path[-1]["name"].lower() == "postgresql"
    billing = rg.documents.get("billing.md", scope_id=scope_id)
    assert billing["embedding_model"] == rg.embedder.model_id
    assert "Search service" in {s["title"] for s in billing["sharing"]} | {
        s["title"] for s in billing["similar"]
    }


def test_a_failed_step_leaves_the_last_good_version(
    rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    ok = rg.documents.ingest("Runbook", V1, owner_id="kai", scope_id=scope_id, source_id="r")
    before = rg.documents.chunks(ok.document_id, scope_id=scope_id)
    # a model folder that cannot load: the embedding step fails (locally, no network)
    (tmp_path / "no-such-model").mkdir()
    (tmp_path / "no-such-model" / "config.json").write_text("{not json")
    broken = Documents(rg.db, Embedder(str(tmp_path / "no-such-model")), rg.entity_extractor)
    real = rg.documents.pipeline
    broken._pipeline = Pipeline(broken.embedder, real.extractor, real.chunker, real.config)
    with pytest.raises(PipelineFailed) as e:
        broken.ingest("Runbook", V2, owner_id="kai", scope_id=scope_id, source_id="r")
    assert e.value.step == "embedding"
    doc = rg.documents.get(ok.document_id, scope_id=scope_id)
    assert doc["status"] == "failed" and "no-such-model" in doc["error"]
    assert doc["last_run"]["status"] == "failed" and doc["last_run"]["failed_step"] == "embedding"
    assert rg.documents.chunks(ok.document_id, scope_id=scope_id) == before
    # a retry with a working pipeline processes it (the failed version was never stored)
    retry = rg.documents.ingest("Runbook", V2, owner_id="kai", scope_id=scope_id, source_id="r")
    assert retry.status == "updated" and retry.counts["chunks_embedded"] == 1
    assert rg.documents.get(ok.document_id, scope_id=scope_id)["status"] == "ready"
    assert not _violations(rg, scope_id)


def test_forget_retracts_everything_derived(rg: Recollect, scope_id: str) -> None:
    note = rg.remember("Bob runs backups by hand.", scope_id=scope_id, owner_id="kai")
    doc = rg.documents.ingest(
        "Runbook", V1, owner_id="kai", scope_id=scope_id, supersedes=[note.id]
    )
    assert rg.get(note.id, scope_id=scope_id).retired_at is not None
    rg.documents.ingest(
        "Other", "# Other\n\nAlice restarts the cache.", owner_id="kai", scope_id=scope_id
    )
    out = rg.documents.forget(doc.document_id, scope_id=scope_id)
    assert out["chunks"] >= 2 and out["entries_restored"] == 1 and out["runs_removed"] == 1
    assert rg.get(note.id, scope_id=scope_id).retired_at is None
    with pytest.raises(DocumentNotFound):
        rg.documents.get(doc.document_id, scope_id=scope_id)
    # alice is still mentioned by the other document; postgresql is gone
    assert rg.entities.show("alice", scope_id=scope_id)["mention_count"] == 1
    with pytest.raises(InvalidInput):
        rg.entities.show("postgresql", scope_id=scope_id)
    assert not _violations(rg, scope_id)


def test_bad_input_changes_nothing_and_scopes_are_isolated(rg: Recollect, scope_id: str) -> None:
    for kwargs in (
        {"title": "", "content": "x"},
        {"title": "t", "content": "   "},
        {"title": "t", "content": "x", "source_type": "nope"},
        {"title": "t", "content": "x", "metadata": "not a mapping"},
    ):
        with pytest.raises(InvalidInput):
            rg.documents.ingest(owner_id="kai", scope_id=scope_id, **kwargs)  # type: ignore[arg-type]
    assert rg.documents.list(scope_id) == []
    with pytest.raises(InvalidInput):
        rg.documents.ingest_path("/no/such/folder", owner_id="kai", scope_id=scope_id)
    d = rg.documents.ingest("Runbook", V1, owner_id="kai", scope_id=scope_id)
    other = scope_id + "-other"
    with pytest.raises(DocumentNotFound):
        rg.documents.get(d.document_id, scope_id=other)
    with pytest.raises(DocumentNotFound):
        rg.documents.forget(d.document_id, scope_id=other)
    with pytest.raises(InvalidInput):
        rg.entities.show("alice", scope_id=other)
    assert rg.documents.get(d.document_id, scope_id=scope_id)["status"] == "ready"
