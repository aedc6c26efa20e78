"""Data for the scale suite: a streamed export (entries with precomputed vectors, typed edges) per
scope, claims and sessions, generated deterministically so any size can be rebuilt.

Vectors: a pool of distinct generated texts is embedded for real; entry ``j`` gets the vector of
pool text ``pool_index(j)`` plus small Gaussian noise (seeded by ``j``'s batch), and the text
``"<pool text> (ref j)"``. Nothing is held for the whole size: the export lines are generated
batch by batch, so the importing process stays bounded whatever the size.

Scopes: 90% of the entries go to the main scope ``bench``; the rest are spread over nine other
scopes, so every query's scope filter has foreign entries to skip (the vector and full-text
indexes span every scope).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from benchmarks import datagen
from recollect_graph import Recollect
from recollect_graph.ids import entry_id
from recollect_graph.services.claims.store import claim_rows as rows_of
from recollect_graph.services.kernel.hashing import content_hash
from recollect_graph.vocabulary import ENTRY_TYPES

MAIN = "bench"
OTHERS = tuple(f"bench-other-{k}" for k in range(9))
BATCH = 2000
#: Edge types generated between entries (the retiring ones, supersedes and contradicts, are not:
#: they change what search returns and are exercised by the knowledge-core tests).
EDGE_TYPES = (
    "LEADS_TO",
    "SUPPORTS",
    "RELATED_TO",
    "REFERENCES",
    "DEPENDS_ON",
    "PART_OF",
    "CAUSES",
    "DERIVED_FROM",
)
_EPOCH = datetime(2025, 1, 1, tzinfo=UTC)


def share(scope: str, total: int) -> int:
    """How many of ``total`` entries the scope holds (90% main, the rest split evenly)."""
    others = total // 10
    if scope == MAIN:
        return total - others
    k = OTHERS.index(scope)
    return others // len(OTHERS) + (1 if k < others % len(OTHERS) else 0)


class Pool:
    """Pool texts embedded once, their claims, and per-entry vectors made from them."""

    def __init__(self, rg: Recollect, size: int, seed: int = 3) -> None:
        rng = random.Random(seed)
        self.texts = [datagen.text(rng) for _ in range(size)]
        self.vectors = np.asarray(rg.embedder.embed(self.texts), dtype=np.float32)
        self.claims = rg.claim_extractor.extract_many(self.texts)
        self.model = rg.embedder.model_id
        self.dims = int(self.vectors.shape[1])

    def batch(self, scope: str, start: int, end: int) -> tuple[np.ndarray, np.ndarray]:
        """Pool indexes and vectors of a scope's entries ``start..end`` (deterministic)."""
        idx = np.empty(end - start, dtype=np.int64)
        vecs = np.empty((end - start, self.dims), dtype=np.float32)
        pos = 0
        for b in range(start // BATCH, (end - 1) // BATCH + 1):
            rng = batch_rng(scope, b)
            bi = rng.integers(0, len(self.texts), size=BATCH)
            noise = rng.normal(0, 0.015, size=(BATCH, self.dims)).astype(np.float32)
            lo, hi = max(start, b * BATCH), min(end, (b + 1) * BATCH)
            sl = slice(lo - b * BATCH, hi - b * BATCH)
            v = self.vectors[bi[sl]] + noise[sl]
            vecs[pos : pos + hi - lo] = v / np.linalg.norm(v, axis=1, keepdims=True)
            idx[pos : pos + hi - lo] = bi[sl]
            pos += hi - lo
        return idx, vecs

    def text(self, j: int, i: int) -> str:
        """Entry ``j``'s text, made from pool text ``i``."""
        return f"{self.texts[i]} (ref {j})"

    def matrix(self, scope: str, n: int) -> tuple[np.ndarray, list[str]]:
        """Every vector and text of the scope's first ``n`` entries (for in-process baselines)."""
        idx, vecs = self.batch(scope, 0, n)
        return vecs, [self.text(j, int(i)) for j, i in enumerate(idx)]


def batch_rng(scope: str, batch: int) -> np.random.Generator:
    """The generator of one batch of a scope: pool indexes are its first draw, noise the second."""
    return np.random.default_rng([zlib.crc32(scope.encode()), batch])


def entry_key(scope: str, text: str) -> str:
    """The id ``remember`` would give this text in this scope."""
    return entry_id(scope, content_sha=content_hash(text), source_id=None, force=False)


def export_lines(pool: Pool, scope: str, start: int, end: int) -> Iterator[dict[str, Any]]:
    """An export of the scope's entries ``start..end`` and their edges, streamed in batches.

    Each entry gets 0-3 tags, a type, a creation time spread over two years, and with
    probability 0.3 a typed edge to an earlier entry of the scope.
    """
    yield {
        "format": "recollect-graph-export",
        "version": 1,
        "scope_id": scope,
        "embedding_model": pool.model,
        "dimensions": pool.dims,
    }
    for b0 in range(start, end, BATCH):
        b1 = min(end, b0 + BATCH)
        idx, vecs = pool.batch(scope, b0, b1)
        rng = random.Random(f"{scope}:{b0}")
        ids = []
        for k, j in enumerate(range(b0, b1)):
            text = pool.text(j, int(idx[k]))
            eid = entry_key(scope, text)
            ids.append(eid)
            at = (_EPOCH + timedelta(minutes=j % 1_000_000)).isoformat()
            yield {
                "kind": "node",
                "labels": ["Entry"],
                "props": {
                    "id": eid,
                    "scope_id": scope,
                    "owner_id": "bench",
                    "content": text,
                    "content_hash": content_hash(text),
                    "tags": rng.sample(datagen.TAGS, rng.randint(0, 3)),
                    "entry_type": ENTRY_TYPES[j % 5],
                    "embedding": vecs[k].tolist(),
                    "embedding_model": pool.model,
                    "created_at": {"$datetime": at},
                    "updated_at": {"$datetime": at},
                    "valid_from": {"$datetime": at},
                    "source": "system",
                    "source_type": "observed",
                    "confidence": 1.0,
                    "half_life_days": 7.0,
                    "pinned": False,
                    "emotional_valence": "neutral",
                    "schema_fit": 0.5,
                    "score": 5.0,
                    "access_count": 0,
                    "confidence_state": "active",
                    "metadata": "{}",
                    "context_hints": "{}",
                },
            }
        for k in range(1, len(ids)):
            if rng.random() < 0.3:
                yield {
                    "kind": "rel",
                    "type": rng.choice(EDGE_TYPES),
                    "start": {"label": "Entry", "id": ids[k]},
                    "end": {"label": "Entry", "id": ids[rng.randrange(k)]},
                    "props": {"weight": round(rng.uniform(0.5, 1.0), 2), "origin": "import"},
                }


def claim_rows(pool: Pool, scope: str, start: int, end: int) -> Iterator[dict[str, Any]]:
    """Claim rows of the scope's entries ``start..end`` (the claims of their pool texts)."""
    for b0 in range(start, end, BATCH):
        b1 = min(end, b0 + BATCH)
        idx, _ = pool.batch(scope, b0, b1)
        for k, j in enumerate(range(b0, b1)):
            claims = pool.claims[int(idx[k])]
            if claims:
                yield rows_of(entry_key(scope, pool.text(j, int(idx[k]))), scope, claims)


def entry_ids(pool: Pool, scope: str, picks: list[int]) -> list[str]:
    """Ids of the scope's entries at the given positions (pool indexes only, no vectors)."""
    out = []
    for j in picks:
        b = j // BATCH
        i = int(batch_rng(scope, b).integers(0, len(pool.texts), size=BATCH)[j - b * BATCH])
        out.append(entry_key(scope, pool.text(j, i)))
    return out
