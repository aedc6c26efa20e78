"""The scale suite: each operation at 10k, 100k (``make bench``) and 1M entries (``make bench-1m``).

One throwaway embedded Neo4j (temporary directory, free port) grows through the sizes; at each
size it measures, with the baselines interleaved query by query in the same process:

* load: the public streaming import (``rg.import_`` of an export with precomputed vectors and
  typed edges) in entries/s, the claims of those entries, the Python process's peak RSS during
  it (``VmHWM``, reset before the load) and the store's size on disk;
* hybrid search p50/p95 (query embedding included, ``touch=False``) against (a) a brute-force
  ``vector.similarity.cosine`` scan in Cypher (what Graphiti and mem0 shipped), (b) in-process
  numpy cosine over the same vectors and (c) ``rank_bm25`` in process (Lore's keyword path);
* ``check_contradiction``, ``suggest_links``, ``rg.context`` (800 tokens) and ``rg.recall`` (over
  one session per 50 entries, loaded through ``add_turns``) p50/p95.

Once, before the sizes: ``remember_many`` entries/s against the bare embedding of the same texts
(alternating, median of repeats). Once, at the first size: a sweep of a 2,000-memory scope, the
topic build of the main scope (cold, then unchanged) and the git learner on generated commits.

Run: ``.venv/bin/python benchmarks/bench_scale.py --sizes 10000 100000`` (results JSON in
``benchmarks/results/scale.json``; ``benchmarks/report.py`` turns the results into the growth
table and plot of docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import datagen
from benchmarks.bench_core import bench_contradiction, bench_ingest, bulk_load, pct
from benchmarks.bench_recall import PoolEmbedder, session_turns
from benchmarks.harness import bench_server
from benchmarks.scale_data import (
    MAIN,
    OTHERS,
    Pool,
    claim_rows,
    entry_ids,
    export_lines,
    share,
)
from recollect_graph import Recollect

_TOKEN = re.compile(r"\w+")
SESSIONS_SCOPE = "bench-sessions"


def tokens(text: str) -> list[str]:
    """Lowercase word tokens (the BM25 baseline's analyser)."""
    return _TOKEN.findall(text.lower())


def reset_peak_rss() -> None:
    """Reset this process's peak resident set (``VmHWM``); Linux only, silently skipped."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def peak_rss_mb() -> float:
    """This process's peak resident set since the last reset, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def du(path: Path) -> int:
    """Bytes used by the files under ``path``."""
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def disk(data: Path, size: int, earlier: list[dict[str, Any]]) -> dict[str, Any]:
    """The store (records and indexes) and transaction logs on disk, and the store's growth."""
    store = next(data.rglob("databases/neo4j"), None)
    tx = next(data.rglob("transactions/neo4j"), None)
    out: dict[str, Any] = {
        "store_mb": round(du(store) / 2**20, 1) if store else None,
        "index_mb": round(du(store / "schema") / 2**20, 1) if store else None,
        "tx_logs_mb": round(du(tx) / 2**20, 1) if tx else None,
    }
    if earlier and out["store_mb"] is not None:
        prev = earlier[-1]
        grown = out["store_mb"] - prev["store_mb"]
        out["store_mb_per_100k_entries"] = round(grown / (size - prev["entries"]) * 100_000, 1)
    elif out["store_mb"] is not None:
        out["store_mb_per_100k_entries"] = round(out["store_mb"] / size * 100_000, 1)
    return out


#: Embedders whose query cache is cleared before every timed call, so that no call (ours or a
#: baseline's) reuses a vector an earlier call made.
FRESH: list[Any] = []


def timed(fn: Callable[[], Any]) -> float:
    """Milliseconds ``fn`` took (embedder caches cleared first)."""
    for e in FRESH:
        e.clear_cache()
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def summary(ms: list[float]) -> dict[str, Any]:
    """Count, p50 and p95 of a list of milliseconds."""
    return {"calls": len(ms), "p50_ms": round(pct(ms, 50), 1), "p95_ms": round(pct(ms, 95), 1)}


def load(rg: Recollect, pool: Pool, n0: int, n1: int) -> dict[str, Any]:
    """Grow the store from ``n0`` to ``n1`` entries through the import; claims after."""
    reset_peak_rss()
    before = peak_rss_mb()
    t0 = time.perf_counter()
    nodes = rels = 0
    for scope in (MAIN, *OTHERS):
        a, b = share(scope, n0), share(scope, n1)
        if b > a:
            out = rg.import_(export_lines(pool, scope, a, b), batch_size=1000)
            nodes, rels = nodes + out.nodes, rels + out.rels
            print(f"  {scope}: {b} entries", file=sys.stderr)
    rg.db.write("admin/await_indexes", timeout_s=3600)
    import_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    for scope in (MAIN, *OTHERS):
        rows = claim_rows(pool, scope, share(scope, n0), share(scope, n1))
        rg.db.write_batches("claims/upsert", rows, batch_size=2000)
    claims_s = time.perf_counter() - t1
    return {
        "entries_added": nodes,
        "edges_added": rels,
        "import_per_s": round(nodes / import_s, 1),
        "import_seconds": round(import_s, 1),
        "claims_seconds": round(claims_s, 1),
        "python_rss_before_mb": before,
        "python_peak_rss_mb": peak_rss_mb(),
    }


def load_sessions(
    rg: Recollect, embedder: PoolEmbedder, texts: list[str], s0: int, s1: int
) -> float:
    """Add sessions ``s0..s1`` (six turns each) to the sessions scope; sessions/s."""
    rng = random.Random(s0)
    real = rg.sessions.embedder
    rg.sessions.embedder = embedder
    t0 = time.perf_counter()
    try:
        for i in range(s0, s1):
            rg.sessions.add_turns(
                f"s{i:06d}",
                session_turns(i, rng, texts),
                scope_id=SESSIONS_SCOPE,
                owner_id="bench",
                cwd=f"/home/kai/src/{datagen.SERVICES[i % len(datagen.SERVICES)]}",
            )
    finally:
        rg.sessions.embedder = real
    return (s1 - s0) / max(time.perf_counter() - t0, 1e-9)


def bench_search(
    rg: Recollect, pool: Pool, n_main: int, queries: list[str], slow_every: int
) -> dict[str, Any]:
    """Hybrid search against the three baselines, interleaved per query."""
    t0 = time.perf_counter()
    matrix, texts = pool.matrix(MAIN, n_main)
    from rank_bm25 import BM25Okapi

    bm25 = BM25Okapi([tokens(t) for t in texts])
    del texts
    build_s = time.perf_counter() - t0
    embed = rg.embedder.embed_one

    def numpy_top(q: str) -> None:
        sims = matrix @ np.asarray(embed(q), dtype=np.float32)
        top = np.argpartition(-sims, 10)[:10]
        top[np.argsort(-sims[top])]

    def cypher_top(q: str) -> None:
        rg.db.read("testing/bruteforce_cosine", vector=embed(q), scope_id=MAIN, k=10)

    def bm25_top(q: str) -> None:
        s = bm25.get_scores(tokens(q))
        top = np.argpartition(-s, 10)[:10]
        top[np.argsort(-s[top])]

    def hybrid(q: str) -> None:
        rg.search(q, scope_id=MAIN, limit=10, touch=False)

    for q in queries[:5]:
        hybrid(q)
        cypher_top(q)
    runs: dict[str, list[float]] = {"hybrid": [], "numpy": [], "cypher_scan": [], "bm25": []}
    for i, q in enumerate(queries):
        fns = [("hybrid", hybrid), ("numpy", numpy_top)]
        if i % slow_every == 0:
            fns += [("cypher_scan", cypher_top), ("bm25", bm25_top)]
        if i % 2:
            fns.reverse()
        for name, fn in fns:
            runs[name].append(timed(lambda fn=fn, q=q: fn(q)))
    emb = [timed(lambda q=q: embed(q)) for q in queries[:50]]
    out: dict[str, Any] = {k: summary(v) for k, v in runs.items()}
    # The same searches with nothing between them: the interleaved Cypher scan reads every
    # vector of the scope, and the garbage it leaves the server lengthens the calls after it.
    out["hybrid_alone"] = summary([timed(lambda q=q: hybrid(q)) for q in queries])
    out["query_embedding_p50_ms"] = round(pct(emb, 50), 1)
    out["baseline_build_seconds"] = round(build_s, 1)
    for k in ("numpy", "cypher_scan", "bm25"):
        out[f"p95_ratio_hybrid_to_{k}"] = round(out["hybrid"]["p95_ms"] / out[k]["p95_ms"], 2)
    return out


def bench_ops(
    rg: Recollect, pool: Pool, n_main: int, sessions: int, queries: list[str]
) -> dict[str, Any]:
    """suggest_links, context and recall latencies."""
    picks = [random.Random(i).randrange(n_main) for i in range(45)]
    mem = rg.memories.in_scope(MAIN, "bench")
    ids = entry_ids(pool, MAIN, picks)
    for i in ids[:5]:
        mem.suggest_links(i)
    suggest = [timed(lambda i=i: mem.suggest_links(i)) for i in ids[5:]]
    rg.context(queries[0], scope_id=MAIN, budget_tokens=800)
    context = [
        timed(lambda q=q: rg.context(q, scope_id=MAIN, budget_tokens=800)) for q in queries[:30]
    ]
    qrng = random.Random(5)
    recall_q = []
    for k in range(60):
        i = qrng.randrange(sessions)
        svc = datagen.SERVICES[i % len(datagen.SERVICES)]
        recall_q.append(
            [
                f"the {svc} thing where I was fed up with it",
                f"which session touched PR #{1000 + i % 5000}",
                f"the zorb{i:05d}x problem around issue #{i % 997}",
            ][k % 3]
        )
    for q in recall_q[:3]:
        rg.recall(q, scope_id=SESSIONS_SCOPE)
    recall = [timed(lambda q=q: rg.recall(q, scope_id=SESSIONS_SCOPE)) for q in recall_q]
    return {
        "suggest_links": summary(suggest),
        "context_800_tokens": summary(context),
        "recall": {**summary(recall), "sessions": sessions},
    }


def bench_vector_cost(rg: Recollect, pool: Pool, n: int = 4000, repeats: int = 2) -> dict[str, Any]:
    """The same bulk writes with and without their vectors, alternating: what the vector index
    costs per entry (bounds any bulk path with precomputed vectors)."""
    idx, vecs = pool.batch("bench-vcost", 0, n)
    texts = [pool.text(j, int(i)) for j, i in enumerate(idx)]
    rates: dict[str, list[float]] = {"with_vectors": [], "without_vectors": []}
    for r in range(repeats):
        for with_vec in (True, False) if r % 2 == 0 else (False, True):
            rate = bulk_load(
                rg,
                f"bench-vcost-{r}-{int(with_vec)}",
                texts,
                vecs,
                0,
                n,
                with_vectors=with_vec,
                batch_size=1000,
            )
            rates["with_vectors" if with_vec else "without_vectors"].append(rate)
    w, wo = (statistics.median(v) for v in rates.values())
    return {
        "entries": n,
        "with_vectors_per_s": round(w, 1),
        "without_vectors_per_s": round(wo, 1),
        "ratio_with_to_without": round(w / wo, 3),
    }


def extras(rg: Recollect, pool: Pool, n_main: int, commits: int) -> dict[str, Any]:
    """Sweep, topic build and learner throughput, measured once."""
    out: dict[str, Any] = {"bulk_vector_cost": bench_vector_cost(rg, pool)}
    print(json.dumps(out), file=sys.stderr)
    rg.import_(export_lines(pool, "bench-sweep", 0, 2000), batch_size=1000)
    t0 = time.perf_counter()
    res = rg.memories.in_scope("bench-sweep", "bench").sweep()
    secs = time.perf_counter() - t0
    out["sweep_2000"] = {
        "seconds": round(secs, 1),
        "per_s": round(2000 / secs, 1),
        **{k: v for k, v in res.items() if isinstance(v, (int, float, str))},
    }
    print(json.dumps(out), file=sys.stderr)
    t0 = time.perf_counter()
    built = rg.topics.build(MAIN)
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    rg.topics.build(MAIN)
    out["topics"] = {
        "entries": n_main,
        "cold_seconds": round(cold, 1),
        "unchanged_seconds": round(time.perf_counter() - t0, 1),
        **{k: v for k, v in built.items() if isinstance(v, (int, float, str))},
    }
    print(json.dumps(out["topics"]), file=sys.stderr)
    if commits:
        from benchmarks.bench_learners import generate, learn

        with tempfile.TemporaryDirectory(prefix="rg-gitgen-") as tmp:
            generate(Path(tmp) / "repo", commits)
            out["git_learner"] = {"commits": commits, **learn(rg, "bench-git", Path(tmp) / "repo")}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--ingest", type=int, default=1000, help="items per remember_many repeat")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--slow-every", type=int, default=4, help="scan baselines on every Nth query")
    ap.add_argument("--pool", type=int, default=4000, help="distinct texts embedded for vectors")
    ap.add_argument("--sessions-per", type=int, default=50, help="one session per N entries")
    ap.add_argument("--max-sessions", type=int, default=5000)
    ap.add_argument("--commits", type=int, default=500, help="git learner commits (0: skip)")
    ap.add_argument("--no-extras", action="store_true", help="skip sweep, topics and learners")
    ap.add_argument("--heap-mb", type=int, default=2048)
    ap.add_argument("--pagecache-mb", type=int, default=1024)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/scale.json"))
    ap.add_argument(
        "--neo4j-version", help="embedded Neo4j version (default: RECOLLECT_NEO4J_VERSION or 2026)"
    )
    args = ap.parse_args()
    result: dict[str, Any] = {
        "started": datetime.now(UTC).isoformat(),
        "machine": {"cpus": os.cpu_count()},
        "settings": {k: str(v) for k, v in vars(args).items()},
        "sizes": [],
    }
    with (
        bench_server(
            heap_mb=args.heap_mb, pagecache_mb=args.pagecache_mb, neo4j_version=args.neo4j_version
        ) as (settings, srv, st),
        Recollect.open(settings) as rg,
    ):
        result["neo4j"] = st.version
        FRESH.append(rg.embedder)
        if args.ingest:
            print("remember_many vs bare embedding ...", file=sys.stderr)
            result["ingest"] = bench_ingest(rg, args.ingest, args.repeats)
            print(json.dumps(result["ingest"]), file=sys.stderr)
        print(f"embedding a pool of {args.pool} texts ...", file=sys.stderr)
        pool = Pool(rg, args.pool)
        srng = random.Random(3)
        sess_texts = [datagen.sentence(srng) for _ in range(1500)]
        sess_pool = PoolEmbedder(rg.embedder, sess_texts)
        queries = datagen.queries(args.queries)
        checks = [datagen.text(random.Random(99 + i)) for i in range(100)]
        loaded = sessions = 0
        for size in sorted(args.sizes):
            t0 = time.perf_counter()
            print(f"loading to {size} entries ...", file=sys.stderr)
            row: dict[str, Any] = {"entries": size, "load": load(rg, pool, loaded, size)}
            target = min(args.max_sessions, max(20, size // args.sessions_per))
            if target > sessions:
                rate = load_sessions(rg, sess_pool, sess_texts, sessions, target)
                row["load"]["sessions_per_s"] = round(rate, 1)
                sessions = target
            loaded = size
            row.update(disk(Path(settings.data_dir), size, result["sizes"]))
            print(json.dumps(row), file=sys.stderr)
            n_main = share(MAIN, size)
            row["search"] = bench_search(rg, pool, n_main, queries, args.slow_every)
            print(json.dumps(row["search"]), file=sys.stderr)
            row["contradiction"] = bench_contradiction(rg, MAIN, size, checks)
            row.update(bench_ops(rg, pool, n_main, sessions, queries))
            row["server_rss_mb"] = srv.status().rss_mb
            row["seconds"] = round(time.perf_counter() - t0, 1)
            keys = ("contradiction", "suggest_links", "context_800_tokens", "recall")
            print(json.dumps({k: row[k] for k in keys}), file=sys.stderr)
            result["sizes"].append(row)
            if not args.no_extras and size == min(args.sizes):
                result["extras"] = extras(rg, pool, n_main, args.commits)
        result["bulk_import_median_per_s"] = round(
            statistics.median(r["load"]["import_per_s"] for r in result["sizes"]), 1
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str))
    print(json.dumps(result, indent=2, default=str))


if __name__ == "__main__":
    main()
