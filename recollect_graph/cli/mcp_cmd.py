"""CLI: ``recollect-graph mcp``, the memory tools as an MCP server over stdio.

The server itself lives in :mod:`recollect_graph.mcp.server` (imported only when the command runs,
so the rest of the CLI does not pay for the MCP SDK's import); the tool bodies in
:mod:`recollect_graph.mcp.tools`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from recollect_graph.cli.output import handle_errors
from recollect_graph.errors import InvalidInput

if TYPE_CHECKING:
    pass


@click.command("mcp")
@click.option(
    "--scope",
    help="Scope every tool reads and writes [default: RECOLLECT_SCOPE, else 'shared'].",
)
@click.option(
    "--owner",
    help="Owner of what the tools write [default: RECOLLECT_OWNER, else $USER].",
)
@click.option(
    "--no-warm",
    is_flag=True,
    help="Open the database on the first tool call instead of in the background at start-up.",
)
@handle_errors
def mcp_cmd(scope: str | None, owner: str | None, no_warm: bool) -> None:
    """Serve the memory tools over MCP on stdio (for coding agents).

    Stdout carries the protocol; logs go to stderr (-v/-vv for more). Every tool is bound to
    one scope and owner. With no NEO4J_URI the embedded Neo4j is started or attached to.

    \b
    Example:
      claude mcp add recollect -- recollect-graph mcp --scope my-project
    """
    from recollect_graph.mcp.server import serve
    from recollect_graph.settings import Settings

    for flag, value in (("--scope", scope), ("--owner", owner)):
        if value is not None and not value.strip():
            raise InvalidInput(f"{flag} must not be empty")
    serve(Settings.from_env(default_scope=scope, default_owner=owner), warm=not no_warm)
