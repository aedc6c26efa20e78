"""Topic build time at size (default 10,000 entries) on a throwaway embedded Neo4j.

Entries are written directly (``tests/cypher/topics_bench_entries``) with precomputed vectors
that are random but clustered: ``--clusters`` unit centres in the model's dimension, each entry its
centre plus Gaussian noise (expected cosine within a cluster about ``1 / (1 + noise^2)``, between
clusters about 0), plus ``--outliers`` of pure noise. Each entry's text mixes its cluster's words
with common words, and it mentions one or two of its cluster's entities.

Measured: a cold ``build`` (every topic new), a second ``build`` with nothing changed (the scope
fingerprint matches: no vectors read, every topic kept), and a ``build`` after one entry's content
changed (reclustered; one topic rewritten), with the time of each stage of the first build.
Quality: purity (share of clustered non-outlier entries whose topic's majority cluster is their
own), how many planted clusters came out as topics, and how many outliers joined a topic.

Run: ``.venv/bin/python benchmarks/bench_topics.py --size 10000``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.harness import bench_server
from recollect_graph import Recollect
from recollect_graph.services.kernel.hashing import content_hash
from recollect_graph.services.topics.service import Topics

SCOPE = "bench-topics"
_SYL = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "pe", "shu", "dra", "gen", "mor", "tix"]
COMMON = [
    "system",
    "team",
    "project",
    "release",
    "review",
    "issue",
    "meeting",
    "design",
    "plan",
    "report",
]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYL) for _ in range(3))


def make_rows(
    n: int, clusters: int, dim: int, noise: float, outliers: float, seed: int
) -> list[dict[str, Any]]:
    """Entry rows with clustered vectors, cluster-flavoured text and entity mentions."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    centres = nrng.normal(size=(clusters, dim))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    vocab = [[_word(rng) for _ in range(12)] for _ in range(clusters)]
    rows = []
    for j in range(n):
        c = j % clusters
        outlier = rng.random() < outliers
        v = (
            nrng.normal(size=dim)
            if outlier
            else centres[c] + nrng.normal(size=dim) * (noise / np.sqrt(dim))
        )
        v = v / np.linalg.norm(v)
        words = rng.sample(vocab[c], 6) + rng.sample(COMMON, 4) + [_word(rng)]
        rng.shuffle(words)
        text = " ".join(words).capitalize() + "."
        ents = sorted({rng.randrange(20) for _ in range(rng.choice((1, 2)))})
        rows.append(
            {
                "id": f"{'x' if outlier else 'c'}{c:03d}-{j:06d}",
                "content": text,
                "content_hash": content_hash(text),
                "embedding": [float(f) for f in v],
                "entities": [
                    {
                        "id": hashlib.sha1(f"{SCOPE}/{c}/{e}".encode()).hexdigest(),
                        "name": f"{vocab[c][e % 12]}-{e}",
                    }
                    for e in ents
                ],
            }
        )
    return rows


def purity(topics: Topics) -> tuple[float, int, int]:
    """Share of clustered (non-outlier) entries whose topic's majority planted cluster is theirs;
    how many planted clusters are some topic's majority; how many outliers are in topics (they
    join their cluster through its entities, since their vectors are noise)."""
    good = total = outliers = 0
    majors: set[str] = set()
    for t in topics.list(SCOPE):
        members = topics.show(SCOPE, t["id"])["members"]
        counts = Counter(m["id"][1:4] for m in members if m["id"].startswith("c"))
        outliers += sum(1 for m in members if m["id"].startswith("x"))
        if not counts:
            continue
        major, hits = counts.most_common(1)[0]
        majors.add(major)
        good += hits
        total += sum(counts.values())
    return (round(good / total, 4) if total else 0.0), len(majors), outliers


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--size", type=int, default=10_000)
    ap.add_argument("--clusters", type=int, default=50)
    ap.add_argument("--noise", type=float, default=1.0)
    ap.add_argument("--outliers", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = ap.parse_args()
    with bench_server() as (settings, _server, status), Recollect.open(settings) as rg:
        rows = make_rows(
            args.size,
            args.clusters,
            rg.embedder.dimension,
            args.noise,
            args.outliers,
            args.seed,
        )
        t0 = time.perf_counter()
        rg.db.write_batches(
            "testing/topics_bench_entries",
            rows,
            batch_size=2000,
            scope_id=SCOPE,
            owner_id="bench",
            model=rg.embedder.model_id,
            now=datetime.now(UTC),
        )
        load_s = time.perf_counter() - t0
        print(f"loaded {args.size} entries in {load_s:.1f}s", file=sys.stderr)
        topics = Topics(rg.db, rg.embedder)
        stages: dict[str, float] = {}
        last = [time.perf_counter()]

        def step(_done: int, _total: int, stage: str) -> None:
            now = time.perf_counter()
            stages[stage] = round(now - last[0], 3)
            last[0] = now

        t0 = time.perf_counter()
        cold = topics.build(SCOPE, progress=step)
        cold_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        noop = topics.build(SCOPE)
        noop_s = time.perf_counter() - t0
        text = rows[0]["content"] + " Edited."
        rg.db.write(
            "testing/topics_set_content",
            scope_id=SCOPE,
            id=rows[0]["id"],
            content=text,
            content_hash=content_hash(text),
            embedding=rows[0]["embedding"],
        )
        t0 = time.perf_counter()
        edit = topics.build(SCOPE)
        edit_s = time.perf_counter() - t0
        pur, found, outliers_in = purity(topics)
        result = {
            "bench": "topics",
            "neo4j": status.version,
            "entries": args.size,
            "planted_clusters": args.clusters,
            "topics": cold["topics"],
            "clustered": cold["clustered"],
            "purity": pur,
            "clusters_found": found,
            "outliers_in_topics": outliers_in,
            "build_s": round(cold_s, 3),
            "build_stages_s": stages,
            "rebuild_unchanged_s": round(noop_s, 3),
            "rebuild_unchanged": {k: noop[k] for k in ("built", "kept", "removed", "unchanged")},
            "rebuild_one_edit_s": round(edit_s, 3),
            "rebuild_one_edit": {k: edit[k] for k in ("built", "kept", "removed")},
            "load_s": round(load_s, 1),
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
    line = json.dumps(result)
    print(line)
    if args.out:
        args.out.write_text(line + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
