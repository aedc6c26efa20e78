"""Recall quality on the agent-transcript fixture: is the target session the top candidate?

Ingests ``tests/data/agent_transcripts`` (34 sessions, 7 forks) into a scope and asks every
question of ``tests/data/recall_questions.jsonl`` through ``rg.recall``. Reports top-1 and top-3
for questions with a target (by kind), and for the questions about things never discussed, how
often recall claimed a high-confidence match (it should not).

Run against a throwaway server: ``.venv/bin/python benchmarks/recall_quality.py``; against the
running embedded server (faster to iterate): add ``--attach``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.harness import bench_server
from recollect_graph import Recollect
from recollect_graph.services.sessions import transcripts

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "agent_transcripts"
QUESTIONS = ROOT / "tests" / "data" / "recall_questions.jsonl"
#: The fixture's sessions end in early November 2026; relative time words resolve against this.
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def evaluate(rg: Recollect, scope_id: str, questions: list[dict[str, Any]]) -> dict[str, Any]:
    """Ask every question; top-1/top-3 by kind, false confidence on unanswerable ones."""
    by_kind: dict[str, list[int]] = defaultdict(list)
    misses: list[dict[str, Any]] = []
    null_high = 0
    nulls = 0
    ms: list[float] = []
    for q in questions:
        t0 = time.perf_counter()
        r = rg.recall(q["question"], scope_id=scope_id, now=NOW)
        ms.append((time.perf_counter() - t0) * 1000)
        ids = [c.session_id for c in r.candidates]
        if q["target"] is None:
            nulls += 1
            null_high += bool(r.candidates and r.candidates[0].confidence == "high")
            continue
        rank = ids.index(q["target"]) + 1 if q["target"] in ids else 99
        by_kind[q["kind"]].append(rank)
        by_kind["all"].append(rank)
        if rank != 1:
            misses.append(
                {
                    "id": q["id"],
                    "rank": rank,
                    "track": r.track,
                    "q": q["question"],
                    "got": ids[:3],
                    "conf": [c.confidence for c in r.candidates[:3]],
                }
            )
    ms.sort()
    return {
        "questions": len(questions),
        "by_kind": {
            k: {
                "n": len(v),
                "top1": round(sum(r == 1 for r in v) / len(v), 3),
                "top3": round(sum(r <= 3 for r in v) / len(v), 3),
            }
            for k, v in sorted(by_kind.items())
        },
        "unanswerable": {"n": nulls, "high_confidence_claims": null_high},
        "recall_ms_p50": round(ms[len(ms) // 2], 1),
        "misses": misses,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--attach", action="store_true", help="Use the running embedded server.")
    ap.add_argument("--scope", default="recall-fixture")
    ap.add_argument("--reingest", action="store_true", help="Re-index the scope's sessions.")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/recall_quality.json")
    args = ap.parse_args()
    questions = [json.loads(x) for x in QUESTIONS.read_text().splitlines() if x.strip()]

    def run(rg: Recollect) -> dict[str, Any]:
        t0 = time.perf_counter()
        report = transcripts.ingest(rg.sessions, FIXTURE, scope_id=args.scope, owner_id="eval")
        if args.reingest:
            for s in rg.sessions.list(args.scope, limit=10_000):
                rg.sessions.index(s["id"], scope_id=args.scope)
        print(f"ingest: {report.as_dict()} in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        return evaluate(rg, args.scope, questions)

    if args.attach:
        with Recollect.open() as rg:
            result = run(rg)
    else:
        with bench_server() as (settings, _s, _st), Recollect.open(settings) as rg:
            result = run(rg)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    for m in result["misses"]:
        print(
            f"  miss {m['id']} rank {m['rank']} {m['track']}: {m['q']} -> {m['got']} {m['conf']}",
            file=sys.stderr,
        )
    print(json.dumps({k: v for k, v in result.items() if k != "misses"}, indent=2))


if __name__ == "__main__":
    main()
