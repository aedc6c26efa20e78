"""Crash during a document ingest: kill -9 Neo4j in the middle of ``documents.ingest_path``.

The pipeline opens a document (``documents/begin``: a new document is ``pending`` with no
content, and a ``PipelineRun`` is ``running``), chunks, embeds and extracts outside the database,
then commits the processed document in one write transaction. A crash between the two leaves the
pending document and the running run behind. After the restart:

1. every document the ingest returned as created is there, ``ready``, with its chunks;
2. the document that was cut off is ``pending`` with no content and no chunk (nothing half-written);
3. ``check_invariants()`` finds nothing;
4. ingesting the folder again completes the rest: the same document ids, the chunk counts of an
   uninterrupted ingest of the same folder, no duplicate document or chunk.

The default test kills the server after the fourth document is opened (deterministic); the
``heavy`` one kills it while a document's commit is in flight (the commit happens entirely or not
at all, whichever way the race goes).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import DatabaseUnavailable
from recollect_graph.services.documents.service import IngestResult
from tests.reliability.support import Crashable, violations

N_DOCS = 8
CUT_AT = 3  # the fourth document (index 3) is the one the kill cuts off

TOOLS = ["Postgres", "Redis", "Kafka", "Nginx", "Grafana", "Terraform", "Celery", "Vite"]


def write_docs(folder: Path, n: int = N_DOCS) -> None:
    """``n`` Markdown runbooks of a few sections each (several chunks per document)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        tool = TOOLS[i % len(TOOLS)]
        sections = []
        for s in range(3):
            body = " ".join(
                f"Step {s}.{k}: the {tool} service {i} on host db-{i}-{k} is restarted by Ana "
                f"after the queue backs up, and Kai checks the dashboard for errors."
                for k in range(12)
            )
            sections.append(f"## {tool} procedure {s}\n\n{body}\n")
        text = f"# {tool} runbook {i}\n\n" + "\n".join(sections)
        (folder / f"runbook-{i:02d}.md").write_text(text)


def _folder_and_scope(tmp_path: Path, name: str, prefix: str) -> tuple[Path, str]:
    """A folder of the test runbooks under ``tmp_path`` and a fresh scope name."""
    folder = tmp_path / name
    write_docs(folder)
    return folder, f"{prefix}-{uuid.uuid4().hex[:8]}"


def _docs(rg: Recollect, scope: str) -> dict[str, dict[str, Any]]:
    """Each document of the scope by source id: id, status, chunk_count, held chunks, content."""
    rows = rg.query(
        "MATCH (d:Document {scope_id: $s}) "
        "RETURN d.source_id AS src, d.id AS id, d.status AS status, "
        "d.chunk_count AS chunk_count, d.content IS NOT NULL AS has_content, "
        "COUNT { (d)-[:HAS_CHUNK]->(:Chunk) } AS chunks",
        {"s": scope},
    )
    return {str(r["src"]): dict(r) for r in rows}


def _count(rg: Recollect, cypher: str, scope: str) -> int:
    return int(rg.query(cypher, {"s": scope})[0]["n"])


def _runs(rg: Recollect, doc_id: str) -> list[str]:
    rows = rg.query(
        "MATCH (:Document {id: $d})-[:HAS_RUN]->(r:PipelineRun) RETURN r.status AS status",
        {"d": doc_id},
    )
    return sorted(str(r["status"]) for r in rows)


@pytest.fixture
def client(crashable: Crashable, rg: Recollect) -> Iterator[Recollect]:
    r = crashable.recollect(rg.embedder)
    yield r
    r.close()


@pytest.fixture
def reference(rg: Recollect, tmp_path: Path) -> dict[str, dict[str, Any]]:
    """An uninterrupted ingest of the same folder (on the session's server): the expected state."""
    folder, scope = _folder_and_scope(tmp_path, "ref", "doc-ref")
    report = rg.documents.ingest_path(folder, owner_id="kai", scope_id=scope)
    assert report.totals()["created"] == N_DOCS
    return _docs(rg, scope)


def _recorded(r: Recollect) -> list[IngestResult]:
    """Record every document ``ingest_path`` finishes (what it reports back to its caller)."""
    done: list[IngestResult] = []
    ingest = r.documents.ingest

    def record(*args: Any, **kwargs: Any) -> IngestResult:
        res = ingest(*args, **kwargs)
        done.append(res)
        return res

    r.documents.ingest = record  # type: ignore[method-assign]
    return done


def _after_restart_and_rerun(
    r: Recollect,
    scope: str,
    folder: Path,
    done: list[IngestResult],
    reference: dict[str, dict[str, Any]],
    cut_off: str,
) -> None:
    """The checks shared by both tests, once the server is back."""
    docs = _docs(r, scope)
    for res in done:  # 1. every document reported created is there, ready, with its chunks
        assert res.status == "created"
        d = docs[Path(res.path or "").name]
        assert d["id"] == res.document_id and d["status"] == "ready", d
        assert d["chunks"] == d["chunk_count"] == res.counts["chunks_total"], d
    cut = docs.get(cut_off)  # 2. the cut-off document: all or nothing
    if cut is not None and cut["status"] != "ready":
        assert cut["status"] == "pending" and not cut["has_content"] and cut["chunks"] == 0, cut
        assert _runs(r, cut["id"]) == ["running"]
    assert len(docs) <= len(done) + 1
    assert violations(r, None) == {}  # 3.

    del r.documents.ingest  # 4. the re-run, unpatched
    again = r.documents.ingest_path(folder, owner_id="kai", scope_id=scope)
    statuses = {d.path: d.status for d in again.documents}
    assert [d.status for d in again.documents[: len(done)]] == ["unchanged"] * len(done)
    assert all(s in ("created", "unchanged") for s in statuses.values()), statuses
    after = _docs(r, scope)
    assert set(after) == set(reference)
    for src, d in after.items():
        assert d["status"] == "ready"
        assert d["chunks"] == d["chunk_count"] == reference[src]["chunk_count"], (src, d)
        if src in docs:
            assert d["id"] == docs[src]["id"]  # the document kept its id
    assert _count(r, "MATCH (d:Document {scope_id: $s}) RETURN count(d) AS n", scope) == N_DOCS
    chunks = _count(r, "MATCH (c:Chunk {scope_id: $s}) RETURN count(c) AS n", scope)
    assert chunks == sum(d["chunk_count"] for d in reference.values())
    dup = (
        "MATCH (c:Chunk {scope_id: $s}) WITH c.id AS id, count(*) AS k WHERE k > 1 "
        "RETURN count(id) AS n"
    )
    assert _count(r, dup, scope) == 0
    assert violations(r, None) == {}
    third = r.documents.ingest_path(folder, owner_id="kai", scope_id=scope)
    assert third.totals()["unchanged"] == N_DOCS


def test_ingest_killed_after_a_document_is_opened(
    crashable: Crashable,
    client: Recollect,
    reference: dict[str, dict[str, Any]],
    tmp_path: Path,
) -> None:
    folder, scope = _folder_and_scope(tmp_path, "docs", "crash-docs")
    r = client
    done = _recorded(r)
    write = r.db.write
    opened: list[str] = []

    def write_then_kill(name: str, /, **params: Any) -> Any:
        rows = write(name, **params)
        if name == "documents/begin":
            opened.append(params["doc"]["source_id"])
            if len(opened) == CUT_AT + 1:  # pending document and running run committed
                crashable.kill9()
        return rows

    r.db.write = write_then_kill  # type: ignore[method-assign]
    try:
        with pytest.raises(DatabaseUnavailable):
            r.documents.ingest_path(folder, owner_id="kai", scope_id=scope)
    finally:
        del r.db.write
    assert len(done) == CUT_AT and len(opened) == CUT_AT + 1
    crashable.restart()
    cut_off = opened[-1]
    docs = _docs(r, scope)
    assert docs[cut_off]["status"] == "pending"  # the crash left it behind, as designed
    _after_restart_and_rerun(r, scope, folder, done, reference, cut_off)
    # the document cut off keeps its id; the re-run marks its crashed run `interrupted`
    assert _docs(r, scope)[cut_off]["id"] == docs[cut_off]["id"]
    assert _runs(r, docs[cut_off]["id"]) == ["complete", "interrupted"]


@pytest.mark.heavy
def test_ingest_killed_while_a_commit_is_in_flight(
    crashable: Crashable,
    client: Recollect,
    reference: dict[str, dict[str, Any]],
    tmp_path: Path,
) -> None:
    folder, scope = _folder_and_scope(tmp_path, "docs", "crash-docs-tx")
    r = client
    done = _recorded(r)
    write_tx: Callable[[Any], Any] = r.db.write_tx
    commits: list[int] = []
    killer: list[threading.Thread] = []

    def write_tx_racing_a_kill(fn: Any) -> Any:
        commits.append(1)
        if len(commits) == CUT_AT + 1:
            t = threading.Thread(target=crashable.kill9)
            t.start()
            killer.append(t)
        return write_tx(fn)

    r.db.write_tx = write_tx_racing_a_kill  # type: ignore[method-assign]
    try:
        with pytest.raises(DatabaseUnavailable):
            r.documents.ingest_path(folder, owner_id="kai", scope_id=scope)
    finally:
        del r.db.write_tx
        for t in killer:
            t.join(timeout=60)
    crashable.restart()
    cut_off = sorted(p.name for p in folder.iterdir())[len(done)] if len(done) < N_DOCS else ""
    _after_restart_and_rerun(r, scope, folder, done, reference, cut_off)
