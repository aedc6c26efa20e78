"""The server's resources: the scope's stats, recent operations, and the Browser guide.

The stats and operations are read from the database on the same worker thread as the tools (and
are bounded like them); the guide is the HTML file the embedded server serves to Neo4j Browser.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from mcp.server.mcpserver import MCPServer

if TYPE_CHECKING:
    from recollect_graph.facade import Memories, Recollect
    from recollect_graph.mcp.tools import Body, MemoryTools

#: The Browser guide (``:play``) shipped with the embedded launcher.
GUIDE = Path(__file__).resolve().parents[1] / "db/launcher/src/main/resources/guides/recollect.html"

#: The resources' URIs, in the order they are listed.
URIS = ("recollect://stats", "recollect://operations/recent", "recollect://guide")


def register(server: MCPServer, tools: MemoryTools) -> None:
    """Add the resources to ``server``, reading through ``tools`` (bound to one scope)."""

    async def read(body: Body) -> str:
        data = await anyio.to_thread.run_sync(tools.call, body)
        return json.dumps(data, ensure_ascii=False, default=str, indent=1)

    @server.resource(
        "recollect://stats",
        name="stats",
        title="Scope statistics",
        description=f"Counts per label and relationship, waiting work, indexes ({tools.scope_id}).",
        mime_type="application/json",
    )
    async def stats() -> str:
        def body(rg: Recollect, mem: Memories) -> Any:
            return {"scope_id": mem.scope_id, **rg.stats(mem.scope_id)}

        return await read(body)

    @server.resource(
        "recollect://operations/recent",
        name="recent-operations",
        title="Recent operations",
        description="The 20 newest logged destructive operations (undo with recollect_undo).",
        mime_type="application/json",
    )
    async def operations() -> str:
        def body(rg: Recollect, mem: Memories) -> Any:
            return {"operations": rg.operations(mem.scope_id, limit=20)}

        return await read(body)

    @server.resource(
        "recollect://guide",
        name="browser-guide",
        title="Neo4j Browser guide",
        description="The guide (:play) with the saved queries for exploring the graph in Browser.",
        mime_type="text/html",
    )
    def guide() -> str:
        return GUIDE.read_text(encoding="utf-8")
