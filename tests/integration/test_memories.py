"""Lore's dialect: titled memories, de-duplication, auto-links, capture, ids mode, soft delete."""

from __future__ import annotations

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput
from recollect_graph.services.memories.service import Memories, derive_title


@pytest.fixture
def mem(rg: Recollect, scope_id: str) -> Memories:
    return rg.memories.in_scope(scope_id, "agent-1")


def test_insert_with_inline_links_and_dedup(mem: Memories, rg: Recollect) -> None:
    out = mem.insert(
        [
            {
                "title": "Vite build",
                "content": "The frontend is built with Vite since March",
                "score": 7,
            },
            {
                "title": "Slow CI",
                "content": "CI takes 40 minutes because of the e2e suite",
                "source_type": "inferred",
            },
        ]
    )
    assert [m["title"] for m in out["inserted_memories"]] == ["Vite build", "Slow CI"]
    vite, ci = (m["id"] for m in out["inserted_memories"])
    assert rg.get(vite, scope_id=mem.scope_id).score == 7
    assert rg.get(ci, scope_id=mem.scope_id).source_type == "inferred"
    again = mem.insert([{"title": "Vite build", "content": "something else entirely"}])
    assert again["inserted_memories"] == []
    assert (
        again["duplicates"][0]["existing_memory"]["id"] == vite
        and again["duplicates"][0]["similarity"] == 1.0
    )
    near = mem.insert(
        [{"title": "Frontend bundler", "content": "The frontend is built with Vite since March."}]
    )
    assert (
        near["inserted_memories"] == [] and near["duplicates"][0]["existing_memory"]["id"] == vite
    )
    linked = mem.insert(
        [
            {
                "title": "E2E flakiness",
                "content": "e2e tests flake on Safari",
                "links": [
                    {"target_memory_id": ci, "relation_type": "causes", "reason": "retries slow CI"}
                ],
            }
        ],
        links=[
            {
                "source_memory_id": vite,
                "target_memory_id": ci,
                "relation_type": "related_to",
                "reason": "x",
            },
            {
                "source_memory_id": vite,
                "target_memory_id": ci,
                "relation_type": "bogus",
                "reason": "x",
            },
        ],
    )
    assert {link["relation_type"] for link in linked["inserted_links"]} == {"causes", "related_to"}
    assert len(linked["errors"]) == 1 and "relation_type" in linked["errors"][0]["error"]


def test_force_inserts_near_duplicates_but_titles_stay_unique(mem: Memories) -> None:
    mem.insert([{"title": "Deploy day", "content": "We deploy on Tuesdays"}])
    forced = mem.insert(
        [{"title": "Deploy day (again)", "content": "We deploy on Tuesdays"}], force=True
    )
    assert len(forced["inserted_memories"]) == 1
    clash = mem.insert(
        [{"title": "Deploy day", "content": "We deploy on Thursdays now"}], force=True
    )
    assert clash["inserted_memories"] == [] and "already exists" in clash["errors"][0]["error"]


def test_bad_memories_are_reported_per_item(mem: Memories) -> None:
    out = mem.insert(
        [
            {"content": "no title"},
            {"title": "ok one", "content": "fine"},
            {"title": "bad", "score": 11},
        ]
    )
    assert [m["title"] for m in out["inserted_memories"]] == ["ok one"]
    assert len(out["errors"]) == 2
    with pytest.raises(InvalidInput):
        mem.insert({"title": "not a list"})  # type: ignore[arg-type]


def test_capture_derives_title_dedups_and_auto_links(mem: Memories, rg: Recollect) -> None:
    first = mem.capture("The staging database password rotates every 30 days via Vault.")
    assert first["title"].startswith("The staging database password") and not first["duplicate"]
    dup = mem.capture("The staging database password rotates every 30 days via Vault.")
    assert dup["duplicate"] and dup["id"] == first["id"]
    close = mem.capture(
        "Staging database passwords are rotated by Vault every 30 days, automatically."
    )
    if close["duplicate"]:
        assert close["id"] == first["id"]
    else:
        assert close["linked_to"]["id"] == first["id"] and close["linked_to"]["score"] >= 0.85
        edge = rg.query(
            "MATCH (:Entry {id: $a})-[r:REFERENCES]->(:Entry {id: $b}) RETURN r.origin AS o, r.reason AS why",
            {"a": close["id"], "b": first["id"]},
        )
        assert (
            edge
            and edge[0]["o"] == "auto"
            and edge[0]["why"].startswith("auto-linked from capture")
        )
    unrelated = mem.capture("Lunch is at noon on Fridays")
    assert unrelated["linked_to"] is None
    with pytest.raises(InvalidInput):
        mem.capture("x", source_type="rumour")


def test_derive_title() -> None:
    assert derive_title("short thought") == "short thought"
    long = "This is the first sentence of a long thought that goes on. And then it continues for a good while longer."
    assert derive_title(long) == "This is the first sentence of a long thought that goes on."
    assert len(derive_title("word " * 60)) <= 123


def test_search_modes(mem: Memories, rg: Recollect) -> None:
    ins = mem.insert(
        [
            {"title": f"fact {i}", "content": f"The service number {i} runs on port {8000 + i}"}
            for i in range(4)
        ],
        force=True,
    )
    ids = [m["id"] for m in ins["inserted_memories"]]
    full = mem.search("which port does service 2 use?", limit=3)
    assert full["total_matched"] >= 3 and len(full["results"]) == 3
    top = full["results"][0]
    assert set(top["relevance"]) >= {
        "combined_score",
        "semantic_score",
        "keyword_score",
        "graph_score",
    }
    assert top["memory"]["title"].startswith("fact") and "links" in top
    titles = mem.search("port", format="title", limit=2)
    assert set(titles["results"][0]) == {"id", "title", "score"}
    by_ids = mem.search(ids=[ids[3], "unknown", ids[1]])
    assert [r["memory"]["id"] for r in by_ids["results"]] == [ids[3], ids[1]]
    assert rg.get(ids[3], scope_id=mem.scope_id).access_count >= 1
    assert mem.search(ids=ids, sort_by="frequent")["results"][0]["memory"]["usage_count"] >= 1
    with pytest.raises(InvalidInput, match="query is required"):
        mem.search("")
    with pytest.raises(InvalidInput):
        mem.search("x", format="xml")


def test_soft_delete_restore_and_undo(mem: Memories, rg: Recollect, scope_id: str) -> None:
    ins = mem.insert(
        [{"title": "temp fact", "content": "The temp directory is /scratch on build agents"}]
    )
    mid = ins["inserted_memories"][0]["id"]
    out = mem.delete([mid, "missing"], reason="outdated")
    assert out["forgotten"] == [mid] and out["not_found"] == ["missing"] and out["operation_id"]
    assert all(
        r["memory"]["id"] != mid for r in mem.search("temp directory build agents")["results"]
    )
    assert mem.search("temp directory", include_deleted=True)["results"][0]["memory"][
        "soft_deleted"
    ]
    rg.undo(out["operation_id"], scope_id=scope_id)
    assert mem.search("temp directory build agents")["results"][0]["memory"]["id"] == mid
    mem.delete([mid], reason="duplicate")
    assert mem.restore([mid, "missing"]) == {"restored": [mid], "not_found": ["missing"]}
    with pytest.raises(InvalidInput):
        mem.delete([mid], reason="because")
    other = rg.memories.in_scope(scope_id + "-other")
    assert other.delete([mid])["not_found"] == [mid]
