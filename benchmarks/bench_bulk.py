"""Bulk write throughput: remember_many and import-with-vectors next to their bare bounds, one run.

On one temporary embedded Neo4j, with the configured embedder backend (``--backend``), over the
same ``--n`` generated entries (``benchmarks/datagen.py``), side by side:

- bare embedding: ``embedder.embed`` of the entries' texts in batches of ``--batch``, nothing else
  (the bound ``remember_many`` is compared with: target >= 0.8x);
- ``remember_many`` with the batches run one after the other (``overlap`` off: the path before
  ``services/knowledge/bulk.py``) and overlapped (the default), each into a fresh scope, with
  the time each step took summed (embedding, spaCy parsing, writing: the profile of what bounds
  it);
- import of the overlapped scope's export (vectors included) into a fresh scope, next to a bare
  ``UNWIND $rows AS r CREATE (e:Entry) SET e = r`` of the same node properties in batches of the
  same size (target: >= 3,000 entries/s, or a ratio >= 0.8 to the bare UNWIND).

Run: ``.venv/bin/python benchmarks/bench_bulk.py [--n 2000] [--backend auto|onnx|torch]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import datagen
from benchmarks.harness import bench_server
from recollect_graph import Recollect

ROOT = Path(__file__).resolve().parents[1]
#: The bare insert the import is compared with (benchmark-only Cypher, no user text in it).
BARE_UNWIND = "UNWIND $rows AS r CREATE (e:Entry:BenchBare) SET e = r"


def _timed(fn: Callable[..., Any], spent: dict[str, float], key: str) -> Callable[..., Any]:
    def wrapper(*a: Any, **k: Any) -> Any:
        t = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            spent[key] += time.perf_counter() - t

    return wrapper


def _remember(
    rg: Recollect, items: list[dict[str, Any]], batch: int, overlap: bool
) -> dict[str, Any]:
    k = rg.knowledge
    spent: dict[str, float] = defaultdict(float)
    k.overlap = overlap
    saved = (k._embed_batch, k._parse_batch, k._write_batch)
    k._embed_batch = _timed(saved[0], spent, "embed_s")  # type: ignore[method-assign]
    k._parse_batch = _timed(saved[1], spent, "parse_s")  # type: ignore[method-assign]
    k._write_batch = _timed(saved[2], spent, "write_s")  # type: ignore[method-assign]
    scope = f"bulk-{'overlap' if overlap else 'serial'}-{uuid.uuid4().hex[:6]}"
    try:
        t = time.perf_counter()
        out = rg.remember_many(items, scope_id=scope, owner_id="bench", batch_size=batch)
        wall = time.perf_counter() - t
    finally:
        k._embed_batch, k._parse_batch, k._write_batch = saved  # type: ignore[method-assign]
        k.overlap = True
    assert len(out) == len(items)
    return {
        "scope": scope,
        "seconds": wall,
        "entries_per_s": len(items) / wall,
        **{key: round(v, 2) for key, v in spent.items()},
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    items = datagen.items(args.n)
    texts = [str(i["content"]) for i in items]
    with bench_server() as (settings, _server, _status):
        settings = settings.model_copy(update={"embedding_backend": args.backend})
        with Recollect.open(settings) as rg:
            rg.embedder.embed(["warm up"])
            rg.claim_extractor.extract_many(["Warm up the parser."])
            rg.remember_many(items[:20], scope_id="bulk-warm", owner_id="bench")
            t = time.perf_counter()
            for s in range(0, len(texts), args.batch):
                rg.embedder.embed(texts[s : s + args.batch])
            bare_embed = len(texts) / (time.perf_counter() - t)
            t = time.perf_counter()
            rg.claim_extractor.extract_many(texts)
            bare_parse = len(texts) / (time.perf_counter() - t)
            serial = _remember(rg, items, args.batch, overlap=False)
            overlap = _remember(rg, items, args.batch, overlap=True)
            lines = list(rg.export(overlap["scope"]))
            t = time.perf_counter()
            rg.import_(lines, scope_id=f"bulk-import-{uuid.uuid4().hex[:6]}", batch_size=500)
            imp_s = time.perf_counter() - t
            props = [
                {k: v for k, v in line["props"].items() if k != "id" and not isinstance(v, dict)}
                for line in lines
                if line.get("kind") == "node" and "Entry" in line.get("labels", [])
            ]
            t = time.perf_counter()
            for s in range(0, len(props), 500):
                rg.query(BARE_UNWIND, {"rows": props[s : s + 500]}, write=True)
            bare_s = time.perf_counter() - t
            backend = rg.embedder.backend
    n_entries = len(props)
    return {
        "benchmark": "bulk writes (remember_many, import) vs bare bounds",
        "n": args.n,
        "batch": args.batch,
        "backend": backend,
        "bare_embed_per_s": bare_embed,
        "bare_parse_per_s": bare_parse,
        "remember_many_serial": serial,
        "remember_many_overlap": overlap,
        "ratio_serial_to_bare_embed": serial["entries_per_s"] / bare_embed,
        "ratio_overlap_to_bare_embed": overlap["entries_per_s"] / bare_embed,
        "import": {
            "lines": len(lines),
            "entries": n_entries,
            "seconds": imp_s,
            "lines_per_s": len(lines) / imp_s,
            "entries_per_s": n_entries / imp_s,
        },
        "bare_unwind": {
            "entries": n_entries,
            "seconds": bare_s,
            "entries_per_s": n_entries / bare_s,
        },
        "ratio_import_to_bare_unwind": (n_entries / imp_s) / (n_entries / bare_s),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=2000, help="entries (default 2000)")
    ap.add_argument("--batch", type=int, default=256, help="remember_many batch (default 256)")
    ap.add_argument("--backend", choices=("auto", "onnx", "torch"), default="auto")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/bulk.json")
    args = ap.parse_args()
    result = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
