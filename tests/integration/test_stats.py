"""Statistics and inspection: ``rg.stats``, ``rg.show`` and their CLI commands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput, NodeNotFound
from tests.helpers import assert_one_line_error, data

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def build(rg: Recollect, scope_id: str) -> list[str]:
    ids = [
        rg.remember(text, scope_id=scope_id, owner_id="kai").id
        for text in ("The build uses vite.", "Deploys run on Fridays.", "Kai owns billing.")
    ]
    rg.connect(ids[0], ids[1], "related_to", scope_id=scope_id)
    turns = [
        {
            "id": f"t{i}",
            "speaker": "user",
            "text": f"Step {i}: fix ci.yml",
            "at": T0 + timedelta(minutes=i),
        }
        for i in range(3)
    ]
    rg.sessions.add_turns("conv-s", turns, scope_id=scope_id, owner_id="kai")
    # waiting work, written directly: one open contradiction and one pending suggestion
    rg.query(
        "MATCH (a:Entry {id: $a}), (b:Entry {id: $b}) "
        "CREATE (a)-[:CONTRADICTS {status: 'open', score: 0.9}]->(b) "
        "CREATE (:LinkSuggestion {id: $sid, scope_id: $s, status: 'pending', a: $a, b: $b})",
        {"a": ids[0], "b": ids[2], "s": scope_id, "sid": f"{scope_id}-sug"},
        write=True,
    )
    return ids


def test_stats_of_a_scope_and_of_the_graph(rg: Recollect, scope_id: str) -> None:
    build(rg, scope_id)
    s = rg.stats(scope_id)
    assert s["scope_id"] == scope_id
    assert s["labels"]["Turn"] == 3 and s["labels"]["Session"] == 1
    assert s["labels"]["Entry"] == 6  # three entries and three turns
    assert s["relationships"]["HAS_TURN"] == 3 and s["relationships"]["NEXT"] == 2
    assert s["relationships"]["RELATED_TO"] == 1
    assert s["pending_suggestions"] == 1 and s["open_conflicts"] == 1
    assert s["stale_topics"] == 0 and s["stale_sessions"] == 0
    assert s["indexes"] and all(i["state"] == "ONLINE" for i in s["indexes"])
    assert {"entry_embedding", "entry_text"} <= {i["name"] for i in s["indexes"]}
    assert s["store_bytes"] is not None and s["store_bytes"] > 0  # the embedded server
    whole = rg.stats()
    assert whole["scope_id"] is None
    assert whole["labels"]["Turn"] >= 3 and whole["relationships"]["HAS_TURN"] >= 3
    assert whole["pending_suggestions"] >= 1
    other = rg.stats(f"{scope_id}-empty")
    assert other["labels"] == {} and other["relationships"] == {}


def test_show_a_node_and_its_neighbourhood(rg: Recollect, scope_id: str) -> None:
    ids = build(rg, scope_id)
    found = rg.show(ids[0], scope_id=scope_id)
    (node,) = found["nodes"]
    assert node["labels"][0] == "Entry" and node["id"] == ids[0]  # then its type label
    assert node["props"]["content"] == "The build uses vite." and "embedding" not in node["props"]
    kinds = {(n["type"], n["outgoing"], n["label"]) for n in node["neighbours"]}
    assert ("RELATED_TO", True, "Entry") in kinds and ("CONTRADICTS", True, "Entry") in kinds
    related = next(n for n in node["neighbours"] if n["type"] == "RELATED_TO")
    assert related["id"] == ids[1] and related["caption"] == "Deploys run on Fridays."
    assert node["more"] == 0 and node["total"] == len(node["neighbours"])

    session = rg.show("conv-s", scope_id=scope_id, limit=2)["nodes"][0]
    assert session["labels"] == ["Session"] and session["scope_id"] == scope_id
    assert len(session["neighbours"]) == 2 and session["more"] == session["total"] - 2
    assert session["total"] >= 3

    with pytest.raises(NodeNotFound, match="no node"):
        rg.show("no-such-id", scope_id=scope_id)
    with pytest.raises(InvalidInput, match="limit"):
        rg.show(ids[0], limit=0, scope_id=scope_id)


def test_cli_stats_and_show(run: Any, scope_id: str) -> None:
    r = run("remember", "--scope", scope_id, "We deploy on Fridays.", "--json")
    entry_id = data(r)["id"]
    r = run("stats", "--scope", scope_id, "--json")
    assert data(r)["labels"]["Entry"] == 1
    r = run("stats", "--scope", scope_id)
    assert "pending link suggestions: 0" in r.stdout and "store size:" in r.stdout
    r = run("show", entry_id, "--scope", scope_id, "--json")
    assert data(r)["nodes"][0]["props"]["content"] == "We deploy on Fridays."
    r = run("show", entry_id, "--scope", scope_id)
    assert f"Entry:Note {entry_id}" in r.stdout and "content:" in r.stdout
    assert_one_line_error(run("show", "nope", "--scope", scope_id, ok=False), "no node")
