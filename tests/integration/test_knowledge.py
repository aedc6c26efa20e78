"""The knowledge API: remember, remember_many, forget, connect, recent, get_many, outcome, undo."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import EntryNotFound, InvalidInput
from recollect_graph.redaction import marker


def _count(rg: Recollect, scope_id: str) -> int:
    return int(
        rg.query("MATCH (e:Entry {scope_id: $s}) RETURN count(e) AS n", {"s": scope_id})[0]["n"]
    )


def _edges(rg: Recollect, scope_id: str) -> int:
    return int(
        rg.query(
            "MATCH (a:Entry {scope_id: $s})-[r]->(:Entry) RETURN count(r) AS n", {"s": scope_id}
        )[0]["n"]
    )


def test_remember_is_searchable_when_it_returns(rg: Recollect, scope_id: str) -> None:
    e = rg.remember(
        "Postgres connection pool size is 20 in production",
        scope_id=scope_id,
        owner_id="kai",
        tags=["db", "prod"],
        summary="pool size",
        metadata={"ticket": "OPS-1"},
    )
    assert e.created and e.scope_id == scope_id and e.owner_id == "kai"
    assert e.tags == ["db", "prod"] and e.metadata == {"ticket": "OPS-1"}
    assert e.confidence_state == "active" and e.embedding_model == "all-MiniLM-L6-v2"
    stored = rg.query("MATCH (e:Entry {id: $id}) RETURN size(e.embedding) AS d", {"id": e.id})
    assert stored == [{"d": 384}]
    hits = rg.search("how big is the database pool?", scope_id=scope_id)
    assert hits[0].entry.id == e.id


def test_scope_and_owner_are_required(rg: Recollect, scope_id: str) -> None:
    for kwargs in ({"scope_id": "", "owner_id": "kai"}, {"scope_id": scope_id, "owner_id": "  "}):
        with pytest.raises(InvalidInput):
            rg.remember("x", **kwargs)
    with pytest.raises(TypeError):
        rg.remember("x", scope_id=scope_id)  # type: ignore[call-arg]
    assert _count(rg, scope_id) == 0


@pytest.mark.parametrize(
    "bad",
    [
        {"content": ""},
        {"content": "   "},
        {"content": "ok", "entry_type": "banana"},
        {"content": "ok", "confidence": 1.5},
        {"content": "ok", "source": "robot"},
        {"content": "ok", "source_type": "guessed"},
        {"content": "ok", "tags": "not-a-list"},
        {"content": "ok", "metadata": ["x"]},
        {"content": "ok", "emotional_valence": "meh"},
        {"content": "ok", "unknown_field": 1},
        {"content": "ok", "valid_from": "yesterday"},
    ],
)
def test_bad_input_is_refused_and_nothing_is_written(
    rg: Recollect, scope_id: str, bad: dict
) -> None:
    with pytest.raises(InvalidInput):
        rg.remember_many([{"content": "a good item"}, bad], scope_id=scope_id, owner_id="kai")
    assert _count(rg, scope_id) == 0


def test_same_content_twice_is_one_entry_unless_forced(rg: Recollect, scope_id: str) -> None:
    a = rg.remember("We deploy on Tuesdays", scope_id=scope_id, owner_id="kai")
    b = rg.remember("We deploy  on Tuesdays ", scope_id=scope_id, owner_id="ann")
    assert b.id == a.id and b.created is False and b.owner_id == "kai"
    assert _count(rg, scope_id) == 1
    c = rg.remember("We deploy on Tuesdays", scope_id=scope_id, owner_id="kai", force=True)
    assert c.id != a.id and _count(rg, scope_id) == 2
    other = rg.remember("We deploy on Tuesdays", scope_id=scope_id + "-other", owner_id="kai")
    assert other.id != a.id and other.created


def test_source_id_is_the_idempotency_key(rg: Recollect, scope_id: str) -> None:
    a = rg.remember("commit abc: fix login", scope_id=scope_id, owner_id="git", source_id="abc")
    b = rg.remember(
        "commit abc: fix login (reworded)", scope_id=scope_id, owner_id="git", source_id="abc"
    )
    assert a.id == b.id and not b.created and _count(rg, scope_id) == 1


def test_auto_classify_valence_and_context(rg: Recollect, scope_id: str) -> None:
    d = rg.remember(
        "Let's use Redis instead of Memcached because it has persistence",
        scope_id=scope_id,
        owner_id="kai",
        auto_classify=True,
    )
    assert d.entry_type == "decision" and d.metadata["classification_confidence"] == 1.0
    assert d.context_hints.get("os") == "linux" and "path" in d.context_hints
    p = rg.remember(
        "the app keeps crashing on startup", scope_id=scope_id, owner_id="kai", auto_classify=True
    )
    assert p.entry_type == "problem"
    n = rg.remember(
        "The deploy script lives at scripts/deploy.sh",
        scope_id=scope_id,
        owner_id="kai",
        auto_classify=True,
        context_hints={"repo": "x"},
    )
    assert n.entry_type == "note" and n.context_hints == {"repo": "x"}
    o = rg.remember(
        "deploy 42 failed",
        scope_id=scope_id,
        owner_id="ci",
        entry_type="outcome",
        metadata={"success": False},
    )
    assert o.emotional_valence == "negative"
    c = rg.remember(
        "prod database down", scope_id=scope_id, owner_id="ci", metadata={"critical": True}
    )
    assert c.emotional_valence == "critical"
    g = rg.remember(
        "release went out",
        scope_id=scope_id,
        owner_id="ci",
        entry_type="outcome",
        metadata={"success": True},
        emotional_valence="neutral",
    )
    assert g.emotional_valence == "neutral"


def test_schema_fit_adjusts_half_life(rg: Recollect, scope_id: str) -> None:
    first = rg.remember(
        "kubernetes pod restarts in staging", scope_id=scope_id, owner_id="k", tags=["k8s"]
    )
    assert first.schema_fit == 0.5 and first.half_life_days == 7.0  # empty scope: neutral
    rg.remember_many(
        [
            {"content": f"kubernetes pod {i} restarted in staging after OOM", "tags": ["k8s"]}
            for i in range(8)
        ],
        scope_id=scope_id,
        owner_id="k",
    )
    familiar = rg.remember(
        "kubernetes pod restarted in staging again", scope_id=scope_id, owner_id="k", tags=["k8s"]
    )
    assert familiar.schema_fit > 0.7 and familiar.half_life_days == pytest.approx(10.5)
    odd = rg.remember(
        "the office plant needs water on fridays", scope_id=scope_id, owner_id="k", tags=["plants"]
    )
    assert odd.schema_fit < 0.3 and odd.half_life_days == pytest.approx(3.5)


def test_remember_many_reports_acknowledged_progress(rg: Recollect, scope_id: str) -> None:
    seen: list[tuple[int, int]] = []
    items = [
        {"content": f"fact number {i} about the billing service", "tags": ["billing"]}
        for i in range(25)
    ]
    out = rg.remember_many(
        items,
        scope_id=scope_id,
        owner_id="kai",
        progress=lambda d, t: seen.append((d, t)),
        batch_size=10,
    )
    assert seen == [(10, 25), (20, 25), (25, 25)]
    assert [e.content for e in out] == [i["content"] for i in items]
    assert _count(rg, scope_id) == 25
    assert all(e.tags == ["billing"] for e in out)
    again = rg.remember_many(items, scope_id=scope_id, owner_id="kai")
    assert not any(e.created for e in again) and _count(rg, scope_id) == 25


def test_connect_rules(rg: Recollect, scope_id: str) -> None:
    a = rg.remember("decided to move to vite", scope_id=scope_id, owner_id="kai")
    b = rg.remember("build times dropped by half", scope_id=scope_id, owner_id="kai")
    edge = rg.connect(a.id, b.id, "leads_to", weight=0.7, reason="faster builds", scope_id=scope_id)
    assert edge.created and edge.relation == "leads_to" and edge.weight == 0.7
    again = rg.connect(a.id, b.id, "LEADS_TO", weight=0.2, scope_id=scope_id)
    assert again.created is False and again.weight == 0.7
    assert _edges(rg, scope_id) == 1
    with pytest.raises(InvalidInput, match="relation must be one of"):
        rg.connect(a.id, b.id, "loves", scope_id=scope_id)
    with pytest.raises(InvalidInput, match="weight"):
        rg.connect(a.id, b.id, "supports", weight=1.5, scope_id=scope_id)
    with pytest.raises(EntryNotFound):
        rg.connect(a.id, "no-such-id", "supports", scope_id=scope_id)
    with pytest.raises(InvalidInput):
        rg.connect(a.id, a.id, "supports", scope_id=scope_id)
    other = rg.remember("unrelated", scope_id=scope_id + "-x", owner_id="kai")
    with pytest.raises(EntryNotFound):  # another scope's id is not found in this scope
        rg.connect(a.id, other.id, "supports", scope_id=scope_id)
    with pytest.raises(EntryNotFound):
        rg.connect(a.id, b.id, "supports", scope_id=scope_id + "-x")
    assert _edges(rg, scope_id) == 1
    rows = rg.query(
        "MATCH (:Entry {id: $a})-[r:LEADS_TO]->(:Entry {id: $b}) RETURN r.reason AS reason",
        {"a": a.id, "b": b.id},
    )
    assert rows == [{"reason": "faster builds"}]


def test_recent_is_newest_first_and_current_only(rg: Recollect, scope_id: str) -> None:
    es = [rg.remember(f"event {i}", scope_id=scope_id, owner_id="kai") for i in range(5)]
    assert [e.id for e in rg.recent(scope_id, limit=3)] == [es[4].id, es[3].id, es[2].id]
    rg.memories.in_scope(scope_id).delete([es[4].id], reason="outdated")
    rg.query(
        "MATCH (e:Entry {id: $id}) SET e.retired_at = datetime()", {"id": es[3].id}, write=True
    )
    assert [e.id for e in rg.recent(scope_id, limit=2)] == [es[2].id, es[1].id]


def test_get_many_keeps_order_and_scope(rg: Recollect, scope_id: str) -> None:
    es = [rg.remember(f"item {i}", scope_id=scope_id, owner_id="kai") for i in range(3)]
    ids = [es[2].id, "nope", es[0].id, es[2].id]
    assert [e.id for e in rg.get_many(ids, scope_id=scope_id)] == [es[2].id, es[0].id]
    assert rg.get_many(ids, scope_id="another-scope") == []
    with pytest.raises(EntryNotFound):
        rg.get(es[0].id, scope_id="another-scope")


def test_forget_deletes_edges_and_undo_restores(rg: Recollect, scope_id: str) -> None:
    a = rg.remember("the cache is disabled in prod", scope_id=scope_id, owner_id="kai")
    b = rg.remember("cache stampede incident", scope_id=scope_id, owner_id="kai")
    rg.connect(b.id, a.id, "leads_to", reason="incident", scope_id=scope_id)
    gone = rg.forget(a.id, scope_id=scope_id)
    assert gone.id == a.id
    assert rg.get_many([a.id], scope_id=scope_id) == [] and _edges(rg, scope_id) == 0
    assert not any(h.entry.id == a.id for h in rg.search("cache disabled", scope_id=scope_id))
    with pytest.raises(EntryNotFound):
        rg.forget(a.id, scope_id=scope_id)
    with pytest.raises(EntryNotFound):
        rg.forget(b.id, scope_id="another-scope")
    op = rg.operations(scope_id)[0]
    assert op.kind == "forget" and op.entry_ids == [a.id]
    rg.undo(op.id, scope_id=scope_id)
    back = rg.get(a.id, scope_id=scope_id)
    assert back.content == a.content and back.created_at == a.created_at
    assert _edges(rg, scope_id) == 1
    assert rg.search("cache disabled in production", scope_id=scope_id)[0].entry.id == a.id
    with pytest.raises(InvalidInput, match="already undone"):
        rg.undo(op.id, scope_id=scope_id)


def test_outcome_feedback(rg: Recollect, scope_id: str) -> None:
    e = rg.remember("use --frozen-lockfile in CI", scope_id=scope_id, owner_id="kai")
    assert rg.outcome([e.id, "missing"], "good", scope_id=scope_id) == [e.id]
    good = rg.get(e.id, scope_id=scope_id)
    assert good.half_life_days == e.half_life_days + 5 and good.outcome_score == 1
    assert good.confidence_state == "verified"
    rg.outcome([e.id], "bad", scope_id=scope_id)
    bad = rg.get(e.id, scope_id=scope_id)
    assert bad.half_life_days == good.half_life_days - 3 and bad.outcome_score == -1
    assert bad.confidence_state == "active"
    for _ in range(5):
        rg.outcome([e.id], "bad", scope_id=scope_id)
    assert rg.get(e.id, scope_id=scope_id).half_life_days == 1.0
    with pytest.raises(InvalidInput):
        rg.outcome([e.id], "meh", scope_id=scope_id)


def test_strength_and_stale_state(rg: Recollect, scope_id: str) -> None:
    e = rg.remember("old knowledge", scope_id=scope_id, owner_id="kai", half_life_days=7.0)
    assert e.strength == pytest.approx(1.0, abs=1e-3)
    old = datetime.now(UTC) - timedelta(days=45)
    rg.query("MATCH (e:Entry {id: $id}) SET e.created_at = $t", {"id": e.id, "t": old}, write=True)
    aged = rg.get(e.id, scope_id=scope_id)
    assert aged.confidence_state == "stale"
    assert aged.strength == pytest.approx(0.5 ** (45 / 7), rel=0.01)
    pinned = rg.remember("pinned knowledge", scope_id=scope_id, owner_id="kai", pinned=True)
    rg.query(
        "MATCH (e:Entry {id: $id}) SET e.created_at = $t", {"id": pinned.id, "t": old}, write=True
    )
    assert rg.get(pinned.id, scope_id=scope_id).strength == 1.0
    hits = rg.search("old knowledge", scope_id=scope_id)
    assert hits[0].entry.id == e.id
    woke = rg.get(e.id, scope_id=scope_id)
    assert woke.confidence_state == "observed" and woke.access_count == 1


def test_forget_retracts_relation_evidence_and_what_is_left_without_it(
    rg: Recollect, scope_id: str
) -> None:
    e1 = rg.remember("Ana reviewed the billing design", scope_id=scope_id, owner_id="kai")
    e2 = rg.remember("Bo deployed the billing service", scope_id=scope_id, owner_id="kai")
    # reified relations made by hand (the extractor that makes them is not part of this test):
    # r1 (a -> b) rests on e1 only, r2 (b -> c) on e1 and e2, r3 (d -> a2) on e1 only, and d is
    # still mentioned by e2
    rg.query(
        """
        MATCH (e1:Entry {id: $e1}), (e2:Entry {id: $e2})
        CREATE (a:Entity {id: $p + 'a', scope_id: $s, name: 'a'}),
               (b:Entity {id: $p + 'b', scope_id: $s, name: 'b'}),
               (c:Entity {id: $p + 'c', scope_id: $s, name: 'c'}),
               (d:Entity {id: $p + 'd', scope_id: $s, name: 'd'}),
               (a2:Entity {id: $p + 'a2', scope_id: $s, name: 'a2'}),
               (r1:Relation {id: $p + 'r1', scope_id: $s}),
               (r2:Relation {id: $p + 'r2', scope_id: $s}),
               (r3:Relation {id: $p + 'r3', scope_id: $s}),
               (r1)-[:SUBJECT]->(a), (r1)-[:OBJECT]->(b), (r1)-[:EVIDENCED_BY]->(e1),
               (r2)-[:SUBJECT]->(b), (r2)-[:OBJECT]->(c), (r2)-[:EVIDENCED_BY]->(e1),
               (r2)-[:EVIDENCED_BY]->(e2),
               (r3)-[:SUBJECT]->(d), (r3)-[:OBJECT]->(a2), (r3)-[:EVIDENCED_BY]->(e1),
               (e2)-[:MENTIONS]->(d)
        """,
        {"e1": e1.id, "e2": e2.id, "s": scope_id, "p": f"{scope_id}-"},
        write=True,
    )

    def left() -> tuple[list[str], list[str]]:
        rels = rg.query(
            "MATCH (r:Relation {scope_id: $s}) RETURN r.id AS id ORDER BY id", {"s": scope_id}
        )
        ents = rg.query(
            "MATCH (n:Entity {scope_id: $s}) WHERE n.id STARTS WITH $p "
            "RETURN n.id AS id ORDER BY id",
            {"s": scope_id, "p": f"{scope_id}-"},
        )
        cut = len(scope_id) + 1
        return [r["id"][cut:] for r in rels], [r["id"][cut:] for r in ents]

    rg.forget(e1.id, scope_id=scope_id)
    assert left() == (["r2"], ["b", "c", "d"])
    evidence = rg.query(
        "MATCH (:Relation {id: $id})-[:EVIDENCED_BY]->(e) RETURN e.id AS id",
        {"id": f"{scope_id}-r2"},
    )
    assert evidence == [{"id": e2.id}]
    rg.forget(e2.id, scope_id=scope_id)
    assert left() == ([], [])
    assert {k: v for k, v in rg.check_invariants(scope_id).items() if v} == {}


def test_remember_redacts_only_when_asked(rg: Recollect, scope_id: str) -> None:
    token, key_id = "ghp_4fT9qLm2ZxVb7Ns1Kp0Rw8Yc3Hd6Je5Ga2Ui", "AKIAIOSFODNN7EXAMPLE"
    text = f"CI deploys with GITHUB_TOKEN={token} from the vault"
    verbatim = rg.remember(text, scope_id=scope_id, owner_id="kai")
    assert verbatim.content == text
    clean = rg.remember(
        f"{text}.", scope_id=scope_id, owner_id="kai", redact=True, title=f"Token {token}",
        tags=["ci", token], metadata={"env": {"GITHUB_TOKEN": token}}, summary=key_id,
    )  # fmt: skip
    assert clean.content == f"CI deploys with GITHUB_TOKEN={marker('github_token')} from the vault."
    assert clean.title == f"Token {marker('github_token')}" and "ci" in clean.tags
    row = rg.query("MATCH (e:Entry {id: $id}) RETURN properties(e) AS p", {"id": clean.id})[0]
    assert token not in str(row["p"]) and key_id not in str(row["p"])
    many = rg.remember_many(
        [{"content": f"key id {key_id} for the backups"},
         {"content": f"key id {key_id} kept", "redact": False}],
        scope_id=scope_id, owner_id="kai", redact=True,
    )  # fmt: skip
    assert [e.content for e in many] == [
        f"key id {marker('aws_access_key_id')} for the backups",
        f"key id {key_id} kept",
    ]
