"""``recollect-graph neo4j ...``: build, start, stop and inspect the embedded Neo4j."""

from __future__ import annotations

import time
import webbrowser
from typing import TYPE_CHECKING

import click

from recollect_graph.cli.output import emit_json, handle_errors, json_option, progress

if TYPE_CHECKING:
    from recollect_graph.db.server import LocalServer
    from recollect_graph.models import ServerStatus


def _server() -> LocalServer:
    from recollect_graph.db.server import LocalServer
    from recollect_graph.settings import Settings

    settings = Settings.from_env()
    if not settings.embedded:
        click.echo(
            f"Note: NEO4J_URI is set ({settings.neo4j_uri}); the library uses that server, "
            "not the embedded one managed here.",
            err=True,
        )
    return LocalServer(settings)


def _describe(st: ServerStatus) -> str:
    if not st.running:
        return f"Neo4j is not running (data in {st.home})"
    lines = [
        f"Neo4j {st.version} running, pid {st.pid}",
        f"  Bolt:     {st.bolt_uri}",
        f"  Browser:  {st.browser_url or 'off'}",
        f"  data:     {st.home}",
        f"  auth:     {'on (user neo4j, password in the config directory)' if st.auth else 'off'}",
        f"  uptime:   {st.uptime_s}s   resident memory: {st.rss_mb} MB",
    ]
    return "\n".join(lines)


@click.group("neo4j")
def neo4j_group() -> None:
    """Manage the embedded Neo4j (used when NEO4J_URI is not set).

    \b
    Example:
      recollect-graph neo4j start && recollect-graph neo4j status --json
    """


@neo4j_group.command("build")
@click.option("--force", is_flag=True, help="Rebuild even if a build exists.")
@json_option
@handle_errors
def build_cmd(force: bool, as_json: bool) -> None:
    """Build the launcher with Maven (once per machine; jars from Maven Central).

    \b
    Example:
      recollect-graph neo4j build
    """
    server = _server()
    t0 = time.monotonic()
    already = server.build.is_built() and not force
    path = server.build.build(force=force, progress=progress(as_json))
    data = {
        "path": str(path),
        "already_built": already,
        "seconds": round(time.monotonic() - t0, 1),
        "size_mb": round(server.build.size_bytes() / 1e6, 1),
    }
    if as_json:
        emit_json(data)
    else:
        click.echo(f"{'already built' if already else 'built'}: {path} ({data['size_mb']} MB)")


@neo4j_group.command("start")
@json_option
@handle_errors
def start_cmd(as_json: bool) -> None:
    """Start the server, or attach to the one already running.

    \b
    Example:
      recollect-graph neo4j start
    """
    st = _server().start(progress=progress(as_json))
    if as_json:
        emit_json(st.model_dump(mode="json"))
    else:
        click.echo(_describe(st))


@neo4j_group.command("stop")
@json_option
@handle_errors
def stop_cmd(as_json: bool) -> None:
    """Shut the server down cleanly.

    \b
    Example:
      recollect-graph neo4j stop
    """
    stopped = _server().stop(progress=progress(as_json))
    if as_json:
        emit_json({"stopped": stopped})
    else:
        click.echo("stopped" if stopped else "Neo4j was not running")


@neo4j_group.command("status")
@json_option
@handle_errors
def status_cmd(as_json: bool) -> None:
    """Show pid, ports, data directory, version and uptime. Exit code 3 when not running.

    \b
    Example:
      recollect-graph neo4j status --json
    """
    st = _server().status()
    if as_json:
        emit_json(st.model_dump(mode="json"))
    else:
        click.echo(_describe(st))
    if not st.running:
        raise SystemExit(3)


@neo4j_group.command("logs")
@click.option("-n", "--lines", default=50, show_default=True, help="How many lines.")
@click.option("--debug", is_flag=True, help="Show Neo4j's debug.log instead of the launcher log.")
@json_option
@handle_errors
def logs_cmd(lines: int, debug: bool, as_json: bool) -> None:
    """Show the end of the server's log.

    \b
    Example:
      recollect-graph neo4j logs -n 100 --debug
    """
    out = _server().logs(lines, debug=debug)
    if as_json:
        emit_json({"lines": out})
    else:
        click.echo("\n".join(out) if out else "(no log yet)")


@neo4j_group.command("browser")
@click.option("--open/--no-open", "open_", default=False, help="Open it in a web browser.")
@json_option
@handle_errors
def browser_cmd(open_: bool, as_json: bool) -> None:
    """Print the Neo4j Browser URL (starting the server if needed).

    \b
    Example:
      recollect-graph neo4j browser --open
    """
    server = _server()
    st = server.start(progress=progress(as_json))
    url = st.browser_url
    data = {
        "url": url,
        "bolt_uri": st.bolt_uri,
        "user": "neo4j" if st.auth else None,
        "password_file": str(server.settings.password_file) if st.auth else None,
    }
    if as_json:
        emit_json(data)
        return
    if not url:
        click.echo("Browser is off (RECOLLECT_HTTP_PORT=0)")
        return
    click.echo(f"Neo4j Browser: {url}  (connects to {st.bolt_uri})")
    if st.auth:
        click.echo(f"  user neo4j, password: cat {server.settings.password_file}")
    if open_:
        webbrowser.open(url)
