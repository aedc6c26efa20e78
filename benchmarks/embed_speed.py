"""How fast each embedding model turns chat turns into vectors: models side by side, one run.

The texts are LongMemEval's turns, read at run time from ``--data`` (never stored here),
de-duplicated and taken two ways: the ``--texts`` longest (where a model's input limit matters)
and as many drawn at random (seeded: what a haystack holds). Each model is named as ``NAME`` or
``NAME@TOKENS`` (``e5-small-v2@512`` reads 512 tokens instead of its profile's 256). Every model
is loaded and warmed first; then ``--rounds`` rounds embed each set with each model in turn (the
order rotating by round), so a slower stretch of a shared machine falls on every model alike.
Reported: the median texts per second of each model on each set, and its ratio to the first's.

Run: ``.venv/bin/python benchmarks/embed_speed.py --data PATH/longmemeval-s-dev.json.gz
all-MiniLM-L6-v2 e5-small-v2 e5-small-v2@512``
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import longmemeval_eval as lme
from benchmarks.retrieval import git_commit
from recollect_graph.nlp.embedder import Embedder


def load_turns(path: Path) -> list[str]:
    """Every distinct non-empty turn text of a LongMemEval file, in a fixed order."""
    seen = {t.text for q in lme.load(path) for _, t in q.turns}
    return sorted(t for t in seen if t.strip())


def text_sets(turns: Sequence[str], n: int, seed: int = 7) -> dict[str, list[str]]:
    """The ``n`` longest turns and ``n`` drawn at random."""
    longest = sorted(turns, key=len, reverse=True)[:n]
    return {"longest": longest, "random": random.Random(seed).sample(list(turns), n)}


def embedder(spec: str) -> Embedder:
    """A loaded embedder for ``NAME`` or ``NAME@TOKENS``."""
    name, _, cut = spec.partition("@")
    emb = Embedder(name)
    if cut:
        emb.profile = dataclasses.replace(emb.profile, max_tokens=int(cut))
    emb.embed(["warm the model up"])
    return emb


def run(specs: Sequence[str], sets: dict[str, list[str]], rounds: int) -> dict[str, Any]:
    """Median texts/s of every model on every set, rounds interleaved."""
    models = {s: embedder(s) for s in specs}
    rates: dict[str, dict[str, list[float]]] = {s: {k: [] for k in sets} for s in specs}
    for r in range(rounds):
        order = list(specs[r % len(specs) :]) + list(specs[: r % len(specs)])
        for spec in order:
            for key, texts in sets.items():
                t0 = time.perf_counter()
                models[spec].embed(texts)
                rates[spec][key].append(len(texts) / (time.perf_counter() - t0))
            print(f"round {r + 1}/{rounds}: {spec} done", file=sys.stderr)
    first = specs[0]
    out: dict[str, Any] = {}
    for spec in specs:
        emb = models[spec]
        out[spec] = {
            "backend": emb.backend,
            "max_tokens": emb.max_tokens,
            **{
                key: {
                    "texts_per_s": round(statistics.median(rates[spec][key]), 1),
                    "rounds": [round(x, 1) for x in rates[spec][key]],
                    f"ratio_to_{first}": round(
                        statistics.median(rates[spec][key]) / statistics.median(rates[first][key]),
                        3,
                    ),
                }
                for key in sets
            },
        }
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", help="NAME or NAME@TOKENS; ratios are to the first")
    ap.add_argument("--data", type=Path, required=True, help="a LongMemEval JSON file (.gz ok)")
    ap.add_argument("--texts", type=int, default=300, help="texts per set (default 300)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--out", type=Path, help="write the result as JSON here")
    args = ap.parse_args(argv)
    turns = load_turns(args.data)
    sets = text_sets(turns, args.texts)
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "data": {
            "file": args.data.name,
            "distinct_turns": len(turns),
            **{f"{k}_median_chars": statistics.median(len(t) for t in v) for k, v in sets.items()},
        },
        "models": run(args.models, sets, args.rounds),
    }
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
