"""Lore's dialect as MCP tools: titled memories with a 0-10 score, links, feedback, reflection.

Every tool is bound to the server's scope and owner (see :class:`~recollect_graph.mcp.app.Toolbox`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from mcp.types import CallToolResult
from pydantic import Field

from recollect_graph.mcp.app import DELETE, WRITE, Toolbox
from recollect_graph.mcp.models import (
    DeleteReason,
    FeedbackItem,
    LinkItem,
    LoreCaptureOut,
    LoreDeleteOut,
    LoreFeedbackOut,
    LoreInsertOut,
    LoreSearchOut,
    LoreSuggestLinksOut,
    MemoryItem,
    PendingOut,
    ProcessedOut,
    ReflectOut,
    ReviewItem,
    ReviewOut,
    SourceType,
    dump_items,
)

if TYPE_CHECKING:
    from recollect_graph.facade import Memories, Recollect

#: Lore's tools, in the order they are listed.
NAMES = (
    "lore_search",
    "lore_insert",
    "lore_suggest_links",
    "lore_capture",
    "lore_feedback",
    "lore_delete",
    "lore_pending_suggestions",
    "lore_review_suggestion",
    "lore_reflect",
    "lore_list_processed_sessions",
)

#: Short statements of a reflection (each becomes a memory or a field of the reflection).
Statements = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=2000)]],
    Field(max_length=50, description="Short statements."),
]


def register(box: Toolbox) -> None:
    """Add the served tools of :data:`NAMES` to ``box``'s server."""

    @box.tool(
        "lore_search",
        title="Search memories",
        output=LoreSearchOut,
        description=(
            "Search this project's memories (meaning + keywords), or fetch memories by id. "
            "Call before a task and before answering from memory. Content over 2000 characters "
            "is cut (truncated=true); fetch it whole with ids=[...]."
        ),
    )
    async def lore_search(
        query: Annotated[str, Field(max_length=2000, description="What to look for.")] = "",
        ids: Annotated[
            list[str] | None, Field(max_length=50, description="Fetch these ids instead.")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=50)] = 10,
        min_score: Annotated[float, Field(ge=0, description="Drop lower combined scores.")] = 0.0,
        include_links: bool = True,
        format: Annotated[
            Literal["full", "title"], Field(description="'title': compact.")
        ] = "full",
        sort_by: Literal["relevance", "recent", "frequent"] = "relevance",
        include_deleted: bool = False,
        created_after: Annotated[str | None, Field(description="ISO 8601 date-time.")] = None,
        source_type: SourceType | None = None,
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            return mem.search(
                query,
                ids=ids,
                limit=limit,
                min_score=min_score,
                include_links=include_links,
                format=format,
                sort_by=sort_by,
                include_deleted=include_deleted,
                created_after=created_after,
                source_type=source_type,
            )

        return await box.run("lore_search", body)

    @box.tool(
        "lore_insert",
        title="Insert memories",
        output=LoreInsertOut,
        annotations=WRITE,
        description=(
            "Store titled memories (decisions with reasons, root causes, conventions, "
            "preferences, gotchas) and links between memories. A same-title or near-identical "
            "memory is reported under duplicates (force=true inserts anyway). Each item "
            "succeeds or fails on its own."
        ),
    )
    async def lore_insert(
        memories: Annotated[list[MemoryItem], Field(min_length=1, max_length=50)],
        links: Annotated[list[LinkItem], Field(max_length=200)] = [],  # noqa: B006
        force: Annotated[bool, Field(description="Skip the duplicate check.")] = False,
    ) -> CallToolResult:
        mems, lks = dump_items(memories), dump_items(links)
        return await box.run("lore_insert", lambda rg, mem: mem.insert(mems, lks, force))

    @box.tool(
        "lore_suggest_links",
        title="Suggest links for a memory",
        output=LoreSuggestLinksOut,
        description=(
            "Typed link candidates from one memory to related ones, with per-signal scores and "
            "a suggested relation_type. Writes nothing (store links with lore_insert)."
        ),
    )
    async def lore_suggest_links(
        memory_id: Annotated[str, Field(min_length=1, max_length=200)],
        top_k: Annotated[int, Field(ge=1, le=50)] = 10,
    ) -> CallToolResult:
        return await box.run(
            "lore_suggest_links", lambda rg, mem: mem.suggest_links(memory_id, top_k=top_k)
        )

    @box.tool(
        "lore_capture",
        title="Capture a thought",
        output=LoreCaptureOut,
        annotations=WRITE,
        description=(
            "Save one free-text thought as a memory (title derived). Near-duplicates are not "
            "stored again; a very similar memory is auto-linked (linked_to)."
        ),
    )
    async def lore_capture(
        thought: Annotated[str, Field(min_length=1, max_length=200_000)],
        source_type: SourceType = "observed",
    ) -> CallToolResult:
        return await box.run("lore_capture", lambda rg, mem: mem.capture(thought, source_type))

    @box.tool(
        "lore_feedback",
        title="Rate memories and links",
        output=LoreFeedbackOut,
        annotations=WRITE,
        description=(
            "Say which memories (ids) and links (link ids) helped or misled you, so good ones "
            "rank higher. Repeated low-confidence not-useful ratings soft-delete a memory."
        ),
    )
    async def lore_feedback(
        memory_feedback: Annotated[list[FeedbackItem], Field(max_length=100)] = [],  # noqa: B006
        link_feedback: Annotated[list[FeedbackItem], Field(max_length=100)] = [],  # noqa: B006
    ) -> CallToolResult:
        mf, lf = dump_items(memory_feedback), dump_items(link_feedback)
        return await box.run("lore_feedback", lambda rg, mem: mem.feedback(mf, lf))

    @box.tool(
        "lore_delete",
        title="Delete memories",
        output=LoreDeleteOut,
        annotations=DELETE,
        description=(
            "Soft-delete wrong, outdated or duplicated memories so search stops returning them "
            "(undo with recollect_undo and the operation_id)."
        ),
    )
    async def lore_delete(
        memory_ids: Annotated[list[str], Field(min_length=1, max_length=50)],
        reason: DeleteReason = "unspecified",
    ) -> CallToolResult:
        return await box.run("lore_delete", lambda rg, mem: mem.delete(memory_ids, reason))

    @box.tool(
        "lore_pending_suggestions",
        title="List pending link suggestions",
        output=PendingOut,
        description=(
            "Link suggestions queued by the sweep and not yet reviewed, best first; review "
            "them with lore_review_suggestion."
        ),
    )
    async def lore_pending_suggestions(
        limit: Annotated[int, Field(ge=1, le=100)] = 20,
        min_score: Annotated[float, Field(ge=0)] = 0.0,
    ) -> CallToolResult:
        return await box.run(
            "lore_pending_suggestions",
            lambda rg, mem: mem.pending_suggestions(limit=limit, min_score=min_score),
        )

    @box.tool(
        "lore_review_suggestion",
        title="Accept or reject link suggestions",
        output=ReviewOut,
        annotations=WRITE,
        description=(
            "Accept (creates the link) or reject pending link suggestions. Reviews are final: "
            "a repeat is skipped."
        ),
    )
    async def lore_review_suggestion(
        reviews: Annotated[list[ReviewItem], Field(min_length=1, max_length=100)],
    ) -> CallToolResult:
        items = dump_items(reviews)
        return await box.run(
            "lore_review_suggestion", lambda rg, mem: mem.review_suggestions(items)
        )

    @box.tool(
        "lore_reflect",
        title="Reflect on a session",
        output=ReflectOut,
        annotations=WRITE,
        description=(
            "Record once, at a session's end, what it taught: a summary and short statements. "
            "Lessons, discoveries and decisions become memories. Idempotent per session_id."
        ),
    )
    async def lore_reflect(
        session_id: Annotated[str, Field(min_length=1, max_length=200)],
        summary: Annotated[str, Field(min_length=1, max_length=10_000)],
        lessons: Statements = [],  # noqa: B006 - pydantic copies the default; the schema shows []
        discoveries: Statements = [],  # noqa: B006
        good_patterns: Statements = [],  # noqa: B006
        user_profile_updates: Statements = [],  # noqa: B006
        decisions: Statements = [],  # noqa: B006
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            return mem.reflect(
                session_id,
                summary,
                lessons=lessons,
                discoveries=discoveries,
                good_patterns=good_patterns,
                user_profile_updates=user_profile_updates,
                decisions=decisions,
            )

        return await box.run("lore_reflect", body)

    @box.tool(
        "lore_list_processed_sessions",
        title="List reflected sessions",
        output=ProcessedOut,
        description="Sessions already reflected on (lore_reflect), newest first.",
    )
    async def lore_list_processed_sessions() -> CallToolResult:
        return await box.run(
            "lore_list_processed_sessions", lambda rg, mem: mem.processed_sessions()
        )
