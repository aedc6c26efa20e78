"""``check_invariants``: clean after real use, and it finds each kind of damage with its ids."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from recollect_graph import Recollect, Settings
from recollect_graph.cli.main import cli
from recollect_graph.services.admin.invariants import CHECKS
from tests.helpers import data
from tests.reliability.support import violations


@pytest.fixture
def two_scopes(rg: Recollect) -> Iterator[tuple[str, str]]:
    """Two fresh scopes, removed afterwards (damage made by hand must not outlive the test)."""
    a, b = (f"inv-{uuid.uuid4().hex[:10]}" for _ in range(2))
    yield a, b
    rg.query("MATCH (n) WHERE n.scope_id IN $s DETACH DELETE n", {"s": [a, b]}, write=True)


def _uid() -> str:
    return str(uuid.uuid4())


def test_a_scope_used_through_the_api_is_clean(rg: Recollect, two_scopes: tuple[str, str]) -> None:
    s, _ = two_scopes
    old = rg.remember("The frontend build uses webpack", scope_id=s, owner_id="kai")
    items = [
        {"content": f"Service {i} stores its jobs in Postgres", "tags": ["db"]} for i in range(6)
    ]
    many = rg.remember_many(items, scope_id=s, owner_id="kai")
    rg.connect(many[0].id, many[1].id, "supports", scope_id=s)
    rg.supersede(s, "frontend build", "uses", "vite")
    rg.remember("Ana owns billing", scope_id=s, owner_id="ana")
    rg.remember("Bo owns billing now", scope_id=s, owner_id="bo", on_conflict="record")
    turns = [{"id": f"t{i}", "speaker": "Ana" if i % 2 else "assistant", "text": f"step {i}"}
             for i in range(5)]  # fmt: skip
    rg.sessions.add_turns("main", turns, scope_id=s, owner_id="kai", cwd="/src/app")
    rg.sessions.add_turns("sub", turns[:2], scope_id=s, owner_id="kai", parent_session_id="main")
    mem = rg.memories.in_scope(s, "kai")
    mem.insert([{"title": "Queue choice", "content": "Jobs go through the Postgres queue"}])
    rg.forget(many[3].id, scope_id=s)
    rg.undo(rg.operations(s, limit=1)[0].id, scope_id=s)
    rg.forget(many[4].id, scope_id=s)
    mem.sweep(min_score=0.0)
    mem.feedback([{"id": many[2].id, "useful": True}])
    assert rg.get(old.id, scope_id=s).retired_at is not None
    found = rg.check_invariants(s)
    assert list(found) == list(CHECKS)
    assert {k: v for k, v in found.items() if v} == {}
    forked = rg.query(
        "MATCH (:Session {scope_id: $s, id: 'sub'})-[r:FORKED_FROM]->(:Session {scope_id: $s}) "
        "RETURN count(r) AS n",
        {"s": s},
    )
    assert forked == [{"n": 1}]


def test_each_kind_of_damage_is_found_with_its_ids(
    rg: Recollect, two_scopes: tuple[str, str]
) -> None:
    s, other = two_scopes
    good = rg.remember_many(
        [{"content": "Redis caches sessions"}, {"content": "Kafka carries the events"}],
        scope_id=s,
        owner_id="kai",
    )
    foreign = rg.remember("Grafana shows the dashboards", scope_id=other, owner_id="kai")
    rg.sessions.add_turns("c1", [{"id": "a", "speaker": "Ana", "text": "hi"}], scope_id=s,
                          owner_id="kai", index=False)  # fmt: skip
    rg.sessions.add_turns("c2", [{"id": "a", "speaker": "Ana", "text": "hello"}], scope_id=s,
                          owner_id="kai", index=False)  # fmt: skip
    rg.sessions.add_turns("c3", [{"id": "a", "speaker": "Bo", "text": "yo"}], scope_id=other,
                          owner_id="kai", index=False)  # fmt: skip
    ids = {k: _uid() for k in ("bare", "model", "claim", "turn", "dup1", "dup2", "sugg", "chunk",
                               "rel", "retired", "entity")}  # fmt: skip
    vec = [0.05] * rg.embedder.dimension
    damage = """
    MATCH (g1:Entry {id: $g1}), (g2:Entry {id: $g2}), (f:Entry {id: $f})
    MATCH (:Session {scope_id: $s, id: 'c1'})-[:HAS_TURN]->(t1)
    MATCH (:Session {scope_id: $s, id: 'c2'})-[:HAS_TURN]->(t2)
    MATCH (s3:Session {scope_id: $o, id: 'c3'}), (s1:Session {scope_id: $s, id: 'c1'})
    CREATE (:Entry {id: $ids.bare, scope_id: $s, content: 'no owner, no vector'})
    CREATE (:Entry {id: $ids.model, scope_id: $s, owner_id: 'kai', content: 'old model',
                    embedding: $vec, embedding_model: 'some-other-model'})
    CREATE (:Claim {id: $ids.claim, scope_id: $s, entry_id: 'gone'})
    CREATE (:Entry:Turn {id: $ids.turn, scope_id: $s, owner_id: 'kai', content: 'lost turn',
                         embedding: $vec, embedding_model: $model, session_id: 'nowhere'})
    CREATE (t1)-[:NEXT]->(t2)
    CREATE (g1)-[:RELATED_TO]->(f), (f)-[:CONTRADICTS]->(g2), (g2)-[:SUPERSEDES]->(f)
    CREATE (s1)-[:FORKED_FROM]->(s3)
    CREATE (g1)-[:SUPPORTS]->(g2), (g1)-[:SUPPORTS]->(g2)
    CREATE (:Entry {id: $ids.dup1, scope_id: $s, owner_id: 'kai', content: 'one',
                    source_id: 'src-1', embedding: $vec, embedding_model: $model})
    CREATE (:Entry {id: $ids.dup2, scope_id: $s, owner_id: 'kai', content: 'two',
                    source_id: 'src-1', embedding: $vec, embedding_model: $model})
    CREATE (:LinkSuggestion {id: $ids.sugg, scope_id: $s, status: 'pending', from_id: $g1,
                             to_id: 'gone'})
    CREATE (:Chunk {id: $ids.chunk, scope_id: $s, text: 'orphan chunk'})
    CREATE (:Relation {id: $ids.rel, scope_id: $s})
    CREATE (:Entry {id: $ids.retired, scope_id: $s, owner_id: 'kai', content: 'retired',
                    embedding: $vec, embedding_model: $model, retired_by: 'gone'})
    CREATE (:Entity {id: $ids.entity, scope_id: $s, name: 'nobody'})
    """
    rg.query(
        damage,
        {"g1": good[0].id, "g2": good[1].id, "f": foreign.id, "s": s, "o": other, "ids": ids,
         "vec": vec, "model": rg.embedder.model_id},
        write=True,
    )  # fmt: skip
    found = violations(rg, s)

    def ids_of(check: str, key: str = "id") -> set[str]:
        return {r[key] for r in found.get(check, [])}

    assert ids_of("entry_fields") == {ids["bare"]}
    assert found["entry_fields"][0]["problems"] == ["no owner_id", "no embedding"]
    assert ids_of("vectors") == {ids["model"]}
    assert ids_of("claims") == {ids["claim"]}
    assert ids_of("entities") == {ids["entity"]}
    assert ids_of("turns") == {ids["turn"]}
    assert [r["from_id"] for r in found["next_links"]] != []
    assert all("across sessions" in r["problems"] for r in found["next_links"])
    assert {r["type"] for r in found["cross_scope_edges"]} == {
        "RELATED_TO", "CONTRADICTS", "SUPERSEDES", "FORKED_FROM"
    }  # fmt: skip
    assert [(r["type"], r["count"]) for r in found["duplicate_edges"]] == [("SUPPORTS", 2)]
    assert [sorted(r["ids"]) for r in found["duplicate_source_ids"]] == [
        sorted([ids["dup1"], ids["dup2"]])
    ]
    assert ids_of("link_suggestions") == {ids["sugg"]}
    assert ids_of("superseded") == {ids["retired"]}
    assert ids_of("chunks") == {ids["chunk"]}
    assert ids_of("relations") == {ids["rel"]}
    assert "unscoped_nodes" not in found  # only over the whole graph
    # the other scope sees the edges that cross into it, and nothing of the first scope's damage
    other_found = violations(rg, other)
    assert set(other_found) == {"cross_scope_edges"}
    assert len(other_found["cross_scope_edges"]) == 4


def test_unscoped_nodes_are_found_over_the_whole_graph(rg: Recollect) -> None:
    nid = _uid()
    rg.query("CREATE (:Entity {id: $id, name: 'unscoped'})", {"id": nid}, write=True)
    try:
        found = rg.check_invariants(None)
        assert nid in {r["id"] for r in found["unscoped_nodes"]}
    finally:
        rg.query("MATCH (n:Entity {id: $id}) DETACH DELETE n", {"id": nid}, write=True)


def test_the_cli_lists_violations_and_exits_1(
    rg: Recollect, two_scopes: tuple[str, str], cli_env: Settings
) -> None:
    s, _ = two_scopes
    rg.remember("Nginx fronts the API", scope_id=s, owner_id="kai")
    runner = CliRunner()
    ok = runner.invoke(cli, ["invariants", "--scope", s, "--json"])
    assert ok.exit_code == 0, ok.output
    assert data(ok) == {name: [] for name in CHECKS}
    rg.query("CREATE (:Chunk {id: $id, scope_id: $s})", {"id": _uid(), "s": s}, write=True)
    bad = runner.invoke(cli, ["invariants", "--scope", s])
    assert bad.exit_code == 1
    assert "[FAIL] chunks" in bad.stdout and "Traceback" not in bad.output


# -- what forget and undo keep whole (once gaps the checker found) ------------------------------


def test_forgetting_a_superseding_entry_brings_back_what_it_superseded(
    rg: Recollect, two_scopes: tuple[str, str]
) -> None:
    s, _ = two_scopes
    old = rg.remember("The frontend build uses webpack", scope_id=s, owner_id="kai")
    new = rg.supersede(s, "frontend build", "uses", "vite").new_entry_id
    assert rg.get(old.id, scope_id=s).retired_at is not None
    rg.forget(new, scope_id=s)
    back = rg.get(old.id, scope_id=s)
    assert (back.retired_at, back.valid_to, back.confidence) == (None, None, old.confidence)
    assert violations(rg, s) == {}
    # undo of the forget restores the supersession: retired again, by the entry, with its edge
    rg.undo(rg.operations(s, limit=1)[0].id, scope_id=s)
    again = rg.get(old.id, scope_id=s)
    assert again.retired_at is not None and again.confidence < old.confidence
    edges = rg.query(
        "MATCH (:Entry {id: $new})-[r:SUPERSEDES]->(o:Entry {id: $old}) "
        "RETURN count(r) AS n, o.retired_by AS by",
        {"new": new, "old": old.id},
    )
    assert edges == [{"n": 1, "by": new}]
    assert violations(rg, s) == {}


def test_forgetting_an_entry_drops_its_pending_suggestions(
    rg: Recollect, two_scopes: tuple[str, str]
) -> None:
    s, _ = two_scopes
    mem = rg.memories.in_scope(s, "kai")
    mem.insert(
        [
            {"title": f"Queue {i}", "content": f"Service {i} queues jobs in Postgres"}
            for i in range(3)
        ],
        force=True,
    )
    mem.sweep(min_score=0.0)
    pending = mem.pending_suggestions()["suggestions"]
    assert pending
    gone = pending[0]["from_id"]
    rg.forget(gone, scope_id=s)
    left = mem.pending_suggestions()["suggestions"]
    assert all(gone not in (p["from_id"], p["to_id"]) for p in left)
    assert violations(rg, s) == {}


def test_forgetting_and_restoring_a_turn_keeps_the_session_whole(
    rg: Recollect, two_scopes: tuple[str, str]
) -> None:
    s, _ = two_scopes
    turns = [{"id": f"t{i}", "speaker": "Ana", "text": f"point {i}"} for i in range(3)]
    added = rg.sessions.add_turns("chat", turns, scope_id=s, owner_id="kai", index=False)

    def texts() -> list[str]:
        return [t["text"] for t in rg.sessions.turns("chat", scope_id=s)]

    def count() -> int:
        q = "MATCH (x:Session {scope_id: $s, id: 'chat'}) RETURN x.turn_count AS n"
        return int(rg.query(q, {"s": s})[0]["n"])

    rg.forget(added.turn_ids[1], scope_id=s)
    assert (texts(), count()) == (["point 0", "point 2"], 2)
    assert violations(rg, s) == {}
    rg.undo(rg.operations(s, limit=1)[0].id, scope_id=s)
    assert (texts(), count()) == (["point 0", "point 1", "point 2"], 3)
    assert violations(rg, s) == {}
    # the last turn forgotten, a new one added, then the forget undone: no seq is given twice
    rg.forget(added.turn_ids[2], scope_id=s)
    more = [{"id": "t3", "speaker": "Ana", "text": "point 3"}]
    rg.sessions.add_turns("chat", more, scope_id=s, owner_id="kai", index=False)
    rg.undo(rg.operations(s, limit=1)[0].id, scope_id=s)
    assert (texts(), count()) == (["point 0", "point 1", "point 2", "point 3"], 4)
    assert violations(rg, s) == {}
