"""Storing conversations: ``add_turns`` with and without turn context vectors, side by side.

Each conversation of a LoCoMo-format file is stored through ``rg.sessions.add_turns`` (one
session per LoCoMo session, as ``benchmarks/locomo.py`` stores them), once with context vectors
(``turn_context_vectors``, the default: each turn of at most 300 characters is embedded a second
time with the end of the turn before it) and once without, each in a fresh scope of one
temporary embedded Neo4j. The two alternate over ``--rounds`` rounds (the order flips each
round), so both see the same machine load; reported: turns, seconds per round, turns/s (median)
and the ratio of the medians.

Run: ``.venv/bin/python benchmarks/bench_turns.py --data PATH/locomo10.json``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.harness import bench_server
from benchmarks.locomo import store_conversation
from benchmarks.retrieval import git_commit
from recollect_graph import Recollect
from recollect_graph.analysis import locomo_eval as le


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True, help="a LoCoMo-format JSON file")
    ap.add_argument("--samples", help="comma-separated sample ids (default: all)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of both (default 3)")
    ap.add_argument("--out", type=Path, help="results JSON path")
    args = ap.parse_args(argv)
    samples = [s.strip() for s in args.samples.split(",")] if args.samples else None
    convs = le.load(args.data, samples)
    seconds: dict[str, list[float]] = {"context": [], "plain": []}
    turns = sum(len(c.turns) for c in convs)
    with bench_server() as (settings, _server, _status), Recollect.open(settings) as rg:
        rg.embedder.embed(["warm up the model"])
        plain = Recollect(
            rg.db,
            settings.model_copy(update={"turn_context_vectors": False}),
            embedder=rg.embedder,
            spacy=rg.spacy,
        )
        for r in range(args.rounds):
            order = [("context", rg), ("plain", plain)]
            for name, engine in order if r % 2 == 0 else order[::-1]:
                run = uuid.uuid4().hex[:8]
                t0 = time.perf_counter()
                for conv in convs:
                    store_conversation(engine, conv, f"turns-{conv.sample_id}-{run}", "add_turns")
                seconds[name].append(time.perf_counter() - t0)
                print(f"round {r + 1}: {name} {seconds[name][-1]:.1f} s", file=sys.stderr)
    med = {k: statistics.median(v) for k, v in seconds.items()}
    result: dict[str, Any] = {
        "benchmark": "add_turns with and without turn context vectors",
        "commit": git_commit(),
        "data": args.data.name,
        "samples": [c.sample_id for c in convs],
        "turns": turns,
        "seconds": seconds,
        "turns_per_s": {k: round(turns / v, 1) for k, v in med.items()},
        "ratio_context_to_plain": round(med["context"] / med["plain"], 3),
    }
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
