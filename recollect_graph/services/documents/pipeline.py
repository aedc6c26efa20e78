"""Processing one document: chunk, embed, extract, then commit everything in one transaction.

The steps run in Python first (nothing is written while they run); the last step writes the
chunks, mentions, relations, document vector and document-level relations of the new version in
one write transaction and closes the :class:`PipelineRun`. A step that fails records the run as
``failed`` with the step and the error and the document as ``failed``; the document keeps the
content and chunks of its last successful processing, so it is never half-written.

An update is incremental: chunk ids derive from the document id and the chunk's content hash
(heading path and text), so chunks that did not change keep their ids and vectors and are
neither re-embedded nor re-extracted; chunks that went away are retracted with what only they
supported (mentions, relation evidence, then relations and entities left without support).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from recollect_graph.db.client import Tx
from recollect_graph.ids import chunk_id, entity_id, relation_id
from recollect_graph.nlp.chunker import Chunker, TextChunk
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.nlp.entities import EntityExtractor, Extraction


@dataclass(frozen=True)
class PipelineConfig:
    """Tunables of the documents pipeline (defaults suit all-MiniLM-L6-v2).

    Attributes:
        target_tokens: Tokens a chunk aims for.
        overlap_tokens: Tokens of trailing sentences repeated in the next chunk of a section.
        auto_merge: Name-vector similarity at or above which a new entity name is merged into
            an existing entity (as an alias), when their numbers also agree.
        review_band: Similarity at or above which (below ``auto_merge``) a new entity is linked
            ``MAYBE_SAME_AS`` the existing one for review.
        similar_k: Documents considered for ``SIMILAR_TO``.
        similar_min: Least document-vector similarity for ``SIMILAR_TO``.
        min_shared: Least shared entities for ``SHARES_ENTITIES``.
    """

    target_tokens: int = 200
    overlap_tokens: int = 32
    auto_merge: float = 0.95
    review_band: float = 0.85
    similar_k: int = 5
    similar_min: float = 0.6
    min_shared: int = 3


def content_hash(title: str, content: str) -> str:
    """What decides that a document is unchanged: SHA-256 of its title and content."""
    return hashlib.sha256(f"{title}\x1f{content}".encode()).hexdigest()


_DIGITS = re.compile(r"\d+")


def _same_numbers(a: str, b: str) -> bool:
    return _DIGITS.findall(a) == _DIGITS.findall(b)


class StepFailed(Exception):
    """A pipeline step raised: which step, and the error."""

    def __init__(self, step: str, error: BaseException) -> None:
        super().__init__(f"{step} failed: {type(error).__name__}: {error}")
        self.step = step
        self.error = error


@dataclass
class Plan:
    """What processing a document will write."""

    chunks: list[TextChunk]
    ids: list[str]
    new: set[str]
    removed: list[str]
    vectors: dict[str, list[float]] = field(default_factory=dict)
    steps: dict[str, dict[str, Any]] = field(default_factory=dict)
    entities: list[dict[str, Any]] = field(default_factory=list)
    mentions: list[dict[str, Any]] = field(default_factory=list)
    relations: list[dict[str, Any]] = field(default_factory=list)
    maybe_same: list[dict[str, Any]] = field(default_factory=list)
    doc_vector: list[float] | None = None

    def counts(self) -> dict[str, int]:
        """The run's counters."""
        return {
            "chunks_total": len(self.chunks),
            "chunks_new": len(self.new),
            "chunks_kept": len(self.chunks) - len(self.new),
            "chunks_removed": len(self.removed),
            "chunks_embedded": len(self.new),
            "entities": len({m["entity_id"] for m in self.mentions}),
            "relations": len(self.relations),
        }


class Pipeline:
    """The steps of processing one document (see the module docstring)."""

    def __init__(
        self,
        embedder: Embedder,
        extractor: EntityExtractor,
        chunker: Chunker,
        config: PipelineConfig,
    ) -> None:
        self.embedder = embedder
        self.extractor = extractor
        self.chunker = chunker
        self.config = config

    @contextmanager
    def step(self, plan_steps: dict[str, dict[str, Any]], name: str) -> Iterator[dict[str, Any]]:
        """Time a step into ``plan_steps[name]``; an exception becomes :class:`StepFailed`."""
        info: dict[str, Any] = {}
        t = time.perf_counter()
        try:
            yield info
        except StepFailed:
            raise
        except Exception as e:
            info["error"] = f"{type(e).__name__}: {e}"
            raise StepFailed(name, e) from e
        finally:
            info["ms"] = round((time.perf_counter() - t) * 1000, 1)
            plan_steps[name] = info

    def plan(
        self,
        document_id: str,
        content: str,
        existing: Sequence[dict[str, Any]],
        steps: dict[str, dict[str, Any]],
        read_candidates: Any,
    ) -> Plan:
        """Chunk, embed the new chunks, extract their entities and relations."""
        with self.step(steps, "chunking") as info:
            chunks = self.chunker.chunk(content)
            seen: dict[str, int] = {}
            ids = []
            for c in chunks:
                h = c.content_hash
                ids.append(chunk_id(document_id, h, seen.get(h, 0)))
                seen[h] = seen.get(h, 0) + 1
            old = {str(c["id"]): c for c in existing}
            new = {i for i in ids if i not in old}
            plan = Plan(chunks, ids, new, [i for i in old if i not in set(ids)], steps=steps)
            for i in ids:
                if i in old and old[i].get("embedding") is not None:
                    plan.vectors[i] = list(old[i]["embedding"])
            info.update(chunks=len(chunks), new=len(new), removed=len(plan.removed))
        with self.step(steps, "embedding") as info:
            todo = [(i, c) for i, c in zip(ids, chunks, strict=True) if i in new]
            vecs = self.embedder.embed([c.embed_text() for _, c in todo])
            for (i, _), v in zip(todo, vecs, strict=True):
                plan.vectors[i] = v
            info["embedded"] = len(vecs)
            plan.doc_vector = _mean(list(plan.vectors.values()))
        with self.step(steps, "extracting") as info:
            extractions = self.extractor.extract([c.text for _, c in todo])
            self.link_entities(plan, [i for i, _ in todo], extractions, read_candidates)
            info.update(
                mentions=len(plan.mentions),
                relations=len(plan.relations),
                merged=sum(1 for e in plan.entities if e.get("alias")),
                review=len(plan.maybe_same),
            )
        return plan

    def link_entities(
        self,
        plan: Plan,
        chunk_ids: list[str],
        extractions: list[Extraction],
        read_candidates: Any,
    ) -> None:
        """Resolve the extractions' names to entities and fill the plan's mentions/relations."""
        scope_id = read_candidates.scope_id
        names: dict[str, tuple[str, str]] = {}
        for ex in extractions:
            for m in ex.mentions.values():
                names.setdefault(m.key, (m.name, m.entity_type))
        resolved = self.resolve(scope_id, names, read_candidates)
        for cid, ex in zip(chunk_ids, extractions, strict=True):
            for m in ex.mentions.values():
                plan.mentions.append(
                    {
                        "source_id": cid,
                        "entity_id": resolved[m.key],
                        "count": m.count,
                        "snippet": m.snippet,
                        "surface": m.name,
                    }
                )
            for s, pred, o, snippet in ex.relations:
                sid, oid = resolved[s], resolved[o]
                if sid == oid:
                    continue
                plan.relations.append(
                    {
                        "id": relation_id(scope_id, sid, pred, oid),
                        "subject_id": sid,
                        "object_id": oid,
                        "predicate": pred,
                        "source_id": cid,
                        "snippet": snippet,
                    }
                )
        plan.entities = read_candidates.entities
        plan.maybe_same = read_candidates.maybe_same

    def resolve(
        self, scope_id: str, names: dict[str, tuple[str, str]], reader: Any
    ) -> dict[str, str]:
        """Map each normalised name to an entity id: exact key, else merge by name vector.

        New entities (and aliases of merged ones) are left in ``reader.entities``; pairs in the
        review band in ``reader.maybe_same``.
        """
        out: dict[str, str] = {}
        if not names:
            return out
        exact = {
            r["key"]: r["exact_id"] for r in reader([{"key": k, "embedding": None} for k in names])
        }
        fresh = [k for k in names if not exact.get(k)]
        for k in names:
            if exact.get(k):
                out[k] = str(exact[k])
        if not fresh:
            return out
        vecs = self.embedder.embed([names[k][0] for k in fresh])
        near = {
            r["key"]: r
            for r in reader([{"key": k, "embedding": v} for k, v in zip(fresh, vecs, strict=True)])
        }
        for k, v in zip(fresh, vecs, strict=True):
            name, etype = names[k]
            r = near.get(k) or {}
            score = self.embedder.index_score(float(r.get("score") or 0.0)) if r else 0.0
            similar = r.get("similar_id")
            if (
                similar
                and score >= self.config.auto_merge
                and _same_numbers(k, str(r.get("similar_name") or "").lower())
            ):
                out[k] = str(similar)
                reader.entities.append(
                    {
                        "id": out[k],
                        "name": name,
                        "key": k,
                        "entity_type": etype,
                        "embedding": None,
                        "alias": name,
                    }
                )
                continue
            out[k] = entity_id(scope_id, k)
            reader.entities.append(
                {
                    "id": out[k],
                    "name": name,
                    "key": k,
                    "entity_type": etype,
                    "embedding": v,
                    "alias": None,
                }
            )
            if similar and score >= self.config.review_band:
                reader.maybe_same.append({"a": out[k], "b": str(similar), "score": round(score, 4)})
        return out


class CandidateReader:
    """Reads entity candidates in a scope and collects the entities a plan will write."""

    def __init__(self, tx_read: Any, scope_id: str) -> None:
        self._read = tx_read
        self.scope_id = scope_id
        self.entities: list[dict[str, Any]] = []
        self.maybe_same: list[dict[str, Any]] = []

    def __call__(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Exact and nearest entities for ``rows`` of ``{key, embedding}``."""
        return list(self._read("documents/entity_candidates", scope_id=self.scope_id, rows=rows))


def write(
    tx: Tx, *, scope_id: str, document_id: str, plan: Plan, model: str, now: Any
) -> dict[str, int]:
    """Apply a plan inside one write transaction (the ``writing`` step's statements)."""
    pruned = {"relations_removed": 0, "entities_removed": 0}
    if plan.removed:
        r = tx.run("documents/remove_chunks", scope_id=scope_id, ids=plan.removed)[0]
        p = tx.run(
            "documents/prune",
            scope_id=scope_id,
            entity_ids=r["entity_ids"],
            relation_ids=r["relation_ids"],
        )[0]
        pruned = {k: int(p[k]) for k in pruned}
    rows = []
    for seq, (cid, c) in enumerate(zip(plan.ids, plan.chunks, strict=True)):
        rows.append(
            {
                "id": cid,
                "seq": seq,
                "text": c.text,
                "heading": c.heading,
                "start_offset": c.start,
                "end_offset": c.end,
                "token_count": c.token_count,
                "content_hash": c.content_hash,
                "embedding": plan.vectors.get(cid) if cid in plan.new else None,
            }
        )
    tx.run(
        "documents/upsert_chunks",
        scope_id=scope_id,
        document_id=document_id,
        model=model,
        now=now,
        rows=rows,
    )
    write_links(tx, scope_id=scope_id, plan=plan, model=model, now=now)
    return pruned


def write_links(tx: Tx, *, scope_id: str, plan: Plan, model: str, now: Any) -> None:
    """Write a plan's entities, mentions, relations and review pairs (chunks or entries)."""
    if plan.mentions:
        tx.run(
            "documents/mentions",
            scope_id=scope_id,
            model=model,
            now=now,
            entities=plan.entities,
            rows=plan.mentions,
        )
    if plan.relations:
        tx.run("documents/relations", scope_id=scope_id, now=now, rows=plan.relations)
    if plan.maybe_same:
        tx.run("entities/maybe_same", scope_id=scope_id, now=now, rows=plan.maybe_same)


def steps_json(steps: dict[str, dict[str, Any]]) -> str:
    """Step details as JSON text (Neo4j properties cannot hold maps)."""
    return json.dumps(steps, sort_keys=True, default=str)


def _mean(vectors: list[list[float]]) -> list[float] | None:
    if not vectors:
        return None
    m = np.asarray(vectors, dtype=np.float64).mean(axis=0)
    n = float(np.linalg.norm(m))
    return [float(x) for x in (m / n if n else m)]
