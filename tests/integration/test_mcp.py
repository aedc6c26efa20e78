"""``recollect-graph mcp`` as an agent sees it: a subprocess spoken to over stdio by the SDK client.

The Streamable HTTP transport and the newer tools are in ``test_mcp_http.py``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from recollect_graph import Recollect
from recollect_graph.mcp.server import TOOL_NAMES
from recollect_graph.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 180  # the first call waits for the server to load the models

VITE = {
    "title": "Frontend build tool: Vite",
    "content": "We chose Vite over webpack for the frontend build because the dev server starts "
    "ten times faster and hot reload is instant.",
    "tags": ["build", "frontend"],
    "score": 7,
}
POSTGRES = {
    "title": "Orders database: PostgreSQL 16",
    "content": "The order service stores orders in PostgreSQL 16 with logical replication to the "
    "analytics cluster.",
    "tags": ["database"],
}


def _text(r: CallToolResult) -> str:
    block = r.content[0]
    assert isinstance(block, TextContent)
    return block.text


def ok(r: CallToolResult) -> dict[str, Any]:
    """The result of a successful call (its text and structured content agree)."""
    assert not r.is_error, _text(r)
    data = json.loads(_text(r))
    assert r.structured_content == data
    assert isinstance(data, dict)
    return data


def failed(r: CallToolResult) -> str:
    """The text of a refused call, checked to be the one error shape."""
    assert r.is_error, _text(r)
    data = json.loads(_text(r))
    assert set(data) == {"error"} and set(data["error"]) == {"code", "message"}
    assert r.structured_content is None  # the output schema describes success only
    return _text(r)


async def drive(params: StdioServerParameters, errlog: Any, rg: Recollect, scope_id: str) -> None:
    async with (
        stdio_client(params, errlog=errlog) as (read, write),
        ClientSession(read, write, read_timeout_seconds=TIMEOUT) as session,
    ):
        init = await session.initialize()
        assert init.server_info.name == "recollect-graph"
        assert init.instructions and scope_id in init.instructions

        listed = await session.list_tools()
        assert [t.name for t in listed.tools] == list(TOOL_NAMES)
        assert all(t.description and t.output_schema for t in listed.tools)
        prompts = await session.list_prompts()
        assert "reflect_on_session" in {p.name for p in prompts.prompts}

        async def call(name: str, **args: Any) -> CallToolResult:
            return await session.call_tool(name, args)

        # Lore: insert, search, rate
        ins = ok(await call("lore_insert", memories=[VITE, POSTGRES]))
        assert ins["errors"] == [] and ins["duplicates"] == []
        ids = {m["title"]: m["id"] for m in ins["inserted_memories"]}
        vite, pg = ids[VITE["title"]], ids[POSTGRES["title"]]
        again = ok(await call("lore_insert", memories=[VITE]))
        assert again["duplicates"][0]["existing_memory"]["id"] == vite

        found = ok(await call("lore_search", query="which bundler does the frontend use", limit=5))
        assert found["results"][0]["memory"]["id"] == vite
        assert found["results"][0]["memory"]["namespace"] == scope_id
        titles = ok(await call("lore_search", query="orders database", format="title"))
        assert pg in {r["id"] for r in titles["results"]}

        fb = ok(
            await call(
                "lore_feedback", memory_feedback=[{"id": vite, "useful": True, "confidence": 9}]
            )
        )
        assert [m["id"] for m in fb["updated_memories"]] == [vite] and fb["errors"] == []

        # Recollect: contradiction check, remember (bounded output), search
        check = ok(
            await call(
                "recollect_check_contradiction",
                content="We moved the frontend build from Vite to webpack.",
            )
        )
        assert isinstance(check["ok"], bool) and isinstance(check["conflicts"], list)
        for c in check["conflicts"]:
            assert {"type", "score", "reason", "existing_id", "existing_content"} <= set(c)

        long_text = "The deploy pipeline runs the canary stage for thirty minutes. " * 80
        mem = ok(await call("recollect_remember", content=long_text, tags=["deploy"]))
        assert mem["created"] is True and mem["entry_type"] and isinstance(mem["conflicts"], list)
        full = ok(await call("lore_search", ids=[mem["id"]]))
        got = full["results"][0]["memory"]
        assert got["truncated"] is True and len(got["content"]) <= 2003 < len(long_text)

        hits = ok(await call("recollect_search", query="how long is the canary stage", limit=3))
        assert hits["hits"][0]["id"] == mem["id"]
        assert hits["hits"][0]["truncated"] is True
        assert {"semantic", "keyword"} <= set(hits["hits"][0]["signals"])
        # the past: nothing of this was known in 2001; a bad moment is refused in one line
        then = {"query": "how long is the canary stage", "as_of": "2001-01-01T00:00:00Z"}
        assert ok(await call("recollect_search", **then))["hits"] == []
        known = ok(await call("recollect_search", **{**then, "as_of": "2999-01-01T00:00:00Z"}))
        assert known["hits"] and known["hits"][0]["id"] == mem["id"]
        past = ok(await call("recollect_context", query="canary stage", as_of="2001-01-01"))
        assert "canary" not in past["markdown"].lower()
        assert ok(await call("recollect_conflicts", valid_at="2001-01-01"))["conflicts"] == []
        when = json.loads(failed(await call("recollect_search", query="x", valid_at="soonish")))
        assert when["error"]["code"] == "invalid_input" and "valid_at" in when["error"]["message"]

        # Errors come back as tool errors and the server keeps answering.
        bad = failed(await call("lore_delete", memory_ids=[pg], reason="because"))
        assert "reason" in bad
        refused = json.loads(failed(await call("lore_search", query="  ")))
        assert refused["error"]["code"] == "invalid_input"
        missing = json.loads(failed(await call("lore_suggest_links", memory_id="no-such-memory")))
        assert missing["error"]["code"] == "not_found"
        assert missing["error"]["message"] == "no entry with id 'no-such-memory'"
        too_many = json.loads(failed(await call("recollect_search", query="x", limit=999)))
        assert too_many["error"] == {
            "code": "invalid_input",
            "message": "limit: Input should be less than or equal to 50",
        }
        unknown = json.loads(failed(await call("lore_search", query="vite", namespace="other")))
        assert unknown["error"]["message"].startswith("unknown argument(s) namespace;")
        typed = json.loads(
            failed(
                await call("lore_insert", memories=[{"title": "T", "content": "c", "score": 11}])
            )
        )
        assert (
            typed["error"]["message"]
            == "memories.0.score: Input should be less than or equal to 10"
        )

        # Resources: the scope's stats and recent operations come from the real store.
        stats = json.loads((await session.read_resource("recollect://stats")).contents[0].text)
        assert stats["scope_id"] == scope_id and stats["labels"]["Entry"] >= 2

        sugg = ok(await call("lore_suggest_links", memory_id=vite, top_k=3))
        assert isinstance(sugg, dict)
        cap = ok(
            await call("lore_capture", thought="Run `make lint` before pushing: CI fails on ruff.")
        )
        assert cap["duplicate"] is False and cap["id"]

        # The sweep queue (filled by `recollect-graph sweep`, here through the library).
        await anyio.to_thread.run_sync(lambda: rg.memories.in_scope(scope_id).sweep(min_score=0.0))
        pending = ok(await call("lore_pending_suggestions", limit=5))
        assert 0 < pending["count"] == len(pending["suggestions"]) <= 5
        assert pending["total_pending"] >= pending["count"]
        sid = pending["suggestions"][0]["id"]
        reviewed = ok(
            await call("lore_review_suggestion", reviews=[{"id": sid, "action": "accept"}])
        )
        assert reviewed["results"][0]["status"] == "accepted"
        repeat = ok(await call("lore_review_suggestion", reviews=[{"id": sid, "action": "reject"}]))
        assert repeat["results"][0]["status"] == "skipped"

        # Session reflection, once per session.
        session_id = f"{scope_id}-session"
        refl = ok(
            await call(
                "lore_reflect",
                session_id=session_id,
                summary="Set up the frontend build.",
                lessons=["Vite needs the legacy plugin for old Safari."],
            )
        )
        assert refl["created"] is True and len(refl["memory_ids"]) == 1
        assert (
            ok(await call("lore_reflect", session_id=session_id, summary="again"))["created"]
            is False
        )
        done = ok(await call("lore_list_processed_sessions"))
        assert session_id in done["session_ids"]

        # Recall over the sessions of this scope (a twin in another scope stays invisible).
        turns = [
            {"id": "u1", "role": "user", "text": "The flakeguard wrapper hides websocket errors"},
            {"id": "a1", "role": "assistant", "text": "I removed flakeguard from tests/test_ws.py"},
        ]
        mine, theirs = f"{scope_id}-s1", f"{scope_id}-s2"
        await anyio.to_thread.run_sync(
            lambda: rg.sessions.add_turns(mine, turns, scope_id=scope_id, owner_id="k", cwd="/a")
        )
        await anyio.to_thread.run_sync(
            lambda: rg.sessions.add_turns(theirs, turns, scope_id=f"{scope_id}-x", owner_id="k")
        )
        rec = ok(await call("recollect_recall", text="that flakeguard websocket business"))
        assert [c["session_id"] for c in rec["candidates"]] == [mine]
        assert rec["candidates"][0]["resumption_hint"] == f"cd /a && claude --resume {mine}"

        pack = ok(await call("recollect_context", query="orders database", budget_tokens=120))
        assert 0 < pack["tokens"] <= 120 and pack["citations"]
        assert any(c["id"] == pg for c in pack["citations"])

        deleted = ok(await call("lore_delete", memory_ids=[pg], reason="outdated"))
        assert deleted["forgotten"] == [pg]
        recent = await session.read_resource("recollect://operations/recent")
        ops = json.loads(recent.contents[0].text)["operations"]
        assert ops[0]["id"] == deleted["operation_id"] and ops[0]["entry_ids"] == [pg]
        after = ok(await call("lore_search", query="orders database PostgreSQL", format="title"))
        assert pg not in {r["id"] for r in after["results"]}


def test_mcp_server_over_stdio(
    cli_env: Settings, rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    env = dict(os.environ)
    env.update(RECOLLECT_SCOPE=scope_id, RECOLLECT_OWNER="mcp-agent")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "recollect_graph.cli.main", "mcp"],
        env=env,
        cwd=ROOT,
    )
    log = tmp_path / "mcp-stderr.log"
    with log.open("w") as errlog:
        try:
            anyio.run(drive, params, errlog, rg, scope_id)
        except BaseException:
            errlog.flush()
            sys.stderr.write(f"--- server stderr ---\n{log.read_text()[-5000:]}\n")
            raise
    assert "Traceback" not in log.read_text()


@pytest.mark.parametrize("flag", ["--scope", "--owner"])
def test_mcp_refuses_an_empty_scope_or_owner(flag: str) -> None:
    from click.testing import CliRunner

    from recollect_graph.cli.main import cli

    r = CliRunner().invoke(cli, ["mcp", flag, " "])
    assert r.exit_code == 1 and "must not be empty" in r.output
