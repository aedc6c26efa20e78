"""Where a hybrid search's time goes: each database statement and the query embedding, timed.

Loads N entries (the scale suite's data, through the import) into a throwaway embedded Neo4j,
runs the generated questions, and prints p50/p95 of the whole search and of each part.

Run: ``.venv/bin/python benchmarks/profile_search.py --size 100000``
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import datagen
from benchmarks.bench_core import pct
from benchmarks.harness import bench_server
from benchmarks.scale_data import MAIN, Pool, export_lines
from recollect_graph import Recollect


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=120)
    args = ap.parse_args()
    with bench_server() as (settings, _srv, _st), Recollect.open(settings) as rg:
        pool = Pool(rg, 1000)
        rg.import_(export_lines(pool, MAIN, 0, args.size), batch_size=1000)
        spent: dict[str, list[float]] = defaultdict(list)
        execute, embed = rg.db._execute, rg.embedder.embed

        def timed_execute(name: str, params: dict[str, Any], mode: Any) -> Any:
            t = time.perf_counter()
            out = execute(name, params, mode)
            spent[name].append((time.perf_counter() - t) * 1000)
            return out

        def timed_embed(texts: Sequence[str]) -> list[list[float]]:
            t = time.perf_counter()
            out = embed(texts)
            spent["query embedding"].append((time.perf_counter() - t) * 1000)
            return out

        rg.db._execute = timed_execute  # type: ignore[method-assign]
        rg.embedder.embed = timed_embed  # type: ignore[method-assign]
        queries = datagen.queries(args.queries)
        for q in queries[:10]:
            rg.search(q, scope_id=MAIN, touch=False)
        spent.clear()
        total = []
        for q in queries:
            rg.embedder.clear_cache()
            t = time.perf_counter()
            rg.search(q, scope_id=MAIN, touch=False)
            total.append((time.perf_counter() - t) * 1000)
        p50, p95 = pct(total, 50), pct(total, 95)
        print(f"search ({args.size:,} entries): p50 {p50:.1f} ms, p95 {p95:.1f}")
        for name, ms in spent.items():
            print(f"  {name}: p50 {pct(ms, 50):.1f} ms, p95 {pct(ms, 95):.1f} ({len(ms)} calls)")


if __name__ == "__main__":
    main()
