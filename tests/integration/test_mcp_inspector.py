"""The MCP Inspector's CLI mode (the TypeScript SDK's client) against ``recollect-graph mcp``.

It validates every structured answer against the tool's ``outputSchema`` itself, so it checks the
schemas from a second, independent implementation. Needs ``npx``; skipped, with the reason, only
when ``npx`` is missing or npm cannot install the Inspector.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from recollect_graph.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = "@modelcontextprotocol/inspector@0.15.0"


@pytest.fixture(scope="module")
def npx() -> str:
    exe = shutil.which("npx")
    if exe is None:
        pytest.skip("npx is not installed (Node.js is needed for the MCP Inspector)")
    probe = subprocess.run(
        [exe, "-y", INSPECTOR, "--help"], capture_output=True, text=True, timeout=300
    )
    if probe.returncode != 0:
        pytest.skip(f"npm could not install {INSPECTOR}: {probe.stderr.strip()[-500:]}")
    return exe


def inspect(npx: str, scope_id: str, *args: str) -> Any:
    env = dict(os.environ, RECOLLECT_SCOPE=scope_id, RECOLLECT_OWNER="inspector")
    # The Inspector hands the server only a default environment: pass the test session's own.
    keep = [k for k in env if k.startswith(("RECOLLECT_", "NEO4J_", "HF_")) or k == "PYTHONPATH"]
    flags = [f for k in sorted(keep) for f in ("-e", f"{k}={env[k]}")]
    cmd = [npx, "-y", INSPECTOR, "--cli", *flags]
    cmd += [sys.executable, "-m", "recollect_graph.cli.main", "mcp"]
    r = subprocess.run(
        [*cmd, *args], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT
    )
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    return json.loads(r.stdout)


def test_the_inspector_lists_calls_and_validates(
    npx: str, cli_env: Settings, scope_id: str
) -> None:
    listed = inspect(npx, scope_id, "--tools", "lore", "--method", "tools/list")
    assert len(listed["tools"]) == 10
    assert all(t["outputSchema"]["type"] == "object" for t in listed["tools"])

    stored = inspect(
        npx,
        scope_id,
        "--method",
        "tools/call",
        "--tool-name",
        "lore_capture",
        "--tool-arg",
        "thought=Run make lint before pushing: CI fails on ruff.",
    )
    assert stored.get("isError") is not True, stored
    assert stored["structuredContent"]["duplicate"] is False

    found = inspect(
        npx,
        scope_id,
        "--method",
        "tools/call",
        "--tool-name",
        "lore_search",
        "--tool-arg",
        "query=what must run before pushing",
        "--tool-arg",
        "format=title",
    )
    assert found["structuredContent"]["results"][0]["id"] == stored["structuredContent"]["id"]

    refused = inspect(
        npx,
        scope_id,
        "--method",
        "tools/call",
        "--tool-name",
        "lore_search",
        "--tool-arg",
        "query=x",
        "--tool-arg",
        "limit=999",
    )
    assert refused["isError"] is True
    assert json.loads(refused["content"][0]["text"])["error"]["code"] == "invalid_input"
