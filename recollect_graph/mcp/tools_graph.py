"""MCP tools over the rest of the graph: supersede, undo, conflicts, sessions, entities, topics.

Every tool is bound to the server's scope (see :class:`~recollect_graph.mcp.app.Toolbox`); an id
from another scope is "not found".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from mcp.types import CallToolResult
from pydantic import Field

from recollect_graph.mcp.app import DELETE, WRITE, Toolbox
from recollect_graph.mcp.models import (
    AsOf,
    ConflictsOut,
    EntityOut,
    HandoffOut,
    OperationOut,
    OperationsOut,
    ResolveOut,
    SessionOut,
    SessionsOut,
    SupersedeOut,
    TopicOut,
    TopicsOut,
    ValidAt,
)

if TYPE_CHECKING:
    from recollect_graph.facade import Memories, Recollect
    from recollect_graph.models import Entry
    from recollect_graph.results import OpenConflict

#: The graph tools, in the order they are listed.
NAMES = (
    "recollect_supersede",
    "recollect_undo",
    "recollect_operations",
    "recollect_conflicts",
    "recollect_resolve",
    "recollect_sessions",
    "recollect_session",
    "recollect_handoff",
    "recollect_entity",
    "recollect_topics",
    "recollect_topic",
)

Id = Annotated[str, Field(min_length=1, max_length=200)]
Page = Annotated[int, Field(ge=1, le=100)]
Offset = Annotated[int, Field(ge=0, le=100_000)]


def _gist(e: Entry) -> dict[str, Any]:
    return {"id": e.id, "title": e.title, "content": e.content, "entry_type": e.entry_type}


def conflict_dict(c: OpenConflict) -> dict[str, Any]:
    """One open contradiction: the newer entry, the one it contradicts, how and why."""
    return {
        "source": _gist(c.source),
        "target": _gist(c.target),
        "type": c.type,
        "score": None if c.score is None else round(c.score, 4),
        "reason": c.reason,
        "created_at": c.created_at,
    }


def register(box: Toolbox) -> None:
    """Add the served tools of :data:`NAMES` to ``box``'s server."""

    @box.tool(
        "recollect_supersede",
        title="Supersede an entry",
        output=SupersedeOut,
        annotations=WRITE,
        description=(
            "Retire an entry in favour of a newer one (old_id superseded by new_id). "
            "Undoable with recollect_undo."
        ),
    )
    async def recollect_supersede(
        old_id: Id, new_id: Id, reason: Annotated[str | None, Field(max_length=1000)] = None
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            rg.get(new_id, scope_id=mem.scope_id, touch=False)  # not found outside the scope
            rg.get(old_id, scope_id=mem.scope_id, touch=False)
            return rg.supersede_entry(old_id, new_id, scope_id=mem.scope_id, reason=reason)

        return await box.run("recollect_supersede", body)

    @box.tool(
        "recollect_undo",
        title="Undo an operation",
        output=OperationOut,
        annotations=DELETE,
        description="Undo a logged operation (a delete, forget or supersede) by its id.",
    )
    async def recollect_undo(operation_id: Id) -> CallToolResult:
        return await box.run(
            "recollect_undo", lambda rg, mem: rg.undo(operation_id, scope_id=mem.scope_id)
        )

    @box.tool(
        "recollect_operations",
        title="List operations",
        output=OperationsOut,
        description="The newest logged destructive operations (what recollect_undo can revert).",
    )
    async def recollect_operations(limit: Page = 20, offset: Offset = 0) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            ops = rg.operations(mem.scope_id, limit=limit, offset=offset)
            return {"operations": ops, "count": len(ops)}

        return await box.run("recollect_operations", body)

    @box.tool(
        "recollect_conflicts",
        title="List open contradictions",
        output=ConflictsOut,
        description=(
            "Open contradictions between current entries, strongest first (as_of / valid_at: "
            "those open at a past moment)."
        ),
    )
    async def recollect_conflicts(
        limit: Page = 20, offset: Offset = 0, as_of: AsOf = None, valid_at: ValidAt = None
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            found = rg.conflicts(
                mem.scope_id, limit=limit, offset=offset, as_of=as_of, valid_at=valid_at
            )
            return {"conflicts": [conflict_dict(c) for c in found], "count": len(found)}

        return await box.run("recollect_conflicts", body)

    @box.tool(
        "recollect_resolve",
        title="Resolve a contradiction",
        output=ResolveOut,
        annotations=WRITE,
        description=(
            "Resolve the contradiction between entries a and b by keeping one (keep: a's or "
            "b's id); the other is superseded. Undoable."
        ),
    )
    async def recollect_resolve(a: Id, b: Id, keep: Id) -> CallToolResult:
        return await box.run(
            "recollect_resolve", lambda rg, mem: rg.resolve(mem.scope_id, a, b, keep=keep)
        )

    @box.tool(
        "recollect_sessions",
        title="List sessions",
        output=SessionsOut,
        description="This project's agent sessions, newest first.",
    )
    async def recollect_sessions(
        limit: Page = 20,
        offset: Offset = 0,
        cwd: Annotated[str | None, Field(max_length=4096, description="Only this cwd.")] = None,
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            found = rg.sessions.list(mem.scope_id, cwd=cwd, limit=limit, offset=offset)
            return {"sessions": found, "count": len(found)}

        return await box.run("recollect_sessions", body)

    @box.tool(
        "recollect_session",
        title="Show a session",
        output=SessionOut,
        description="One session: summary, forks, identifiers, handoff, and its turns if asked.",
    )
    async def recollect_session(session_id: Id, turns: bool = False) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            out = rg.sessions.get(session_id, scope_id=mem.scope_id)
            if turns:
                out["turns"] = rg.sessions.turns(session_id, scope_id=mem.scope_id)
            return out

        return await box.run("recollect_session", body)

    @box.tool(
        "recollect_handoff",
        title="Write a session handoff",
        output=HandoffOut,
        annotations=WRITE,
        description=(
            "Record what a session did and what comes next, for whoever resumes it "
            "(replaces the session's previous handoff)."
        ),
    )
    async def recollect_handoff(
        session_id: Id,
        what: Annotated[str, Field(min_length=1, max_length=10_000)],
        next: Annotated[str | None, Field(max_length=10_000)] = None,
        artifacts: Annotated[list[str], Field(max_length=100)] = [],  # noqa: B006
        blockers: Annotated[list[str], Field(max_length=100)] = [],  # noqa: B006
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            return rg.sessions.handoff(
                session_id,
                scope_id=mem.scope_id,
                what=what,
                next=next,
                artifacts=artifacts,
                blockers=blockers,
            )

        return await box.run("recollect_handoff", body)

    @box.tool(
        "recollect_entity",
        title="Show an entity",
        output=EntityOut,
        description=(
            "An entity (by name, alias or id): its mentions, relations and, with hops, its "
            "neighbourhood."
        ),
    )
    async def recollect_entity(
        entity: Annotated[str, Field(min_length=1, max_length=500)],
        limit: Page = 20,
        hops: Annotated[int, Field(ge=0, le=3, description="0: no neighbours.")] = 0,
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            out = rg.entities.show(entity, scope_id=mem.scope_id, limit=limit)
            if hops:
                out["neighbours"] = rg.entities.neighbours(
                    entity, scope_id=mem.scope_id, hops=hops, limit=limit
                )
            return out

        return await box.run("recollect_entity", body)

    @box.tool(
        "recollect_topics",
        title="List topics",
        output=TopicsOut,
        description="This project's topics (clusters of entries), largest first.",
    )
    async def recollect_topics(limit: Page = 20, offset: Offset = 0) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            found = rg.topics.list(mem.scope_id, limit=limit, offset=offset)
            return {"topics": found, "count": len(found)}

        return await box.run("recollect_topics", body)

    @box.tool(
        "recollect_topic",
        title="Show a topic",
        output=TopicOut,
        description="One topic by id or label: keywords, digest with sources, members.",
    )
    async def recollect_topic(
        topic: Annotated[str, Field(min_length=1, max_length=500)],
    ) -> CallToolResult:
        return await box.run("recollect_topic", lambda rg, mem: rg.topics.show(mem.scope_id, topic))
