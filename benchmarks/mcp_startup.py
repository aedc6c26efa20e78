"""MCP start-up: spawn -> initialize + tools/list, and spawn -> first search answered.

Starts a throwaway embedded Neo4j, stores a few entries in one scope, then spawns
``recollect-graph mcp`` over stdio ``--runs`` times with the official SDK client and prints the
median (and min/max) of: initialize answered, tools/list answered, and the first
``recollect_search`` answered, each in seconds since the spawn. It also prints the size of the
tool definitions (``tools/list``) for each ``--tools`` subset, in characters and in estimated
tokens (characters / 4; no tokenizer download is needed), and, side by side, the floor: a bare
interpreter's start and one that only imports the MCP SDK's server.

Usage:
    python -m benchmarks.mcp_startup --runs 5
    python -m benchmarks.mcp_startup --defs-only
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[1]
SCOPE = "bench-mcp"
FACTS = [
    "The canary stage of the deploy pipeline runs for thirty minutes.",
    "We chose Vite over webpack because the dev server starts ten times faster.",
    "Orders are stored in PostgreSQL 16 with logical replication to analytics.",
    "The flaky websocket test was caused by the flakeguard wrapper hiding errors.",
    "Release notes are written in CHANGELOG.md under the Unreleased heading.",
]


def definitions_size(groups: tuple[str, ...] = ("all", "lore", "recollect")) -> dict[str, Any]:
    """Characters and estimated tokens of the tools/list definitions per ``--tools`` subset."""
    from recollect_graph.mcp.server import MemoryTools, build_server, select
    from recollect_graph.settings import Settings

    out: dict[str, Any] = {}
    for group in groups:
        server = build_server(MemoryTools(Settings(default_scope="s")), select(group))
        listed = anyio.run(server.list_tools)
        opts: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_none": True}
        text = json.dumps([t.model_dump(**opts) for t in listed])
        no_out = json.dumps([t.model_dump(**opts, exclude={"output_schema"}) for t in listed])
        out[group] = {
            "tools": len(listed),
            "chars": len(text),
            "tokens_est": len(text) // 4,
            "tokens_est_without_output_schemas": len(no_out) // 4,
        }
    return out


async def _one(env: dict[str, str]) -> dict[str, float]:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "recollect_graph.cli.main", "mcp"], env=env, cwd=ROOT
    )
    t0 = time.perf_counter()
    with open(os.devnull, "w") as devnull:
        async with (
            stdio_client(params, errlog=devnull) as (read, write),
            ClientSession(read, write, read_timeout_seconds=300) as session,
        ):
            await session.initialize()
            t_init = time.perf_counter() - t0
            await session.list_tools()
            t_list = time.perf_counter() - t0
            r = await session.call_tool("recollect_search", {"query": "how long is the canary"})
            t_search = time.perf_counter() - t0
            assert not r.is_error, r.content
    return {"initialize": t_init, "tools_list": t_list, "first_search": t_search}


def import_floor(runs: int) -> dict[str, float]:
    """Median seconds of a bare interpreter, and of one that only imports the MCP SDK's server.

    What spawn -> tools/list cannot go below with this SDK (its pydantic type modules dominate),
    measured side by side with the spawns.
    """
    import subprocess

    def timed(code: str) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - t0

    return {
        "python": round(statistics.median(timed("pass") for _ in range(runs)), 3),
        "import_mcp_sdk": round(
            statistics.median(timed("import mcp.server.mcpserver") for _ in range(runs)), 3
        ),
        "import_mcp_server_module": round(
            statistics.median(timed("import recollect_graph.mcp.server") for _ in range(runs)), 3
        ),
    }


def store_env(settings: Any) -> dict[str, str]:
    """The environment of a spawned ``recollect-graph`` that uses the benchmark's store."""
    env = dict(os.environ)
    env.update(
        RECOLLECT_DATA_DIR=str(settings.data_dir),
        RECOLLECT_CONFIG_DIR=str(settings.config_dir),
        RECOLLECT_BOLT_PORT=str(settings.bolt_port),
        RECOLLECT_HTTP_PORT=str(settings.http_port),
        RECOLLECT_NEO4J_AUTH="false",
        RECOLLECT_SCOPE=SCOPE,
        RECOLLECT_OWNER="bench",
        HF_HUB_OFFLINE="1",
    )
    env.pop("NEO4J_URI", None)
    return env


def _summary(runs: list[dict[str, float]]) -> dict[str, dict[str, float]]:
    return {
        k: {
            "median": round(statistics.median(r[k] for r in runs), 3),
            "min": round(min(r[k] for r in runs), 3),
            "max": round(max(r[k] for r in runs), 3),
        }
        for k in runs[0]
    }


def main() -> None:
    """Run the benchmark and print its figures as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--defs-only", action="store_true", help="Only the definitions' size.")
    args = ap.parse_args()
    report: dict[str, Any] = {"definitions": definitions_size(), "floor": import_floor(args.runs)}
    if not args.defs_only:
        from benchmarks.harness import bench_server
        from recollect_graph import Recollect

        with bench_server() as (settings, _server, _status):
            with Recollect.open(settings) as rg:
                for fact in FACTS:
                    rg.remember(fact, scope_id=SCOPE, owner_id="bench")
            env = store_env(settings)
            runs = []
            for i in range(args.runs):
                runs.append(anyio.run(_one, env))
                print(f"run {i + 1}: {json.dumps(runs[-1])}", file=sys.stderr)
            report["seconds_since_spawn"] = _summary(runs)
            report["runs"] = args.runs
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
