"""Export and import: a round trip into another scope, idempotence, refusals, the CLI."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput, SchemaMismatch
from tests.helpers import assert_one_line_error, data

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
IGNORED = {"id", "scope_id", "entry_id", "entity_id", "from_id", "to_id", "a", "b"}


def build_scope(rg: Recollect, scope_id: str) -> None:
    """Entries with claims and edges, a session with turns and a fork of it."""
    a = rg.remember(
        "We moved the build from webpack to vite.", scope_id=scope_id, owner_id="kai", tags=["b"]
    )
    b = rg.remember("Kai no longer owns billing.", scope_id=scope_id, owner_id="kai")
    c = rg.remember(
        "The deploy pipeline runs on GitHub Actions.", scope_id=scope_id, owner_id="kai"
    )
    rg.connect(a.id, b.id, "related_to", reason="same week", scope_id=scope_id)
    rg.connect(c.id, a.id, "depends_on", scope_id=scope_id)
    turns = [
        {"id": f"t{i}", "speaker": who, "text": text, "at": T0 + timedelta(minutes=i)}
        for i, (who, text) in enumerate(
            [
                ("user", "The CI cache keeps missing on the vite build, can you look?"),
                ("assistant", "The cache key includes the lockfile hash; pnpm rewrote it."),
                ("user", "Pin pnpm to 9.1 in ci.yml then."),
            ]
        )
    ]
    rg.sessions.add_turns("conv-1", turns, scope_id=scope_id, owner_id="kai", cwd="/src/app")
    fork = [{"id": "f0", "speaker": "assistant", "text": "Sub-agent: checked ci.yml cache keys."}]
    rg.sessions.add_turns(
        "conv-1-fork", fork, scope_id=scope_id, owner_id="kai", parent_session_id="conv-1"
    )


def snapshot(rg: Recollect, scope_id: str) -> dict[str, Any]:
    """Counts per label and type, and properties (minus ids and scope) as comparable values.

    The access history (AccessEvent, ACCESSED) is left out: reading is not a change of state; so
    is the import's own Operation (it makes the import undoable, docs/undo.md).
    """
    labels = rg.query(
        "MATCH (n {scope_id: $s}) WHERE NOT n:AccessEvent AND NOT n:Operation "
        "UNWIND labels(n) AS l RETURN l, count(*) AS n ORDER BY l",
        {"s": scope_id},
    )
    types = rg.query(
        "MATCH (a {scope_id: $s})-[r]->(b {scope_id: $s}) WHERE NOT a:AccessEvent AND NOT a:Operation AND NOT b:Operation "
        "RETURN type(r) AS t, count(*) AS n "
        "ORDER BY t",
        {"s": scope_id},
    )
    nodes = rg.query(
        "MATCH (n {scope_id: $s}) WHERE NOT n:AccessEvent AND NOT n:Operation "
        "RETURN labels(n) AS labels, properties(n) AS p",
        {"s": scope_id},
    )
    rels = rg.query(
        "MATCH (a {scope_id: $s})-[r]->(b {scope_id: $s}) WHERE NOT a:AccessEvent AND NOT a:Operation AND NOT b:Operation "
        "RETURN labels(a) AS la, labels(b) AS lb, type(r) AS t, properties(r) AS p",
        {"s": scope_id},
    )

    def clean(p: dict[str, Any]) -> str:
        return json.dumps(
            {k: v for k, v in p.items() if k not in IGNORED}, sort_keys=True, default=str
        )

    return {
        "labels": labels,
        "types": types,
        "nodes": sorted(json.dumps(sorted(n["labels"])) + clean(n["p"]) for n in nodes),
        "rels": sorted(
            json.dumps([sorted(r["la"]), r["t"], sorted(r["lb"])]) + clean(r["p"]) for r in rels
        ),
    }


def test_round_trip_into_a_new_scope(rg: Recollect, scope_id: str) -> None:
    build_scope(rg, scope_id)
    lines = [json.dumps(x) for x in rg.export(scope_id, page_size=3)]
    header = json.loads(lines[0])
    assert header["format"] == "recollect-graph-export" and header["version"] == 1
    assert header["embedding_model"] == rg.embedder.model_id
    assert header["dimensions"] == rg.embedder.dimension
    kinds = [json.loads(x)["kind"] for x in lines[1:]]
    assert kinds.count("node") == header["nodes"] and "rel" in kinds
    embedded = [json.loads(x) for x in lines[1:] if '"embedding"' in x]
    assert embedded and all(len(x["props"]["embedding"]) == rg.embedder.dimension for x in embedded)

    new = f"{scope_id}-copy"
    result = rg.import_(lines, scope_id=new, batch_size=4)
    assert result.ids == "remapped" and result.skipped_rels == 0
    assert result.nodes == header["nodes"]
    before, after = snapshot(rg, scope_id), snapshot(rg, new)
    assert after["labels"] == before["labels"]
    assert after["types"] == before["types"]
    assert after["nodes"] == before["nodes"]  # properties, vectors and timestamps included
    assert after["rels"] == before["rels"]
    assert (result.nodes_created, result.nodes_updated, result.nodes_unchanged) == (
        header["nodes"],
        0,
        0,
    )
    assert result.rels_created == result.rels and result.rels_unchanged == 0
    # re-import is a no-op, and says so: everything already there, nothing new
    again_report = rg.import_(lines, scope_id=new)
    assert snapshot(rg, new) == after
    assert (again_report.nodes, again_report.nodes_created, again_report.nodes_updated) == (
        header["nodes"],
        0,
        0,
    )
    assert again_report.nodes_unchanged == header["nodes"]
    assert again_report.rels_unchanged == again_report.rels == result.rels
    assert again_report.rels_created == again_report.rels_updated == 0
    # ids were remapped: the original scope is untouched and the ids differ
    old_ids = {
        r["id"]
        for r in rg.query("MATCH (e:Entry {scope_id: $s}) RETURN e.id AS id", {"s": scope_id})
    }
    new_ids = {
        r["id"] for r in rg.query("MATCH (e:Entry {scope_id: $s}) RETURN e.id AS id", {"s": new})
    }
    assert len(new_ids) == len(old_ids) and not old_ids & new_ids
    # the copy works: search finds, the fork chain resolves, the claims point at their entries
    assert rg.search("vite build", scope_id=new)
    assert rg.fork_parent("conv-1-fork", scope_id=new).chain == ["conv-1"]
    assert not rg.query(
        "MATCH (e:Entry)-[:ASSERTS]->(c:Claim {scope_id: $s}) WHERE c.entry_id <> e.id RETURN c.id",
        {"s": new},
    )
    # the new scope's turn ids are the ones add_turns derives: re-adding adds nothing
    again = rg.sessions.add_turns(
        "conv-1-fork",
        [{"id": "f0", "speaker": "assistant", "text": "Sub-agent: checked ci.yml cache keys."}],
        scope_id=new,
        owner_id="kai",
        parent_session_id="conv-1",
    )
    assert again.added == 0
    same = rg.remember("Kai no longer owns billing.", scope_id=new, owner_id="kai")
    assert same.id in new_ids
    again_snap = snapshot(rg, new)
    assert again_snap["labels"] == before["labels"] and again_snap["types"] == before["types"]
    assert not {k: v for k, v in rg.check_invariants(new).items() if v}

    # and into the exported scope itself (ids kept)
    orig = snapshot(rg, scope_id)
    res = rg.import_(lines)
    assert res.ids == "kept" and snapshot(rg, scope_id) == orig


def test_import_refuses_before_writing(rg: Recollect, scope_id: str) -> None:
    rg.remember("Vite builds the app.", scope_id=scope_id, owner_id="kai")
    lines = [json.dumps(x) for x in rg.export(scope_id)]
    header = json.loads(lines[0])
    new = f"{scope_id}-x"

    def count() -> int:
        return int(rg.query("MATCH (n {scope_id: $s}) RETURN count(n) AS n", {"s": new})[0]["n"])

    with pytest.raises(InvalidInput, match="not a recollect-graph export"):
        rg.import_([json.dumps({**header, "format": "other"}), *lines[1:]], scope_id=new)
    with pytest.raises(InvalidInput, match="version 2"):
        rg.import_([json.dumps({**header, "version": 2}), *lines[1:]], scope_id=new)
    with pytest.raises(SchemaMismatch, match="other-model"):
        rg.import_([json.dumps({**header, "embedding_model": "other-model"}), *lines[1:]])
    with pytest.raises(SchemaMismatch, match="7 dims"):
        rg.import_([json.dumps({**header, "dimensions": 7}), *lines[1:]], scope_id=new)
    bad = json.loads(lines[1])
    bad["labels"] = ["Entry", "Admin"]
    with pytest.raises(InvalidInput, match="Admin"):
        rg.import_([lines[0], json.dumps(bad)], scope_id=new)
    rel = {"kind": "rel", "type": "DETACH DELETE", "start": {}, "end": {}, "props": {}}
    with pytest.raises(InvalidInput, match="DETACH DELETE"):
        rg.import_([lines[0], json.dumps(rel)], scope_id=new)
    # keeping ids in another scope would take over this scope's nodes: refused
    with pytest.raises(InvalidInput, match="another scope"):
        rg.import_(lines, scope_id=new, keep_ids=True)
    assert count() == 0


def test_an_id_held_elsewhere_after_fresh_batches_stops_the_import_there(
    rg: Recollect, scope_id: str
) -> None:
    # batches whose ids are found nowhere are created without a lookup; an id another scope
    # holds, met after them, still refuses its batch with the scope named, and only that batch
    rg.remember("Vite builds the app.", scope_id=scope_id, owner_id="kai")
    lines = [json.loads(x) for x in map(json.dumps, rg.export(scope_id))]
    held = next(x for x in lines[1:] if x.get("kind") == "node" and "Entry" in x["labels"])
    before = rg.query(
        "MATCH (e:Entry {id: $id}) RETURN properties(e) AS p", {"id": held["props"]["id"]}
    )

    def copy(n: int) -> dict[str, Any]:
        props = {**held["props"], "id": f"{scope_id}-fresh-{n}", "content": f"Fresh note {n}."}
        return {**held, "props": props}

    new = f"{scope_id}-y"
    export = [lines[0], copy(1), copy(2), copy(3), held, copy(4)]
    with pytest.raises(InvalidInput, match=f"another scope.*{scope_id}"):
        rg.import_([json.dumps(x) for x in export], scope_id=new, keep_ids=True, batch_size=1)
    ids = rg.query("MATCH (e:Entry {scope_id: $s}) RETURN e.id AS id ORDER BY id", {"s": new})
    assert [r["id"] for r in ids] == [f"{scope_id}-fresh-{n}" for n in (1, 2, 3)]
    after = rg.query(
        "MATCH (e:Entry {id: $id}) RETURN properties(e) AS p", {"id": held["props"]["id"]}
    )
    assert after == before  # the other scope's node is untouched
    # what was committed is one operation, and undoing it leaves the new scope empty
    [op] = rg.operations(new)
    rg.undo(op.id, scope_id=new)
    assert rg.query("MATCH (n:Entry {scope_id: $s}) RETURN count(n) AS n", {"s": new})[0]["n"] == 0


def test_export_unknown_scope_is_an_error(rg: Recollect, scope_id: str) -> None:
    with pytest.raises(InvalidInput, match="no nodes"):
        list(rg.export(scope_id))


def test_cli_export_and_import(run: Any, scope_id: str, tmp_path: Path) -> None:
    run("remember", "--scope", scope_id, "We deploy on Fridays.")
    out = tmp_path / "s.jsonl"
    r = run("export", "--scope", scope_id, "--out", str(out), "--json")
    assert data(r)["lines"] == len(out.read_text().splitlines())
    piped = run("export", "--scope", scope_id)
    assert json.loads(piped.stdout.splitlines()[0])["scope_id"] == scope_id
    r = run("import", str(out), "--scope", f"{scope_id}-cli", "--json")
    assert data(r)["nodes"] >= 1 and data(r)["ids"] == "remapped"
    r = run("import", str(out), "--scope", f"{scope_id}-cli")
    assert "imported" in r.stdout
    nodes = data(run("import", str(out), "--scope", f"{scope_id}-cli", "--json"))
    assert nodes["nodes_created"] == 0 and nodes["nodes_unchanged"] == nodes["nodes"] >= 1
    assert f"(0 new, 0 changed, {nodes['nodes']} already there)" in r.stdout
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "nope"}\n')
    assert_one_line_error(run("import", str(bad), ok=False), "not a recollect-graph export")
