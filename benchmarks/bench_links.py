"""Lore-loop benchmarks: suggest_links latency and sweep throughput at size.

A throwaway embedded Neo4j is loaded with N memories (vectors from a pool of really embedded
texts plus a small perturbation, as in bench_core), then:
- ``suggest_links`` p50/p95 over 50 memories (writes nothing);
- a full sweep of a 2,000-memory scope (entries/s), and the implied time for 100k.

Run: ``.venv/bin/python benchmarks/bench_links.py --size 100000``
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_core import bulk_load, make_vectors, pct
from benchmarks.harness import bench_server
from recollect_graph import Recollect


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--sweep-size", type=int, default=2000)
    ap.add_argument("--pool", type=int, default=3000)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/links.json"))
    args = ap.parse_args()
    with bench_server() as (settings, _server, _status):
        result: dict[str, Any] = {}
        with Recollect.open(settings) as rg:
            texts, vecs, _, _ = make_vectors(rg, args.size, args.pool)
            bulk_load(rg, "links", texts, vecs, 0, args.size)
            mem = rg.memories.in_scope("links", "bench")
            ids = [f"links-{random.Random(i).randrange(args.size)}" for i in range(55)]
            for i in ids[:5]:
                mem.suggest_links(i)
            ms = []
            for i in ids[5:]:
                t0 = time.perf_counter()
                mem.suggest_links(i)
                ms.append((time.perf_counter() - t0) * 1000)
            result["suggest_links"] = {
                "entries": args.size,
                "calls": len(ms),
                "p50_ms": round(pct(ms, 50), 1),
                "p95_ms": round(pct(ms, 95), 1),
            }
            print(json.dumps(result), file=sys.stderr)
            small = args.sweep_size
            bulk_load(rg, "sweep", texts, vecs, 0, small)
            t0 = time.perf_counter()
            out = rg.memories.in_scope("sweep", "bench").sweep()
            secs = time.perf_counter() - t0
            result["sweep"] = {
                **out,
                "entries": small,
                "per_s": round(small / secs, 1),
                "implied_100k_minutes": round(100_000 / (small / secs) / 60, 1),
            }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
