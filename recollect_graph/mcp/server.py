"""The MCP server: Lore's memory tools and Recollect's knowledge tools, over stdio or HTTP.

Every tool is bound to one scope and owner, fixed at start-up from the settings
(``RECOLLECT_SCOPE`` / ``RECOLLECT_OWNER``, or ``recollect-graph mcp --scope/--owner``). Answers are
JSON objects (as text and as structured content, checked against each tool's ``outputSchema``),
bounded in size; a refused or failed call - a schema violation or an unknown argument included -
is a tool error (``isError: true``) whose content is ``{"error": {"code", "message"}}``, and the
server keeps answering.

Start-up is light: this module imports the MCP SDK and pydantic models only, so ``initialize``
and ``tools/list`` are answered at once; the database and the embedding model are opened in a
background thread (:meth:`MemoryTools.warm`) and the first tool call waits for them if needed.

Example:
    >>> from recollect_graph.settings import Settings
    >>> server = build_server(MemoryTools(Settings(default_scope="app")), select("lore"))
    >>> len(server._tool_manager.list_tools())
    10
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Collection

from recollect_graph import __version__
from recollect_graph.errors import InvalidInput
from recollect_graph.mcp import prompts, resources, tools_graph, tools_lore, tools_recollect
from recollect_graph.mcp.app import StrictServer, Toolbox
from recollect_graph.mcp.tools import MemoryTools
from recollect_graph.settings import Settings

log = logging.getLogger(__name__)

#: Every tool this server offers, in the order it lists them.
TOOL_NAMES = (*tools_lore.NAMES, *tools_recollect.NAMES, *tools_graph.NAMES)
#: The named subsets ``--tools`` accepts (besides single tool names).
GROUPS: dict[str, tuple[str, ...]] = {
    "lore": tools_lore.NAMES,
    "recollect": (*tools_recollect.NAMES, *tools_graph.NAMES),
    "all": TOOL_NAMES,
}

INSTRUCTIONS = """\
Long-term memory for this project, kept in a knowledge graph. Every tool works in one scope \
({scope}) as owner {owner}; nothing outside that scope is visible.
Before a task: search for what is already known. After learning something durable (a decision, \
a root cause, a user preference, a gotcha): store it. At the end of a session: reflect once. \
Long text in answers is cut to 2000 characters and marked "truncated": true. Errors are \
{{"error": {{"code", "message"}}}}.\
"""


#: Seconds after start-up at which the model is warmed even if no client listed the tools.
WARM_AFTER_S = 2.0


def _once(fn: Callable[[], None]) -> Callable[[], None]:
    """``fn`` made idempotent and thread-safe: the first call runs it, the others do nothing."""
    lock = threading.Lock()
    done = False

    def run() -> None:
        nonlocal done
        with lock:
            if done:
                return
            done = True
        fn()

    return run


def select(spec: str | None) -> tuple[str, ...]:
    """The tools a ``--tools`` value names, in listing order.

    ``spec`` is ``all`` (the default), ``lore``, ``recollect``, or a comma list of those groups
    and single tool names.

    Example:
        >>> select("lore_search,recollect_search")
        ('lore_search', 'recollect_search')

    Raises:
        InvalidInput: A name that is neither a group nor a tool, or nothing selected.
    """
    wanted: set[str] = set()
    for part in (spec or "all").split(","):
        name = part.strip()
        if not name:
            continue
        if name in GROUPS:
            wanted.update(GROUPS[name])
        elif name in TOOL_NAMES:
            wanted.add(name)
        else:
            raise InvalidInput(
                f"--tools: unknown tool or group {name!r}; groups: {', '.join(GROUPS)}; "
                f"tools: {', '.join(TOOL_NAMES)}"
            )
    if not wanted:
        raise InvalidInput("--tools selects no tool")
    return tuple(n for n in TOOL_NAMES if n in wanted)


def build_server(tools: MemoryTools, selected: Collection[str] = TOOL_NAMES) -> StrictServer:
    """The server with the ``selected`` tools, the prompts and the resources on ``tools``."""
    server = StrictServer(
        "recollect-graph",
        title="recollect-graph memory",
        version=__version__,
        instructions=INSTRUCTIONS.format(scope=tools.scope_id, owner=tools.owner_id),
        log_level="WARNING",
    )
    box = Toolbox(server, tools, selected)
    tools_lore.register(box)
    tools_recollect.register(box)
    tools_graph.register(box)
    prompts.register(server)
    resources.register(server, tools)
    return server


def serve(
    settings: Settings,
    *,
    warm: bool = True,
    tools: str | None = None,
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8765,
) -> None:
    """Serve the tools until the client closes stdio (or, with ``http``, until interrupted).

    Args:
        settings: Effective settings (scope, owner, database, config directory).
        warm: Open the database and load the model in the background at once, so the first
            tool call does not wait for them (a failure is logged and retried on that call).
        tools: Which tools to serve (see :func:`select`).
        http: Serve Streamable HTTP at ``http://host:port/mcp`` instead of stdio, every request
            authenticated with the bearer token from the config directory.
        host: The address to bind with ``http`` (loopback by default).
        port: The port to bind with ``http``.
    """
    selected = select(tools)
    holder = MemoryTools(settings)
    server = build_server(holder, selected)
    token = None
    if http:
        from recollect_graph.mcp.http import load_or_create_token, token_path

        token = load_or_create_token(settings.config_dir)
    if warm:
        start_warm = _once(
            lambda: threading.Thread(target=holder.warm, name="recollect-warm", daemon=True).start()
        )
        server.after_listing = start_warm  # after the handshake: no fight for the GIL
        fallback = threading.Timer(WARM_AFTER_S, start_warm)  # a client that never lists
        fallback.daemon = True
        fallback.start()
    try:
        if token is None:
            server.run("stdio")
        else:
            from recollect_graph.mcp import http as http_transport

            sys.stderr.write(
                f"recollect-graph MCP on http://{host}:{port}/mcp (scope {holder.scope_id}); "
                f"bearer token in {token_path(settings.config_dir)}\n"
            )
            sys.stderr.flush()
            http_transport.run(server, token=token, host=host, port=port)
    finally:
        holder.close()
