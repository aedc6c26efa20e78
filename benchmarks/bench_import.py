"""The import with vectors next to a bare ``UNWIND`` of the same rows, alternating, one server.

Each round imports ``--n`` generated entries with precomputed vectors and their typed edges
(``benchmarks/scale_data.py``: 30% of the entries have an edge to an earlier one) through the
public ``rg.import_`` into a new scope, from the export's lines as text (made before the clock
starts, as if read from a file: the import's time includes parsing them, not making them). Then
it writes the node rows of another export of the same shape with a bare ``UNWIND $rows AS r
CREATE (e:Entry:BenchBare) SET e = r`` in batches of the same size, one driver session and write
transaction per batch as the import's (the bound the import is compared with: issue 22's target
is a ratio >= 0.8, or 3,000 entries/s), and the export's edges after them (``MATCH`` both ends,
``CREATE``): the import's same lines. After a small warm-up of each (the import's is timed: a
user's first import on a freshly started server, plans included), the two alternate
``--rounds`` times, so a slower spell of the machine hits both; the medians and their ratio are
reported, with where the import's time goes (each statement's share, and the commit and Python
time that are not inside a statement).

Run: ``.venv/bin/python benchmarks/bench_import.py [--n 10000] [--rounds 5] [--batch 1000]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from neo4j import ManagedTransaction

from benchmarks.harness import bench_server
from benchmarks.scale_data import Pool, export_lines
from recollect_graph import Recollect
from recollect_graph.services.transfer.format import decode

ROOT = Path(__file__).resolve().parents[1]
#: The bare insert the import is compared with (benchmark-only Cypher, no user text in it).
BARE_UNWIND = "UNWIND $rows AS r CREATE (e:Entry:BenchBare) SET e = r"
#: The same export's edges, bare: both ends by id, then CREATE (no MERGE, no undo record).
BARE_EDGES = (
    "UNWIND $rows AS r MATCH (a:Entry {id: r.a}) MATCH (b:Entry {id: r.b}) "
    "CREATE (a)-[e:$(r.type)]->(b) SET e = r.props"
)


def _statement_times(rg: Recollect) -> tuple[dict[str, float], Callable[[], None]]:
    """Seconds spent in each statement of the write transactions, and a function that undoes it."""
    spent: dict[str, float] = defaultdict(float)
    original = rg.db.write_tx

    def write_tx(work: Callable[..., Any], *a: Any, **k: Any) -> Any:
        def timed_work(tx: Any) -> Any:
            run = tx.run

            def timed_run(name: str, **params: Any) -> Any:
                t = time.perf_counter()
                try:
                    return run(name, **params)
                finally:
                    spent[name] += time.perf_counter() - t

            tx.run = timed_run
            return work(tx)

        t = time.perf_counter()
        try:
            return original(timed_work, *a, **k)
        finally:
            spent["write transactions (all)"] += time.perf_counter() - t

    rg.db.write_tx = write_tx  # type: ignore[method-assign,assignment]

    def restore() -> None:
        rg.db.write_tx = original  # type: ignore[method-assign]

    return spent, restore


def _bare_batch(tx: ManagedTransaction, statement: str, rows: list[dict[str, Any]]) -> None:
    tx.run(statement, rows=rows).consume()


def _bare(rg: Recollect, pool: Pool, scope: str, n: int, batch: int) -> tuple[float, float]:
    """Seconds for the bare UNWIND of an export's node rows (decoded as the import decodes them),
    and for its edges after them (nodes and edges together: the import's same lines)."""
    lines = list(export_lines(pool, scope, 0, n))
    nodes = [decode(x["props"]) for x in lines if x.get("kind") == "node"]
    edges = [
        {"a": x["start"]["id"], "b": x["end"]["id"], "type": x["type"], "props": x["props"]}
        for x in lines
        if x.get("kind") == "rel"
    ]

    def write(statement: str, rows: list[dict[str, Any]]) -> None:
        for s in range(0, len(rows), batch):
            # one session and write transaction per batch, as the import's batches
            with rg.db.driver.session(database=rg.db.database) as session:
                session.execute_write(_bare_batch, statement, rows[s : s + batch])

    t = time.perf_counter()
    write(BARE_UNWIND, nodes)
    rg.db.write("admin/await_indexes", timeout_s=1800)
    nodes_s = time.perf_counter() - t
    write(BARE_EDGES, edges)
    return nodes_s, time.perf_counter() - t


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Alternate the import and the bare UNWIND ``args.rounds`` times; medians and ratio."""
    with bench_server() as (settings, _server, _status), Recollect.open(settings) as rg:
        pool = Pool(rg, 2000)
        imports: list[float] = []
        bares: list[float] = []
        bares_edges: list[float] = []
        edges = 0
        profile: dict[str, float] = {}
        # a first round of each warms the server (its JIT, the indexes' first pages, the plans of
        # the import's statements): not counted in the rounds, but its time is reported (what a
        # user's first import on a freshly started server pays)
        text = [json.dumps(x) for x in export_lines(pool, "import-warm", 0, args.batch)]
        t = time.perf_counter()
        rg.import_(text, batch_size=args.batch)
        first = time.perf_counter() - t
        _bare(rg, pool, "bare-warm", args.batch, args.batch)
        for r in range(args.rounds):
            # the export's text is made before the clock starts, as the bare's rows are: the
            # import reads lines as from a file (parsing them is its work, making them is not)
            text = [json.dumps(x) for x in export_lines(pool, f"import-{r}", 0, args.n)]
            spent, restore = _statement_times(rg)
            t = time.perf_counter()
            try:
                out = rg.import_(text, batch_size=args.batch)
                rg.db.write("admin/await_indexes", timeout_s=1800)
            finally:
                restore()
            imports.append(time.perf_counter() - t)
            edges = out.rels
            if r == args.rounds - 1:
                profile = {k: round(v, 2) for k, v in sorted(spent.items(), key=lambda x: -x[1])}
                inside = sum(v for k, v in spent.items() if k != "write transactions (all)")
                profile["commit and driver (in transactions, outside statements)"] = round(
                    spent["write transactions (all)"] - inside, 2
                )
                profile["outside transactions (parsing not overlapped, waiting)"] = round(
                    imports[-1] - spent["write transactions (all)"], 2
                )
            nodes_s, all_s = _bare(rg, pool, f"bare-{r}", args.n, args.batch)
            bares.append(nodes_s)
            bares_edges.append(all_s)
            print(
                f"round {r + 1}: import {args.n / imports[-1]:.0f}/s, "
                f"bare UNWIND {args.n / bares[-1]:.0f}/s, with the edges {args.n / all_s:.0f}/s",
                file=sys.stderr,
            )
    imp, bare = statistics.median(imports), statistics.median(bares)
    bare_edges = statistics.median(bares_edges)
    return {
        "benchmark": "import with vectors vs a bare UNWIND of the same node rows",
        "n": args.n,
        "rounds": args.rounds,
        "batch": args.batch,
        "edges_per_import": edges,
        "import_seconds": [round(x, 2) for x in imports],
        "bare_seconds": [round(x, 2) for x in bares],
        "import_entries_per_s": round(args.n / imp, 1),
        "bare_entries_per_s": round(args.n / bare, 1),
        "ratio_import_to_bare": round(bare / imp, 3),
        "bare_with_edges_seconds": [round(x, 2) for x in bares_edges],
        "bare_with_edges_entries_per_s": round(args.n / bare_edges, 1),
        "ratio_import_to_bare_with_edges": round(bare_edges / imp, 3),
        "import_profile_last_round_s": profile,
        "first_import_on_a_fresh_server_s": round(first, 2),
        "first_import_entries": args.batch,
    }


def main() -> None:
    """Command line: run, print and save the results."""
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=10000, help="entries per round (default 10000)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of each (default 5)")
    ap.add_argument("--batch", type=int, default=1000, help="rows per transaction (default 1000)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/import.json")
    args = ap.parse_args()
    result = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
