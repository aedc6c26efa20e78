"""Learner throughput: ``rg.learn`` over this project's git history and a generated repository.

The generated repository (``git fast-import``, default 10,000 commits over two years) mixes
realistic commits (conventional-commit subjects about services, tools and incidents from
``benchmarks/datagen.py``, most with bodies) with the noise a real history has (version and
dependency bumps, typo fixes, merges, WIP, formatting) at about one in five, plus one tool
migration. Reported: fetch/plan time, entries stored, skip reasons, seconds and commits/s, and the
re-run (which must store nothing).

Run: ``.venv/bin/python benchmarks/bench_learners.py --commits 10000``
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.datagen import SERVICES, TOOLS, sentence
from benchmarks.harness import bench_server
from recollect_graph import Recollect

NOISE = [
    "bump version to {v}",
    "chore(deps): bump {tool} from 1.{a}.0 to 1.{b}.0",
    "fix typo",
    "wip",
    "style: format with black",
    "Merge branch 'feature/{svc}' into main",
]
KINDS = ["feat", "fix", "perf", "refactor", "docs", "test"]


def generate(path: Path, n: int, seed: int = 1) -> None:
    """A repository of ``n`` commits written with ``git fast-import`` (seconds, not minutes)."""
    rng = random.Random(seed)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    t0 = 1_700_000_000
    lines: list[str] = []
    for i in range(n):
        svc, tool = rng.choice(SERVICES), rng.choice(TOOLS)
        if i == n // 2:
            subject, body = "build: migrate the frontend build from webpack to vite", sentence(rng)
        elif rng.random() < 0.2:
            subject = rng.choice(NOISE).format(
                v=f"1.{i // 100}.{i % 100}", tool=tool, a=i % 9, b=i % 9 + 1, svc=svc
            )
            body = ""
        else:
            subject = f"{rng.choice(KINDS)}({svc}): {sentence(rng)[:70].rstrip('.')}"
            body = " ".join(sentence(rng) for _ in range(rng.randint(0, 3)))
        msg = subject + ("\n\n" + body if body else "") + "\n"
        data = f"{svc} {i}\n"
        when = t0 + i * 3600 * 2
        lines += [
            "commit refs/heads/main",
            f"mark :{i + 1}",
            f"committer Dev {i % 7} <dev{i % 7}@example.com> {when} +0000",
            f"data {len(msg.encode())}",
            msg,
        ]
        if i:
            lines.append(f"from :{i}")
        lines += [f"M 644 inline src/{svc}/mod{i % 50}.py", f"data {len(data.encode())}", data]
    subprocess.run(
        ["git", "fast-import", "--quiet"], input="\n".join(lines).encode(), cwd=path, check=True
    )
    subprocess.run(["git", "checkout", "-q", "main"], cwd=path, check=True)


def learn(rg: Recollect, scope: str, repo: Path) -> dict[str, Any]:
    t0 = time.perf_counter()
    out = rg.learn(scope, owner_id="bench", sources={"git": {"repo": str(repo)}})["git"]
    secs = time.perf_counter() - t0
    res = out.model_dump() if hasattr(out, "model_dump") else dict(out.__dict__)
    t1 = time.perf_counter()
    again = rg.learn(scope, owner_id="bench", sources={"git": {"repo": str(repo)}})["git"]
    again_d = again.model_dump() if hasattr(again, "model_dump") else dict(again.__dict__)
    return {
        "fetched": res.get("fetched"),
        "learned": res.get("learned"),
        "skipped_total": res.get("skipped_total"),
        "skipped": res.get("skipped"),
        "patterns": len(res.get("patterns") or []),
        "seconds": round(secs, 1),
        "commits_per_s": round((res.get("fetched") or 0) / secs, 1),
        "rerun_seconds": round(time.perf_counter() - t1, 1),
        "rerun_learned": again_d.get("learned"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--commits", type=int, default=10_000)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/learners.json"))
    args = ap.parse_args()
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="rg-gitgen-") as tmp:
        repo = Path(tmp) / "repo"
        t0 = time.perf_counter()
        generate(repo, args.commits)
        result["generate_seconds"] = round(time.perf_counter() - t0, 1)
        with bench_server() as (settings, _s, _st), Recollect.open(settings) as rg:
            result["this_project"] = learn(rg, "own", Path(__file__).resolve().parents[1])
            print(json.dumps(result), file=sys.stderr)
            result["generated"] = {"commits": args.commits, **learn(rg, "gen", repo)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str))
    print(json.dumps(result, indent=2, default=str))


if __name__ == "__main__":
    main()
