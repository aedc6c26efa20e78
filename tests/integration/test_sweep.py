"""The sweep queue, its review, and session reflections."""

from __future__ import annotations

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput
from recollect_graph.services.memories.service import Memories

TEXTS = [
    "The payments service retries failed charges three times with backoff.",
    "Failed charges in the payments service are retried three times, with exponential backoff.",
    "The checkout page shows a spinner while payments are retried.",
    "Our office plants are watered on Fridays.",
]


@pytest.fixture
def mem(rg: Recollect, scope_id: str) -> Memories:
    return rg.memories.in_scope(scope_id, "agent")


def _seed(rg: Recollect, scope_id: str) -> list[str]:
    return [rg.remember(t, scope_id=scope_id, owner_id="k").id for t in TEXTS]


def test_sweep_queues_pairs_once_and_is_incremental(
    mem: Memories, rg: Recollect, scope_id: str
) -> None:
    ids = _seed(rg, scope_id)
    first = mem.sweep()
    assert first["full"] and first["scanned"] == 4 and first["proposed"] >= 1
    pending = mem.pending_suggestions()
    assert pending["total_pending"] == first["proposed"]
    pair = {ids[0], ids[1]}
    top = pending["suggestions"][0]
    assert {top["a"], top["b"]} == pair and top["a"] < top["b"]  # canonical order
    assert {"semantic", "keyword", "entities", "temporal", "relation_type", "reason"} <= set(top)
    assert top["confidence"] in ("standard", "high")
    scores = [s["weighted_score"] for s in pending["suggestions"]]
    assert scores == sorted(scores, reverse=True)
    again = mem.sweep()
    assert not again["full"] and again["scanned"] == 0 and again["proposed"] == 0
    rg.remember(
        "Payments retries use exponential backoff, three attempts.", scope_id=scope_id, owner_id="k"
    )
    third = mem.sweep()
    assert third["scanned"] == 1
    assert mem.pending_suggestions(min_score=0.99)["suggestions"] == []


def test_review_accept_reject_and_skip(mem: Memories, rg: Recollect, scope_id: str) -> None:
    _seed(rg, scope_id)
    mem.sweep(min_score=0.0)
    sugg = mem.pending_suggestions(limit=100)["suggestions"]
    assert len(sugg) >= 2
    acc, rej = sugg[0], sugg[1]
    out = mem.review_suggestions(
        [
            {"id": acc["id"], "action": "accept", "relation_type": "supports"},
            {"id": rej["id"], "action": "reject"},
            {"id": "nope", "action": "accept"},
            {"id": acc["id"], "action": "maybe"},
        ]
    )["results"]
    assert [r["status"] for r in out] == ["accepted", "rejected", "error", "error"]
    n = rg.query(
        "MATCH (:Entry {id: $a})-[r:SUPPORTS]->(:Entry {id: $b}) RETURN r.origin AS o",
        {"a": acc["from_id"], "b": acc["to_id"]},
    )
    assert n == [{"o": "suggestion"}]
    again = mem.review_suggestions(
        [{"id": acc["id"], "action": "accept"}, {"id": rej["id"], "action": "reject"}]
    )
    assert [r["status"] for r in again["results"]] == ["skipped", "skipped"]
    # rejected pairs are never proposed again; accepted ones are linked now
    rg.query(
        "MATCH (e:Entry {scope_id: $s}) SET e.updated_at = datetime()", {"s": scope_id}, write=True
    )
    mem.sweep(min_score=0.0)
    ids = {s["id"] for s in mem.pending_suggestions(limit=100)["suggestions"]}
    assert rej["id"] not in ids and acc["id"] not in ids
    kept = rg.query("MATCH (s:LinkSuggestion {id: $id}) RETURN s.status AS st", {"id": rej["id"]})
    assert kept == [{"st": "rejected"}]


def test_reflect_is_idempotent_and_makes_memories(
    mem: Memories, rg: Recollect, scope_id: str
) -> None:
    out = mem.reflect(
        "sess-1",
        "Fixed the flaky payments test.",
        lessons=["Mock the clock in payment retry tests."],
        discoveries=["The retry job uses exponential backoff."],
        good_patterns=["Write the failing test first."],
    )
    assert out["created"] and len(out["memory_ids"]) == 2
    again = mem.reflect(
        "sess-1",
        "Fixed the flaky payments test.",
        lessons=["Mock the clock in payment retry tests."],
        discoveries=["The retry job uses exponential backoff."],
    )
    assert not again["created"] and again["memory_ids"] == out["memory_ids"]
    assert mem.processed_sessions() == {"session_ids": ["sess-1"]}
    linked = rg.query(
        "MATCH (e:Entry)-[:FROM_SESSION]->(s:Session {id: 'sess-1'}) WHERE s.scope_id = $s "
        "RETURN count(e) AS n",
        {"s": scope_id},
    )
    assert linked == [{"n": 2}]
    hits = rg.search("how should payment retry tests handle time?", scope_id=scope_id)
    assert hits[0].entry.id in out["memory_ids"]
    # The same session id in another scope is another session: it sees nothing of this one.
    other = rg.memories.in_scope(scope_id + "-other").reflect("sess-1", "x")
    assert other["created"] and other["memory_ids"] == []
    assert mem.processed_sessions() == {"session_ids": ["sess-1"]}
    assert not mem.reflect("sess-1", "again")["created"]
    with pytest.raises(InvalidInput):
        mem.reflect("sess-2", "", lessons=["x"])
    with pytest.raises(InvalidInput):
        mem.reflect("sess-2", "ok", mood=["happy"])


def test_cli_loop_commands(cli_env, scope_id: str, rg: Recollect) -> None:  # type: ignore[no-untyped-def]
    import json

    from click.testing import CliRunner

    from recollect_graph.cli.main import cli

    _seed(rg, scope_id)
    run = CliRunner().invoke
    r = run(cli, ["sweep", "--scope", scope_id, "--min-score", "0", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["scanned"] == 4
    r = run(cli, ["memory", "suggestions", "--scope", scope_id, "--json"])
    sugg = json.loads(r.stdout)["suggestions"]
    assert sugg
    r = run(cli, ["memory", "review", "--accept", sugg[0]["id"], "--scope", scope_id, "--json"])
    assert json.loads(r.stdout)["results"][0]["status"] == "accepted"
    r = run(cli, ["memory", "review", "--accept", sugg[0]["id"], "--scope", scope_id])
    assert r.exit_code == 0 and "skipped" in r.output
    r = run(
        cli,
        [
            "reflect",
            "s-cli",
            "--summary",
            "did things",
            "--lesson",
            "pin versions",
            "--scope",
            scope_id,
            "--json",
        ],
    )
    assert json.loads(r.stdout)["created"]
    r = run(cli, ["sessions", "processed", "--scope", scope_id, "--json"])
    assert json.loads(r.stdout) == {"session_ids": ["s-cli"]}
    r = run(cli, ["sweep", "--every", "soon", "--scope", scope_id])
    assert r.exit_code == 1 and "--every" in r.output
