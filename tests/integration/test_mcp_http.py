"""``recollect-graph mcp --http``: one warm server on loopback, spoken to by the SDK client.

The server runs as a subprocess on a free 127.0.0.1 port against the session's Neo4j. Requests
without the bearer token from the config directory, or from a foreign Origin, are refused before
MCP sees them; two clients share the one server; the tools beyond search and remember (documents,
supersede, undo and operations, conflicts, sessions and handoffs, entities, topics) run end to
end against the real store.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from recollect_graph import Recollect
from recollect_graph.db.host import free_port
from recollect_graph.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 180  # the first call waits for the server to load the models
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}


def ok(r: CallToolResult) -> dict[str, Any]:
    block = r.content[0]
    assert isinstance(block, TextContent)
    assert not r.is_error, block.text
    data = json.loads(block.text)
    assert r.structured_content == data
    assert isinstance(data, dict)
    return data


def error(r: CallToolResult) -> dict[str, Any]:
    block = r.content[0]
    assert r.is_error and isinstance(block, TextContent)
    return dict(json.loads(block.text)["error"])


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited {proc.returncode}: {log.read_text()[-3000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"server did not listen on {port}: {log.read_text()[-3000:]}")


@pytest.fixture
def http_server(cli_env: Settings, scope_id: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """``(url, token)`` of a ``recollect-graph mcp --http`` bound to ``scope_id``."""
    port = free_port()
    env = dict(os.environ, RECOLLECT_SCOPE=scope_id, RECOLLECT_OWNER="mcp-agent")
    log = tmp_path / "mcp-http.log"
    with log.open("wb") as errlog:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "recollect_graph.cli.main",
                "mcp",
                "--http",
                "--port",
                str(port),
            ],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=errlog,
        )
        try:
            _wait_for_port(port, proc, log)
            token_file = cli_env.config_dir / "mcp-token"
            assert token_file.stat().st_mode & 0o777 == 0o600
            yield f"http://127.0.0.1:{port}/mcp", token_file.read_text().strip()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    assert "Traceback" not in log.read_text()


def _post(url: str, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(
        url,
        data=json.dumps(INIT).encode(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **headers,
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, {}
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def test_requests_without_the_token_or_from_a_foreign_origin_are_refused(
    http_server: tuple[str, str],
) -> None:
    url, token = http_server
    status, body = _post(url, {})
    assert status == 401 and body["error"]["code"] == "unauthorized"
    assert _post(url, {"Authorization": "Bearer not-the-token"})[0] == 401
    auth = {"Authorization": f"Bearer {token}"}
    status, body = _post(url, {**auth, "Origin": "http://attacker.example"})
    assert status == 403 and body["error"]["code"] == "forbidden_origin"
    assert _post(url, {**auth, "Origin": "http://localhost:6274"})[0] == 200
    assert _post(url, auth)[0] == 200


async def _session_calls(url: str, token: str, rg: Recollect, scope_id: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    timeout = httpx2.Timeout(30, read=TIMEOUT)
    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout) as h1,
        httpx2.AsyncClient(headers=headers, timeout=timeout) as h2,
        streamable_http_client(url, http_client=h1) as (r1, w1),
        streamable_http_client(url, http_client=h2) as (r2, w2),
        ClientSession(r1, w1, read_timeout_seconds=TIMEOUT) as a,
        ClientSession(r2, w2, read_timeout_seconds=TIMEOUT) as b,
    ):
        await a.initialize()
        await b.initialize()
        tools = {t.name: t for t in (await a.list_tools()).tools}
        assert all(t.output_schema for t in tools.values())

        # Two clients, one warm server: what one stores the other finds.
        old = ok(await a.call_tool("recollect_remember", {"content": "The API runs on port 8080."}))
        new = ok(await b.call_tool("recollect_remember", {"content": "The API runs on port 9090."}))
        found = ok(await b.call_tool("recollect_search", {"query": "API port", "limit": 5}))
        assert {old["id"], new["id"]} <= {h["id"] for h in found["hits"]}

        # Supersede, then see and undo the operation.
        sup = ok(
            await a.call_tool("recollect_supersede", {"old_id": old["id"], "new_id": new["id"]})
        )
        assert sup["superseded"] == [old["id"]]
        current = ok(await a.call_tool("recollect_search", {"query": "API port 8080"}))
        assert old["id"] not in {h["id"] for h in current["hits"]}
        ops = ok(await a.call_tool("recollect_operations", {"limit": 5}))
        assert ops["operations"][0]["id"] == sup["operation_id"]
        undone = ok(await a.call_tool("recollect_undo", {"operation_id": sup["operation_id"]}))
        assert undone["undone_at"]
        again = ok(await a.call_tool("recollect_search", {"query": "API port 8080"}))
        assert old["id"] in {h["id"] for h in again["hits"]}
        missing = error(await a.call_tool("recollect_undo", {"operation_id": "no-such-op"}))
        assert missing["code"] == "not_found"

        # A contradiction recorded between the two: listed, then resolved.
        await anyio.to_thread.run_sync(
            lambda: rg.connect(new["id"], old["id"], "contradicts", scope_id=scope_id)
        )
        conflicts = ok(await a.call_tool("recollect_conflicts", {}))
        pair = {(c["source"]["id"], c["target"]["id"]) for c in conflicts["conflicts"]}
        assert (new["id"], old["id"]) in pair
        resolved = ok(
            await a.call_tool(
                "recollect_resolve", {"a": new["id"], "b": old["id"], "keep": new["id"]}
            )
        )
        assert resolved["kept"] == new["id"] and resolved["loser"] == old["id"]
        assert ok(await a.call_tool("recollect_conflicts", {}))["count"] == 0

        # Documents: a passage found by meaning; its entities; another scope's stays out.
        def ingest() -> None:
            text = (
                "# Runbook\n\nAlice restarts the PostgreSQL server every night at two. "
                "The backup job copies the WAL files to the archive bucket first.\n"
            )
            rg.documents.ingest("Runbook", text, owner_id="kai", scope_id=scope_id)
            rg.documents.ingest("Other", text, owner_id="kai", scope_id=f"{scope_id}-x")

        await anyio.to_thread.run_sync(ingest)
        docs = ok(
            await b.call_tool(
                "recollect_documents_search", {"query": "who restarts the PostgreSQL server"}
            )
        )
        assert docs["count"] >= 1 and docs["chunks"][0]["document_title"] == "Runbook"
        assert "PostgreSQL" in docs["chunks"][0]["text"]
        mine = await anyio.to_thread.run_sync(
            lambda: {d["id"] for d in rg.documents.list(scope_id)}
        )
        assert {c["document_id"] for c in docs["chunks"]} <= mine
        alice = ok(await b.call_tool("recollect_entity", {"entity": "alice", "hops": 1}))
        assert alice["name"].lower() == "alice"
        assert any(m["kind"] == "chunk" for m in alice["mentions"])
        nobody = error(await b.call_tool("recollect_entity", {"entity": "zebulon"}))
        assert nobody["code"] == "not_found"

        # Sessions and handoffs.
        sid = f"{scope_id}-s1"
        turns = [{"id": "u1", "role": "user", "text": "Please fix the flaky websocket test"}]
        await anyio.to_thread.run_sync(
            lambda: rg.sessions.add_turns(sid, turns, scope_id=scope_id, owner_id="k", cwd="/a")
        )
        listed = ok(await a.call_tool("recollect_sessions", {}))
        assert [s["id"] for s in listed["sessions"]] == [sid]
        hand = ok(
            await a.call_tool(
                "recollect_handoff",
                {"session_id": sid, "what": "Removed flakeguard", "next": "Re-run CI"},
            )
        )
        assert hand["next"] == "Re-run CI"
        shown = ok(await b.call_tool("recollect_session", {"session_id": sid, "turns": True}))
        assert shown["handoff"]["what"] == "Removed flakeguard"
        assert [t["text"] for t in shown["turns"]] == [turns[0]["text"]]
        other = error(await b.call_tool("recollect_session", {"session_id": "nope"}))
        assert other["code"] == "not_found"

        # Topics: none built yet is an empty list, and an unknown topic is not found.
        topics = ok(await a.call_tool("recollect_topics", {}))
        assert topics == {"topics": [], "count": 0}
        assert error(await a.call_tool("recollect_topic", {"topic": "zzz"}))["code"] == "not_found"


def test_one_http_server_serves_two_clients_and_the_new_tools(
    http_server: tuple[str, str], rg: Recollect, scope_id: str
) -> None:
    url, token = http_server
    anyio.run(_session_calls, url, token, rg, scope_id)
