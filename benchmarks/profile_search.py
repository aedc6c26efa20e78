"""Where a call's time goes: each database statement, the query embedding and claim extraction.

Loads N entries (the scale suite's data, through the import) into a throwaway embedded Neo4j,
runs the generated questions through hybrid search (``--call search``) or the scale suite's
checks through ``check_contradiction`` (``--call contradiction``), and prints p50/p95 of the
whole call and of each part.

Run: ``.venv/bin/python benchmarks/profile_search.py --size 100000 [--call contradiction]``, or
on the 1M store of ``RECOLLECT_BENCH_KEEP=1 make bench-1m``: ``--store /tmp/rg-bench-keep-XXXX``.

``--ab K=V,...`` times the same queries a second time with those settings, each query searched
both ways one right after the other (which goes first alternates), and prints both and the
ratio: what a setting costs, measured side by side (e.g. ``--ab w_feedback=0``).
"""

from __future__ import annotations

import argparse
import random
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
    ap.add_argument("--call", choices=["search", "contradiction"], default="search")
    ap.add_argument("--store", type=Path,
                    help="a store kept by RECOLLECT_BENCH_KEEP=1 (e.g. make bench-1m's): profile "
                         "on it instead of loading --size entries")  # fmt: skip
    ap.add_argument("--ab", default=None, metavar="K=V,...",
                    help="also search with these settings, interleaved, and print the ratio "
                         "(search only)")  # fmt: skip
    ap.add_argument("--prefix", default="",
                    help='put this before every query (e.g. "how many " to time the feedback '
                         "of questions that gather)")  # fmt: skip
    args = ap.parse_args()
    if args.ab and args.call != "search":
        ap.error("--ab times search only")
    big = args.store is not None
    server = bench_server(4096, 3072, store=args.store) if big else bench_server()
    with server as (settings, _srv, _st), Recollect.open(settings) as rg:
        if not big:
            pool = Pool(rg, 1000)
            rg.import_(export_lines(pool, MAIN, 0, args.size), batch_size=1000)
        spent: dict[str, list[float]] = defaultdict(list)
        execute, embed = rg.db._execute, rg.embedder.embed

        def timed_execute(name: str, params: dict[str, Any], mode: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            out = execute(name, params, mode, **kw)
            spent[name].append((time.perf_counter() - t) * 1000)
            return out

        def timed_embed(texts: Sequence[str]) -> list[list[float]]:
            t = time.perf_counter()
            out = embed(texts)
            spent["query embedding"].append((time.perf_counter() - t) * 1000)
            return out

        extract = rg.claim_extractor.extract

        def timed_extract(text: str) -> Any:
            t = time.perf_counter()
            out = extract(text)
            spent["claim extraction"].append((time.perf_counter() - t) * 1000)
            return out

        rg.db._execute = timed_execute  # type: ignore[method-assign, assignment]
        rg.embedder.embed = timed_embed  # type: ignore[method-assign]
        rg.claim_extractor.extract = timed_extract  # type: ignore[method-assign]
        if args.call == "search":
            queries = datagen.queries(args.queries)

            def call(q: str) -> None:
                rg.search(q, scope_id=MAIN, touch=False)
        else:  # the scale suite's checks
            queries = [datagen.text(random.Random(99 + i)) for i in range(args.queries)]

            def call(q: str) -> None:
                rg.check_contradiction(q, scope_id=MAIN)

        if args.ab:
            _ab(rg, [args.prefix + q for q in datagen.queries(args.queries)], args.ab)
            return
        for q in queries[:10]:
            call(q)
        spent.clear()
        total = []
        for q in queries:
            rg.embedder.clear_cache()
            t = time.perf_counter()
            call(q)
            total.append((time.perf_counter() - t) * 1000)
        p50, p95 = pct(total, 50), pct(total, 95)
        where = f"store {args.store}" if big else f"{args.size:,} entries"
        print(f"{args.call} ({where}): p50 {p50:.1f} ms, p95 {p95:.1f}")
        for name, ms in spent.items():
            print(f"  {name}: p50 {pct(ms, 50):.1f} ms, p95 {pct(ms, 95):.1f} ({len(ms)} calls)")


def _ab(rg: Recollect, queries: list[str], spec: str) -> None:
    """Each query searched with the default settings and with ``spec``'s, interleaved."""
    from benchmarks.locomo import Variant, _variant_rg

    other = _variant_rg(rg, Variant(spec))
    runs: dict[str, list[float]] = {"default": [], spec: []}
    sides = [("default", rg), (spec, other)]
    for q in queries[:10]:
        for _, r in sides:
            r.search(q, scope_id=MAIN, touch=False)
    for i, q in enumerate(queries):
        for name, r in sides if i % 2 == 0 else sides[::-1]:
            rg.embedder.clear_cache()
            t = time.perf_counter()
            r.search(q, scope_id=MAIN, touch=False)
            runs[name].append((time.perf_counter() - t) * 1000)
    for name, ms in runs.items():
        print(f"search [{name}]: p50 {pct(ms, 50):.1f} ms, p95 {pct(ms, 95):.1f}")
    a, b = runs["default"], runs[spec]
    print(f"ratio default / [{spec}]: p50 {pct(a, 50) / pct(b, 50):.3f}, "
          f"p95 {pct(a, 95) / pct(b, 95):.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
