"""Every list command pages the same way: a stable order, --offset skipped, then --limit.

One test per command family against the session's Neo4j: a page is the matching slice of the
whole list, consecutive pages neither overlap nor leave gaps, a page past the end is empty, and
out-of-range values exit 1 with one error line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.services.kernel.times import now_utc
from tests.helpers import assert_one_line_error, data

T0 = datetime(2026, 3, 14, 9, 0, tzinfo=UTC)

Key = Callable[[Any], Any]


def _check_pages(run: Any, args: list[str], key: Key, *, size: int = 2) -> list[Any]:
    """The whole list (``--limit 1000``) equals its pages of ``size`` joined; returns the keys."""
    whole = [key(r) for r in data(run(*args, "--limit", "1000", "--json"))]
    assert len(whole) > size, whole  # at least two pages
    seen: list[Any] = []
    for offset in range(0, len(whole) + size, size):
        rows = data(run(*args, "--offset", str(offset), "--limit", str(size), "--json"))
        assert isinstance(rows, list)
        page = [key(r) for r in rows]
        assert page == whole[offset : offset + size], (offset, page, whole)
        assert not set(map(repr, page)) & set(map(repr, seen)), "pages overlap"
        seen += page
    assert seen == whole
    return whole


def test_recent_pages_newest_first(run: Any, rg: Recollect, scope_id: str) -> None:
    ids = [
        rg.remember(
            f"Fact number {i} about the paging test: {w}", scope_id=scope_id, owner_id="k"
        ).id
        for i, w in enumerate(["alpha", "bravo", "charlie", "delta", "echo"])
    ]
    newest_first = ids[::-1]
    got = data(run("recent", "--scope", scope_id, "--limit", "2", "--offset", "2", "--json"))
    assert [e["id"] for e in got] == newest_first[2:4]  # the 3rd and 4th newest
    assert _check_pages(run, ["recent", "--scope", scope_id], lambda e: e["id"]) == newest_first
    # the defaults are unchanged: no --offset is the first page
    assert [e["id"] for e in data(run("recent", "--scope", scope_id, "--json"))] == newest_first
    text = run("recent", "--scope", scope_id, "--offset", "4").stdout
    assert "alpha" in text and "echo" not in text


def test_operations_pages_newest_first(run: Any, rg: Recollect, scope_id: str) -> None:
    ids = [
        rg.remember(f"Short-lived note {w}", scope_id=scope_id, owner_id="k").id
        for w in ["one", "two", "three", "four", "five"]
    ]
    for eid in ids:
        rg.forget(eid, scope_id=scope_id)
    whole = _check_pages(run, ["operations", "--scope", scope_id], lambda o: o["entry_ids"])
    assert whole == [[eid] for eid in ids[::-1]]
    assert data(run("operations", "--scope", scope_id, "--offset", "5", "--json")) == []


def test_sessions_list_and_forks_pages(run: Any, rg: Recollect, scope_id: str) -> None:
    kw: dict[str, Any] = {"scope_id": scope_id, "owner_id": "kai", "index": False}

    def turns(sid: str, hour: int) -> list[dict[str, Any]]:
        at = T0 + timedelta(hours=hour)
        return [{"id": f"{sid}:0", "speaker": "kai", "text": f"Working on {sid} today", "at": at}]

    rg.sessions.add_turns("top", turns("top", 0), cwd="/home/kai/app", **kw)
    for h, sid in enumerate(["s1", "s2"], start=1):
        rg.sessions.add_turns(sid, turns(sid, h), cwd="/home/kai/app", **kw)
    for h, sid in enumerate(["f1", "f2", "f3"], start=3):
        rg.sessions.add_turns(sid, turns(sid, h), parent_session_id="top", **kw)
    listed = _check_pages(run, ["sessions", "list", "--scope", scope_id], lambda s: s["id"])
    assert listed == ["f3", "f2", "f1", "s2", "s1", "top"]
    forks = _check_pages(run, ["sessions", "forks", "--scope", scope_id], lambda s: s["id"])
    assert forks == ["f3", "f2", "f1"]
    page = data(
        run("sessions", "forks", "--scope", scope_id, "--offset", "1", "--limit", "1", "--json")
    )
    assert [f["id"] for f in page] == ["f2"] and page[0]["parent"]["parent_pointer"] == "top"
    only = data(run("sessions", "list", "--scope", scope_id, "--forks", "--offset", "2", "--json"))
    assert [s["id"] for s in only] == ["f1"]


def test_conflicts_list_pages_strongest_first(run: Any, rg: Recollect, scope_id: str) -> None:
    ids = [
        rg.remember(f"Setting {w} is configured somehow", scope_id=scope_id, owner_id="k").id
        for w in ["red", "green", "blue", "cyan", "pink"]
    ]
    scores = [0.9, 0.8, 0.8, 0.7]  # a tie: the order still is stable
    rg.db.write(
        "conflicts/record",
        rows=[
            {
                "source_id": ids[i + 1],
                "target_id": ids[0],
                "type": "value_conflict",
                "score": s,
                "reason": f"test {i}",
                "claim": None,
                "existing_claim": None,
            }
            for i, s in enumerate(scores)
        ],
        now=now_utc(),
    )
    whole = _check_pages(
        run, ["conflicts", "list", "--scope", scope_id], lambda c: (c["source"]["id"], c["score"])
    )
    assert [s for _, s in whole] == sorted(scores, reverse=True)
    assert {i for i, _ in whole} == set(ids[1:])


def test_memory_suggestions_pages(run: Any, rg: Recollect, scope_id: str) -> None:
    for t in [
        "The payments service retries failed charges three times with backoff.",
        "Failed charges in the payments service are retried three times, with backoff.",
        "The checkout page shows a spinner while payments are retried.",
        "Payments retries use exponential backoff, three attempts at most.",
    ]:
        rg.remember(t, scope_id=scope_id, owner_id="k")
    rg.memories.in_scope(scope_id, "kai").sweep(min_score=0.0)
    args = ["memory", "suggestions", "--scope", scope_id]
    whole = data(run(*args, "--limit", "100", "--json"))
    ids = [s["id"] for s in whole["suggestions"]]
    assert len(ids) >= 3 and whole["total_pending"] == len(ids)
    seen: list[str] = []
    for offset in range(0, len(ids) + 2, 2):
        out = data(run(*args, "--offset", str(offset), "--limit", "2", "--json"))
        # the shape is unchanged: a page of suggestions, its count and the total
        assert set(out) == {"suggestions", "count", "total_pending"}
        assert out["total_pending"] == len(ids) and out["count"] == len(out["suggestions"])
        page = [s["id"] for s in out["suggestions"]]
        assert page == ids[offset : offset + 2] and not set(page) & set(seen)
        seen += page
    assert seen == ids
    assert_one_line_error(run(*args, "--limit", "101", ok=False), "between 1 and 100")


def test_topics_list_pages_largest_first(run: Any, rg: Recollect, scope_id: str) -> None:
    from tests.integration.test_topics import THEMES

    for texts in THEMES.values():
        rg.remember_many([{"content": t} for t in texts], scope_id=scope_id, owner_id="t")
    rg.topics.build(scope_id)
    whole = _check_pages(run, ["topics", "list", "--scope", scope_id], lambda t: t["id"], size=1)
    assert len(whole) == 3
    assert [t["id"] for t in rg.topics.list(scope_id)] == whole  # the service's default: all
    rows = data(
        run("topics", "list", "--scope", scope_id, "--offset", "1", "--limit", "1", "--json")
    )
    assert rows[0]["current_members"] == rows[0]["member_count"] and not rows[0]["stale"]


def test_entities_review_pages_most_similar_first(run: Any, rg: Recollect, scope_id: str) -> None:
    rg.documents.ingest(
        "Team",
        "# Team\n\nAlice, Bob, Carol and Dave run PostgreSQL and Grafana in Berlin for Acme.\n",
        owner_id="kai",
        scope_id=scope_id,
    )
    ents = [
        r["id"]
        for r in rg.query(
            "MATCH (e:Entity {scope_id: $s}) RETURN e.id AS id ORDER BY id", {"s": scope_id}
        )
    ]
    assert len(ents) >= 5, ents
    pairs = [(ents[0], ents[i], s) for i, s in enumerate([0.9, 0.88, 0.88, 0.86], start=1)]
    rg.db.write(
        "entities/maybe_same",
        scope_id=scope_id,
        now=now_utc(),
        rows=[{"a": a, "b": b, "score": s} for a, b, s in pairs],
    )
    whole = _check_pages(
        run, ["entities", "review", "--scope", scope_id], lambda r: (r["a_id"], r["b_id"])
    )
    assert len(whole) >= 4 and set(whole) >= {(a, b) for a, b, _ in pairs}
    scores = [r["score"] for r in data(run("entities", "review", "--scope", scope_id, "--json"))]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize(
    "args",
    [
        ["recent"],
        ["operations"],
        ["sessions", "list"],
        ["sessions", "forks"],
        ["conflicts", "list"],
        ["memory", "suggestions"],
        ["topics", "list"],
        ["entities", "review"],
        ["docs", "list"],
    ],
    ids=lambda a: " ".join(a),
)
def test_every_list_command_checks_its_page_the_same_way(
    run: Any, scope_id: str, args: list[str]
) -> None:
    assert_one_line_error(run(*args, "--scope", scope_id, "--offset", "-1", ok=False), "--offset")
    r = run(*args, "--scope", scope_id, "--limit", "0", ok=False)
    assert_one_line_error(r, "--limit must be between 1 and")
    # an empty scope is an empty page
    out = data(run(*args, "--scope", scope_id, "--offset", "3", "--limit", "2", "--json"))
    assert out == [] or json.dumps(out).count('"suggestions": []') == 1
