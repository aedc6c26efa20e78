"""Growth table and plot from the scale suite's results (``bench_scale.py``).

Reads one or more results files (default: ``benchmarks/results/scale.json`` and, when present,
``benchmarks/results/scale-1m.json``), prints a Markdown table of every cost against the number
of entries, and draws latency p95 against entries on log axes (``docs/img/bench_growth.png``).

Run: ``.venv/bin/python benchmarks/report.py``
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

RESULTS = Path("benchmarks/results")
#: (label, path into a size row) of the latencies plotted and tabulated (p95, ms).
LATENCIES = (
    ("hybrid search", ("search", "hybrid", "p95_ms")),
    ("hybrid search, no baseline between calls", ("search", "hybrid_alone", "p95_ms")),
    ("Cypher cosine scan", ("search", "cypher_scan", "p95_ms")),
    ("numpy cosine", ("search", "numpy", "p95_ms")),
    ("rank_bm25", ("search", "bm25", "p95_ms")),
    ("check_contradiction", ("contradiction", "p95_ms")),
    ("suggest_links", ("suggest_links", "p95_ms")),
    ("context (800 tokens)", ("context_800_tokens", "p95_ms")),
    ("recall", ("recall", "p95_ms")),
)
OTHER = (
    ("import entries/s", ("load", "import_per_s")),
    ("Python peak RSS during load, MB", ("load", "python_peak_rss_mb")),
    ("store on disk (records + indexes), MB", ("store_mb",)),
    ("of which indexes, MB", ("index_mb",)),
    ("store growth per 100k entries, MB", ("store_mb_per_100k_entries",)),
    ("Neo4j RSS, MB", ("server_rss_mb",)),
    ("sessions (recall)", ("recall", "sessions")),
)


def dig(row: dict[str, Any], path: tuple[str, ...]) -> Any:
    """``row[path[0]][path[1]]...`` or ``None``."""
    cur: Any = row
    for k in path:
        if not isinstance(cur, dict) or k not in cur:
            return None
        cur = cur[k]
    return cur


def rows_of(paths: list[Path]) -> list[dict[str, Any]]:
    """Every size row of the given results files, smallest first (a later file wins a tie)."""
    by_size: dict[int, dict[str, Any]] = {}
    for p in paths:
        for row in json.loads(p.read_text())["sizes"]:
            by_size[int(row["entries"])] = row
    return [by_size[k] for k in sorted(by_size)]


def table(rows: list[dict[str, Any]]) -> str:
    """The Markdown growth table."""
    sizes = [f"{r['entries']:,}" for r in rows]
    out = ["| p95 ms unless noted | " + " | ".join(sizes) + " |", "|---" * (len(rows) + 1) + "|"]
    for label, path in (*LATENCIES, *OTHER):
        vals = [dig(r, path) for r in rows]
        cells = " | ".join("-" if v is None else f"{v:,}" for v in vals)
        out.append(f"| {label} | {cells} |")
    return "\n".join(out)


def plot(rows: list[dict[str, Any]], dest: Path) -> None:
    """Latency p95 against entries, log-log."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = [r["entries"] for r in rows]
    for label, path in LATENCIES:
        pts = [(x, dig(r, path)) for x, r in zip(xs, rows, strict=True) if dig(r, path)]
        if pts:
            ax.plot(*zip(*pts, strict=True), marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("entries in the store")
    ax.set_ylabel("p95 latency, ms (query embedding included)")
    ax.set_title("recollect-graph: latency against size (2 CPU cores)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    dest.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(dest, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("results", type=Path, nargs="*")
    ap.add_argument("--plot", type=Path, default=Path("docs/img/bench_growth.png"))
    args = ap.parse_args()
    paths = args.results or [
        p for p in (RESULTS / "scale.json", RESULTS / "scale-1m.json") if p.exists()
    ]
    if not paths:
        raise SystemExit("no results: run benchmarks/bench_scale.py first")
    rows = rows_of(paths)
    print(table(rows))
    plot(rows, args.plot)
    print(f"\nplot: {args.plot}")


if __name__ == "__main__":
    main()
