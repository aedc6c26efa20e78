"""Re-embed: vectors of the configured model for a scope's (or every scope's) entries and chunks.

After a model change, each entry and document chunk gets the vector the model configured now
gives for its text.

Each node records the model of its vector (``embedding_model``); the ones without a vector of
the current model are taken in pages, embedded in batches and written one transaction per
batch, so a crash loses at most the batch in flight and a re-run resumes where it stopped (the
done ones no longer match). When the vector indexes were built for another size they are rebuilt
once, before the first batch (they are shared by all scopes: the vectors of scopes not
re-embedded stay as they are, unindexed until they are re-embedded too). The embedding model
recorded for the indexes is set to the current one at the start, so the start-up check lets the
store open while the work goes on.

Example:
    >>> report = rg.reembed(scope_id="app", progress=lambda d, t: None)  # doctest: +SKIP
    >>> report.entries, report.chunks  # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.db.schema import apply_schema, list_indexes
from recollect_graph.nlp.chunker import chunk_embed_text
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.services.kernel.validation import MAX_SCOPE_CHARS, in_range, require_text
from recollect_graph.services.knowledge.entries import embed_text

#: ``progress(done, total)`` after each batch (nodes of both kinds together).
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ReembedReport:
    """What a re-embed did.

    Attributes:
        model: The model the vectors are of now.
        dimensions: Their size.
        scope_id: The scope re-embedded (None: every scope).
        entries: Entries given a new vector.
        chunks: Document chunks given a new vector.
        indexes_rebuilt: Vector indexes dropped and recreated for the new size (empty when
            they already had it).
        seconds: How long it took.
    """

    model: str
    dimensions: int
    scope_id: str | None
    entries: int
    chunks: int
    indexes_rebuilt: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


def _chunk_text(r: Mapping[str, Any]) -> str:
    return chunk_embed_text(r.get("heading"), str(r["text"]))


#: label -> (page statement, write statement, what is embedded)
_KINDS: dict[str, tuple[str, str, Callable[[Mapping[str, Any]], str]]] = {
    "entries": ("reembed/entries_page", "reembed/set_entries", embed_text),
    "chunks": ("reembed/chunks_page", "reembed/set_chunks", _chunk_text),
}


class Reembedder:
    """Re-embeds entries and chunks into the configured model (``rg.reembed``)."""

    def __init__(self, db: Db, embedder: Embedder) -> None:
        self.db = db
        self.embedder = embedder

    def pending(self, scope_id: str | None = None) -> dict[str, int]:
        """``{entries, chunks}`` still without a vector of the current model."""
        scope = _scope(scope_id)
        row = self.db.read("reembed/pending", scope_id=scope, model=self.embedder.model_id)[0]
        return {"entries": int(row["entries"]), "chunks": int(row["chunks"])}

    def run(
        self,
        scope_id: str | None = None,
        *,
        batch_size: int = 128,
        progress: Progress | None = None,
    ) -> ReembedReport:
        """Re-embed what has no vector of the current model (one scope, or all with None).

        Raises:
            InvalidInput: A blank scope id or a batch size out of 1..10000.
        """
        scope = _scope(scope_id)
        batch_size = int(in_range(batch_size, "batch_size", 1, 10_000))
        t0 = time.monotonic()
        model, dims = self.embedder.model_id, self.embedder.dimension
        rebuilt = self._prepare_indexes(model, dims)
        total = sum(self.pending(scope).values())
        done = 0
        counts = {"entries": 0, "chunks": 0}
        for kind, (page, write, text_of) in _KINDS.items():
            skip: list[str] = []  # ids a write did not take (gone meanwhile): never asked again
            while True:
                rows = self.db.read(page, scope_id=scope, model=model, skip=skip, limit=batch_size)
                if not rows:
                    break
                vectors = self.embedder.embed([text_of(r) for r in rows])
                out = [
                    {"id": r["id"], "scope_id": r["scope_id"], "embedding": v}
                    for r, v in zip(rows, vectors, strict=True)
                ]
                written = {r["id"] for r in self.db.write(write, model=model, rows=out)}
                skip += [r["id"] for r in rows if r["id"] not in written]
                counts[kind] += len(written)
                done += len(rows)
                if progress:
                    progress(min(done, total), total)
        return ReembedReport(
            model=model,
            dimensions=dims,
            scope_id=scope,
            entries=counts["entries"],
            chunks=counts["chunks"],
            indexes_rebuilt=rebuilt,
            seconds=round(time.monotonic() - t0, 3),
        )

    def _prepare_indexes(self, model: str, dims: int) -> list[str]:
        """Rebuild the vector indexes once if they are of another size; record the model."""
        wrong = [
            i.name
            for i in list_indexes(self.db)
            if i.type == "VECTOR" and i.dimensions is not None and i.dimensions != dims
        ]
        for name in wrong:
            self.db.write("admin/drop_index", name=name)
        self.db.write("admin/set_embedding_meta", model=model, dimensions=dims)
        if wrong:
            apply_schema(self.db, model=model, dimensions=dims)
        return wrong


def _scope(scope_id: str | None) -> str | None:
    if scope_id is None:
        return None
    return require_text(scope_id, "scope_id", max_len=MAX_SCOPE_CHARS)
