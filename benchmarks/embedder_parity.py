"""Embedder parity and speed: the ONNX int8 backend next to torch, side by side in one run.

The texts are built at run time, never stored in the repository: every turn, question and
answer of a LoCoMo-format file (``--locomo``, e.g. ``/work/shared/data/locomo-dev.json``), the
Markdown paragraphs and the JSON/JSONL strings of ``tests/data``, de-duplicated and sampled
evenly (seeded) to ``--texts`` (default 1,000) of varied length, from a word to a page.

Reported: the cosine between the two backends' vectors of each text (mean, minimum, 1st
percentile, share >= 0.99), and the speed of each backend measured in the same process, one after
the other, on the same texts: batches (texts/s, ``embed`` of all texts) and single queries (median
ms of ``embed_one`` with the cache off over ``--queries`` short texts); with ``--locomo``, the
dense-retrieval LoCoMo R@10 of each backend (every turn indexed as ``"(session date) speaker:
text"``, each question ranked by cosine within its conversation, categories 1-4, as the ``dense``
baseline of ``benchmarks/locomo.py``). The ratio onnx / torch is
the speed-up. Both backends use the same thread count (onnxruntime's and torch's defaults: one per
core).

Run: ``.venv/bin/python benchmarks/embedder_parity.py --locomo PATH/locomo-dev.json``
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import locomo_eval as le
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def _strings(x: Any) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


def build_texts(locomo: Path | None, n: int, seed: int = 7) -> list[str]:
    """``n`` varied texts from the LoCoMo file and tests/data (read now, not copied anywhere)."""
    pool: list[str] = []
    if locomo is not None:
        for sample in json.loads(locomo.read_text()):
            conv = sample.get("conversation", {})
            for key, turns in conv.items():
                if key.startswith("session_") and isinstance(turns, list):
                    pool += [str(t.get("text", "")) for t in turns]
            for qa in sample.get("qa", []):
                pool += [str(qa.get("question", "")), str(qa.get("answer", ""))]
    data = ROOT / "tests" / "data"
    for f in sorted(data.rglob("*")):
        if f.suffix == ".md":
            pool += [p.strip() for p in f.read_text(errors="replace").split("\n\n")]
        elif f.suffix in (".json", ".jsonl"):
            for line in f.read_text(errors="replace").splitlines():
                try:
                    pool += list(_strings(json.loads(line)))
                except ValueError:
                    continue
    uniq = sorted({t for t in pool if t.strip() and len(t) >= 2})
    random.Random(seed).shuffle(uniq)
    # even spread over length: a few long ones (documents) and many short ones (questions)
    short = [t for t in uniq if len(t) < 200]
    long = [t for t in uniq if len(t) >= 200]
    take_long = min(len(long), n // 5)
    texts = long[:take_long] + short[: n - take_long]
    return texts[:n]


def _speed(emb: Embedder, texts: list[str], queries: list[str]) -> dict[str, float]:
    emb.embed(texts[:16])  # warm: first-call allocations out of the figure
    t = time.perf_counter()
    emb.embed(texts)
    batch = time.perf_counter() - t
    emb.cache_size = 0
    lat = []
    for q in queries:
        t = time.perf_counter()
        emb.embed_one(q)
        lat.append(time.perf_counter() - t)
    return {
        "batch_texts_per_s": len(texts) / batch,
        "single_ms_median": statistics.median(lat) * 1000,
        "single_ms_p95": sorted(lat)[int(0.95 * (len(lat) - 1))] * 1000,
    }


def dense_recall(emb: Embedder, locomo: Path, k: int = 10) -> dict[str, float]:
    """Mean R@k of cosine ranking over categories 1-4 of every conversation (and its count)."""
    scores: list[float] = []
    for conv in le.load(locomo):
        turns = conv.turns
        docs = np.asarray(emb.embed([t.indexed_text() for t in turns]))
        qs = [q for q in conv.questions if q.category in (1, 2, 3, 4) and q.gold]
        qv = np.asarray(emb.embed([q.question for q in qs]))
        for q, v in zip(qs, qv, strict=True):
            order = np.argsort(-(docs @ v), kind="stable")
            ranked = [turns[i].dia_id for i in order[:k]]
            scores.append(le.recall_at(ranked, q.gold, k))
    return {f"r@{k}": float(np.mean(scores)), "questions": len(scores)}


def run(args: argparse.Namespace) -> dict[str, Any]:
    texts = build_texts(args.locomo, args.texts)
    queries = [t for t in texts if len(t) < 120][: args.queries]
    cache = Settings.from_env().cache_dir
    torch_emb = Embedder(backend="torch")
    onnx_emb = Embedder(backend="onnx", cache_dir=cache)
    t = time.perf_counter()
    onnx_emb.embed(["load"])  # the one-time export, if not cached yet
    load_onnx = time.perf_counter() - t
    if onnx_emb.backend != "onnx-int8":
        raise SystemExit(f"the ONNX backend is unavailable: {onnx_emb.fallback_reason}")
    a = np.asarray(torch_emb.embed(texts), dtype=np.float64)
    b = np.asarray(onnx_emb.embed(texts), dtype=np.float64)
    cos = (a * b).sum(axis=1)
    speed = {}
    for name, emb in (("torch", torch_emb), ("onnx-int8", onnx_emb)):
        speed[name] = _speed(emb, texts, queries)
    worst = [texts[i][:80] for i in np.argsort(cos)[:5]]
    recall = (
        {
            n: dense_recall(e, args.locomo)
            for n, e in (("torch", torch_emb), ("onnx-int8", onnx_emb))
        }
        if args.locomo
        else None
    )
    return {
        "benchmark": "embedder parity and speed (onnx int8 vs torch)",
        "machine": {"cpus": __import__("os").cpu_count(), "python": platform.python_version()},
        "texts": len(texts),
        "mean_chars": statistics.mean(len(t) for t in texts),
        "queries": len(queries),
        "cosine": {
            "mean": float(cos.mean()),
            "min": float(cos.min()),
            "p1": float(np.percentile(cos, 1)),
            "share_ge_0.99": float((cos >= 0.99).mean()),
            "share_ge_0.98": float((cos >= 0.98).mean()),
            "worst_texts": worst,
        },
        "speed": speed,
        "ratio_onnx_over_torch": {
            "batch_throughput": speed["onnx-int8"]["batch_texts_per_s"]
            / speed["torch"]["batch_texts_per_s"],
            "single_query_speedup": speed["torch"]["single_ms_median"]
            / speed["onnx-int8"]["single_ms_median"],
        },
        "onnx_load_s": load_onnx,
        "locomo_dense_recall": recall,
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--locomo", type=Path, default=None, help="a LoCoMo-format JSON file")
    ap.add_argument("--texts", type=int, default=1000, help="texts compared (default 1000)")
    ap.add_argument("--queries", type=int, default=100, help="single-query timings (default 100)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/embedder_parity.json")
    args = ap.parse_args()
    result = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    c, r = result["cosine"], result["ratio_onnx_over_torch"]
    print(
        f"{result['texts']} texts: cosine mean {c['mean']:.4f} min {c['min']:.4f} "
        f"p1 {c['p1']:.4f} ({c['share_ge_0.99']:.1%} >= 0.99)"
    )
    for name, s in result["speed"].items():
        print(
            f"{name:10s} batch {s['batch_texts_per_s']:7.1f} texts/s   single query "
            f"{s['single_ms_median']:6.1f} ms median, {s['single_ms_p95']:6.1f} ms p95"
        )
    if result["locomo_dense_recall"]:
        rec = result["locomo_dense_recall"]
        print(
            f"LoCoMo dense R@10 ({rec['torch']['questions']} questions): torch "
            f"{rec['torch']['r@10']:.4f}, onnx-int8 {rec['onnx-int8']['r@10']:.4f}"
        )
    print(
        f"onnx/torch: batch throughput x{r['batch_throughput']:.2f}, "
        f"single query x{r['single_query_speedup']:.2f} faster"
    )


if __name__ == "__main__":
    main()
