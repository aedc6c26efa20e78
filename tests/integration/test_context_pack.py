"""Context packs against the real graph: sections, citations, scope and owner, hard budgets."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from recollect_graph import Recollect
from recollect_graph.cli.context_cmd import context_cmd, recommend_cmd
from recollect_graph.services.context.budget import Pack, TokenCounter
from recollect_graph.services.context.builder import ContextPack
from recollect_graph.services.search.hybrid import Search
from recollect_graph.settings import Settings

QUERY = "why is the cache disabled in production?"
BUDGETS = [1, 5, 12, 20, 33, 50, 64, 100, 150, 256, 400, 700, 1200, 3000, 8000]


def add_document(
    rg: Recollect, scope_id: str, doc_id: str, title: str, texts: list[str], owner: str = "kai"
) -> list[str]:
    """A Document with its chunks (embedded), as the documents pipeline will write them."""
    vecs = rg.embedder.embed([title, *texts])
    rows = [
        {"id": f"{doc_id}-c{i}", "seq": i, "text": t, "heading": f"Part {i}", "v": vecs[i + 1]}
        for i, t in enumerate(texts)
    ]
    rg.query(
        "CREATE (d:Document {id: $id, scope_id: $s, owner_id: $o, title: $t, embedding: $v}) "
        "WITH d UNWIND $rows AS r "
        "CREATE (d)-[:HAS_CHUNK]->(:Chunk {id: r.id, scope_id: $s, document_id: $id, seq: r.seq, "
        "text: r.text, heading: r.heading, start_offset: 0, end_offset: size(r.text), "
        "embedding: r.v, embedding_model: $m})",
        {
            "id": doc_id,
            "s": scope_id,
            "o": owner,
            "t": title,
            "v": vecs[0],
            "rows": rows,
            "m": rg.embedder.model_id,
        },
        write=True,
    )
    return [r["id"] for r in rows]


def mention(rg: Recollect, scope_id: str, item_id: str, name: str, etype: str = "ORG") -> str:
    """(Entry|Chunk)-[:MENTIONS]->(Entity) by name (entity id derived from the scope)."""
    eid = f"{scope_id}:ent:{name.lower()}"
    rg.query(
        "MATCH (x {id: $x}) WHERE x.scope_id = $s AND (x:Entry OR x:Chunk) "
        "MERGE (e:Entity {id: $eid}) ON CREATE SET e.scope_id = $s, e.name = $n, "
        "e.entity_type = $t, e.mention_count = 0 "
        "MERGE (x)-[m:MENTIONS]->(e) ON CREATE SET m.count = 1, e.mention_count = "
        "e.mention_count + 1",
        {"x": item_id, "s": scope_id, "eid": eid, "n": name, "t": etype},
        write=True,
    )
    return eid


def relate(rg: Recollect, scope_id: str, subj: str, pred: str, obj: str, evidence: str) -> str:
    rid = f"{subj}|{pred}|{obj}"
    rg.query(
        "MATCH (s:Entity {id: $s}), (o:Entity {id: $o}), (ev {id: $ev}) "
        "CREATE (r:Relation {id: $id, scope_id: $scope, predicate: $p, weight: 1.0}) "
        "CREATE (r)-[:SUBJECT]->(s), (r)-[:OBJECT]->(o), (r)-[:EVIDENCED_BY]->(ev)",
        {"s": subj, "o": obj, "ev": evidence, "id": rid, "scope": scope_id, "p": pred},
        write=True,
    )
    return rid


@pytest.fixture
def kb(rg: Recollect, scope_id: str) -> dict[str, Any]:
    """A small scope: entries, a knowledge edge, a document, entities and a relation."""
    own = {"scope_id": scope_id, "owner_id": "kai"}
    cache = rg.remember(
        "The cache is disabled in production because invalidation served stale prices twice.",
        title="Cache off in prod",
        **own,
    )
    redis = rg.remember(
        "Redis stays as the session store; only the price cache was turned off.",
        title="Redis keeps sessions",
        **own,
    )
    postmortem = rg.remember(
        "Finance approved the quarterly hardware budget for new laptops.",
        title="Laptop budget approved",
        **own,
    )
    rg.connect(postmortem.id, cache.id, "LEADS_TO", scope_id=scope_id)
    other = rg.remember(
        "The production cache is disabled until the invalidation bus is rebuilt.",
        scope_id=scope_id,
        owner_id="ana",
        title="Ana's cache note",
    )
    chunks = add_document(
        rg,
        scope_id,
        f"{scope_id}-doc",
        "Caching design",
        [
            "We disabled the production cache after invalidation failures returned stale data.",
            "The cache will return once the event bus delivers invalidations reliably.",
            "Appendix: the office plant watering rota.",
        ],
    )
    redis_e = mention(rg, scope_id, cache.id, "Redis", "PRODUCT")
    prod_e = mention(rg, scope_id, chunks[0], "Production", "ENV")
    mention(rg, scope_id, redis.id, "Redis", "PRODUCT")
    rel = relate(rg, scope_id, redis_e, "runs_in", prod_e, chunks[0])
    return {
        "cache": cache.id,
        "redis": redis.id,
        "postmortem": postmortem.id,
        "other": other.id,
        "chunks": chunks,
        "relation": rel,
    }


def _pack(rg: Recollect, scope_id: str, budget: int, **kw: Any) -> Pack:
    search = Search(rg.db, rg.embedder, rg.settings)
    return ContextPack(rg.db, rg.embedder, search).build(
        QUERY, scope_id=scope_id, budget_tokens=budget, **kw
    )


def test_pack_fills_every_section_with_citations(
    rg: Recollect, scope_id: str, kb: dict[str, Any]
) -> None:
    pack = _pack(rg, scope_id, 3000)
    md = pack.markdown
    heads = [line for line in md.splitlines() if line.startswith("## ")]
    assert heads == ["## Entries", "## Chunks", "## Entities", "## Relations", "## Related"], md
    assert re.search(rf"- \[E\d\] Cache off in prod \(entry {kb['cache']}\): The cache", md)
    assert f"Caching design #0 > Part 0 (chunk {kb['chunks'][0]})" in md
    assert "Redis (PRODUCT): in E" in md
    assert "Redis --runs_in--> Production (evidence C" in md
    assert f"Laptop budget approved (entry {kb['postmortem']}; this LEADS_TO E" in md
    counter = TokenCounter(rg.embedder.tokenizer)
    assert pack.tokens == counter.count(md) <= 3000
    keys = {c["key"]: c for c in pack.citations}
    by_id = {c["id"]: c for c in pack.citations}
    assert by_id[kb["cache"]]["title"] == "Cache off in prod"
    assert by_id[kb["cache"]]["key"].startswith("E") and keys["E1"]["section"] == "entries"
    chunk_cites = [c for c in pack.citations if c["kind"] == "chunk"]
    assert {"document_title", "seq", "id"} <= set(chunk_cites[0])
    assert all(f"[{k}]" in md for k in keys)
    assert pack.cut["reason"] == "everything fitted"
    # the plant rota is not relevant: no query word, low cosine
    assert kb["chunks"][2] not in md and kb["chunks"][1] in md


@pytest.mark.parametrize("ids", [True, False])
def test_never_over_budget(rg: Recollect, scope_id: str, kb: dict[str, Any], ids: bool) -> None:
    counter = TokenCounter(rg.embedder.tokenizer)
    sizes = []
    for budget in BUDGETS:
        pack = _pack(rg, scope_id, budget, ids=ids)
        assert pack.tokens == counter.count(pack.markdown) <= budget, (budget, pack.markdown)
        sizes.append(pack.tokens)
        if budget <= 50:
            left = sum(len(v["left_out"]) for v in pack.cut.values() if isinstance(v, dict))
            assert left > 0 and "did not fit" in pack.cut["reason"]
    assert sizes[-1] > sizes[len(sizes) // 2] > 0  # bigger budgets hold more
    if not ids:
        assert kb["cache"] not in _pack(rg, scope_id, 3000, ids=False).markdown


def test_truncated_items_are_marked_and_reported(
    rg: Recollect, scope_id: str, kb: dict[str, Any]
) -> None:
    long = " ".join(["The production cache stays disabled while invalidation is unreliable."] * 40)
    e = rg.remember(long, scope_id=scope_id, owner_id="kai", title="Long cache memo")
    pack = _pack(rg, scope_id, 200)
    assert pack.tokens <= 200
    truncated = [i for sec in ("entries", "chunks") for i in pack.cut[sec]["truncated"]]
    if e.id in pack.markdown:
        assert "[…]" in pack.markdown and e.id in truncated
    assert all(c["truncated"] == (c["id"] in truncated) for c in pack.citations)


def test_scope_and_owner_are_respected(rg: Recollect, scope_id: str, kb: dict[str, Any]) -> None:
    foreign = f"{scope_id}-other"
    add_document(rg, foreign, f"{foreign}-doc", "Caching design", ["The cache is disabled."])
    rg.remember("Why the cache is disabled in production.", scope_id=foreign, owner_id="kai")
    pack = _pack(rg, scope_id, 8000)
    assert foreign not in json.dumps(pack.citations)
    assert kb["other"] in pack.markdown
    mine = _pack(rg, scope_id, 8000, owner_id="kai")
    assert kb["other"] not in mine.markdown and kb["cache"] in mine.markdown
    assert _pack(rg, scope_id, 8000, owner_id="nobody").markdown == ""


def test_empty_scope_gives_an_empty_pack(rg: Recollect, scope_id: str) -> None:
    pack = _pack(rg, scope_id, 500)
    assert pack.markdown == "" and pack.tokens == 0 and pack.citations == []
    assert pack.cut["reason"] == "everything fitted"
    assert pack.cut["entries"]["candidates"] == 0


def test_cli_context_and_recommend(cli_env: Settings, scope_id: str, kb: dict[str, Any]) -> None:
    runner = CliRunner()
    r = runner.invoke(context_cmd, [QUERY, "--scope", scope_id, "--budget", "120", "--json"])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    data = json.loads(r.stdout)
    assert data["tokens"] <= 120 and data["budget"] == 120 and "cut" in data
    r = runner.invoke(context_cmd, [QUERY, "--scope", scope_id, "--budget", "2000"])
    assert r.exit_code == 0 and "## Entries" in r.stdout and "/2000 tokens" in r.stderr
    r = runner.invoke(context_cmd, [QUERY, "--budget", "100"], env={"RECOLLECT_SCOPE": ""})
    assert r.exit_code == 1 and "--scope is required" in r.stderr
    r = runner.invoke(recommend_cmd, ["--scope", scope_id, "--owner", "kai", "--json"])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    data = json.loads(r.stdout)
    assert data["items"] == [] and "nothing was accessed" in data["reason"]
    r = runner.invoke(recommend_cmd, ["--scope", scope_id])
    assert r.exit_code == 0 and "nothing was accessed" in r.stdout
