"""Recollect's dialect as MCP tools: typed entries, search, contradictions, recall, context, docs.

Every tool is bound to the server's scope and owner (see :class:`~recollect_graph.mcp.app.Toolbox`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from mcp.types import CallToolResult
from pydantic import Field

from recollect_graph.mcp.app import WRITE, Toolbox
from recollect_graph.mcp.models import (
    AsOf,
    CheckOut,
    ContextOut,
    DocumentsSearchOut,
    EntryType,
    RecallOut,
    RememberOut,
    SearchOut,
    ValidAt,
)
from recollect_graph.mcp.tools import MemoryTools

if TYPE_CHECKING:
    from recollect_graph.facade import Memories, Recollect

#: Recollect's core tools, in the order they are listed.
NAMES = (
    "recollect_remember",
    "recollect_search",
    "recollect_check_contradiction",
    "recollect_recall",
    "recollect_context",
    "recollect_documents_search",
)

Tags = Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]], Field(max_length=50)]


def register(box: Toolbox) -> None:
    """Add the served tools of :data:`NAMES` to ``box``'s server."""

    @box.tool(
        "recollect_remember",
        title="Remember an entry",
        output=RememberOut,
        annotations=WRITE,
        description=(
            "Store one piece of knowledge as a typed entry (an entry_type given is kept; "
            "without one the type is inferred unless auto_classify=false, then note). "
            "Contradictions with current knowledge are recorded. The "
            "same content twice returns the existing entry (created=false)."
        ),
    )
    async def recollect_remember(
        content: Annotated[str, Field(min_length=1, max_length=200_000)],
        entry_type: EntryType | None = None,
        tags: Tags = [],  # noqa: B006 - pydantic copies the default; the schema shows []
        title: Annotated[str | None, Field(max_length=300)] = None,
        auto_classify: bool = True,
    ) -> CallToolResult:
        body = MemoryTools.remember(content, entry_type, tags, title, auto_classify)
        return await box.run("recollect_remember", body)

    @box.tool(
        "recollect_search",
        title="Search entries",
        output=SearchOut,
        description=(
            "Hybrid search of this project's entries (meaning, keywords, graph, strength, "
            "quality, usage) with each hit's per-signal breakdown; as_of / valid_at search the "
            "past (what was known then / what was true then)."
        ),
    )
    async def recollect_search(
        query: Annotated[str, Field(min_length=1, max_length=2000)],
        limit: Annotated[int, Field(ge=1, le=50)] = 10,
        min_score: Annotated[float, Field(ge=0)] = 0.0,
        entry_types: list[EntryType] | None = None,
        tags: Annotated[list[str] | None, Field(description="Entries with any tag.")] = None,
        include_superseded: bool = False,
        as_of: AsOf = None,
        valid_at: ValidAt = None,
    ) -> CallToolResult:
        opts: dict[str, Any] = {
            "limit": limit,
            "min_score": min_score,
            "entry_types": entry_types,
            "tags": tags,
            "include_superseded": include_superseded,
            "as_of": as_of,
            "valid_at": valid_at,
        }
        return await box.run("recollect_search", MemoryTools.search(query, opts))

    @box.tool(
        "recollect_check_contradiction",
        title="Check for contradictions",
        output=CheckOut,
        description=(
            "Does a statement contradict what the project knows? Check before acting on it or "
            "storing it. Writes nothing."
        ),
    )
    async def recollect_check_contradiction(
        content: Annotated[str, Field(min_length=1, max_length=20_000)],
    ) -> CallToolResult:
        body = MemoryTools.check_contradiction(content)
        return await box.run("recollect_check_contradiction", body)

    @box.tool(
        "recollect_recall",
        title="Recall a past session",
        output=RecallOut,
        description=(
            "Find the past agent session the user vaguely remembers. With no candidates it "
            "returns probes: ask the user, then call again with attempt=2 and their answers in "
            "hints. Re-verify recalled state before acting on it."
        ),
    )
    async def recollect_recall(
        text: Annotated[str, Field(min_length=1, max_length=5000)],
        hints: Annotated[list[str], Field(max_length=20)] = [],  # noqa: B006
        attempt: Annotated[int, Field(ge=1, le=3)] = 1,
        as_of: AsOf = None,
        valid_at: ValidAt = None,
    ) -> CallToolResult:
        body = MemoryTools.recall(text, hints, attempt, as_of=as_of, valid_at=valid_at)
        return await box.run("recollect_recall", body)

    @box.tool(
        "recollect_context",
        title="Context pack for a question",
        output=ContextOut,
        description=(
            "Everything known that bears on a question (entries, document passages, entities, "
            "relations) as cited Markdown within a token budget. Cite the keys."
        ),
    )
    async def recollect_context(
        query: Annotated[str, Field(min_length=1, max_length=10_000)],
        budget_tokens: Annotated[int, Field(ge=50, le=20_000)] = 1500,
        as_of: AsOf = None,
        valid_at: ValidAt = None,
    ) -> CallToolResult:
        body = MemoryTools.context(query, budget_tokens, as_of=as_of, valid_at=valid_at)
        return await box.run("recollect_context", body)

    @box.tool(
        "recollect_documents_search",
        title="Search documents",
        output=DocumentsSearchOut,
        description="Search the passages (chunks) of this project's ingested documents.",
    )
    async def recollect_documents_search(
        query: Annotated[str, Field(min_length=1, max_length=2000)],
        limit: Annotated[int, Field(ge=1, le=50)] = 10,
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> dict[str, Any]:
            chunks = rg.packer.chunks(query, scope_id=mem.scope_id, limit=limit)
            return {"query": query, "count": len(chunks), "chunks": chunks}

        return await box.run("recollect_documents_search", body)
