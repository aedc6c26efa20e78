"""Claims, contradiction checks, supersession, invalidation, conflicts and consolidation."""

from __future__ import annotations

from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import (
    ContradictionFound,
    EntryNotFound,
    InvalidInput,
    NothingToSupersede,
)


def dump(rg: Recollect, scope_id: str) -> list[Any]:
    """Everything of a scope: nodes with labels and properties, edges with type and properties.

    Access statistics (count, last access, woken state) and the access history (AccessEvent)
    are history, not state: left out.
    """
    nodes = rg.query(
        "MATCH (n {scope_id: $s}) WHERE NOT n:AccessEvent RETURN labels(n) AS l, "
        "n {.*, embedding: null, access_count: null, last_accessed_at: null} AS p ORDER BY n.id",
        {"s": scope_id},
    )
    rels = rg.query(
        "MATCH (a {scope_id: $s})-[r]->(b) WHERE NOT a:AccessEvent RETURN a.id AS a, type(r) AS t, properties(r) AS p, b.id AS b "
        "ORDER BY a, t, b",
        {"s": scope_id},
    )
    return [nodes, rels]


def remember(rg: Recollect, scope_id: str, text: str, **kw: Any) -> str:
    return rg.remember(text, scope_id=scope_id, owner_id="kai", **kw).id


def test_claims_are_stored_with_their_entities(rg: Recollect, scope_id: str) -> None:
    eid = remember(
        rg, scope_id, "We moved the build from webpack to vite. Kai no longer owns billing."
    )
    rows = rg.query(
        "MATCH (e:Entry {id: $id})-[:ASSERTS]->(c:Claim)-[:ABOUT]->(ent:Entity) "
        "RETURN c.predicate AS p, c.subject_key AS s, c.object_key AS o, c.polarity AS pol, "
        "ent.normalized_name AS ent ORDER BY p, o",
        {"id": eid},
    )
    assert {"p": "uses", "s": "build", "o": "vite", "pol": 1, "ent": "build"} in rows
    assert {"p": "uses", "s": "build", "o": "webpack", "pol": -1, "ent": "build"} in rows
    assert {"p": "works_on", "s": "kai", "o": "bill", "pol": -1, "ent": "kai"} in rows
    assert (
        rg.query(
            "MATCH (:Entry {id: $id})-[:MENTIONS]->(e:Entity) RETURN count(e) AS n", {"id": eid}
        )[0]["n"]
        == 2
    )


@pytest.mark.parametrize(
    ("existing", "new", "kind"),
    [
        ("Kai owns the billing service.", "Ana owns the billing service.", "attribution_conflict"),
        (
            "The auth migration is done.",
            "The auth migration is still in progress.",
            "status_conflict",
        ),
        (
            "The frontend build uses webpack.",
            "We moved the build from webpack to vite.",
            "value_conflict",
        ),
        ("The cache is enabled in prod.", "The cache is disabled in prod.", "polarity_conflict"),
    ],
)
def test_each_conflict_type(
    rg: Recollect, scope_id: str, existing: str, new: str, kind: str
) -> None:
    old = remember(rg, scope_id, existing)
    before = dump(rg, scope_id)
    result = rg.check_contradiction(new, scope_id=scope_id)
    assert not result.ok
    (c,) = result.conflicts
    assert c.type == kind and c.existing.id == old
    assert c.score > 0.5 and c.reason and c.claim and c.existing_claim
    assert dump(rg, scope_id) == before  # a check writes nothing


def test_no_collateral(rg: Recollect, scope_id: str) -> None:
    for text in (
        "The cache is disabled in prod.",
        "Kai owns billing.",
        "The ledger uses Postgres.",
        "The search reindex is done.",
    ):
        remember(rg, scope_id, text)
    for text in (
        "The search index is disabled in prod.",
        "Ana owns auth.",
        "We use Redis for caching.",
        "The billing reindex is in progress.",
        "Lunch is at noon.",
    ):
        assert rg.check_contradiction(text, scope_id=scope_id).ok, text
    other = scope_id + "-other"
    assert rg.check_contradiction("The cache is enabled in prod.", scope_id=other).ok


def test_retired_and_low_confidence_entries_do_not_conflict(rg: Recollect, scope_id: str) -> None:
    remember(rg, scope_id, "Kai owns the billing service.", confidence=0.2)
    assert rg.check_contradiction("Ana owns the billing service.", scope_id=scope_id).ok


def test_remember_records_contradictions_by_default(rg: Recollect, scope_id: str) -> None:
    old = remember(rg, scope_id, "The default branch is main.")
    new = rg.remember("The default branch is master.", scope_id=scope_id, owner_id="ana")
    assert new.conflicts and new.conflicts[0]["entry_id"] == old
    listed = rg.conflicts(scope_id)
    assert len(listed) == 1 and listed[0].type == "value_conflict"
    assert listed[0].source.id == new.id and listed[0].target.id == old
    assert rg.get(old, scope_id=scope_id).retired_at is None  # recorded, not retired


def test_remember_reject_writes_nothing(rg: Recollect, scope_id: str) -> None:
    remember(rg, scope_id, "We always squash merges.")
    before = dump(rg, scope_id)
    with pytest.raises(ContradictionFound) as e:
        rg.remember(
            "We never squash merges.", scope_id=scope_id, owner_id="kai", on_conflict="reject"
        )
    assert e.value.conflicts[0]["type"] == "polarity_conflict"
    assert dump(rg, scope_id) == before


def test_remember_supersede_and_undo(rg: Recollect, scope_id: str) -> None:
    old = remember(rg, scope_id, "The API rate limit is 100 requests per minute.")
    before = dump(rg, scope_id)
    new = rg.remember(
        "The API rate limit is 500 requests per minute.",
        scope_id=scope_id,
        owner_id="kai",
        on_conflict="supersede",
    )
    assert new.conflicts and new.conflicts[0]["superseded"]
    retired = rg.get(old, scope_id=scope_id)
    assert retired.retired_at is not None and retired.confidence == 0.1 and retired.valid_to
    hits = [h.entry.id for h in rg.search("API rate limit", scope_id=scope_id)]
    assert new.id in hits and old not in hits
    rg.undo(new.conflicts[0]["operation_id"], scope_id=scope_id)
    assert (
        rg.get(old, scope_id=scope_id).retired_at is None
        and rg.get(old, scope_id=scope_id).confidence == 1.0
    )
    rg.forget(new.id, scope_id=scope_id)
    after = dump(rg, scope_id)
    ops = [n for n in after[0] if "Operation" in n["l"]]
    assert [n for n in after[0] if "Operation" not in n["l"]] == before[0]
    assert len(ops) == 2  # the supersede and the forget are on record


def test_supersede_by_claim_and_undo_restores_the_graph(rg: Recollect, scope_id: str) -> None:
    a = remember(rg, scope_id, "The frontend build uses webpack.")
    b = remember(rg, scope_id, "Our build runs on webpack 5.")
    unrelated = remember(rg, scope_id, "The backend uses Postgres.")
    before = dump(rg, scope_id)
    out = rg.supersede(scope_id, "frontend build", "uses", "vite")
    assert out.created and out.superseded == [a]
    new = rg.get(out.new_entry_id, scope_id=scope_id)
    assert "vite" in new.content.lower()
    assert (
        rg.get(a, scope_id=scope_id).retired_at is not None
        and rg.get(unrelated, scope_id=scope_id).retired_at is None
    )
    edge = rg.query(
        "MATCH (:Entry {id: $n})-[r:SUPERSEDES]->(:Entry {id: $a}) RETURN count(r) AS n",
        {"n": new.id, "a": a},
    )
    assert edge == [{"n": 1}]
    assert (
        rg.get(b, scope_id=scope_id).retired_at is None
    )  # different subject ("build" vs "frontend build")
    rg.undo(out.operation_id, scope_id=scope_id)
    after = dump(rg, scope_id)
    assert [n for n in after[0] if "Operation" not in n["l"]] == before[0]
    assert after[1] == before[1]
    with pytest.raises(InvalidInput, match="relation"):
        rg.supersede(scope_id, "frontend build", "", "vite")
    with pytest.raises(InvalidInput):
        rg.supersede(scope_id, "", "uses", "vite")


def test_supersede_entry(rg: Recollect, scope_id: str) -> None:
    a = remember(rg, scope_id, "Standup is at 9:30.")
    b = remember(rg, scope_id, "Standup moved to 10:00 on Mondays.")
    out = rg.supersede_entry(a, b, reason="new time", scope_id=scope_id)
    assert out.superseded == [a] and rg.get(a, scope_id=scope_id).retired_at is not None
    other = rg.remember("elsewhere", scope_id=scope_id + "-x", owner_id="k").id
    with pytest.raises(EntryNotFound):  # another scope's id is not found in this one
        rg.supersede_entry(a, other, scope_id=scope_id)
    with pytest.raises(EntryNotFound):
        rg.supersede_entry("nope", b, scope_id=scope_id)
    with pytest.raises(InvalidInput):
        rg.supersede_entry(a, a, scope_id=scope_id)
    rg.undo(out.operation_id, scope_id=scope_id)
    assert rg.get(a, scope_id=scope_id).retired_at is None


def test_invalidate_without_and_with_replacement(rg: Recollect, scope_id: str) -> None:
    a = remember(rg, scope_id, "Deploys go through Jenkins job deploy-prod.")
    b = remember(rg, scope_id, "Jenkins agents need 8 GB of memory.")
    keep = remember(rg, scope_id, "The ledger uses Postgres.")
    out = rg.invalidate(scope_id, "jenkins", reason="CI moved")
    assert sorted(out.invalidated) == sorted([a, b]) and out.replacement_id is None
    weak = rg.get(a, scope_id=scope_id)
    assert weak.confidence == pytest.approx(0.1) and weak.retired_at is None
    assert rg.get(keep, scope_id=scope_id).confidence == 1.0
    rg.undo(out.operation_id, scope_id=scope_id)
    assert rg.get(a, scope_id=scope_id).confidence == 1.0
    out = rg.invalidate(
        scope_id, "jenkins", reason="CI moved", replacement="CI runs on GitHub Actions."
    )
    rid = out.replacement_id
    assert rid and rg.get(a, scope_id=scope_id).retired_at is not None
    n = rg.query(
        "MATCH (:Entry {id: $r})-[s:SUPERSEDES]->(o:Entry) RETURN count(s) AS n", {"r": rid}
    )
    assert n == [{"n": 2}]
    with pytest.raises(InvalidInput):
        rg.invalidate(scope_id, "   ", reason="x")


def test_detect_migrations_from_commit_subjects() -> None:
    from recollect_graph.services.claims.invalidation import detect_migrations

    found = detect_migrations(
        [
            "Migrate webpack to vite",
            "fix typo",
            "Replace Jenkins with actions",
            "switch from yarn to pnpm",
            "refactor: moment -> dayjs",
        ]
    )
    assert [(m["from"], m["to"]) for m in found] == [
        ("webpack", "vite"),
        ("Jenkins", "actions"),
        ("yarn", "pnpm"),
        ("moment", "dayjs"),
    ]


def test_resolve_a_conflict(rg: Recollect, scope_id: str) -> None:
    old = remember(rg, scope_id, "Kai owns the billing service.")
    new = rg.remember("Ana owns the billing service.", scope_id=scope_id, owner_id="ana").id
    out = rg.resolve(scope_id, new, old, keep=new)
    assert out.loser == old and rg.get(old, scope_id=scope_id).retired_at is not None
    assert rg.conflicts(scope_id) == []
    rg.undo(out.operation_id, scope_id=scope_id)
    assert rg.get(old, scope_id=scope_id).retired_at is None and len(rg.conflicts(scope_id)) == 1
    with pytest.raises(InvalidInput):
        rg.resolve(scope_id, new, old, keep="someone-else")


def test_resolve_forgetting_the_loser_is_one_undoable_operation(
    rg: Recollect, scope_id: str
) -> None:
    old = remember(rg, scope_id, "Kai owns the search service.")
    new = rg.remember("Ana owns the search service.", scope_id=scope_id, owner_id="ana").id
    ops_before = len(rg.operations(scope_id))
    out = rg.resolve(scope_id, new, old, keep=new, forget_loser=True)
    assert out.loser == old and out.operation_id
    with pytest.raises(EntryNotFound):
        rg.get(old, scope_id=scope_id)
    ops = rg.operations(scope_id)
    assert len(ops) == ops_before + 1 and ops[0].id == out.operation_id
    assert ops[0].kind == "forget" and ops[0].entry_ids == [old]
    rg.undo(out.operation_id, scope_id=scope_id)
    assert rg.get(old, scope_id=scope_id).content == "Kai owns the search service."
    with pytest.raises(InvalidInput):  # nothing half-done: a missing conflict writes nothing
        rg.resolve(scope_id, new, "no-such-entry", keep=new, forget_loser=True)
    assert len(rg.operations(scope_id)) == ops_before + 1


def test_consolidation_dry_run_then_apply_then_undo(rg: Recollect, scope_id: str) -> None:
    texts = [
        "The nightly backup job runs at 2am and writes to the S3 bucket backups-prod.",
        "The nightly backup job runs at 2 am and writes to the S3 bucket backups-prod.",
        "Nightly backup job: runs at 2am, writes to the S3 bucket backups-prod.",
    ]
    ids = [remember(rg, scope_id, t, force=True) for t in texts]
    weak = remember(rg, scope_id, "Old flaky note about the VPN", confidence=0.2)
    rg.query(
        "MATCH (e:Entry {id: $id}) SET e.created_at = datetime() - duration('P90D')",
        {"id": weak},
        write=True,
    )
    pinned = remember(rg, scope_id, "Pinned but weak", confidence=0.2, pinned=True)
    untouched = remember(rg, scope_id, "Rarely read but fine", confidence=0.9)
    rg.query(
        "MATCH (e:Entry {id: $id}) SET e.created_at = datetime() - duration('P90D')",
        {"id": untouched},
        write=True,
    )
    before = dump(rg, scope_id)
    plan = rg.consolidate(scope_id)
    assert not plan.applied and dump(rg, scope_id) == before
    assert len(plan.merges) == 1 and sorted(plan.merges[0].members) == sorted(ids)
    assert plan.archive == [weak] and pinned not in plan.archive and untouched not in plan.archive
    done = rg.consolidate(scope_id, dry_run=False)
    (cid,) = done.consolidated_ids
    assert rg.get(cid, scope_id=scope_id).source_type == "consolidated"
    derived = rg.query(
        "MATCH (:Entry {id: $c})-[:DERIVED_FROM]->(m) RETURN collect(m.id) AS m", {"c": cid}
    )[0]["m"]
    assert sorted(derived) == sorted(ids)
    assert (
        all(rg.get(i, scope_id=scope_id).retired_at is not None for i in ids)
        and rg.get(weak, scope_id=scope_id).retired_at is not None
    )
    rg.undo(done.operation_id, scope_id=scope_id)
    after = dump(rg, scope_id)
    assert [n for n in after[0] if "Operation" not in n["l"]] == before[0] and after[1] == before[1]


def test_forget_retracts_claims_and_orphan_entities(rg: Recollect, scope_id: str) -> None:
    eid = remember(rg, scope_id, "Zed owns the quantum scheduler.")
    assert rg.query("MATCH (e:Entity {scope_id: $s}) RETURN count(e) AS n", {"s": scope_id}) == [
        {"n": 1}
    ]
    rg.forget(eid, scope_id=scope_id)
    assert rg.query(
        "MATCH (n {scope_id: $s}) WHERE n:Claim OR n:Entity RETURN count(n) AS n", {"s": scope_id}
    ) == [{"n": 0}]
    assert rg.check_contradiction("Amy owns the quantum scheduler.", scope_id=scope_id).ok
    rg.undo(rg.operations(scope_id)[0].id, scope_id=scope_id)
    assert not rg.check_contradiction("Amy owns the quantum scheduler.", scope_id=scope_id).ok


def test_bad_input(rg: Recollect, scope_id: str) -> None:
    with pytest.raises(InvalidInput):
        rg.check_contradiction("", scope_id=scope_id)
    with pytest.raises(InvalidInput):
        rg.check_contradiction("x", scope_id="")
    with pytest.raises(InvalidInput):
        rg.remember("x", scope_id=scope_id, owner_id="k", on_conflict="ignore")


# -- issue 18: supersession that understands its caller, contradictions in other words ----------
def operations(rg: Recollect, scope_id: str) -> int:
    rows = rg.query("MATCH (o:Operation {scope_id: $s}) RETURN count(o) AS n", {"s": scope_id})
    return int(rows[0]["n"])


def test_supersede_is_build_tool(rg: Recollect, scope_id: str) -> None:
    old = remember(rg, scope_id, "The frontend build tool is webpack.")
    out = rg.supersede(scope_id, "frontend build tool", "is", "vite")
    assert out.superseded == [old] and out.operation_id
    assert rg.get(old, scope_id=scope_id).retired_at is not None
    assert rg.get(out.new_entry_id, scope_id=scope_id).retired_at is None


def test_supersede_uses_retires_only_that_slot(rg: Recollect, scope_id: str) -> None:
    k8s = remember(rg, scope_id, "The billing service runs on Kubernetes in eu-west-1.")
    db = remember(rg, scope_id, "The billing service uses Postgres.")
    out = rg.supersede(scope_id, "billing service", "uses", "CockroachDB")
    assert out.superseded == [db]
    assert (
        rg.get(k8s, scope_id=scope_id).retired_at is None
        and rg.get(db, scope_id=scope_id).retired_at is not None
    )


@pytest.mark.parametrize("relation", ["owner", "owns", "is owned by"])
def test_supersede_owner_reaches_the_attribution(
    rg: Recollect, scope_id: str, relation: str
) -> None:
    old = remember(rg, scope_id, "Kai owns the billing service.")
    out = rg.supersede(scope_id, "billing service", relation, "Ben")
    assert out.superseded == [old]
    new = rg.get(out.new_entry_id, scope_id=scope_id).content
    assert "Ben" in new and "owns Ben" not in new


def test_supersede_with_no_match_changes_nothing(rg: Recollect, scope_id: str) -> None:
    remember(rg, scope_id, "The billing service uses Postgres.")
    before = dump(rg, scope_id)
    with pytest.raises(NothingToSupersede, match="closest claims") as err:
        rg.supersede(scope_id, "billing service", "is written in", "Go")
    assert err.value.closest and "Postgres" in err.value.closest[0]["content"]
    assert dump(rg, scope_id) == before and operations(rg, scope_id) == 0
    out = rg.supersede(scope_id, "billing service", "is written in", "Go", create=True)
    assert out.created and out.superseded == [] and out.operation_id == ""
    assert operations(rg, scope_id) == 0
    # a repeat once the value holds is no error and writes nothing
    before = dump(rg, scope_id)
    again = rg.supersede(scope_id, "billing service", "is written in", "Go")
    assert (again.superseded, again.created, again.new_entry_id) == ([], False, out.new_entry_id)
    assert dump(rg, scope_id) == before


def test_connect_supersedes_retires_old(rg: Recollect, scope_id: str) -> None:
    old = remember(rg, scope_id, "Deploys go out on Fridays.")
    new = remember(rg, scope_id, "Deploys go out on Tuesdays.")
    rg.connect(new, old, "supersedes", scope_id=scope_id)
    assert (
        rg.get(old, scope_id=scope_id).retired_at is not None
        and rg.get(new, scope_id=scope_id).retired_at is None
    )
    rg.connect(new, old, "supersedes", scope_id=scope_id)  # idempotent: no second operation
    assert operations(rg, scope_id) == 1


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "We decided to use Postgres 16 for the billing service.",
            "The billing service uses MySQL.",
        ),
        ("The platform team has 12 engineers.", "The platform team has 9 engineers."),
        ("We use PostgreSQL 14.", "We use PostgreSQL 15."),
        ("Standup is on Mondays.", "Standup is on Tuesdays now."),
        ("Leo lives in Berlin.", "Leo lives in Lisbon now."),
        ("The login bug is fixed.", "The login bug is still open."),
        ("The auth service is stateless.", "The auth service is not stateless."),
    ],
)
def test_contradictions_in_other_words_are_recorded(
    rg: Recollect, scope_id: str, old: str, new: str
) -> None:
    a = remember(rg, scope_id, old)
    check = rg.check_contradiction(new, scope_id=scope_id)
    assert [c.existing.id for c in check.conflicts] == [a]
    assert check.conflicts[0].reason
    remember(rg, scope_id, new)
    assert len(rg.conflicts(scope_id)) == 1


def test_units_are_compared_not_their_words(rg: Recollect, scope_id: str) -> None:
    remember(rg, scope_id, "The cache TTL is 5 minutes.")
    assert rg.check_contradiction("The cache TTL is 300 seconds.", scope_id=scope_id).ok
    assert not rg.check_contradiction("The cache TTL is 10 minutes.", scope_id=scope_id).ok


def test_remember_on_conflict_supersede_uses_the_claims(rg: Recollect, scope_id: str) -> None:
    old = remember(rg, scope_id, "Maya works at Stripe.")
    other = remember(rg, scope_id, "Maya lives in Dublin.")
    remember(rg, scope_id, "Maya works at Shopify now.", on_conflict="supersede")
    assert (
        rg.get(old, scope_id=scope_id).retired_at is not None
        and rg.get(other, scope_id=scope_id).retired_at is None
    )


def test_consolidation_never_merges_conflicting_claims_and_applies_newer_wins(
    rg: Recollect, scope_id: str
) -> None:
    old = remember(rg, scope_id, "The public API rate limit is 500 requests per minute.")
    new = remember(rg, scope_id, "The public API rate limit is 1000 requests per minute.")
    plan = rg.consolidate(scope_id)
    assert plan.merges == []
    (res,) = plan.resolutions
    assert (res.keep, res.drop) == (new, old) and res.reason.startswith("newer wins")
    done = rg.consolidate(scope_id, dry_run=False)
    assert done.applied and done.operation_id
    assert (
        rg.get(old, scope_id=scope_id).retired_at is not None
        and rg.get(new, scope_id=scope_id).retired_at is None
    )
    assert rg.conflicts(scope_id) == []
    rg.undo(done.operation_id, scope_id=scope_id)
    assert rg.get(old, scope_id=scope_id).retired_at is None and len(rg.conflicts(scope_id)) == 1


def test_auto_link_records_contradicts_between_conflicting_memories(
    rg: Recollect, scope_id: str
) -> None:
    mem = rg.memories.in_scope(scope_id, "agent-1")
    first = mem.capture("The public API rate limit is 500 requests per minute.")
    second = mem.capture("The public API rate limit is 1000 requests per minute.")
    assert not second["duplicate"] and second["id"] != first["id"]
    assert second["linked_to"]["id"] == first["id"]
    kinds = rg.query(
        "MATCH (:Entry {id: $a})-[r]->(:Entry {id: $b}) RETURN collect(type(r)) AS t",
        {"a": second["id"], "b": first["id"]},
    )[0]["t"]
    assert "REFERENCES" not in kinds and "CONTRADICTS" in kinds
