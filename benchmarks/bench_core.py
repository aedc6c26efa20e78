"""Knowledge-core benchmarks, every figure a ratio against a baseline run in the same process.

1. Ingest: ``remember_many`` entries/s against the bare embedding throughput of the same model on
   the same texts, alternating the two, median over repeats.
2. Bulk load with precomputed vectors (UNWIND batches): entries/s.
3. Hybrid search p50/p95 (query embedding included) at each size against an in-process brute-force
   numpy cosine over the same vectors (query embedding included too), interleaved per query.

The store is a throwaway embedded Neo4j in a temporary directory on free ports.
Vectors for the large sizes are precomputed from a pool of distinct texts plus a small random
perturbation per entry (embedding 100k texts on 2 CPU cores would take most of the run).

Run: ``.venv/bin/python benchmarks/bench_core.py --sizes 10000 100000``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import datagen
from benchmarks.harness import bench_server
from recollect_graph import Recollect


def pct(values: list[float], p: float) -> float:
    """Percentile (nearest rank) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s)) - 1))]


def bench_ingest(rg: Recollect, n: int, repeats: int) -> dict[str, Any]:
    texts = datagen.items(n, seed=1)
    bare, rem, spacy_rate = [], [], []
    rg.embedder.embed(["warm up the model"])
    for r in range(repeats):
        order = ["bare", "remember"] if r % 2 == 0 else ["remember", "bare"]
        for what in order:
            t0 = time.perf_counter()
            if what == "bare":
                rg.embedder.embed([str(i["content"]) for i in texts])
                bare.append(n / (time.perf_counter() - t0))
            else:
                rg.remember_many(texts, scope_id=f"ingest-{r}-{uuid.uuid4().hex[:6]}", owner_id="b")
                rem.append(n / (time.perf_counter() - t0))
    for _ in range(repeats):
        t0 = time.perf_counter()
        rg.claim_extractor.extract_many([str(i["content"]) for i in texts])
        spacy_rate.append(n / (time.perf_counter() - t0))
    b, m = statistics.median(bare), statistics.median(rem)
    return {
        "claim_extraction_per_s": round(statistics.median(spacy_rate), 1),
        "items": n,
        "repeats": repeats,
        "bare_embedding_per_s": round(b, 1),
        "remember_many_per_s": round(m, 1),
        "ratio_remember_to_embedding": round(m / b, 3),
        "graph_overhead_pct": round((b / m - 1) * 100, 1),
    }


def make_vectors(
    rg: Recollect, total: int, pool: int, seed: int = 3
) -> tuple[list[str], np.ndarray]:
    rng = random.Random(seed)
    base_texts = [datagen.text(rng) for _ in range(pool)]
    base = np.asarray(rg.embedder.embed(base_texts), dtype=np.float32)
    nrng = np.random.default_rng(seed)
    idx = nrng.integers(0, pool, size=total)
    vecs = base[idx] + nrng.normal(0, 0.015, size=(total, base.shape[1])).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    texts = [f"{base_texts[i]} (ref {j})" for j, i in enumerate(idx)]
    return texts, vecs, idx, base_texts


def bulk_load(
    rg: Recollect,
    scope: str,
    texts: list[str],
    vecs: np.ndarray,
    start: int,
    end: int,
    *,
    with_vectors: bool = True,
    batch_size: int = 5000,
) -> float:
    """Bulk-create entries ``start..end`` with precomputed vectors (or none); entries/s."""
    now = datetime.now(UTC)
    rows = (
        {
            "id": f"{scope}-{j}",
            "content": texts[j],
            "tags": [datagen.TAGS[j % len(datagen.TAGS)]],
            "embedding": vecs[j].tolist() if with_vectors else None,
            "created_at": now,
        }
        for j in range(start, end)
    )
    t0 = time.perf_counter()
    rg.db.write_batches(
        "testing/bulk_entries",
        rows,
        batch_size=batch_size,
        scope_id=scope,
        owner_id="bench",
        model=rg.embedder.model_id,
    )
    rg.db.write("admin/await_indexes", timeout_s=1800)
    return (end - start) / (time.perf_counter() - t0)


def load_claims(
    rg: Recollect,
    scope: str,
    texts: list[str],
    idx: np.ndarray,
    n0: int,
    n1: int,
    pool_claims: list[list],
) -> None:
    """Attach to bulk entries the claims of the pool text they were made from."""
    from recollect_graph.services.claims.store import claim_rows

    rows = (
        claim_rows(f"{scope}-{j}", scope, pool_claims[int(idx[j])])
        for j in range(n0, n1)
        if pool_claims[int(idx[j])]
    )
    rg.db.write_batches("claims/upsert", rows, batch_size=2000)


def bench_contradiction(rg: Recollect, scope: str, n: int, queries: list[str]) -> dict[str, Any]:
    for q in queries[:5]:
        rg.check_contradiction(q, scope_id=scope)
    ms, found = [], 0
    for q in queries:
        t0 = time.perf_counter()
        r = rg.check_contradiction(q, scope_id=scope)
        ms.append((time.perf_counter() - t0) * 1000)
        found += len(r.conflicts)
    return {
        "entries": n,
        "checks": len(queries),
        "p50_ms": round(pct(ms, 50), 1),
        "p95_ms": round(pct(ms, 95), 1),
        "conflicts_found": found,
    }


def bench_search(
    rg: Recollect, scope: str, vecs: np.ndarray, n: int, queries: list[str]
) -> dict[str, Any]:
    matrix = vecs[:n]
    for q in queries[:5]:  # warm both paths
        rg.search(q, scope_id=scope, touch=False)
    graph_ms, touch_ms, brute_ms = [], [], []
    for i, q in enumerate(queries):
        t0 = time.perf_counter()
        rg.search(q, scope_id=scope, limit=10, touch=False)
        graph_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        qv = np.asarray(rg.embedder.embed_one(q), dtype=np.float32)
        sims = matrix @ qv
        top = np.argpartition(-sims, 10)[:10]
        top[np.argsort(-sims[top])]
        brute_ms.append((time.perf_counter() - t0) * 1000)
        if i % 4 == 0:
            t0 = time.perf_counter()
            rg.search(q, scope_id=scope, limit=10)
            touch_ms.append((time.perf_counter() - t0) * 1000)
    embed_ms = []
    for q in queries[:50]:
        t0 = time.perf_counter()
        rg.embedder.embed_one(q)
        embed_ms.append((time.perf_counter() - t0) * 1000)
    return {
        "entries": n,
        "queries": len(queries),
        "hybrid_p50_ms": round(pct(graph_ms, 50), 1),
        "hybrid_p95_ms": round(pct(graph_ms, 95), 1),
        "hybrid_with_access_bump_p95_ms": round(pct(touch_ms, 95), 1),
        "numpy_bruteforce_p50_ms": round(pct(brute_ms, 50), 1),
        "numpy_bruteforce_p95_ms": round(pct(brute_ms, 95), 1),
        "query_embedding_p50_ms": round(pct(embed_ms, 50), 1),
        "ratio_p95_hybrid_to_bruteforce": round(pct(graph_ms, 95) / pct(brute_ms, 95), 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--ingest", type=int, default=1000, help="items per ingest repeat")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--pool", type=int, default=4000, help="distinct texts embedded for vectors")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/core.json"))
    args = ap.parse_args()

    with bench_server() as (settings, server, st):
        result: dict[str, Any] = {"started": datetime.now(UTC).isoformat(), "neo4j": st.version}
        with Recollect.open(settings) as rg:
            print("ingest ...", file=sys.stderr)
            result["ingest"] = bench_ingest(rg, args.ingest, args.repeats)
            print(json.dumps(result["ingest"]), file=sys.stderr)
            total = max(args.sizes)
            print(
                f"embedding a pool of {args.pool} texts for {total} vectors ...",
                file=sys.stderr,
            )
            texts, vecs, idx, base_texts = make_vectors(rg, total, args.pool)
            pool_claims = rg.claim_extractor.extract_many(base_texts)
            queries = datagen.queries(args.queries)
            checks = [datagen.text(random.Random(99 + i)) for i in range(args.queries // 2)]
            loaded, result["search"], result["contradiction"], rates = 0, [], [], []
            for size in sorted(args.sizes):
                rates.append(bulk_load(rg, "bench", texts, vecs, loaded, size))
                load_claims(rg, "bench", texts, idx, loaded, size, pool_claims)
                loaded = size
                print(f"loaded {size} ({rates[-1]:.0f}/s); searching ...", file=sys.stderr)
                row = bench_search(rg, "bench", vecs, size, queries)
                result["search"].append(row)
                print(json.dumps(row), file=sys.stderr)
                row = bench_contradiction(rg, "bench", size, checks)
                result["contradiction"].append(row)
                print(json.dumps(row), file=sys.stderr)
            result["bulk_precomputed_per_s"] = round(statistics.median(rates), 1)
            result["server_rss_mb"] = server.status().rss_mb
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
