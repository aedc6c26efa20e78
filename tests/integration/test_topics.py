"""Topics on a real Neo4j with the real embedder: clusters, labels, staleness, rebuilds, CLI."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from recollect_graph import Recollect
from recollect_graph.cli.topics_cmd import topics_group
from recollect_graph.errors import TopicNotFound
from recollect_graph.services.kernel.hashing import content_hash
from recollect_graph.services.topics.service import Topics
from recollect_graph.settings import Settings

THEMES: dict[str, list[str]] = {
    "postgres": [
        "The Postgres index on orders.created_at cut the slow report query from 4s to 80ms.",
        "Postgres autovacuum fell behind on the orders table, so table bloat slowed queries.",
        "We raised Postgres work_mem so the sort in the revenue query stays in memory.",
        "A partial Postgres index on active orders keeps the index small and queries fast.",
        "EXPLAIN ANALYZE showed Postgres doing a sequential scan on orders; an index fixed it.",
        "Postgres ran out of connections until PgBouncer pooled the queries to the orders database.",
    ],
    "kubernetes": [
        "The Kubernetes deployment rolls pods one at a time with maxUnavailable set to 1.",
        "Kubernetes evicted pods on the node because the memory limit in the pod spec was too low.",
        "We use a Helm chart to deploy the api service to the Kubernetes cluster.",
        "The horizontal pod autoscaler scales Kubernetes pods on CPU above 70 percent.",
        "Kubernetes liveness probes restarted pods that hung during startup of the service.",
        "A Kubernetes namespace per team keeps pods, services and quotas in the cluster apart.",
    ],
    "sourdough": [
        "Feed the sourdough starter with equal weights of flour and water the night before baking.",
        "The sourdough dough rises best overnight in the fridge before baking the bread.",
        "Bake the sourdough bread in a Dutch oven at 250C with the lid on for the first 20 minutes.",
        "A stiff sourdough starter gives the bread a milder sour flavour and a taller loaf.",
        "Stretch and fold the sourdough dough every 30 minutes during bulk fermentation.",
        "Score the sourdough loaf with a razor so the bread opens evenly in the oven.",
    ],
}


@pytest.fixture
def topics(rg: Recollect) -> Topics:
    return Topics(rg.db, rg.embedder)


def _seed(rg: Recollect, scope_id: str) -> dict[str, list[str]]:
    """Remember the three themes; returns entry ids per theme."""
    out = {}
    for theme, texts in THEMES.items():
        entries = rg.remember_many([{"content": t} for t in texts], scope_id=scope_id, owner_id="t")
        out[theme] = [e.id for e in entries]
    return out


def _by_theme(rows: list[dict[str, Any]], word: str) -> dict[str, Any]:
    hits = [r for r in rows if word in r["label"] or word in r["keywords"]]
    assert len(hits) == 1, (word, rows)
    return hits[0]


def _edit(rg: Recollect, scope_id: str, entry_id: str, text: str) -> None:
    rg.db.write(
        "testing/topics_set_content",
        scope_id=scope_id,
        id=entry_id,
        content=text,
        content_hash=content_hash(text),
        embedding=rg.embedder.embed([text])[0],
    )


def test_three_themes_make_three_labelled_topics(
    rg: Recollect, topics: Topics, scope_id: str
) -> None:
    ids = _seed(rg, scope_id)
    report = topics.build(scope_id)
    assert (report["topics"], report["built"], report["kept"], report["removed"]) == (3, 3, 0, 0)
    assert report["members"] == 18 and report["clustered"] == 18
    rows = topics.list(scope_id)
    assert len(rows) == 3 and not any(r["stale"] for r in rows)
    for word in ("postgres", "kubernetes", "sourdough"):
        t = topics.show(scope_id, _by_theme(rows, word)["id"])
        assert t["member_count"] == 6
        assert {m["id"] for m in t["members"]} == set(ids[word])
        assert all(0.3 < m["confidence"] <= 1.0 for m in t["members"])
        assert word in t["label"] and word in t["keywords"]
        assert 1 <= len(t["digest"]) <= 5
        for d in t["digest"]:
            assert d["source"]["kind"] == "entry" and d["source"]["id"] in ids[word]
            assert d["text"] in " ".join(THEMES[word])
        assert len(t["embedding_model"]) > 0 and "embedding" not in t
        # the label finds the topic too
        assert topics.show(scope_id, t["label"])["id"] == t["id"]
    # idempotent: the same input gives the same topics, all kept
    again = topics.build(scope_id)
    assert (again["built"], again["kept"], again["removed"]) == (0, 3, 0)
    assert again["unchanged"] and not report["unchanged"]  # nothing changed: no clustering
    assert sorted(again["kept_ids"]) == sorted(r["id"] for r in rows)
    forced = topics.build(scope_id, all=True)
    assert (forced["built"], forced["kept"], forced["removed"]) == (3, 0, 0)
    assert sorted(forced["built_ids"]) == sorted(again["kept_ids"])


def test_a_content_edit_makes_only_its_topic_stale(
    rg: Recollect, topics: Topics, scope_id: str
) -> None:
    ids = _seed(rg, scope_id)
    topics.build(scope_id)
    before = {r["id"]: r for r in topics.list(scope_id)}
    pg = _by_theme(list(before.values()), "postgres")
    _edit(
        rg,
        scope_id,
        ids["postgres"][2],
        "We raised Postgres shared_buffers so the hot orders index stays cached in memory.",
    )
    rows = topics.list(scope_id)
    stale = [r for r in rows if r["stale"]]
    assert [r["id"] for r in stale] == [pg["id"]]  # same id set, new content: stale
    assert stale[0]["stale_reasons"] == ["members_changed"]
    assert stale[0]["current_members"] == 6
    assert topics.is_stale(scope_id, pg["id"])
    report = topics.build(scope_id)
    assert (report["built"], report["kept"], report["removed"]) == (1, 2, 0)
    assert report["built_ids"] == [pg["id"]]  # same members: same id, rewritten
    assert not any(r["stale"] for r in topics.list(scope_id))
    digest = " ".join(d["text"] for d in topics.show(scope_id, pg["id"])["digest"])
    assert "raised Postgres work_mem" not in digest  # the old text is gone from the digest


def test_an_entry_in_no_topic_reclusters_but_keeps_topics(
    rg: Recollect, topics: Topics, scope_id: str
) -> None:
    _seed(rg, scope_id)
    topics.build(scope_id)
    rg.remember("The office coffee machine is broken again.", scope_id=scope_id, owner_id="t")
    report = topics.build(scope_id)
    assert not report["unchanged"] and report["members"] == 19
    assert (report["built"], report["kept"], report["removed"]) == (0, 3, 0)
    assert topics.build(scope_id)["unchanged"]
    # the parameters are part of the scope fingerprint: a larger min_size drops every topic
    bigger = topics.build(scope_id, min_size=7)
    assert (bigger["topics"], bigger["removed"]) == (0, 3)
    assert topics.list(scope_id) == []
    assert topics.build(scope_id)["built"] == 3


def test_forget_a_member_then_build(rg: Recollect, topics: Topics, scope_id: str) -> None:
    ids = _seed(rg, scope_id)
    topics.build(scope_id)
    k8s = _by_theme(topics.list(scope_id), "kubernetes")
    rg.forget(ids["kubernetes"][0], scope_id=scope_id)
    listed = {r["id"]: r for r in topics.list(scope_id)}
    assert listed[k8s["id"]]["stale"] and listed[k8s["id"]]["current_members"] == 5
    report = topics.build(scope_id)
    assert (report["built"], report["kept"], report["removed"]) == (1, 2, 1)
    assert report["removed_ids"] == [k8s["id"]]
    new = _by_theme(topics.list(scope_id), "kubernetes")
    assert new["id"] != k8s["id"] and new["member_count"] == 5 and not new["stale"]


def test_the_stored_flag_alone_makes_a_topic_stale(
    rg: Recollect, topics: Topics, scope_id: str
) -> None:
    _seed(rg, scope_id)
    topics.build(scope_id)
    t = _by_theme(topics.list(scope_id), "sourdough")
    rg.query("MATCH (t:Topic {id: $id}) SET t.stale = true", params={"id": t["id"]}, write=True)
    assert topics.show(scope_id, t["id"])["stale_reasons"] == ["flagged"]
    report = topics.build(scope_id)
    assert (report["built"], report["kept"]) == (1, 2)
    assert not topics.is_stale(scope_id, t["id"])


def test_documents_join_topics_and_cite_chunks(
    rg: Recollect, topics: Topics, scope_id: str
) -> None:
    _seed(rg, scope_id)
    chunks = [
        "Sourdough hydration at 75 percent gives an open crumb in the bread.",
        "Keep the sourdough starter at room temperature and feed it daily before baking.",
    ]
    vecs = rg.embedder.embed(["Sourdough bread baking guide", *chunks])
    rg.db.write(
        "testing/topics_documents",
        scope_id=scope_id,
        owner_id="t",
        model=rg.embedder.model_id,
        docs=[
            {
                "id": f"{scope_id}-doc",
                "title": "Sourdough bread baking guide",
                "content_hash": content_hash(" ".join(chunks)),
                "embedding": vecs[0],
                "chunks": [
                    {
                        "id": f"{scope_id}-doc-{i}",
                        "seq": i,
                        "heading": "Baking",
                        "text": text,
                        "content_hash": content_hash(text),
                        "embedding": vecs[i + 1],
                    }
                    for i, text in enumerate(chunks)
                ],
            }
        ],
    )
    topics.build(scope_id)
    t = topics.show(scope_id, _by_theme(topics.list(scope_id), "sourdough")["id"])
    docs = [m for m in t["members"] if m["kind"] == "document"]
    assert [d["id"] for d in docs] == [f"{scope_id}-doc"]
    assert docs[0]["title"] == "Sourdough bread baking guide"
    # the digest can cite the document's chunks; every citation names its source
    for d in t["digest"]:
        if d["source"]["kind"] == "document":
            assert d["source"]["chunk_id"].startswith(f"{scope_id}-doc-")
            assert d["source"]["title"] == "Sourdough bread baking guide"


def test_scopes_are_isolated(rg: Recollect, topics: Topics, scope_id: str) -> None:
    _seed(rg, scope_id)
    other = f"{scope_id}-other"
    rg.remember_many([{"content": t} for t in THEMES["postgres"]], scope_id=other, owner_id="t")
    topics.build(scope_id)
    assert topics.list(other) == []
    report = topics.build(other)
    assert (report["topics"], report["members"]) == (1, 6)
    mine = {r["id"] for r in topics.list(scope_id)}
    theirs = {r["id"] for r in topics.list(other)}
    assert len(mine) == 3 and len(theirs) == 1 and not mine & theirs
    t = topics.show(other, next(iter(theirs)))
    assert all(m["id"] not in {x for x in mine} for m in t["members"])
    with pytest.raises(TopicNotFound, match="no topic"):
        topics.show(scope_id, next(iter(theirs)))
    # a rebuild in one scope never removes the other's topics
    assert topics.build(scope_id, all=True)["removed"] == 0
    assert {r["id"] for r in topics.list(other)} == theirs


def test_an_empty_scope_has_no_topics(topics: Topics, scope_id: str) -> None:
    report = topics.build(scope_id)
    assert (report["topics"], report["built"], report["removed"]) == (0, 0, 0)
    assert topics.list(scope_id) == []


def test_cli_build_list_show_json(
    rg: Recollect, cli_env: Settings, scope_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seed(rg, scope_id)
    monkeypatch.delenv("RECOLLECT_SCOPE", raising=False)
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> Any:
        r = runner.invoke(topics_group, list(args))
        assert r.exit_code == code, (r.stdout, r.stderr, r.exception)
        return r

    built = json.loads(run("build", "--scope", scope_id, "--json").stdout)
    assert (built["topics"], built["built"]) == (3, 3)
    rows = json.loads(run("list", "--scope", scope_id, "--json").stdout)
    assert len(rows) == 3 and {"id", "label", "keywords", "stale"} <= set(rows[0])
    shown = json.loads(run("show", rows[0]["id"], "--scope", scope_id, "--json").stdout)
    assert shown["id"] == rows[0]["id"] and shown["digest"] and shown["members"]
    text = run("show", rows[0]["label"], "--scope", scope_id).stdout
    assert "digest:" in text and "entry " in text
    assert "kept" in run("build", "--scope", scope_id).stdout
    assert rows[0]["label"][:10] in run("list", "--scope", scope_id).stdout
    missing = run("show", "nope", "--scope", scope_id, "--json", code=1)
    assert json.loads(missing.stdout)["error"] == "not_found"
    assert "--scope is required" in run("list", code=1).stderr
