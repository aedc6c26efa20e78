"""Backup and restore under load: export a scope while another scope is being written.

A background thread keeps remembering into scope A while scope B (entries, claims, edges, a
session with turns and a fork) is exported, restored into a fresh scope, wiped and restored into
itself. The restored graph equals the exported one (every node and relationship with its
properties, vectors and timestamps; ids aside where they are remapped; the access history left
out, as reading is not a change of state), scope A lost none of its acknowledged writes, and the
invariants hold everywhere. A file whose header names another embedding model is refused before
anything is written, by the API and by the CLI.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from recollect_graph import Recollect, Settings
from recollect_graph.cli.backup_cmd import COMMANDS as BACKUP_COMMANDS
from recollect_graph.cli.main import cli
from recollect_graph.errors import SchemaMismatch
from tests.integration.test_transfer import build_scope, snapshot
from tests.reliability.support import violations


class Writer(threading.Thread):
    """Remembers numbered facts into ``scope`` until stopped; counts the acknowledged ones."""

    def __init__(self, rg: Recollect, scope: str) -> None:
        super().__init__(daemon=True)
        self.rg, self.scope = rg, scope
        self.acked = 0
        self.errors: list[str] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.rg.remember(
                    f"Load fact {self.acked}: worker queue {self.acked % 7} drained",
                    scope_id=self.scope,
                    owner_id="load",
                    source_id=f"load-{self.acked}",
                )
                self.acked += 1
            except Exception as e:  # a failure is a finding: the test asserts there is none
                self.errors.append(f"{type(e).__name__}: {e}")
                return


def _nodes(rg: Recollect, scope: str) -> int:
    return int(rg.query("MATCH (n {scope_id: $s}) RETURN count(n) AS n", {"s": scope})[0]["n"])


def _exact(rg: Recollect, scope: str) -> list[str]:
    """Every node and relationship of a scope with all its properties, ids included."""
    nodes = rg.query(
        "MATCH (n {scope_id: $s}) WHERE NOT n:AccessEvent AND NOT n:Operation RETURN labels(n) AS l, properties(n) AS p",
        {"s": scope},
    )
    rels = rg.query(
        "MATCH (a {scope_id: $s})-[r]->(b {scope_id: $s}) WHERE NOT a:AccessEvent AND NOT a:Operation AND NOT b:Operation "
        "RETURN a.id AS a, type(r) AS t, b.id AS b, properties(r) AS p",
        {"s": scope},
    )
    return sorted(json.dumps(dict(x), sort_keys=True, default=str) for x in nodes + rels)


def test_backup_and_restore_while_another_scope_is_written(
    rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    a, b = f"{scope_id}-load", scope_id
    build_scope(rg, b)
    writer = Writer(rg, a)
    writer.start()
    try:
        while writer.acked < 2 and writer.is_alive():  # the load is on before the export starts
            time.sleep(0.05)
        at_start = writer.acked
        lines = [json.dumps(x) for x in rg.export(b, page_size=3)]
        backup = tmp_path / "b.jsonl"
        backup.write_text("\n".join(lines) + "\n")
        exported = snapshot(rg, b)
        exact = _exact(rg, b)

        fresh = f"{scope_id}-restored"
        with backup.open() as f:
            res = rg.import_(f, scope_id=fresh, batch_size=4)
        assert res.ids == "remapped" and res.skipped_rels == 0
        assert snapshot(rg, fresh) == exported

        rg.query("MATCH (n {scope_id: $s}) DETACH DELETE n", {"s": b}, write=True)  # lost...
        assert _nodes(rg, b) == 0
        with backup.open() as f:
            res = rg.import_(f)  # ...and restored from the backup, ids kept
        assert res.ids == "kept"
        assert _exact(rg, b) == exact
        assert snapshot(rg, b) == exported
        during = writer.acked - at_start
    finally:
        writer.stop.set()
        writer.join(timeout=120)
    assert writer.errors == []
    assert during > 0  # the load ran through the backup and the restores
    assert _nodes(rg, a) >= writer.acked
    entries = rg.query("MATCH (e:Entry {scope_id: $s}) RETURN count(e) AS n", {"s": a})
    assert int(entries[0]["n"]) == writer.acked  # no acknowledged write lost, none doubled
    for s in (a, b, fresh):
        assert violations(rg, s) == {}


def test_a_backup_of_another_embedding_model_is_refused_and_writes_nothing(
    rg: Recollect, scope_id: str, tmp_path: Path, cli_env: Settings
) -> None:
    build_scope(rg, scope_id)
    lines = [json.dumps(x) for x in rg.export(scope_id)]
    header: dict[str, Any] = json.loads(lines[0])
    header["embedding_model"] = "sentence-transformers/other-model"
    other = [json.dumps(header), *lines[1:]]
    target = f"{scope_id}-other"
    before = snapshot(rg, scope_id)
    with pytest.raises(SchemaMismatch) as e:
        rg.import_(other, scope_id=target)
    msg = str(e.value)
    assert "sentence-transformers/other-model" in msg and rg.embedder.model_id in msg
    with pytest.raises(SchemaMismatch):
        rg.import_(other)  # into the exported scope itself: refused too
    path = tmp_path / "other.jsonl"
    path.write_text("\n".join(other) + "\n")
    r = CliRunner().invoke(cli, ["import", str(path), "--scope", target])
    assert r.exit_code == 1
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("Error: ") and "other-model" in err[0]
    assert "Traceback" not in r.output
    assert _nodes(rg, target) == 0
    assert snapshot(rg, scope_id) == before


def _cli() -> click.Group:
    """The backup commands in a group of their own (registered in ``cli/main.py`` by the lead)."""
    group = click.Group("recollect-graph")
    for cmd in BACKUP_COMMANDS:
        group.add_command(cmd)
    return group


def test_backup_and_restore_commands(
    rg: Recollect, scope_id: str, tmp_path: Path, cli_env: Settings
) -> None:
    a, b, c = f"{scope_id}-load", scope_id, f"{scope_id}/other scope"
    build_scope(rg, b)
    rg.remember("The other scope keeps its own notes.", scope_id=c, owner_id="kai")
    runner, folder = CliRunner(), tmp_path / "backup"
    writer = Writer(rg, a)
    writer.start()
    try:
        r = runner.invoke(_cli(), ["backup", "--scope", b, "--scope", c, "--out", str(folder)])
        assert r.exit_code == 0, (r.stdout, r.stderr)
        manifest = json.loads((folder / "manifest.json").read_text())
        assert [s["scope_id"] for s in manifest["scopes"]] == [b, c]
        assert manifest["embedding_model"] == rg.embedder.model_id
        exact_b, exact_c, snap_b = _exact(rg, b), _exact(rg, c), snapshot(rg, b)

        rg.query("MATCH (n) WHERE n.scope_id IN $s DETACH DELETE n", {"s": [b, c]}, write=True)
        r = runner.invoke(_cli(), ["restore-backup", str(folder), "--json"])
        assert r.exit_code == 0, (r.stdout, r.stderr)
        assert [x["ids"] for x in json.loads(r.stdout)] == ["kept", "kept"]
        assert (_exact(rg, b), _exact(rg, c)) == (exact_b, exact_c)
        r = runner.invoke(_cli(), ["restore-backup", str(folder)])  # again: nothing changes
        assert r.exit_code == 0 and (_exact(rg, b), _exact(rg, c)) == (exact_b, exact_c)

        fresh = f"{scope_id}-fresh"
        r = runner.invoke(_cli(), ["restore-backup", str(folder), "--scope", b, "--into", fresh])
        assert r.exit_code == 0, (r.stdout, r.stderr)
        assert snapshot(rg, fresh) == snap_b
    finally:
        writer.stop.set()
        writer.join(timeout=120)
    assert writer.errors == []

    # refused before anything is written: a damaged file, or a file of another model
    target = f"{scope_id}-never"
    files = {s["scope_id"]: folder / s["file"] for s in manifest["scopes"]}
    original = files[c].read_text()
    files[c].write_text(original.replace("own notes", "0wn notes"))
    r = runner.invoke(_cli(), ["restore-backup", str(folder), "--scope", b, "--scope", c])
    assert r.exit_code == 1 and "checksum" in r.stderr
    header, *rest = original.splitlines()
    other = json.dumps({**json.loads(header), "embedding_model": "other-model"})
    files[c].write_text("\n".join([other, *rest]) + "\n")
    for s in manifest["scopes"]:  # a manifest that matches the files: the model is what is wrong
        s["sha256"] = hashlib.sha256(files[s["scope_id"]].read_bytes()).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))
    rg.query("MATCH (n) WHERE n.scope_id IN $s DETACH DELETE n", {"s": [b]}, write=True)
    r = runner.invoke(_cli(), ["restore-backup", str(folder)])
    assert r.exit_code == 1 and "other-model" in r.stderr and len(r.stderr.splitlines()) == 1
    assert _nodes(rg, b) == 0  # the good file listed first was not restored either
    r = runner.invoke(_cli(), ["restore-backup", str(folder), "--scope", c, "--into", target])
    assert r.exit_code == 1 and _nodes(rg, target) == 0
    for s in (a, c, fresh):
        assert violations(rg, s) == {}
