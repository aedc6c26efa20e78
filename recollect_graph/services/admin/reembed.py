"""Re-embed: every vector of a scope (or of every scope) in the configured model.

After a model change, each entry (conversation turns included) and document chunk gets the
vector the model configured now gives for its text, each document entity the vector of its name;
then the derived vectors follow from those: a document's (the mean of its chunks'), a topic's
centroid (the mean of its members'; membership stays as built) and a session's (re-indexed
from its turns).

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
    >>> report.entries, report.chunks, report.sessions  # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.db.schema import apply_schema, list_indexes
from recollect_graph.errors import SessionNotFound
from recollect_graph.nlp.chunker import chunk_embed_text
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.services.kernel.validation import MAX_SCOPE_CHARS, in_range, require_text
from recollect_graph.services.knowledge.entries import embed_text
from recollect_graph.services.sessions.index import (
    CONTEXT_TURN_CHARS,
    mean_vector,
    turn_context_text,
    turn_embed_text,
)

#: ``progress(done, total)`` after each batch (nodes of every kind together).
Progress = Callable[[int, int], None]

#: ``index_session(session_id, scope_id=...)``: re-derives a session's vector from its turns.
IndexSession = Callable[..., Any]

#: The kinds in the order they are done: the derived ones (documents, topics, sessions) after
#: the vectors they are derived from.
KINDS = ("entries", "chunks", "entities", "documents", "topics", "sessions")


@dataclass(frozen=True)
class ReembedReport:
    """What a re-embed did.

    Attributes:
        model: The model the vectors are of now.
        dimensions: Their size.
        scope_id: The scope re-embedded (None: every scope).
        entries: Entries (conversation turns included) given a new vector.
        chunks: Document chunks given a new vector.
        indexes_rebuilt: Vector indexes dropped and recreated for the new size (empty when
            they already had it).
        seconds: How long it took.
        entities: Document entities given a new name vector.
        documents: Documents given the mean of their new chunk vectors.
        topics: Topics given the centroid of their members' new vectors.
        sessions: Sessions re-indexed from their re-embedded turns.
        turn_contexts: Turns given the context vector they lacked (``turn_contexts``).
    """

    model: str
    dimensions: int
    scope_id: str | None
    entries: int
    chunks: int
    indexes_rebuilt: list[str] = field(default_factory=list)
    seconds: float = 0.0
    entities: int = 0
    documents: int = 0
    topics: int = 0
    sessions: int = 0
    turn_contexts: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


def entry_text(r: Mapping[str, Any]) -> str:
    """What an entry's vector is of (a conversation turn's: its speaker and text)."""
    if r.get("entry_type") == "conversation_turn":
        return turn_embed_text(r.get("speaker"), r.get("speaker_role"), str(r["content"]))
    return embed_text(r)


def _texts(of: Callable[[Mapping[str, Any]], str]) -> Callable[[Embedder, list[Any]], list[Any]]:
    def vectors(embedder: Embedder, rows: list[Any]) -> list[Any]:
        return list(embedder.embed([of(r) for r in rows]))

    return vectors


def _means(_embedder: Embedder, rows: list[Any]) -> list[Any]:
    return [mean_vector([list(v) for v in r["vectors"]]) for r in rows]


#: kind -> (what gives each row its vector); the page and write statements are
#: ``reembed/<kind>_page`` and ``reembed/set_<kind>`` (sessions are re-indexed instead).
_VECTORS: dict[str, Callable[[Embedder, list[Any]], list[Any]]] = {
    "entries": _texts(entry_text),
    "chunks": _texts(lambda r: chunk_embed_text(r.get("heading"), str(r["text"]))),
    "entities": _texts(lambda r: str(r["name"])),
    "documents": _means,
    "topics": _means,
}


class Reembedder:
    """Re-embeds a scope's (or every scope's) vectors into the configured model (``rg.reembed``).

    Args:
        db: The database client.
        embedder: The model the vectors are to be of.
        index_session: Re-derives a session's vector from its turns (``rg.sessions.index``);
            without it sessions are left pending.
        context_vectors: Give each re-embedded turn its context vector too (the turn with the
            one before it, as ``add_turns`` does); off drops the old one.
    """

    def __init__(
        self,
        db: Db,
        embedder: Embedder,
        index_session: IndexSession | None = None,
        *,
        context_vectors: bool = True,
    ) -> None:
        self.db = db
        self.embedder = embedder
        self.index_session = index_session
        self.context_vectors = context_vectors

    def pending(self, scope_id: str | None = None) -> dict[str, int]:
        """How many of each kind (:data:`KINDS`) still have no vector of the current model."""
        scope = _scope(scope_id)
        row = self.db.read("reembed/pending", scope_id=scope, model=self.embedder.model_id)[0]
        return {k: int(row[k]) for k in KINDS}

    def run(
        self,
        scope_id: str | None = None,
        *,
        batch_size: int = 128,
        progress: Progress | None = None,
        turn_contexts: bool = False,
    ) -> ReembedReport:
        """Re-embed what has no vector of the current model (one scope, or all with None).

        With ``turn_contexts``, turns stored before context vectors existed (or with
        ``turn_context_vectors`` off) then get theirs, where ``add_turns`` would have made one
        (:meth:`backfill_turn_contexts`).

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
        counts = dict.fromkeys(KINDS, 0)
        for kind in KINDS:
            if kind == "sessions" and self.index_session is None:
                continue
            skip: list[str] = []  # ids a write did not take (gone meanwhile): never asked again
            while True:
                rows = self.db.read(
                    f"reembed/{kind}_page", scope_id=scope, model=model, skip=skip, limit=batch_size
                )
                if not rows:
                    break
                written = self._write(kind, rows, model)
                skip += [r["id"] for r in rows if r["id"] not in written]
                counts[kind] += len(written)
                done += len(rows)
                if progress:
                    progress(min(done, total), total)
        contexts = self.backfill_turn_contexts(scope, batch_size=batch_size) if turn_contexts else 0
        return ReembedReport(
            model=model,
            dimensions=dims,
            scope_id=scope,
            indexes_rebuilt=rebuilt,
            seconds=round(time.monotonic() - t0, 3),
            turn_contexts=contexts,
            **counts,
        )

    def backfill_turn_contexts(self, scope_id: str | None = None, *, batch_size: int = 128) -> int:
        """Give the turns that could have a context vector and have none theirs.

        Turns stored before context vectors existed, or with ``turn_context_vectors`` off: a
        person's turn of at most :data:`CONTEXT_TURN_CHARS` characters after a person's turn gets
        the vector ``add_turns`` makes now. Turns whose own vector is not of the current model
        are left to :meth:`run`. Paged by id and resumable (what is done is not offered again).
        Nothing happens with ``context_vectors`` off.

        Returns:
            How many turns got a context vector.
        """
        if not self.context_vectors:
            return 0
        scope = _scope(scope_id)
        batch_size = int(in_range(batch_size, "batch_size", 1, 10_000))
        model = self.embedder.model_id
        after, done = "", 0
        while True:
            rows = self.db.read(
                "reembed/turn_contexts_page",
                scope_id=scope,
                model=model,
                after=after,
                max_chars=CONTEXT_TURN_CHARS,
                limit=batch_size,
            )
            if not rows:
                return done
            after = str(rows[-1]["id"])
            out = [{"id": r["id"], "scope_id": r["scope_id"]} for r in rows]
            self._context_vectors(rows, out)
            todo = [o for o in out if o["context_embedding"] is not None]
            if todo:
                done += len(self.db.write("reembed/set_turn_contexts", model=model, rows=todo))

    def _context_vectors(
        self, rows: Sequence[Mapping[str, Any]], out: list[dict[str, Any]]
    ) -> None:
        """Give each re-embedded turn its context vector, as ``add_turns`` makes it.

        The vector is of the turn and the turn before it; None for other entries, a first turn,
        or with ``context_vectors`` off.
        """
        texts: list[str] = []
        at: list[int] = []
        for i, r in enumerate(rows):
            out[i]["context_embedding"] = out[i]["context_of"] = None
            if not self.context_vectors or r.get("entry_type") != "conversation_turn":
                continue
            if r.get("before_id") is None or r.get("before_content") is None:
                continue
            before = turn_embed_text(
                r.get("before_speaker"), r.get("before_role"), str(r["before_content"])
            )
            ctx = turn_context_text(
                entry_text(r), before, role=r.get("speaker_role"), before_role=r.get("before_role")
            )
            if ctx is not None:
                texts.append(ctx)
                at.append(i)
                out[i]["context_of"] = r["before_id"]
        for i, vec in zip(at, self.embedder.embed(texts) if texts else [], strict=True):
            out[i]["context_embedding"] = vec

    def _write(self, kind: str, rows: Sequence[Mapping[str, Any]], model: str) -> set[str]:
        """Give one page of ``kind`` its new vectors; the ids that took them."""
        if kind == "sessions":
            assert self.index_session is not None
            done = set()
            for r in rows:
                try:
                    self.index_session(r["id"], scope_id=r["scope_id"])
                except SessionNotFound:
                    continue  # gone meanwhile
                done.add(str(r["id"]))
            return done
        vectors = _VECTORS[kind](self.embedder, list(rows))
        out = [
            {"id": r["id"], "scope_id": r["scope_id"], "embedding": v}
            for r, v in zip(rows, vectors, strict=True)
        ]
        if kind == "entries":
            self._context_vectors(rows, out)
        return {str(r["id"]) for r in self.db.write(f"reembed/set_{kind}", model=model, rows=out)}

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
