"""CLI start-up: wall seconds of ``recollect-graph --help``, ``--version`` and ``search``.

Starts a throwaway embedded Neo4j, stores a few entries in one scope, then runs each command
``--runs`` times as a new process (as a user's shell does) and prints the median, min and max
wall seconds, next to the floor measured in the same run: a bare interpreter's start. The
``search`` runs against the running server, end to end: the CLI's imports, connecting, embedding
the query with the configured embedder, the search and printing its JSON.

Usage:
    python -m benchmarks.cli_startup --runs 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

from benchmarks.mcp_startup import FACTS, ROOT, SCOPE, store_env

CLI = [sys.executable, "-m", "recollect_graph.cli.main"]
COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "--help": [*CLI, "--help"],
    "--version": [*CLI, "--version"],
    "search": [*CLI, "search", "how long is the canary", "--json"],
}


def _timed(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[2:])} failed ({out.returncode}): {out.stderr[-2000:]}")
    return time.perf_counter() - t0


def main() -> None:
    """Run the benchmark and print its figures as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from benchmarks.harness import bench_server
    from recollect_graph import Recollect

    with bench_server() as (settings, _server, _status):
        with Recollect.open(settings) as rg:
            for fact in FACTS:
                rg.remember(fact, scope_id=SCOPE, owner_id="bench")
        env = store_env(settings)
        _timed(COMMANDS["search"], env)  # the first run writes the ONNX export if missing
        times: dict[str, list[float]] = {name: [] for name in COMMANDS}
        for _ in range(args.runs):  # interleaved, so the machine's load falls on each alike
            for name, cmd in COMMANDS.items():
                times[name].append(_timed(cmd, env))
    report: dict[str, Any] = {
        name: {
            "median": round(statistics.median(xs), 3),
            "min": round(min(xs), 3),
            "max": round(max(xs), 3),
        }
        for name, xs in times.items()
    }
    report["runs"] = args.runs
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
