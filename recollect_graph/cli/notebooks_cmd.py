"""``recollect-graph notebooks`` (copy the notebooks out) and ``guide`` (serve Browser's guide)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from recollect_graph.cli.output import emit_json, handle_errors, json_option
from recollect_graph.errors import InvalidInput


@click.command("notebooks")
@click.option(
    "--to",
    "dest",
    required=True,
    type=click.Path(path_type=Path),
    help="Folder to copy the notebooks into (made if missing).",
)
@click.option("--force", is_flag=True, help="Replace notebooks of the same name in the folder.")
@json_option
@handle_errors
def notebooks_cmd(dest: Path, force: bool, as_json: bool) -> None:
    """Copy the notebooks out of the installed package into a folder of your own.

    They run anywhere: the data they load ships with the package (recollect_graph.samples),
    and they connect like the library does (the embedded Neo4j, or NEO4J_URI). They need the
    notebooks extra: pip install 'recollect-graph[notebooks]'.

    \b
    Example:
      recollect-graph notebooks --to ~/recollect-notebooks
      cd ~/recollect-notebooks && jupyter lab
    """
    from recollect_graph import samples

    if dest.exists() and not dest.is_dir():
        raise InvalidInput(f"{dest} exists and is not a folder")
    try:
        copied = samples.copy_notebooks(dest, overwrite=force)
    except FileExistsError as e:
        raise InvalidInput(str(e)) from e
    except FileNotFoundError as e:
        raise InvalidInput(str(e)) from e
    if as_json:
        emit_json({"to": str(dest.resolve()), "notebooks": [p.name for p in copied]})
        return
    for p in copied:
        click.echo(str(p))
    click.echo(f"{len(copied)} notebooks in {dest.resolve()}")


@click.command("guide")
@click.option("--port", default=8474, show_default=True, help="Port on 127.0.0.1 (0: a free one).")
@click.option(
    "--favourites",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the saved queries as a zip for Browser's Favorites import, and exit.",
)
@json_option
@handle_errors
def guide_cmd(port: int, favourites: Path | None, as_json: bool) -> None:
    """Serve the Browser guide and style on 127.0.0.1 for a Docker, Aura or other Neo4j.

    The embedded server serves them itself; for any other deployment run this next to your
    Browser and paste the printed :play and :style lines into it. Browser plays remote guides
    only from allow-listed hosts: localhost is allowed by default (a self-managed server sets
    browser.remote_content_hostname_whitelist; docker-compose.yml does). Stop with Ctrl+C.

    Browser takes favourites only from its own Favorites drawer: --favourites writes the saved
    queries as a zip that its upload button imports (they are in the guide too).

    \b
    Example:
      recollect-graph guide --port 8474
      # then in Browser:  :style http://localhost:8474/guides/style.grass
      #                   :play http://localhost:8474/guides/recollect.html
      recollect-graph guide --favourites recollect-favourites.zip
    """
    from recollect_graph.analysis.guide_server import GuideServer, favourites_zip, saved_queries

    if favourites is not None:
        tmp = favourites.with_name(f".{favourites.name}.tmp")
        try:
            tmp.write_bytes(favourites_zip())
            tmp.replace(favourites)
        except OSError as e:
            raise InvalidInput(f"cannot write {favourites}: {e}") from e
        names = sorted(saved_queries())
        if as_json:
            emit_json({"favourites": str(favourites), "queries": names})
        else:
            click.echo(f"wrote {len(names)} saved queries to {favourites}: in Browser, open")
            click.echo("Favorites (the star), then its upload button, and pick the zip")
        return

    try:
        server = GuideServer(port=port)
    except (OSError, ValueError, OverflowError) as e:
        raise InvalidInput(f"cannot serve the guide on 127.0.0.1:{port}: {e}") from e
    if as_json:
        emit_json(
            {
                "port": server.port,
                "play": server.play_command(),
                "style": server.style_command(),
                "guide_url": server.url("recollect.html"),
                "style_url": server.url("style.grass"),
            }
        )
    else:
        click.echo(f"Serving the recollect-graph guide on http://127.0.0.1:{server.port}/guides/")
        click.echo("In Neo4j Browser, run:")
        click.echo(f"  {server.style_command()}")
        click.echo(f"  {server.play_command()}")
        click.echo("Ctrl+C stops it.")
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


COMMANDS = (notebooks_cmd, guide_cmd)
