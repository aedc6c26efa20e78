"""Ingest throughput: documents and chunks per second on real folders of Markdown.

Folders (default): this project's ``docs/`` and the Markdown that ships inside installed
dependencies (``site-packages``: playwright, huggingface_hub, sentence-transformers...). Each is
ingested into a fresh scope of a temporary embedded Neo4j, then ingested again unchanged (which
must embed nothing), then one file is edited and ingested again (only its changed chunks are
embedded). Reported per folder: documents, chunks, seconds, documents/s, chunks/s, the time per
pipeline step summed over the runs (chunking, embedding, extracting, writing), and the ratio of
the unchanged re-ingest to the first ingest, measured side by side in one run.

Run: ``.venv/bin/python benchmarks/bench_ingest.py [--folder PATH ...]``
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.harness import bench_server
from recollect_graph import Recollect

ROOT = Path(__file__).resolve().parents[1]


def dependency_markdown(dest: Path, limit: int = 60) -> Path:
    """Copy up to ``limit`` Markdown files of installed packages into ``dest`` (flattened)."""
    site = Path(sysconfig.get_paths()["purelib"])
    dest.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in site.rglob("*.md") if p.stat().st_size > 1500)[:limit]
    for i, p in enumerate(files):
        shutil.copy(p, dest / f"{i:03d}-{p.parent.name}-{p.name}")
    return dest


def steps(rg: Recollect, scope: str) -> dict[str, float]:
    """Seconds per pipeline step, summed over the scope's completed runs."""
    rows = rg.query(
        "MATCH (r:PipelineRun {scope_id: $s, status: 'complete'}) RETURN r.step_details AS d",
        {"s": scope},
    )
    out: dict[str, float] = {}
    for r in rows:
        for name, info in json.loads(r["d"]).items():
            out[name] = out.get(name, 0.0) + float(info.get("ms", 0)) / 1000
    return {k: round(v, 2) for k, v in out.items()}


def bench(rg: Recollect, name: str, folder: Path) -> dict[str, Any]:
    """First ingest, unchanged re-ingest and one-file edit of ``folder``."""
    scope = f"bench-ingest-{name}"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / name
        shutil.copytree(folder, work)
        first = rg.documents.ingest_path(work, owner_id="bench", scope_id=scope).totals()
        t = time.perf_counter()
        again = rg.documents.ingest_path(work, owner_id="bench", scope_id=scope).totals()
        again_s = time.perf_counter() - t
        victim = sorted(work.rglob("*.md"))[0]
        victim.write_text(victim.read_text() + "\n\n## Added\n\nA new paragraph at the end.\n")
        edit = rg.documents.ingest_path(work, owner_id="bench", scope_id=scope).totals()
    return {
        "documents": first["documents"],
        "chunks": first["chunks_total"],
        "seconds": first["seconds"],
        "documents_per_s": first["documents_per_s"],
        "chunks_per_s": first["chunks_per_s"],
        "failed": first["failed"],
        "step_seconds": steps(rg, scope),
        "unchanged_reingest": {
            "seconds": round(again_s, 2),
            "chunks_embedded": again["chunks_embedded"],
            "unchanged": again["unchanged"],
            "ratio_to_first": round(again_s / max(first["seconds"], 1e-9), 4),
        },
        "one_file_edited": {
            "updated": edit["updated"],
            "chunks_embedded": edit["chunks_embedded"],
            "seconds": edit["seconds"],
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--folder", type=Path, action="append", help="Folder(s) to ingest.")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/ingest.json"))
    args = ap.parse_args()
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="rg-depdocs-") as tmp:
        folders = (
            {p.name: p for p in args.folder}
            if args.folder
            else {
                "project_docs": ROOT / "docs",
                "dependency_docs": dependency_markdown(Path(tmp) / "deps"),
            }
        )
        with bench_server() as (settings, _s, _st), Recollect.open(settings) as rg:
            rg.embedder.embed(["warm up"])
            rg.entity_extractor.extract(["Warm up the parser."])
            for name, folder in folders.items():
                result[name] = bench(rg, name, folder)
                print(json.dumps({name: result[name]}), file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str))
    print(json.dumps(result, indent=2, default=str))


if __name__ == "__main__":
    main()
