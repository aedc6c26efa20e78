"""The MCP server's contract, spoken to in memory by the SDK client (no database is touched).

Every call here is refused before a tool body runs, or reads no data (prompts, the guide), so
the server's lazy facade is never opened; what a real database answers is in
``tests/integration/test_mcp*.py``.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any, get_args

import anyio
import pytest
from mcp.client.client import Client
from mcp.types import CallToolResult, TextContent

from recollect_graph import vocabulary
from recollect_graph.errors import InvalidInput
from recollect_graph.mcp import models
from recollect_graph.mcp.app import compact_schema
from recollect_graph.mcp.http import Guard, is_local_origin, load_or_create_token
from recollect_graph.mcp.server import GROUPS, TOOL_NAMES, MemoryTools, build_server, select
from recollect_graph.settings import Settings


def _server(spec: str = "all") -> Any:
    return build_server(MemoryTools(Settings(default_scope="unit")), select(spec))


def _error(r: CallToolResult) -> dict[str, Any]:
    assert r.is_error
    block = r.content[0]
    assert isinstance(block, TextContent)
    data = json.loads(block.text)
    assert r.structured_content is None and set(data) == {"error"}
    assert set(data["error"]) == {"code", "message"}
    assert "http" not in data["error"]["message"] and "pydantic" not in data["error"]["message"]
    return dict(data["error"])


def _calls(*calls: tuple[str, dict[str, Any]]) -> list[CallToolResult]:
    async def go() -> list[CallToolResult]:
        async with Client(_server()) as c:
            return [await c.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


def test_every_tool_is_listed_with_closed_inputs_and_an_output_schema() -> None:
    async def go() -> Any:
        async with Client(_server()) as c:
            return (await c.list_tools()).tools

    tools = anyio.run(go)
    assert [t.name for t in tools] == list(TOOL_NAMES)
    for t in tools:
        assert t.description and len(t.description) < 300, t.name
        assert t.input_schema.get("additionalProperties") is False, t.name
        assert t.output_schema and t.output_schema["type"] == "object", t.name
    insert = next(t for t in tools if t.name == "lore_insert")
    item = insert.input_schema["$defs"]["MemoryItem"]
    assert item["additionalProperties"] is False and item["examples"]
    assert item["properties"]["score"] == {
        "default": 5.0,
        "description": "Importance 0-10.",
        "maximum": 10,
        "minimum": 0,
        "type": "number",
    }
    assert "title" in item["required"]  # the property named title survives the compaction


def test_a_schema_violation_is_one_line_in_the_error_shape() -> None:
    too_many, bad_item, not_a_list, bad_enum = _calls(
        ("recollect_search", {"query": "x", "limit": 999}),
        ("lore_feedback", {"memory_feedback": [{"id": "m1", "useful": True, "confidence": 11}]}),
        ("lore_insert", {"memories": "nope"}),
        ("lore_delete", {"memory_ids": ["m1"], "reason": "because"}),
    )
    assert _error(too_many) == {
        "code": "invalid_input",
        "message": "limit: Input should be less than or equal to 50",
    }
    assert _error(bad_item)["message"] == (
        "memory_feedback.0.confidence: Input should be less than or equal to 10"
    )
    assert _error(not_a_list)["message"].startswith("memories: ")
    assert _error(bad_enum)["message"].startswith("reason: Input should be 'duplicate'")


def test_unknown_arguments_and_unknown_item_keys_are_refused() -> None:
    extra_arg, extra_key, no_tool = _calls(
        ("recollect_search", {"query": "x", "bogus": 1}),
        ("lore_insert", {"memories": [{"title": "t", "colour": "red"}]}),
        ("no_such_tool", {}),
    )
    e = _error(extra_arg)
    assert e["code"] == "invalid_input" and "unknown argument(s) bogus" in e["message"]
    assert "limit" in e["message"]  # it says what the tool does take
    assert _error(extra_key)["message"] == "memories.0.colour: Extra inputs are not permitted"
    assert _error(no_tool)["code"] == "not_found"


def test_prompts_and_the_guide_resource() -> None:
    async def go() -> Any:
        async with Client(_server()) as c:
            prompts = (await c.list_prompts()).prompts
            got = await c.get_prompt("reflect_on_session", {"session_id": "s-42"})
            resources = (await c.list_resources()).resources
            guide = await c.read_resource("recollect://guide")
            return prompts, got, resources, guide

    prompts, got, resources, guide = anyio.run(go)
    assert [p.name for p in prompts] == [
        "reflect_on_session",
        "recall_session",
        "check_before_deciding",
    ]
    text = got.messages[0].content
    assert isinstance(text, TextContent) and "lore_reflect" in text.text and "s-42" in text.text
    assert {str(r.uri) for r in resources} == {
        "recollect://stats",
        "recollect://operations/recent",
        "recollect://guide",
    }
    assert "<article" in guide.contents[0].text or "<div" in guide.contents[0].text


def test_tools_subsets() -> None:
    assert select("lore") == GROUPS["lore"] and len(select("lore")) == 10
    assert set(select("lore,recollect")) == set(TOOL_NAMES) == set(select(None))
    assert select(" recollect_search , lore_search ") == ("lore_search", "recollect_search")
    with pytest.raises(InvalidInput, match="unknown tool or group 'lores'"):
        select("lores")
    with pytest.raises(InvalidInput):
        select(",")

    async def go() -> list[str]:
        async with Client(_server("lore_search")) as c:
            return [t.name for t in (await c.list_tools()).tools]

    assert anyio.run(go) == ["lore_search"]


def test_the_typed_enums_are_the_vocabulary() -> None:
    assert get_args(models.Relation) == vocabulary.RELATIONS
    assert get_args(models.SourceType) == vocabulary.SOURCE_TYPES
    assert get_args(models.DeleteReason) == vocabulary.DELETE_REASONS
    assert get_args(models.EntryType) == vocabulary.ENTRY_TYPES


def test_compact_schema_keeps_meaning() -> None:
    schema = {
        "title": "M",
        "type": "object",
        "properties": {
            "title": {"title": "Title", "type": "string"},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        },
        "required": ["title"],
    }
    compact_schema(schema)
    assert schema == {
        "type": "object",
        "properties": {"title": {"type": "string"}, "note": {"type": "string"}},
        "required": ["title"],
    }


def test_the_token_file_is_created_private_and_reused(tmp_path: Path) -> None:
    token = load_or_create_token(tmp_path / "cfg")
    path = tmp_path / "cfg" / "mcp-token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(token) >= 32
    assert load_or_create_token(tmp_path / "cfg") == token


@pytest.mark.parametrize(
    ("origin", "local"),
    [
        ("http://localhost:6274", True),
        ("http://127.0.0.1", True),
        ("https://[::1]:8443", True),
        ("http://localhost.evil.example", False),
        ("http://evil.example", False),
        ("null", False),
        ("file://localhost", False),
    ],
)
def test_local_origins(origin: str, local: bool) -> None:
    assert is_local_origin(origin) is local


def test_the_guard_refuses_before_the_app_sees_anything() -> None:
    seen: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    guard = Guard(inner, "s3cret-token-0123456789")

    async def request(headers: dict[str, str]) -> tuple[int, bytes]:
        sent: list[dict[str, Any]] = []

        async def send(msg: dict[str, Any]) -> None:
            sent.append(msg)

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b""}

        scope = {
            "type": "http",
            "path": "/mcp",
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        }
        await guard(scope, receive, send)
        return int(sent[0]["status"]), bytes(sent[1]["body"])

    good = {"Authorization": "Bearer s3cret-token-0123456789"}
    assert anyio.run(request, {})[0] == 401
    assert anyio.run(request, {"Authorization": "Bearer wrong"})[0] == 401
    status, body = anyio.run(request, {**good, "Origin": "http://evil.example"})
    assert status == 403 and json.loads(body)["error"]["code"] == "forbidden_origin"
    assert seen == []
    assert anyio.run(request, {**good, "Origin": "http://localhost:3000"})[0] == 200
    assert anyio.run(request, good)[0] == 200 and seen == ["/mcp", "/mcp"]


def test_compact_output_schemas_keep_null_values() -> None:
    schema = {"properties": {"title": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}
    compact_schema(schema, output=True)
    assert schema == {"properties": {"title": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}
