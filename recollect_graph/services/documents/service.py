"""Documents: ingest text, files and folders; list, show and forget them (``rg.documents``).

A document belongs to a collection of a scope and is identified by (collection, source_type,
source_id); without a ``source_id`` the content hash stands in for it, so ingesting the same text
twice is one document. Ingesting an unchanged document does nothing; a changed one is updated
incrementally (see :mod:`recollect_graph.services.documents.pipeline`). ``forget`` retracts
everything derived from a document in one transaction (chunks, mentions, relation evidence,
relations and entities left without support, its runs) and marks the topics that included it stale.

Example:
    >>> r = rg.documents.ingest("Runbook", "# Restart\\n\\nRun make restart.",  # doctest: +SKIP
    ...                         owner_id="kai", scope_id="ops")
    >>> r.status, r.counts["chunks_embedded"]  # doctest: +SKIP
    ('created', 1)
"""

from __future__ import annotations

import builtins
import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import (
    DocumentNotFound,
    InvalidInput,
    RecollectError,
)
from recollect_graph.ids import collection_id, document_id
from recollect_graph.nlp.chunker import hf_chunker
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.nlp.entities import EntityExtractor
from recollect_graph.results import FolderReport, IngestResult
from recollect_graph.services.documents import files as doc_files
from recollect_graph.services.documents.pipeline import (
    CandidateReader,
    Pipeline,
    PipelineConfig,
    StepFailed,
    content_hash,
    steps_json,
    write,
)
from recollect_graph.services.documents.reading import DocumentReads
from recollect_graph.services.kernel.times import now_utc
from recollect_graph.services.kernel.validation import (
    MAX_COLLECTION_CHARS,
    MAX_DOCUMENT_CHARS,
    MAX_DOCUMENT_TITLE_CHARS,
    MAX_SCOPE_CHARS,
    MAX_SOURCE_ID_CHARS,
    json_map,
    one_of,
    require_text,
)
from recollect_graph.services.knowledge import footprint
from recollect_graph.vocabulary import DOCUMENT_SOURCE_TYPES

log = logging.getLogger(__name__)

MAX_CONTENT_CHARS = MAX_DOCUMENT_CHARS
Progress = Callable[[int, int, str], None]


class PipelineFailed(RecollectError):
    """Processing a document failed; the document is ``failed`` and keeps its last good version."""

    code = "pipeline_failed"

    def __init__(self, message: str, *, document_id: str, run_id: str, step: str) -> None:
        super().__init__(message)
        self.document_id = document_id
        self.run_id = run_id
        self.step = step


class Documents(DocumentReads):
    """The documents pipeline over one database.

    Args:
        db: The database client.
        embedder: The embedding model (chunks are counted with its tokenizer).
        extractor: Entity and relation extraction.
        config: Pipeline tunables.
    """

    def __init__(
        self,
        db: Db,
        embedder: Embedder,
        extractor: EntityExtractor,
        config: PipelineConfig | None = None,
    ) -> None:
        self.db = db
        self.embedder = embedder
        self.extractor = extractor
        self.config = config or PipelineConfig()
        self._pipeline: Pipeline | None = None

    @property
    def pipeline(self) -> Pipeline:
        """The pipeline (built on first use: it loads the tokenizer)."""
        if self._pipeline is None:
            chunker = hf_chunker(
                self.embedder.tokenizer,
                model_max=self.embedder.max_tokens,
                target=self.config.target_tokens,
                overlap=self.config.overlap_tokens,
            )
            self._pipeline = Pipeline(self.embedder, self.extractor, chunker, self.config)
        return self._pipeline

    # -- ingest ---------------------------------------------------------------------------------

    def ingest(
        self,
        title: str,
        content: str,
        *,
        owner_id: str,
        scope_id: str,
        collection: str = "default",
        source_type: str = "manual",
        source_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        supersedes: Sequence[str] = (),
        path: str | None = None,
    ) -> IngestResult:
        """Ingest one document: unchanged -> no work; new or changed -> processed and committed.

        Args:
            title: The document's title.
            content: Its text (Markdown is chunked by its headings).
            owner_id: Who owns it.
            scope_id: The scope it belongs to.
            collection: Collection name within the scope.
            source_type: ``manual``, ``artifact``, ``conversation`` or ``file``.
            source_id: The source's own id (a path, a URL); default: the content hash.
            metadata: JSON-serialisable mapping stored with it.
            supersedes: Ids of entries of the scope this document replaces (they are retired
                while it exists and come back when it is forgotten).
            path: The file it was read from, if any.

        Returns:
            :class:`IngestResult` with status ``created``, ``updated`` or ``unchanged``.

        Raises:
            InvalidInput: Bad arguments; nothing is written.
            PipelineFailed: A step failed; the run and the document say ``failed``.
        """
        title = require_text(title, "title", max_len=MAX_DOCUMENT_TITLE_CHARS)
        if not isinstance(content, str) or not content.strip():
            raise InvalidInput("content must be a non-empty string")
        if len(content) > MAX_CONTENT_CHARS:
            raise InvalidInput(f"content is longer than {MAX_CONTENT_CHARS} characters")
        scope_id = require_text(scope_id, "scope_id", max_len=MAX_SCOPE_CHARS)
        owner_id = require_text(owner_id, "owner_id", max_len=MAX_SCOPE_CHARS)
        collection = require_text(collection, "collection", max_len=MAX_COLLECTION_CHARS)
        source_type = one_of(source_type, "source_type", DOCUMENT_SOURCE_TYPES)
        meta = json_map(metadata, "metadata")
        superseded = [require_text(e, "supersedes", max_len=200) for e in supersedes]
        h = content_hash(title, content)
        src = (
            require_text(source_id, "source_id", max_len=MAX_SOURCE_ID_CHARS)
            if source_id
            else f"sha256:{h}"
        )
        doc_id = document_id(scope_id, collection, source_type, src)
        state = self.db.read("documents/state", scope_id=scope_id, id=doc_id)
        if state and state[0]["content_hash"] == h and state[0]["status"] == "ready":
            return IngestResult(document_id=doc_id, status="unchanged", title=title, path=path)
        created = not state or state[0]["content_hash"] is None
        run_id = str(uuid.uuid4())
        now = now_utc()
        self.db.write(
            "documents/begin",
            doc={
                "id": doc_id,
                "scope_id": scope_id,
                "owner_id": owner_id,
                "collection_id": collection_id(scope_id, collection),
                "collection": collection,
                "title": title,
                "source_type": source_type,
                "source_id": src,
            },
            run_id=run_id,
            content_hash=h,
            now=now,
        )
        existing = list(state[0]["chunks"]) if state else []
        steps: dict[str, dict[str, Any]] = {}
        try:
            plan = self.pipeline.plan(
                doc_id, content, existing, steps, CandidateReader(self.db.read, scope_id)
            )
            with self.pipeline.step(steps, "writing") as info:

                def commit(tx: Tx) -> dict[str, Any]:
                    t = now_utc()
                    pruned = write(
                        tx,
                        scope_id=scope_id,
                        document_id=doc_id,
                        plan=plan,
                        model=self.embedder.model_id,
                        now=t,
                    )
                    if superseded:
                        tx.run(
                            "documents/supersede",
                            scope_id=scope_id,
                            id=doc_id,
                            entry_ids=superseded,
                            now=t,
                        )
                    tx.run(
                        "documents/finish",
                        scope_id=scope_id,
                        id=doc_id,
                        run_id=run_id,
                        doc={
                            "title": title,
                            "content": content,
                            "content_hash": h,
                            "token_count": sum(c.token_count for c in plan.chunks),
                            "metadata": meta,
                            "embedding": plan.doc_vector,
                            "path": path,
                        },
                        model=self.embedder.model_id,
                        steps=steps_json(steps),
                        counts=plan.counts(),
                        now=t,
                    )
                    links = tx.run(
                        "documents/doc_links",
                        scope_id=scope_id,
                        id=doc_id,
                        k=self.config.similar_k,
                        min_score=self.embedder.raw_index_score(self.config.similar_min),
                        min_shared=self.config.min_shared,
                    )[0]
                    return {**pruned, "similar": links["similar"], "sharing": links["sharing"]}

                info.update(self.db.write_tx(commit))
            self.db.write(
                "documents/run_steps", scope_id=scope_id, run_id=run_id, steps=steps_json(steps)
            )
        except StepFailed as e:
            self.db.write(
                "documents/fail",
                scope_id=scope_id,
                id=doc_id,
                run_id=run_id,
                step=e.step,
                error=str(e),
                steps=steps_json(steps),
                now=now_utc(),
            )
            raise PipelineFailed(
                f"processing {title!r} failed at {e}",
                document_id=doc_id,
                run_id=run_id,
                step=e.step,
            ) from e.error
        return IngestResult(
            document_id=doc_id,
            status="created" if created else "updated",
            title=title,
            run_id=run_id,
            counts=plan.counts(),
            steps=steps,
            path=path,
        )

    def ingest_path(
        self,
        path: str | Path,
        *,
        owner_id: str,
        scope_id: str,
        collection: str = "default",
        recursive: bool = True,
        progress: Progress | None = None,
    ) -> FolderReport:
        """Ingest a file, or every Markdown, text and HTML file under a folder.

        Each file is a document whose ``source_id`` is its path relative to the folder (the
        file name for a single file), so re-ingesting a folder updates only what changed. A file
        that fails is reported (status ``failed``) and the others go on; one that is not text (a
        NUL byte, mostly not UTF-8), too large or empty is skipped with the reason (in
        ``skipped``).

        Raises:
            InvalidInput: The path does not exist or holds no readable file; a single file
                given that would be skipped (nothing is written).
        """
        import time

        root = Path(path).expanduser()
        if not root.exists():
            raise InvalidInput(f"no such file or folder: {root}")
        files = doc_files.find(root, recursive=recursive)
        if not files:
            raise InvalidInput(f"no Markdown, text or HTML files under {root}")
        documents: builtins.list[IngestResult] = []
        skipped: builtins.list[str] = []
        t = time.perf_counter()
        started = now_utc()
        base = root if root.is_dir() else root.parent
        for i, f in enumerate(files):
            rel = f.relative_to(base).as_posix()
            if progress:
                progress(i, len(files), rel)
            try:
                doc = doc_files.read(f)
                if not doc.text.strip():
                    raise ValueError("empty")
            except (OSError, ValueError, InvalidInput) as e:
                if root.is_file():
                    raise InvalidInput(f"{rel}: {e}") from e
                skipped.append(f"{rel}: {e}")
                continue
            try:
                documents.append(
                    self.ingest(
                        doc.title,
                        doc.text,
                        owner_id=owner_id,
                        scope_id=scope_id,
                        collection=collection,
                        source_type="file",
                        source_id=rel,
                        metadata={"format": doc.format, "bytes": doc.size},
                        path=str(f.resolve()),
                    )
                )
            except PipelineFailed as e:
                documents.append(
                    IngestResult(
                        document_id=e.document_id,
                        status="failed",
                        title=doc.title,
                        run_id=e.run_id,
                        error=str(e),
                        path=rel,
                    )
                )
        if progress:
            progress(len(files), len(files), "")
        report = FolderReport(
            documents=documents,
            skipped=skipped,
            seconds=time.perf_counter() - t,
            run_id=str(uuid.uuid4()),
        )
        totals = report.totals()
        self.db.write(
            "documents/batch_run",
            scope_id=scope_id,
            owner_id=owner_id,
            collection_id=collection_id(scope_id, collection),
            collection=collection,
            run={
                "id": report.run_id,
                "path": str(root.resolve()),
                **{
                    k: totals[k]
                    for k in (
                        "documents",
                        "created",
                        "updated",
                        "unchanged",
                        "failed",
                        "skipped",
                        "chunks_total",
                        "chunks_embedded",
                        "seconds",
                    )
                },
            },
            started=started,
            now=now_utc(),
        )
        return report

    # -- forget ---------------------------------------------------------------------------------

    def forget(self, ref: str, *, scope_id: str) -> dict[str, Any]:
        """Delete a document and retract everything derived from it, in one transaction.

        Its chunks, their mentions and relation evidence go; relations and entities left without
        support go; entries it superseded come back; topics that included it become stale; its
        pipeline runs go. All of it is recorded as one ``Operation`` (kind ``document_forget``)
        that ``undo`` reverts exactly.

        Returns:
            Counts: ``chunks``, ``relations_removed``, ``entities_removed``, ``topics_stale``,
            ``entries_restored``, ``runs_removed``, and the ``operation_id`` that undoes it.
        """
        doc_id = self.resolve(ref, scope_id=scope_id)

        def tx_fn(tx: Tx) -> dict[str, Any]:
            state = tx.run("documents/state", scope_id=scope_id, id=doc_id)
            if not state:
                raise DocumentNotFound(ref, scope_id=scope_id)
            capture = footprint.Capture(tx.run, scope_id, documents=[doc_id])
            now = now_utc()
            ids = [str(c["id"]) for c in state[0]["chunks"]]
            out: dict[str, Any] = {"document_id": doc_id, "chunks": len(ids)}
            r = tx.run("documents/remove_chunks", scope_id=scope_id, ids=ids)[0] if ids else None
            p = tx.run(
                "documents/prune",
                scope_id=scope_id,
                entity_ids=r["entity_ids"] if r else [],
                relation_ids=r["relation_ids"] if r else [],
            )[0]
            out.update(
                relations_removed=p["relations_removed"], entities_removed=p["entities_removed"]
            )
            d = tx.run("documents/delete", scope_id=scope_id, id=doc_id, now=now)[0]
            out.update({k: int(d[k]) for k in ("topics_stale", "entries_restored", "runs_removed")})
            change = capture.finish()
            if change is None:  # cannot happen: the document itself went
                raise DocumentNotFound(ref, scope_id=scope_id)
            out["operation_id"] = footprint.record(
                tx.run,
                change,
                kind="document_forget",
                scope_id=scope_id,
                now=now,
                entry_ids=[],
                reason=f"document {doc_id} forgotten",
            )
            return out

        return self.db.write_tx(tx_fn)
