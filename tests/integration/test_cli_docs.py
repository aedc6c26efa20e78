"""CLI: docs ingest/list/show/forget and entities show/neighbours/path, with --json."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

SAMPLE = Path(__file__).parents[1] / "data" / "docs_sample"


def test_docs_cli_round_trip(run: Callable[..., Any], scope_id: str, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    shutil.copytree(SAMPLE, folder)
    out = json.loads(run("docs", "ingest", str(folder), "--scope", scope_id, "--json").stdout)
    assert out["totals"]["created"] == 4 and out["totals"]["chunks_embedded"] > 0
    again = json.loads(run("docs", "ingest", str(folder), "--scope", scope_id, "--json").stdout)
    assert again["totals"]["unchanged"] == 4 and again["totals"]["chunks_embedded"] == 0
    text = run("docs", "ingest", str(folder), "--scope", scope_id).stdout
    assert "4 unchanged" in text

    rows = json.loads(run("docs", "list", "--scope", scope_id, "--json").stdout)
    assert len(rows) == 4
    page = json.loads(
        run("docs", "list", "--scope", scope_id, "--limit", "2", "--offset", "2", "--json").stdout
    )
    assert len(page) == 2 and {r["id"] for r in page} < {r["id"] for r in rows}
    doc = json.loads(
        run("docs", "show", "billing.md", "--scope", scope_id, "--chunks", "--json").stdout
    )
    assert doc["title"] == "Billing service" and doc["chunks"]

    ent = json.loads(run("entities", "show", "alice", "--scope", scope_id, "--json").stdout)
    assert ent["normalized_name"] == "alice"
    near = json.loads(run("entities", "neighbours", "alice", "--scope", scope_id, "--json").stdout)
    assert near
    assert "(no rows)" not in run("entities", "neighbours", "alice", "--scope", scope_id).stdout

    gone = json.loads(run("docs", "forget", "billing.md", "--scope", scope_id, "--json").stdout)
    assert gone["chunks"] >= 1
    missing = run("docs", "show", "billing.md", "--scope", scope_id, ok=False)
    assert missing.exit_code == 1 and "no document" in missing.stderr
    bad = run("docs", "ingest", str(tmp_path / "nope"), "--scope", scope_id, ok=False)
    assert bad.exit_code == 1 and "no such file" in bad.stderr


def test_stdin_ingest_needs_scope(run: Callable[..., Any], scope_id: str) -> None:
    r = run("docs", "ingest", "-", "--title", "Note", input="# Note\n\nHello.\n", ok=False)
    assert r.exit_code == 1 and "--scope" in r.stderr
    out = json.loads(
        run(
            "docs",
            "ingest",
            "-",
            "--title",
            "Note",
            "--scope",
            scope_id,
            "--json",
            input="# Note\n\nAlice says hello.\n",
        ).stdout
    )
    assert out["documents"][0]["status"] == "created"
