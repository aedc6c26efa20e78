"""Issue 18's bugs that had no test through the public API, the CLI or MCP.

The others are in test_contradictions.py (supersede, connect, units, contradictions in other
words, consolidation of conflicting claims, auto-link), test_undo_exact.py and
test_cli_contradictions.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import anyio
import pytest
from mcp.client.client import Client
from mcp.types import CallToolResult, TextContent

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput
from recollect_graph.mcp.server import build_server, select
from recollect_graph.mcp.tools import MemoryTools
from recollect_graph.settings import Settings
from recollect_graph.vocabulary import ENTRY_TYPES
from tests.helpers import data
from tests.integration.test_topics import THEMES


# -- MCP: recollect_remember -----------------------------------------------------------------
def _mcp_calls(rg: Recollect, scope_id: str, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    """Each call's JSON answer, through an in-memory MCP client on this session's store."""
    tools = MemoryTools(
        Settings(default_scope=scope_id, default_owner="mcp-agent"), opener=lambda _s: rg
    )
    server = build_server(tools, select("all"))

    async def go() -> list[CallToolResult]:
        async with Client(server) as c:
            return [await c.call_tool(name, args) for name, args in calls]

    out: list[Any] = []
    for r in anyio.run(go):
        block = r.content[0]
        assert isinstance(block, TextContent)
        body = json.loads(block.text)
        out.append(("error", body["error"]) if r.is_error else body)
    return out


def test_mcp_remember_records_postgres_16_against_mysql(rg: Recollect, scope_id: str) -> None:
    old, new, listed = _mcp_calls(
        rg,
        scope_id,
        (
            "recollect_remember",
            {"content": "We decided to use Postgres 16 for the billing service."},
        ),
        ("recollect_remember", {"content": "The billing service uses MySQL."}),
        ("recollect_conflicts", {}),
    )
    assert [c["entry_id"] for c in new["conflicts"]] == [old["id"]]
    assert new["conflicts"][0]["reason"]
    (c,) = listed["conflicts"]
    assert c["source"]["id"] == new["id"] and c["target"]["id"] == old["id"]
    assert [x.target.id for x in rg.conflicts(scope_id)] == [old["id"]]


def test_mcp_remember_keeps_an_explicit_type_and_refuses_an_unknown_one(
    rg: Recollect, scope_id: str
) -> None:
    explicit, classified, bogus, note = _mcp_calls(
        rg,
        scope_id,
        (
            "recollect_remember",
            {"content": "The nightly import failed again.", "entry_type": "preference"},
        ),
        ("recollect_remember", {"content": "The worker crashes on empty input."}),
        ("recollect_remember", {"content": "The export failed twice.", "entry_type": "bogus"}),
        ("recollect_remember", {"content": "The cron job crashes at night.", "entry_type": "note"}),
    )
    assert explicit["entry_type"] == "preference"  # auto_classify (on by default) overrides nothing
    assert classified["entry_type"] == "problem"  # no type given: classified
    assert note["entry_type"] == "note"  # an explicit note is kept too
    kind, err = bogus
    assert kind == "error" and err["code"] == "invalid_input" and "entry_type" in err["message"]
    assert all(f"'{t}'" in err["message"] for t in ENTRY_TYPES)  # the list, in the refusal
    rows = rg.query(
        "MATCH (e:Entry {scope_id: $s}) RETURN e.content AS c, e.entry_type AS t ORDER BY c",
        {"s": scope_id},
    )
    assert rows == [
        {"c": "The cron job crashes at night.", "t": "note"},
        {"c": "The nightly import failed again.", "t": "preference"},
        {"c": "The worker crashes on empty input.", "t": "problem"},
    ]  # the refused call wrote nothing


# -- classification through remember ---------------------------------------------------------
def test_remember_classifies_inflected_forms(rg: Recollect, scope_id: str) -> None:
    cases = {
        "The worker crashes on empty input.": "problem",
        "The nightly import failed again.": "problem",
        "Two bugs in the date picker.": "problem",
        "Ana prefers rebase merges.": "preference",
        "We'll use Vite for the admin app.": "decision",
    }
    got = rg.remember_many(
        [{"content": t, "auto_classify": True} for t in cases], scope_id=scope_id, owner_id="kai"
    )
    assert [e.entry_type for e in got] == list(cases.values())


def test_remember_types_what_no_pattern_knows_by_its_nearest_examples(
    rg: Recollect, scope_id: str
) -> None:
    texts = {
        "The README covers installation, configuration and the CLI reference.": "document",
        "Kickoff for the data platform project is Monday at 9.": "event",
        "Ravi likes tabs over spaces.": "preference",
        "zxqv 123": "note",  # near no example: stays a note
        "The deploy script lives at scripts/deploy.sh": "note",  # a split vote: stays a note
    }
    got = rg.remember_many(
        [{"content": t, "auto_classify": True} for t in texts], scope_id=scope_id, owner_id="kai"
    )
    assert [e.entry_type for e in got] == list(texts.values())
    assert got[0].metadata["classified_by"] == "examples"
    assert 0 < got[0].metadata["classification_confidence"] <= 1
    assert "classified_by" not in got[3].metadata
    # an explicit type is never replaced, by patterns or by examples
    kept = rg.remember(
        "The wiki page lists every dashboard and what it shows.",
        entry_type="note",
        auto_classify=True,
        scope_id=scope_id,
        owner_id="kai",
    )
    assert kept.entry_type == "note"


def test_every_entry_type_comes_out_of_remember(rg: Recollect, scope_id: str) -> None:
    one_each = {
        "decision": "We decided to use Postgres for the ledger.",
        "preference": "Ana prefers short PR descriptions.",
        "milestone": "We shipped the new checkout today.",
        "problem": "The worker crashes when the queue is empty.",
        "emotional": "I feel burned out after this week.",
        "hypothesis": "I suspect the DNS cache causes the timeouts.",
        "outcome": "The cache reduced p95 latency by 40 ms.",
        "observation": "I noticed the queue drains slower at night.",
        "event": "The planning meeting is on Thursday at 10.",
        "reflection": "In hindsight we should have load tested first.",
        "session_summary": "In this session we fixed the flaky auth test and added retries.",
        "commit": "fix: handle empty queue in the worker",
        "ci_failure": "CI failed on main: 3 tests in test_export.py.",
        "conversation_turn": "user: can you check why the build is slow?",
        "document": "This document describes the release process.",
        "note": "The staging URL is staging.example.com.",
    }
    assert set(one_each) == set(ENTRY_TYPES)
    got = rg.remember_many(
        [{"content": t, "auto_classify": True} for t in one_each.values()],
        scope_id=scope_id,
        owner_id="kai",
    )
    assert {e.content: e.entry_type for e in got} == {t: k for k, t in one_each.items()}


def test_remember_keeps_an_explicit_type_and_refuses_an_unknown_one(
    rg: Recollect, scope_id: str
) -> None:
    e = rg.remember(
        "The worker crashes on startup.",
        scope_id=scope_id,
        owner_id="kai",
        entry_type="decision",
        auto_classify=True,
    )
    assert e.entry_type == "decision"
    note = rg.remember(
        "The cron job crashes at night.",
        scope_id=scope_id,
        owner_id="kai",
        entry_type="note",
        auto_classify=True,
    )
    assert note.entry_type == "note"  # an explicit note is not reclassified
    with pytest.raises(InvalidInput, match="entry_type must be one of note, decision") as err:
        rg.remember(
            "The export failed twice.",
            scope_id=scope_id,
            owner_id="kai",
            entry_type="bogus",
            auto_classify=True,
        )
    assert "bogus" in str(err.value) and all(t in str(err.value) for t in ENTRY_TYPES)
    assert rg.query("MATCH (e:Entry {scope_id: $s}) RETURN count(e) AS n", {"s": scope_id}) == [
        {"n": 2}
    ]


def test_cli_remember_keeps_an_explicit_type_and_refuses_an_unknown_one(
    run: Any, scope_id: str
) -> None:
    text = "The worker crashes on startup."
    args = ("remember", text, "--scope", scope_id, "--auto-classify", "--json")
    assert data(run(*args, "--type", "decision"))["entry_type"] == "decision"
    r = run("remember", "The export failed.", "--scope", scope_id, "--type", "bogus", ok=False)
    assert r.exit_code == 2 and "bogus" in r.stderr and "ci_failure" in r.stderr


# -- supersede through the CLI ---------------------------------------------------------------
def test_cli_supersede_build_tool_is_and_owner(run: Any, scope_id: str) -> None:
    def remember(text: str) -> str:
        entry_id: str = data(run("remember", text, "--scope", scope_id, "--json"))["id"]
        return entry_id

    def get(entry_id: str) -> dict[str, Any]:
        entry: dict[str, Any] = data(run("get", entry_id, "--scope", scope_id, "--json"))[0]
        return entry

    tool = remember("The frontend build tool is webpack.")
    owner = remember("Kai owns the billing service.")
    k8s = remember("The billing service runs on Kubernetes in eu-west-1.")
    out = data(run("supersede", "frontend build tool", "is", "vite", "--scope", scope_id, "--json"))
    assert out["superseded"] == [tool] and out["operation_id"]
    assert get(tool)["retired_at"] is not None and get(out["new_entry_id"])["retired_at"] is None
    out = data(run("supersede", "billing service", "owner", "Ben", "--scope", scope_id, "--json"))
    assert out["superseded"] == [owner]
    new = get(out["new_entry_id"])["content"]
    assert "Ben" in new and "owns Ben" not in new
    assert get(k8s)["retired_at"] is None  # another slot of the same subject


# -- consolidation ---------------------------------------------------------------------------
def test_a_merge_is_worded_as_its_newest_member_not_its_longest(
    rg: Recollect, scope_id: str
) -> None:
    older = (
        "The nightly backup job runs at 2am and writes to the S3 bucket backups-prod, every night."
    )
    newer = "The nightly backup job runs at 2 am and writes to the S3 bucket backups-prod."
    ids = [rg.remember(t, scope_id=scope_id, owner_id="kai", force=True).id for t in (older, newer)]
    plan = rg.consolidate(scope_id)
    assert [sorted(m.members) for m in plan.merges] == [sorted(ids)]
    (cid,) = rg.consolidate(scope_id, dry_run=False).consolidated_ids
    content = rg.get(cid, scope_id=scope_id).content
    assert content.startswith(newer) and older not in content


def test_cli_consolidate_apply_applies_the_newer_wins_resolution(run: Any, scope_id: str) -> None:
    def remember(text: str) -> str:
        entry_id: str = data(run("remember", text, "--scope", scope_id, "--json"))["id"]
        return entry_id

    def retired(entry_id: str) -> bool:
        entry = data(run("get", entry_id, "--scope", scope_id, "--json"))[0]
        return entry["retired_at"] is not None

    old = remember("The public API rate limit is 500 requests per minute.")
    new = remember("The public API rate limit is 1000 requests per minute.")
    dry = data(run("consolidate", "--scope", scope_id, "--json"))
    assert dry["merges"] == [] and dry["applied"] is False
    (res,) = dry["resolutions"]
    assert (res["keep"], res["drop"]) == (new, old) and res["reason"].startswith("newer wins")
    assert not retired(old)
    text = run("consolidate", "--scope", scope_id).stdout
    assert f"keep {new} drop {old}" in text
    out = data(run("consolidate", "--scope", scope_id, "--apply", "--json"))
    assert out["applied"] is True and out["operation_id"] and out["consolidated_ids"] == []
    assert retired(old) and not retired(new)
    assert data(run("conflicts", "list", "--scope", scope_id, "--json")) == []
    run("undo", out["operation_id"], "--scope", scope_id)
    assert not retired(old)
    assert len(data(run("conflicts", "list", "--scope", scope_id, "--json"))) == 1


# -- entities and relations of a document ----------------------------------------------------
NOTES = (
    "Ana Souza owns the billing service. The billing service writes to PostgreSQL 15 and "
    "depends on Redis. Last week we replaced RabbitMQ with Kafka for the event bus. "
    "Dashboards live in Grafana and alerts go to PagerDuty. Exports are JSON files of about "
    "2 GB. Run the import with --dry-run first."
)


def test_document_entities_and_relations_of_engineering_notes(rg: Recollect, scope_id: str) -> None:
    rg.documents.ingest("Billing notes", NOTES, owner_id="kai", scope_id=scope_id)
    rows = rg.query(
        "MATCH (e:Entity {scope_id: $s}) RETURN e.normalized_name AS n, e.entity_type AS t",
        {"s": scope_id},
    )
    types = {r["n"]: r["t"] for r in rows}
    assert types.get("ana souza") == "person" and not {"ana", "souza"} & set(types)
    for tech in ("postgresql", "redis", "rabbitmq", "kafka", "grafana", "pagerduty"):
        assert types.get(tech) == "tool", (tech, types)
    assert not {"we", "json", "gb", "--dry-run", "dry-run"} & set(types), types
    assert "person" not in {t for n, t in types.items() if n != "ana souza"}, types

    def relations(name: str) -> set[tuple[str, str]]:
        rels = rg.entities.show(name, scope_id=scope_id)["relations"]
        return {(r["predicate"], r["other"].lower()) for r in rels}

    assert ("own", "billing service") in relations("ana souza")
    assert ("depend on", "redis") in relations("billing service")
    assert ("replace", "rabbitmq") in relations("kafka")


def test_remembered_claims_and_documents_meet_on_one_entity_and_no_fragment_is_one(
    rg: Recollect, scope_id: str
) -> None:
    rg.remember(
        "The billing service writes to PostgreSQL 15 and depends on Redis.",
        scope_id=scope_id,
        owner_id="kai",
    )
    rg.remember("Last week we replaced RabbitMQ with Kafka.", scope_id=scope_id, owner_id="kai")
    rg.documents.ingest("Billing notes", NOTES, owner_id="kai", scope_id=scope_id)
    rows = rg.query(
        "MATCH (e:Entity {scope_id: $s}) "
        "RETURN e.normalized_name AS n, e.name AS name, "
        "EXISTS { (e)<-[:ABOUT]-(:Claim) } AS claimed, "
        "EXISTS { (e)<-[:MENTIONS]-(:Chunk) } AS in_doc",
        {"s": scope_id},
    )
    by_key: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_key.setdefault(r["n"], []).append(r)
    # one "billing service", which both the remembered claims and the document's chunks reach
    assert [(r["claimed"], r["in_doc"]) for r in by_key["billing service"]] == [(True, True)]
    claimed = {r["n"] for r in rows if r["claimed"]}
    assert "we" not in claimed  # "we replaced RabbitMQ": about no entity
    assert all(len(n.split()) <= 5 for n in claimed), claimed  # no statement-long names
    assert not rg.check_invariants(scope_id).get("claims")


# -- topics: labels and digests --------------------------------------------------------------
CYPHER = [
    "Pass the id as a parameter instead of pasting it into the\nCypher text, so the plan cache "
    "keeps one plan. The query in Cypher:\n```cypher\nMATCH (e:Entry {id: $id}) RETURN e\n```",
    "Use MERGE on the key alone instead of the whole pattern in\nCypher, or the graph gets "
    "duplicate nodes. The fix in Cypher:\n```cypher\nMERGE (t:Tag {name: $name})\n```",
    "Write UNWIND over a list instead of one statement per row in\nCypher; a batch of a "
    "thousand rows runs in one round trip. In Cypher:\n```cypher\nUNWIND $rows AS row CREATE "
    "(n:Row) SET n = row\n```",
    "Match the relationship direction explicitly instead of leaving it\nopen in Cypher, or the "
    "planner expands both ways. The Cypher:\n```cypher\nMATCH (a)-[:NEXT]->(b) RETURN b\n```",
    "Put a label on every node pattern instead of matching any node in\nCypher queries, so the "
    "index on the label is used. The Cypher:\n```cypher\nMATCH (u:User {email: $email}) "
    "RETURN u\n```",
    "Profile a slow Cypher statement with PROFILE instead of guessing at\nthe plan; the db hits "
    "per operator show the cost. In Cypher:\n```cypher\nPROFILE MATCH (n:Entry) RETURN count(n)"
    "\n```",
]


def test_topic_labels_have_no_function_words_or_echoes_and_digests_are_whole_sentences(
    rg: Recollect, scope_id: str
) -> None:
    for texts in (THEMES["kubernetes"], THEMES["sourdough"], CYPHER):
        rg.remember_many([{"content": t} for t in texts], scope_id=scope_id, owner_id="t")
    assert rg.topics.build(scope_id)["topics"] == 3
    rows = rg.topics.list(scope_id)
    (cypher,) = [r for r in rows if "cypher" in r["label"]]
    topic = rg.topics.show(scope_id, cypher["id"])
    words = [*topic["label"].split(", "), *topic["keywords"]]
    assert "instead" not in " ".join(words).split(), words
    assert not [w for w in words if len(set(w.split())) < len(w.split())], words  # cypher cypher
    # the sentences of the members, their wrapped lines joined and code left out
    whole = {
        s
        for t in CYPHER
        for s in re.split(
            r"(?<=[.!?])\s+", re.sub(r"```.*?```", "", t, flags=re.S).replace("\n", " ")
        )
    }
    assert topic["digest"]
    for d in topic["digest"]:
        text = d["text"]
        assert text[0].isupper() and text.endswith("."), text
        assert text in whole, text  # never a wrapped line's piece
