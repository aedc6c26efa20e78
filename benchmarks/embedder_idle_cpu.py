"""CPU the embedder burns while the process waits after an embedding (onnxruntime thread spinning).

A query embeds its text, then waits on Neo4j. onnxruntime's worker threads spin by default after
each call, so during that wait the process keeps a core busy that the server needed. This embeds
one query at a time, then sleeps 50 ms (a stand-in for the round trip) and measures the process's
CPU time during the sleeps, with spinning off (the default) and on, alternating, in one run.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/embedder_idle_cpu.py [--queries 20]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from recollect_graph.nlp import onnx_embed
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.settings import Settings


def burnt(spinning: bool, queries: int) -> float:
    """Share of the waits (0-1) the process spent on the CPU, with spinning on or off."""
    onnx_embed.ALLOW_SPINNING = spinning
    st = Settings.from_env()
    e = Embedder(st.embedding_model, backend="onnx", cache_dir=st.cache_dir)
    e.embed(["warm up"])
    cpu = wall = 0.0
    for i in range(queries):
        e.embed([f"what did we decide about the billing service, take {i}"])
        c0, t0 = time.process_time(), time.perf_counter()
        time.sleep(0.05)
        cpu += time.process_time() - c0
        wall += time.perf_counter() - t0
    return cpu / wall


def main() -> None:
    """Measure both settings twice, alternating, and print the medians as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=20)
    args = ap.parse_args()
    runs: dict[str, list[float]] = {"off": [], "on": []}
    for order in (("off", "on"), ("on", "off")):
        for k in order:
            runs[k].append(burnt(k == "on", args.queries))
    out = {k: round(sum(v) / len(v), 3) for k, v in runs.items()}
    print(json.dumps({"cpu_share_while_waiting": out, "queries": args.queries}))


if __name__ == "__main__":
    main()
