"""What the retrieval benchmarks share (``benchmarks/locomo.py``, ``benchmarks/longmemeval.py``).

Output options, the throwaway store, unit vectors for the dense baseline, the commit measured,
the per-question details file, the off-topic summary and the ``main`` that writes the results.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.harness import bench_server
from recollect_graph import Recollect, Settings

ROOT = Path(__file__).resolve().parents[1]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def add_output_options(ap: argparse.ArgumentParser) -> None:
    """The options both retrieval benchmarks share: baselines, backend, output."""
    ap.add_argument("--no-baselines", action="store_true", help="only our search")
    ap.add_argument(
        "--backend",
        choices=("auto", "onnx", "torch"),
        default="auto",
        help="embedder backend (RECOLLECT_EMBEDDER_BACKEND; default auto)",
    )
    ap.add_argument(
        "--embedding-model",
        default=None,
        help="embedding model name or path (RECOLLECT_EMBEDDING_MODEL; default: the settings')",
    )
    ap.add_argument("--out", type=Path, default=None, help="results JSON path")
    ap.add_argument("--details", type=Path, default=None, help="per-question rankings (JSONL)")
    ap.add_argument("--json", action="store_true", help="print the JSON instead of the table")


def add_store_options(ap: argparse.ArgumentParser, what: str) -> None:
    """Where the benchmark stores its data: a throwaway server, or ``--uri`` (kept, reused)."""
    ap.add_argument("--uri", help="use this Neo4j (NEO4J_USER/NEO4J_PASSWORD from the env)")
    ap.add_argument("--keep", action="store_true", help="with --uri: keep the scopes")
    ap.add_argument(
        "--runid",
        help="scope suffix (default: random); with --uri --keep, a later run can --reuse them",
    )
    ap.add_argument(
        "--reuse",
        action="store_true",
        help=f"with --uri and --runid: the {what} are already stored, search only",
    )


def run_id(args: argparse.Namespace) -> str:
    """The run's scope suffix: ``--runid``, else a fresh one; ``--reuse`` needs a named store."""
    if args.reuse and not (args.uri and args.runid):
        raise SystemExit("--reuse needs --uri and --runid")
    return str(args.runid or uuid.uuid4().hex[:6])


def drop_scopes(rg: Recollect, scopes: Sequence[str]) -> None:
    """Delete the benchmark's scopes from a ``--uri`` store (unless ``--keep``)."""
    for scope in scopes:
        rg.query(
            "MATCH (n) WHERE n.scope_id = $scope DETACH DELETE n", {"scope": scope}, write=True
        )


def _unit(vectors: Sequence[Sequence[float]]) -> npt.NDArray[np.float32]:
    a = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(a, axis=1, keepdims=True)
    out: npt.NDArray[np.float32] = (a / np.where(norms == 0, 1, norms)).astype(np.float32)
    return out


@contextmanager
def open_store(args: argparse.Namespace) -> Iterator[Settings]:
    chosen: dict[str, str] = {"embedding_backend": args.backend}
    if args.embedding_model:
        chosen["embedding_model"] = args.embedding_model
    if args.uri:
        yield Settings.from_env(neo4j_uri=args.uri, **chosen)
        return
    with bench_server() as (settings, _server, _status):
        yield settings.model_copy(update=chosen)


def git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def write_details(path: Path | None, details: Sequence[dict[str, Any]]) -> None:
    """Every question's rankings as JSON lines (``--details``), for error analysis."""
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for d in details:
            fh.write(json.dumps(d) + "\n")


def off_topic_summary(off_topic: dict[str, list[int]]) -> dict[str, dict[str, Any]]:
    """Hits per off-topic search, by variant: mean, how many searches had none, the most."""
    return {
        name: {
            "searches": len(n),
            "mean_hits": round(sum(n) / len(n), 2) if n else None,
            "with_no_hits": sum(1 for x in n if x == 0),
            "max_hits": max(n, default=0),
        }
        for name, n in off_topic.items()
    }


def off_topic_lines(result: dict[str, Any]) -> list[str]:
    """The table's lines for the off-topic searches, plain and asked with a time."""
    lines = []
    for key, what in (("off_topic", "off-topic"), ("off_topic_timed", "off-topic with a time")):
        for name, off in result.get(key, {}).items():
            lines.append(
                f"{name} {what}: {off['mean_hits']} hits per search, "
                f"{off['with_no_hits']} of {off['searches']} with none, at most {off['max_hits']}"
            )
    return lines


def bench_main(
    args: argparse.Namespace,
    run_fn: Callable[[argparse.Namespace], dict[str, Any]],
    table_fn: Callable[[dict[str, Any]], str],
    stem: str,
) -> None:
    """Check rank_bm25 (for the baselines), run, write ``results/<stem>-<date>.json``, print."""
    if not args.no_baselines:
        try:
            import rank_bm25  # type: ignore[import-untyped]  # noqa: F401
        except ImportError:
            raise SystemExit(
                "the BM25 baseline needs rank_bm25: pip install -e '.[bench]'"
            ) from None
    result = run_fn(args)
    out = args.out or ROOT / "benchmarks" / "results" / f"{stem}-{datetime.now():%Y-%m-%d}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    log(f"wrote {out}")
    print(json.dumps(result, indent=2) if args.json else table_fn(result))
