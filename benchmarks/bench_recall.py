"""Recall at scale: ``rg.recall`` p50/p95 over N indexed sessions (default 10,000).

Sessions are written through the real path (``rg.sessions.add_turns`` + the session index), with
turn texts drawn from a pool of generated engineering sentences. The pool is embedded with the
real model; any other text written at load time (templated turns, session heads and summaries)
gets the vector of a pool sentence chosen by its hash plus small noise, so loading 10k sessions
does not take hours of CPU embedding on 2 cores. Recall queries are embedded by the real model.
Real ingest throughput (every text embedded) is measured separately on the first 30 sessions.
Each session gets a coined word, a few identifiers (paths, PRs, issues) and markers, so both
tracks have realistic indexes to scan. Queries mix natural, identifier and mixed recalls.

Run: ``.venv/bin/python benchmarks/bench_recall.py --sessions 10000``
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import zlib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_core import pct
from benchmarks.datagen import PEOPLE, SERVICES, TOOLS, sentence
from benchmarks.harness import bench_server
from recollect_graph import Recollect
from recollect_graph.nlp.embedder import Embedder

FEELINGS = [
    "ugh, this is driving me nuts",
    "finally!! it works",
    "oh I see, turns out",
    "weird, no idea why",
    "we decided to go with it instead of the old one",
]


class PoolEmbedder(Embedder):
    """Real vectors for the pool; for other texts a pool vector (by hash) plus small noise."""

    def __init__(self, inner: Embedder, pool: list[str]) -> None:
        super().__init__(inner.model_name, batch_size=inner.batch_size)
        self._model = inner._load()
        self.memo = dict(zip(pool, super().embed(pool), strict=True))
        self.vectors = list(self.memo.values())

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.memo.get(t) or self._near(t) for t in texts]

    def _near(self, text: str) -> list[float]:
        h = zlib.crc32(text.encode())
        base = self.vectors[h % len(self.vectors)]
        noise = random.Random(h)
        v = [x + noise.gauss(0, 0.02) for x in base]
        n = math.sqrt(sum(x * x for x in v))
        return [x / n for x in v]


def session_turns(i: int, rng: random.Random, pool: list[str]) -> list[dict[str, Any]]:
    coined = f"zorb{i:05d}x"
    svc, tool, who = rng.choice(SERVICES), rng.choice(TOOLS), rng.choice(PEOPLE)
    at = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=53 * i)
    texts = [
        f"The {svc} {coined} problem with {tool} is back; {who} from platform noticed it.",
        rng.choice(pool),
        f"Looking at src/{svc}/{coined}.py and PR #{1000 + i % 5000}.",
        rng.choice(pool) + " " + rng.choice(FEELINGS),
        f"See issue #{i % 997} and the {coined} notes.",
        rng.choice(pool),
    ]
    return [
        {
            "id": f"{i}-{j}",
            "speaker": "user" if j % 2 == 0 else "assistant",
            "text": t,
            "at": at + timedelta(minutes=j),
        }
        for j, t in enumerate(texts)
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sessions", type=int, default=10_000)
    ap.add_argument("--pool", type=int, default=1500)
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--workers", type=int, default=2, help="Sessions written in parallel.")
    ap.add_argument("--rounds", type=int, default=3, help="Passes over the queries.")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/recall.json"))
    args = ap.parse_args()
    rng = random.Random(3)
    pool = [sentence(rng) for _ in range(args.pool)]
    result: dict[str, Any] = {"sessions": args.sessions}
    with bench_server() as (settings, _server, _status), Recollect.open(settings) as rg:
        convs = [session_turns(i, rng, pool) for i in range(args.sessions)]
        t0 = time.perf_counter()
        real_n = min(30, args.sessions)
        for i in range(real_n):  # real ingest: every text embedded by the model
            rg.sessions.add_turns(f"real{i:03d}", convs[i], scope_id="recall-real", owner_id="b")
        result["real_ingest_sessions_per_s"] = round(real_n / (time.perf_counter() - t0), 2)
        rg.sessions.embedder = PoolEmbedder(rg.embedder, pool)
        t0 = time.perf_counter()

        def load(i: int) -> None:
            rg.sessions.add_turns(
                f"s{i:05d}",
                convs[i],
                scope_id="recall",
                owner_id="bench",
                cwd=f"/home/kai/src/{SERVICES[i % len(SERVICES)]}",
            )
            if i % 500 == 499:
                el = time.perf_counter() - t0
                print(f"  ~{i + 1} sessions, {(i + 1) / el:.1f}/s", file=sys.stderr)

        with ThreadPoolExecutor(args.workers) as pool_ex:
            list(pool_ex.map(load, range(args.sessions)))
        secs = time.perf_counter() - t0
        result["load_sessions_per_s"] = round(args.sessions / secs, 1)
        qrng = random.Random(5)
        queries = []
        for q in range(args.queries):
            i = qrng.randrange(args.sessions)
            svc = SERVICES[i % len(SERVICES)]
            queries.append(
                [
                    f"the {svc} thing where I was fed up with it",
                    f"which session touched PR #{1000 + i % 5000}",
                    f"the zorb{i:05d}x problem around issue #{i % 997}",
                ][q % 3]
            )
        for q in queries[:5]:
            rg.recall(q, scope_id="recall")
        # Interleaved per query: the recall (query embedding included), the time its embedding
        # took inside it, and a bare embedding of the same text.
        real = rg.recaller.embedder
        spent: list[float] = []

        class Timed(Embedder):
            def embed(self, texts: Sequence[str]) -> list[list[float]]:
                t = time.perf_counter()
                out = real.embed(texts)
                spent.append((time.perf_counter() - t) * 1000)
                return out

        timed = Timed(real.model_name)
        timed._model = real._load()
        timed.cache_size = 0  # every recall pays for its query embedding
        rg.recaller.embedder = timed
        ms: list[float] = []
        rest: list[float] = []
        bare: list[float] = []
        by_track: dict[str, list[float]] = {}
        for _round in range(args.rounds):
            for q in queries:
                spent.clear()
                t1 = time.perf_counter()
                r = rg.recall(q, scope_id="recall")
                el = (time.perf_counter() - t1) * 1000
                ms.append(el)
                rest.append(el - sum(spent))
                by_track.setdefault(r.track, []).append(el)
                t2 = time.perf_counter()
                real.embed_one(q + " ")
                bare.append((time.perf_counter() - t2) * 1000)
        result["recall"] = {
            "calls": len(ms),
            "p50_ms": round(pct(ms, 50), 1),
            "p95_ms": round(pct(ms, 95), 1),
            "p95_ms_without_query_embedding": round(pct(rest, 95), 1),
            "p50_ms_without_query_embedding": round(pct(rest, 50), 1),
            "by_track_p95_ms": {k: round(pct(v, 95), 1) for k, v in by_track.items()},
        }
        result["bare_query_embedding_ms"] = {
            "p50": round(pct(bare, 50), 1),
            "p95": round(pct(bare, 95), 1),
        }
        result["recall_p50_over_embedding_p50"] = round(pct(ms, 50) / pct(bare, 50), 2)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
