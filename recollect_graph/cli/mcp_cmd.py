"""CLI: ``recollect-graph mcp``, the memory tools as an MCP server over stdio or Streamable HTTP.

The server itself lives in :mod:`recollect_graph.mcp.server` (imported only when the command runs,
so the rest of the CLI does not pay for the MCP SDK's import); the tool bodies in
:mod:`recollect_graph.mcp.tools`.
"""

from __future__ import annotations

import click

from recollect_graph.cli.output import handle_errors, json_option
from recollect_graph.errors import InvalidInput


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
@click.option(
    "--tools",
    "tools",
    default="all",
    show_default=True,
    help="Tools to serve: lore, recollect, all, or a comma list of groups and tool names.",
)
@click.option(
    "--http",
    is_flag=True,
    help="Serve Streamable HTTP at http://HOST:PORT/mcp (bearer token from the config dir).",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind with --http.")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="HTTP port."
)
@json_option
@handle_errors
def mcp_cmd(
    scope: str | None,
    owner: str | None,
    no_warm: bool,
    tools: str,
    http: bool,
    host: str,
    port: int,
    as_json: bool,
) -> None:
    """Serve the memory tools over MCP on stdio (for coding agents) or HTTP.

    On stdio, stdout carries the protocol; logs go to stderr (-v/-vv for more). With --http one
    warm server serves many clients: each request needs the header "Authorization: Bearer
    <token>", the token read from (or created 0600 in) the config directory's mcp-token file,
    and a browser Origin other than localhost is refused. Every tool is bound to one scope and
    owner. With no NEO4J_URI the embedded Neo4j is started or attached to. --json prints a
    start-up error as a JSON error object.

    \b
    Examples:
      claude mcp add recollect -- recollect-graph mcp --scope my-project
      recollect-graph mcp --scope my-project --tools lore
      recollect-graph mcp --scope my-project --http --port 8765
    """
    from recollect_graph.mcp.server import select, serve
    from recollect_graph.settings import Settings

    for flag, value in (("--scope", scope), ("--owner", owner)):
        if value is not None and not value.strip():
            raise InvalidInput(f"{flag} must not be empty")
    if http and host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: --host {host} exposes the server beyond this machine", err=True)
    select(tools)  # refuse a bad --tools before anything starts
    settings = Settings.from_env(default_scope=scope, default_owner=owner)
    serve(settings, warm=not no_warm, tools=tools, http=http, host=host, port=port)
