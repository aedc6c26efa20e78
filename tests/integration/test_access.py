"""Access history (AccessEvent -ACCESSED-> items) and recommendations from a decayed profile."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput
from recollect_graph.services.kernel.times import now_utc
from recollect_graph.services.knowledge.access import Access
from tests.integration.test_context_pack import add_document

COOKING = [
    ("Sourdough starter", "Feed the sourdough starter with flour and water every morning."),
    ("Bread proofing", "Proof the bread dough overnight in the fridge for a sour crumb."),
    ("Baking temperature", "Bake the loaf at 250 degrees with steam for the first 20 minutes."),
    ("Pizza dough", "Pizza dough wants high-protein flour and a long cold ferment."),
]
K8S = [
    ("Pod restarts", "The kubernetes pod restarts when the liveness probe times out."),
    ("Helm upgrade", "Run helm upgrade with --atomic so a failed kubernetes release rolls back."),
    ("Node pressure", "Kubernetes evicts pods from nodes under memory pressure."),
]


def _add(
    rg: Recollect, scope_id: str, items: list[tuple[str, str]], owner: str = "kai"
) -> list[str]:
    return [
        rg.remember(text, scope_id=scope_id, owner_id=owner, title=title).id
        for title, text in items
    ]


def _violations(rg: Recollect, scope_id: str | None) -> list[dict[str, Any]]:
    return rg.db.read("invariants/access_events", scope_id=scope_id, limit=100)


def test_migration_creates_the_constraint_and_indexes(rg: Recollect) -> None:
    idx = {r["name"] for r in rg.query("SHOW INDEXES YIELD name RETURN name")}
    assert {"accessevent_scope", "accessevent_at", "accessevent_scope_owner_at"} <= idx
    cons = rg.query("SHOW CONSTRAINTS YIELD name, labelsOrTypes, properties RETURN *")
    assert any(c["labelsOrTypes"] == ["AccessEvent"] and c["properties"] == ["id"] for c in cons)


def test_record_links_items_of_the_scope_only(rg: Recollect, scope_id: str) -> None:
    access = Access(rg.db)
    entry = _add(rg, scope_id, COOKING[:1])[0]
    chunks = add_document(rg, scope_id, f"{scope_id}-d", "Bread book", ["Knead.", "Bake."])
    rg.query(
        "CREATE (:Session {id: $id, scope_id: $s, title: 'baking chat'})",
        {"id": f"{scope_id}-sess", "s": scope_id},
        write=True,
    )
    foreign = _add(rg, f"{scope_id}-x", COOKING[1:2])[0]
    ids = [entry, f"{scope_id}-d", chunks[1], f"{scope_id}-sess", "nope", foreign, entry]
    ev = access.record(scope_id, "search", ids, owner_id="kai", query="bread")
    assert ev.linked == [entry, f"{scope_id}-d", chunks[1], f"{scope_id}-sess"]
    assert ev.missing == ["nope", foreign] and ev.kind == "search" and ev.query == "bread"
    rows = rg.query(
        "MATCH (ev:AccessEvent {id: $id})-[a:ACCESSED]->(x) "
        "RETURN x.id AS id, a.rank AS rank, keys(ev) AS keys ORDER BY rank",
        {"id": ev.id},
    )
    assert [(r["id"], r["rank"]) for r in rows] == [
        (entry, 1),
        (f"{scope_id}-d", 2),
        (chunks[1], 3),
        (f"{scope_id}-sess", 4),
    ]
    assert set(rows[0]["keys"]) == {"id", "scope_id", "owner_id", "kind", "at", "query"}
    hist = access.history(scope_id)
    assert hist[0]["id"] == ev.id and hist[0]["item_ids"] == ev.linked
    empty = access.record(scope_id, "recall", [], query="nothing")
    assert empty.linked == [] and access.history(scope_id, limit=1)[0]["id"] == empty.id
    assert _violations(rg, scope_id) == [] and _violations(rg, f"{scope_id}-x") == []


def test_bad_input_is_refused(rg: Recollect, scope_id: str) -> None:
    access = Access(rg.db)
    with pytest.raises(InvalidInput, match="kind"):
        access.record(scope_id, "click", ["x"])
    with pytest.raises(InvalidInput, match="list of ids"):
        access.record(scope_id, "view", "abc")
    with pytest.raises(InvalidInput, match="scope_id"):
        access.record(" ", "view", ["x"])
    with pytest.raises(InvalidInput, match="half_life_days"):
        access.recommend(scope_id, half_life_days=0)
    assert access.history(scope_id) == []


def test_deleting_an_item_leaves_no_dangling_reference(rg: Recollect, scope_id: str) -> None:
    access = Access(rg.db)
    a, b = _add(rg, scope_id, COOKING[:2])
    ev = access.record(scope_id, "view", [a, b])
    rg.forget(a, scope_id=scope_id)
    assert access.history(scope_id)[0]["item_ids"] == [b]
    assert rg.query("MATCH (ev:AccessEvent {id: $id}) RETURN count(*) AS n", {"id": ev.id}) == [
        {"n": 1}
    ]
    assert _violations(rg, scope_id) == []


def test_invariant_reports_broken_history(rg: Recollect, scope_id: str) -> None:
    mine = _add(rg, scope_id, COOKING[:1])[0]
    theirs = _add(rg, f"{scope_id}-x", COOKING[1:2])[0]
    rg.query(
        "MATCH (m:Entry {id: $m}), (t:Entry {id: $t}) "
        "CREATE (ev:AccessEvent {id: $ev, scope_id: $s, kind: 'peek', at: datetime(), "
        "item_id: $m}) "
        "CREATE (ev)-[:ACCESSED {rank: 1}]->(t), (ev)-[:ACCESSED]->(m), (ev)-[:ACCESSED {rank: 2}]->(m)",
        {"m": mine, "t": theirs, "ev": f"{scope_id}-bad", "s": scope_id},
        write=True,
    )
    problems = {(r["problem"], r["item_id"]) for r in _violations(rg, scope_id)}
    assert ("event of unknown kind", None) in problems
    assert ("event stores other properties (items must be ACCESSED edges)", None) in problems
    assert ("ACCESSED edge crosses scopes", theirs) in problems
    assert ("ACCESSED edge without a rank", mine) in problems
    assert ("event reaches one item twice", mine) in problems
    assert _violations(rg, f"{scope_id}-x")  # the crossing edge counts for the other scope too
    rg.query(
        "MATCH (ev:AccessEvent {id: $id}) DETACH DELETE ev", {"id": f"{scope_id}-bad"}, write=True
    )
    assert _violations(rg, scope_id) == []


def test_nothing_accessed_gives_an_empty_list_with_a_reason(rg: Recollect, scope_id: str) -> None:
    _add(rg, scope_id, COOKING)
    recs = Access(rg.db).recommend(scope_id, owner_id="kai")
    assert list(recs) == [] and len(recs) == 0
    assert "nothing was accessed" in recs.reason and "by kai" in recs.reason


def test_recommends_unseen_items_near_recent_accesses(rg: Recollect, scope_id: str) -> None:
    access = Access(rg.db)
    cook = _add(rg, scope_id, COOKING)
    k8s = _add(rg, scope_id, K8S)
    access.record(scope_id, "view", cook[:2], owner_id="kai")
    access.record(scope_id, "view", k8s[:1], owner_id="kai", at=now_utc() - timedelta(days=40))
    access.record(scope_id, "view", k8s, owner_id="ana")  # another owner's history
    recs = access.recommend(scope_id, owner_id="kai", limit=5)
    ids = [r.id for r in recs]
    assert set(ids[:2]) == set(cook[2:]), [(r.title, r.score) for r in recs]
    assert not set(ids) & set(cook[:2]) and k8s[0] not in ids
    top = recs[0]
    assert top.kind == "entry" and top.semantic > 0 and top.because
    assert "Sourdough starter" in top.reason or "Bread proofing" in top.reason
    assert recs.profile[0]["id"] in cook[:2]
    # the old kubernetes access has decayed: kubernetes items rank below the cooking ones
    assert all(ids.index(k) > ids.index(c) for k in k8s[1:] if k in ids for c in cook[2:])
    # without an owner, everybody's accesses count and every kubernetes item is seen
    assert not set(k8s) & {r.id for r in access.recommend(scope_id, limit=10)}


def test_documents_are_recommended_and_seen_through_their_chunks(
    rg: Recollect, scope_id: str
) -> None:
    access = Access(rg.db)
    cook = _add(rg, scope_id, COOKING[:2])
    add_document(rg, scope_id, f"{scope_id}-bread", "Baking bread at home", [COOKING[2][1]])
    chunks = add_document(rg, scope_id, f"{scope_id}-pizza", "Pizza night", [COOKING[3][1]])
    access.record(scope_id, "view", cook, owner_id="kai")
    access.record(scope_id, "search", chunks, owner_id="kai", query="pizza")
    recs = access.recommend(scope_id, owner_id="kai")
    docs = [r for r in recs if r.kind == "document"]
    assert [d.id for d in docs] == [f"{scope_id}-bread"]
    assert docs[0].title == "Baking bread at home" and docs[0].reason


def test_topics_of_accessed_items_bring_their_members(rg: Recollect, scope_id: str) -> None:
    access = Access(rg.db)
    cook = _add(rg, scope_id, COOKING[:1])
    k8s = _add(rg, scope_id, K8S[:1])
    rg.query(
        "CREATE (t:Topic {id: $t, scope_id: $s, label: 'kitchen ops'}) WITH t "
        "MATCH (e:Entry) WHERE e.id IN $ids CREATE (e)-[:IN_TOPIC]->(t)",
        {"t": f"{scope_id}-topic", "s": scope_id, "ids": [cook[0], k8s[0]]},
        write=True,
    )
    access.record(scope_id, "recall", cook, owner_id="kai")
    recs = access.recommend(scope_id, owner_id="kai")
    by_id = {r.id: r for r in recs}
    assert k8s[0] in by_id and by_id[k8s[0]].topic == 1.0
    assert "in topic 'kitchen ops'" in by_id[k8s[0]].reason
    assert by_id[k8s[0]].topics == ["kitchen ops"]
    assert recs.topics == [{"id": f"{scope_id}-topic", "label": "kitchen ops", "weight": 1.0}]


def test_prune_deletes_old_events_only(rg: Recollect, scope_id: str) -> None:
    access = Access(rg.db)
    a = _add(rg, scope_id, COOKING[:1])
    access.record(scope_id, "view", a, at=now_utc() - timedelta(days=100))
    access.record(scope_id, "view", a)
    assert access.prune(scope_id, older_than_days=30) == 1
    assert len(access.history(scope_id)) == 1
    assert rg.get(a[0], scope_id=scope_id).id == a[0]


def test_every_door_records_with_the_owner(rg: Recollect, scope_id: str) -> None:
    cook = _add(rg, scope_id, COOKING)
    mem = rg.memories.in_scope(scope_id, "kai")
    mem.capture("Rye flour makes the sourdough starter more active.")  # its dedup search: no event
    assert rg.access.history(scope_id) == []
    found = mem.search("sourdough starter flour", limit=3)  # the lore_search path
    [ev] = rg.access.history(scope_id)
    assert ev["kind"] == "search" and ev["owner_id"] == "kai"
    assert ev["query"] == "sourdough starter flour"
    assert ev["item_ids"] == [r["memory"]["id"] for r in found["results"]]
    mem.search(ids=cook[:2])  # a fetch by ids is a view
    ev = rg.access.history(scope_id, limit=1)[0]
    assert (ev["kind"], ev["owner_id"], ev["item_ids"]) == ("view", "kai", cook[:2])
    rg.get(cook[3], scope_id=scope_id, owner_id="ana")
    ev = rg.access.history(scope_id, limit=1)[0]
    assert (ev["kind"], ev["owner_id"], ev["item_ids"]) == ("view", "ana", [cook[3]])
    n = len(rg.access.history(scope_id))
    rg.search("pizza dough", scope_id=scope_id, touch=False)
    rg.get(cook[0], scope_id=scope_id, touch=False)
    rg.searcher.search("pizza dough", scope_id=scope_id, touch=False)
    assert len(rg.access.history(scope_id)) == n  # touch=False records nothing
    rg.searcher.search("pizza dough", scope_id=scope_id, owner_id="kai", limit=1)
    assert rg.access.history(scope_id, limit=1)[0]["owner_id"] == "kai"


def test_recommend_for_an_owner_sees_their_own_searches(rg: Recollect, scope_id: str) -> None:
    cook = _add(rg, scope_id, COOKING)
    k8s = _add(rg, scope_id, K8S)
    hits = rg.search("sourdough starter and bread proofing", scope_id=scope_id, owner_id="kai",
                     limit=2, hops=0)  # fmt: skip
    seen = {h.entry.id for h in hits}
    assert seen <= set(cook)
    rg.search("kubernetes pods", scope_id=scope_id, owner_id="ana", limit=3, hops=0)
    recs = rg.recommend(scope_id, owner_id="kai", limit=5)
    assert recs.items, recs.reason
    assert {p["id"] for p in recs.profile} == seen  # only kai's own searches make the profile
    ids = [r.id for r in recs]
    assert not seen & set(ids)
    assert ids[0] in set(cook) - seen, [(r.title, r.score) for r in recs]
    assert "nothing was accessed" in rg.recommend(scope_id, owner_id="bo").reason
    assert set(k8s) & {p["id"] for p in rg.recommend(scope_id).profile}  # everyone's counts
