"""Data commands: ``export``, ``import``, ``stats`` and ``show``."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import click

from recollect_graph.cli.common import need, open_rg, scope_option, short
from recollect_graph.cli.output import (
    emit_json,
    handle_errors,
    json_option,
    stored_before_error,
    table,
)
from recollect_graph.errors import InvalidInput


@contextlib.contextmanager
def _bar(length: int, label: str, quiet: bool) -> Iterator[Any]:
    """A progress bar on stderr (a do-nothing one when quiet or stderr is not a terminal)."""
    if quiet or not sys.stderr.isatty():

        class _Null:
            def update(self, _n: int) -> None:
                pass

        yield _Null()
        return
    with click.progressbar(length=length, label=f"  {label}", file=sys.stderr) as bar:
        yield bar


def _atomic_out(path: str) -> tuple[IO[str], Path]:
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
    return os.fdopen(fd, "w", encoding="utf-8"), Path(tmp)


@click.command("export")
@scope_option
@click.option("--out", metavar="FILE", help="Write here (atomically) instead of stdout.")
@click.option("--page-size", type=int, default=500, show_default=True, help="Nodes per read.")
@json_option
@handle_errors
def export_cmd(scope: str | None, out: str | None, page_size: int, as_json: bool) -> None:
    """Export every node and relationship of a scope as JSON Lines (embeddings included).

    The first line is a header naming the format version, the scope and the embedding model;
    node and relationship lines follow. Without --out the lines go to stdout (--json then
    prints nothing more); with --out a summary is printed.

    \b
    Example:
      recollect-graph export --scope app --out app.jsonl
      recollect-graph export --scope app > app.jsonl
    """
    scope_id = need(scope, "--scope", "RECOLLECT_SCOPE")
    if page_size < 1:
        raise InvalidInput("--page-size must be at least 1")
    counts = {"node": 0, "rel": 0}
    with open_rg(as_json or out is None) as rg:
        lines = rg.export(scope_id, page_size=page_size)
        header = next(lines)
        if out is None:
            sink: IO[str] = sys.stdout
            tmp: Path | None = None
        else:
            try:
                sink, tmp = _atomic_out(out)
            except OSError as e:
                raise InvalidInput(f"cannot write {out}: {e.strerror or e}") from e
        try:
            sink.write(json.dumps(header) + "\n")
            with _bar(int(header.get("nodes", 0)), "nodes", as_json or out is None) as bar:
                for line in lines:
                    sink.write(json.dumps(line) + "\n")
                    counts[line["kind"]] += 1
                    if line["kind"] == "node":
                        bar.update(1)
            if tmp is not None:
                sink.close()
                tmp.replace(out or "")
        except BaseException:
            if tmp is not None:
                sink.close()
                tmp.unlink(missing_ok=True)
            raise
    if out is None:
        return
    summary = {
        "scope_id": scope_id,
        "out": out,
        "lines": 1 + counts["node"] + counts["rel"],
        "nodes": counts["node"],
        "rels": counts["rel"],
        "embedding_model": header["embedding_model"],
    }
    if as_json:
        emit_json(summary)
    else:
        click.echo(
            f"exported {counts['node']} nodes and {counts['rel']} relationships of "
            f"{scope_id!r} to {out}"
        )


@click.command("import")
@click.argument("file")
@click.option("--scope", help="Import into this scope (default: the exported scope).")
@click.option(
    "--keep-ids/--remap-ids",
    default=None,
    help="Keep the exported ids or remap them into the target scope "
    "[default: keep in the exported scope, remap in another].",
)
@click.option(
    "--batch-size", type=int, default=500, show_default=True, help="Lines per transaction."
)
@json_option
@handle_errors
def import_cmd(
    file: str, scope: str | None, keep_ids: bool | None, batch_size: int, as_json: bool
) -> None:
    """Import an export FILE ('-': stdin), idempotently and atomically per batch.

    Refuses another format or version, or vectors of another embedding model or size, before
    writing anything. Re-importing the same file changes nothing.

    \b
    Example:
      recollect-graph import app.jsonl --scope app-copy
    """
    if batch_size < 1:
        raise InvalidInput("--batch-size must be at least 1")
    try:
        f = sys.stdin if file == "-" else open(file, encoding="utf-8")  # noqa: SIM115
    except OSError as e:
        raise InvalidInput(f"cannot read {file}: {e.strerror or e}") from e
    size = 0 if file == "-" else os.fstat(f.fileno()).st_size
    written = 0

    def count(n: int) -> None:
        nonlocal written
        written = n

    def stored() -> tuple[str, dict[str, Any]] | None:
        if not written:
            return None
        line = f"imported {written} lines (nodes and relationships) before the error"
        return line, {"lines": written}

    try:
        with (
            stored_before_error(as_json, stored),
            open_rg(as_json) as rg,
            _bar(size, "import", as_json or not size) as bar,
        ):

            def lines() -> Iterator[str]:
                for line in f:
                    bar.update(len(line.encode("utf-8")))
                    yield line

            result = rg.import_(
                lines(), scope_id=scope, keep_ids=keep_ids, batch_size=batch_size, progress=count
            )
    finally:
        if f is not sys.stdin:
            f.close()
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        skipped = f", {result.skipped_rels} skipped" if result.skipped_rels else ""
        click.echo(
            f"imported {result.nodes} nodes ({result.nodes_created} new, {result.nodes_updated} "
            f"changed, {result.nodes_unchanged} already there) and {result.rels} relationships "
            f"({result.rels_created} new, {result.rels_updated} changed, "
            f"{result.rels_unchanged} already there){skipped} into {result.scope_id!r} "
            f"(ids {result.ids})"
        )


@click.command("stats")
@scope_option
@json_option
@handle_errors
def stats_cmd(scope: str | None, as_json: bool) -> None:
    """Counts per label and relationship type, pending suggestions, open conflicts, indexes.

    Without --scope (or RECOLLECT_SCOPE) the whole graph is counted.

    \b
    Example:
      recollect-graph stats --scope app --json
    """
    with open_rg(as_json) as rg:
        s = rg.stats(scope)
    if as_json:
        emit_json(s)
        return
    click.echo(f"scope: {s['scope_id'] or '(all)'}")
    click.echo(table([{"label": k, "count": v} for k, v in s["labels"].items()]))
    click.echo(table([{"relationship": k, "count": v} for k, v in s["relationships"].items()]))
    click.echo(
        f"pending link suggestions: {s['pending_suggestions']}; open conflicts: "
        f"{s['open_conflicts']}; stale topics: {s['stale_topics']}"
    )
    bad = [i for i in s["indexes"] if i["state"] != "ONLINE"]
    click.echo(
        f"indexes: {len(s['indexes'])} ({len(bad)} not ONLINE"
        + (f": {', '.join(i['name'] for i in bad)}" if bad else "")
        + ")"
    )
    size = s["store_bytes"]
    click.echo(f"store size: {f'{size / 1e6:.1f} MB' if size is not None else 'unknown'}")


@click.command("show")
@click.argument("node_id")
@scope_option
@click.option("--limit", type=int, default=50, show_default=True, help="Most neighbours listed.")
@json_option
@handle_errors
def show_cmd(node_id: str, scope: str | None, limit: int, as_json: bool) -> None:
    """Show any node by id: labels, properties (no embedding) and its neighbourhood.

    \b
    Example:
      recollect-graph show 3f2c... --scope app
    """
    with open_rg(as_json) as rg:
        found = rg.show(node_id, scope_id=need(scope, "--scope", "RECOLLECT_SCOPE"), limit=limit)
    if as_json:
        emit_json(found)
        return
    for node in found["nodes"]:
        click.echo(f"{':'.join(node['labels'])} {node['id']} (scope {node['scope_id']})")
        for k, v in sorted(node["props"].items()):
            click.echo(f"  {k}: {short(json.dumps(v, default=str), 100)}")
        rows = [
            {
                "dir": "->" if n["outgoing"] else "<-",
                "type": n["type"],
                "label": n["label"],
                "id": n["id"],
                "caption": short(n["caption"], 50),
            }
            for n in node["neighbours"]
        ]
        click.echo(table(rows))
        if node["more"]:
            click.echo(f"({node['more']} more relationships not listed)")


COMMANDS = (export_cmd, import_cmd, stats_cmd, show_cmd)
