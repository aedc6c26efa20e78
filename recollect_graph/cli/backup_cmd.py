"""``backup`` and ``restore-backup``: wrappers over ``export`` and ``import`` for several scopes.

A backup is a folder: one export file per scope (the ``export`` format, embeddings included) and
``manifest.json`` naming each file with its scope, counts and SHA-256. ``restore-backup`` checks
every file it is asked for (present, checksum, format, embedding model and vector size) before
it imports any, then imports each into its own scope (or ``--into`` another) with the ids kept.
Importing is idempotent, so a restore that was cut off can simply be run again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import urllib.parse
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from recollect_graph.cli.common import open_rg
from recollect_graph.cli.output import emit_json, handle_errors, json_option
from recollect_graph.errors import InvalidInput

if TYPE_CHECKING:
    from recollect_graph.facade import Recollect


MANIFEST = "manifest.json"
FORMAT = "recollect-graph-backup"
VERSION = 1


def _file_name(scope_id: str) -> str:
    """A file name for a scope's export (any scope id maps to a distinct, safe name)."""
    return urllib.parse.quote(scope_id, safe="") + ".jsonl"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _write_atomic(target: Path, write: Callable[[IO[str]], Any]) -> None:
    """Write through a temporary file in the same folder, then rename it into place."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        Path(tmp).replace(target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _export_scope(
    rg: Recollect, scope_id: str, path: Path, page_size: int
) -> tuple[dict[str, Any], str]:
    """Export one scope to ``path`` (atomically); its manifest entry and embedding model."""
    lines = rg.export(scope_id, page_size=page_size)
    header = next(lines)
    counts = {"node": 0, "rel": 0}

    def write(f: IO[str]) -> None:
        f.write(json.dumps(header) + "\n")
        for line in lines:
            f.write(json.dumps(line) + "\n")
            counts[line["kind"]] += 1

    _write_atomic(path, write)
    entry = {
        "scope_id": scope_id,
        "file": path.name,
        "nodes": counts["node"],
        "rels": counts["rel"],
        "sha256": _sha256(path),
    }
    return entry, str(header["embedding_model"])


@click.command("backup")
@click.option(
    "--scope", "scopes", multiple=True, required=True, help="A scope to back up (repeatable)."
)
@click.option("--out", required=True, metavar="DIR", help="The backup folder (created).")
@click.option("--page-size", type=int, default=500, show_default=True, help="Nodes per read.")
@json_option
@handle_errors
def backup_cmd(scopes: tuple[str, ...], out: str, page_size: int, as_json: bool) -> None:
    """Back up scopes into DIR: one export file each and a manifest with their checksums.

    Each file is the `export` of its scope, written atomically; the manifest is written last,
    so a folder with a manifest holds every file it names.

    \b
    Example:
      recollect-graph backup --scope app --scope ops --out backups/2026-03-02
    """
    if page_size < 1:
        raise InvalidInput("--page-size must be at least 1")
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InvalidInput(f"cannot create {out}: {e.strerror or e}") from e
    entries: list[dict[str, Any]] = []
    model: str | None = None
    with open_rg(True) as rg:
        for scope_id in dict.fromkeys(scopes):
            entry, model = _export_scope(rg, scope_id, folder / _file_name(scope_id), page_size)
            entries.append(entry)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": datetime.now(UTC).isoformat(),
        "embedding_model": model,
        "scopes": entries,
    }
    _write_atomic(folder / MANIFEST, lambda f: f.write(json.dumps(manifest, indent=2) + "\n"))
    if as_json:
        emit_json({"out": str(folder), **manifest})
    else:
        for row in entries:
            click.echo(f"{row['scope_id']}: {row['nodes']} nodes, {row['rels']} relationships")
        click.echo(f"backed up {len(entries)} scope(s) to {folder}")


def _manifest(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except OSError as e:
        raise InvalidInput(f"no backup manifest in {folder}: {e.strerror or e}") from e
    except ValueError as e:
        raise InvalidInput(f"{folder / MANIFEST} is not valid JSON: {e}") from e
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput(f"{folder / MANIFEST} is not a recollect-graph backup manifest")
    if data.get("version") != VERSION:
        raise InvalidInput(
            f"backup format version {data.get('version')!r} is not supported (this reads 1)"
        )
    return data


@click.command("restore-backup")
@click.argument("folder")
@click.option("--scope", "scopes", multiple=True, help="Restore only this scope (repeatable).")
@click.option("--into", help="Restore the (one) scope into this scope instead, ids remapped.")
@click.option(
    "--batch-size", type=int, default=500, show_default=True, help="Lines per transaction."
)
@json_option
@handle_errors
def restore_cmd(
    folder: str, scopes: tuple[str, ...], into: str | None, batch_size: int, as_json: bool
) -> None:
    """Restore a backup FOLDER made by `backup` (every scope in it, or those given).

    Every file is checked first (present, checksum, format, embedding model and vector size):
    if any is refused, nothing is written. Re-running a restore changes nothing.

    \b
    Example:
      recollect-graph restore-backup backups/2026-03-02 --scope app
    """
    if batch_size < 1:
        raise InvalidInput("--batch-size must be at least 1")
    root = Path(folder)
    manifest = _manifest(root)
    listed = {str(e["scope_id"]): e for e in manifest.get("scopes", [])}
    wanted = list(dict.fromkeys(scopes)) or list(listed)
    unknown = [s for s in wanted if s not in listed]
    if unknown:
        raise InvalidInput(f"the backup holds no scope {unknown[0]!r}")
    if into is not None and len(wanted) != 1:
        raise InvalidInput("--into needs exactly one scope (pass --scope)")
    for s in wanted:
        path = root / Path(str(listed[s]["file"])).name
        if not path.is_file():
            raise InvalidInput(f"{path} is missing from the backup")
        if _sha256(path) != listed[s]["sha256"]:
            raise InvalidInput(f"{path} does not match its checksum in the manifest")
    results = []
    with open_rg(True) as rg:
        for s in wanted:  # the header of each, before anything is written
            with (root / Path(str(listed[s]["file"])).name).open(encoding="utf-8") as f:
                rg.import_([f.readline()], scope_id=into or s)
        for s in wanted:
            with (root / Path(str(listed[s]["file"])).name).open(encoding="utf-8") as f:
                results.append(rg.import_(f, scope_id=into or s, batch_size=batch_size))
    if as_json:
        emit_json([r.model_dump(mode="json") for r in results])
    else:
        for r in results:
            click.echo(
                f"restored {r.nodes} nodes and {r.rels} relationships into "
                f"{r.scope_id!r} (ids {r.ids})"
            )


COMMANDS = (backup_cmd, restore_cmd)
