"""The schema: constraints, vector and full-text indexes ONLINE, idempotent init, dimension check."""

from __future__ import annotations

import pytest

from recollect_graph import Recollect, Settings
from recollect_graph.db.schema import VECTOR_FILTERS, latest_version, list_indexes
from recollect_graph.errors import SchemaMismatch
from recollect_graph.models import ServerStatus

NODE_TYPES = [
    "Entry",
    "Claim",
    "Entity",
    "Relation",
    "Collection",
    "Document",
    "Chunk",
    "PipelineRun",
    "Topic",
    "Session",
    "Turn",
    "Identifier",
    "Marker",
    "LinkSuggestion",
    "Reflection",
    "LearnerCursor",
    "Operation",
]


def test_vector_indexes_are_cosine_384_and_online(rg: Recollect) -> None:
    rows = rg.query(
        "SHOW VECTOR INDEXES YIELD name, labelsOrTypes, state, options "
        "RETURN name, labelsOrTypes[0] AS label, state, options.indexConfig AS cfg"
    )
    by_label = {r["label"]: r for r in rows}
    assert set(by_label) >= {"Entry", "Chunk", "Entity", "Topic", "Session"}
    for r in rows:
        assert r["state"] == "ONLINE"
        assert r["cfg"]["vector.dimensions"] == 384
        assert r["cfg"]["vector.similarity_function"].lower() == "cosine"


def test_fulltext_indexes_online(rg: Recollect) -> None:
    rows = rg.query(
        "SHOW FULLTEXT INDEXES YIELD name, state, properties RETURN name, state, properties"
    )
    names = {r["name"]: r for r in rows}
    assert set(names) >= {"entry_text", "chunk_text", "entity_name", "session_text"}
    assert all(r["state"] == "ONLINE" for r in rows)
    assert {"title", "content", "summary", "tags"} <= set(names["entry_text"]["properties"])


def test_uniqueness_constraint_on_every_node_id(rg: Recollect) -> None:
    """Every node id is unique; a session id is unique within its scope."""
    rows = rg.query("SHOW CONSTRAINTS YIELD type, labelsOrTypes, properties RETURN *")
    unique = {
        (r["labelsOrTypes"][0], tuple(r["properties"])) for r in rows if r["type"] == "UNIQUENESS"
    }
    for label in NODE_TYPES:
        expected = ("scope_id", "id") if label == "Session" else ("id",)
        assert (label, expected) in unique, label


def test_init_is_idempotent_and_recorded(rg: Recollect) -> None:
    before = {i.name for i in list_indexes(rg.db)}
    report = rg.init_schema()
    assert report.applied == []
    assert report.already_applied[:2] == ["schema/001_core", "schema/002_entries"]
    assert {i.name for i in report.indexes} == before
    assert all(i.state == "ONLINE" for i in report.indexes)
    rows = rg.query(
        "MATCH (m:SchemaMigration) RETURN m.version AS v, m.applied_at IS NOT NULL AS t ORDER BY v"
    )
    assert rows[:2] == [{"v": 1, "t": True}, {"v": 2, "t": True}]


def test_fulltext_and_vector_search_use_the_indexes(rg: Recollect, scope_id: str) -> None:
    vec = rg.embedder.embed_one("the cache is disabled in production")
    rg.query(
        "CREATE (e:Entry {id: $id, scope_id: $s, content: $c, tags: ['ops'], embedding: $v})",
        {
            "id": f"{scope_id}-1",
            "s": scope_id,
            "c": "the cache is disabled in production",
            "v": vec,
        },
        write=True,
    )
    q = rg.embedder.embed_one("is caching turned off in prod?")
    hits = rg.query(
        "CALL db.index.vector.queryNodes('entry_embedding', 500, $q) YIELD node, score "
        "WHERE node.scope_id = $s RETURN node.id AS id, score",
        {"q": q, "s": scope_id},
    )
    # other tests' entries share the index: ask for enough neighbours, then keep this scope
    assert hits and hits[0]["id"] == f"{scope_id}-1" and hits[0]["score"] > 0.7
    ft = rg.query(
        "CALL db.index.fulltext.queryNodes('entry_text', 'ops') YIELD node WHERE node.scope_id = $s RETURN node.id AS id",
        {"s": scope_id},
    )
    assert ft == [{"id": f"{scope_id}-1"}]


def test_dimension_mismatch_refuses_to_run_and_reset_repairs(
    rg: Recollect, server_settings: Settings, neo4j_server: ServerStatus
) -> None:
    rg.query("DROP INDEX topic_embedding", write=True)
    rg.query(
        "CREATE VECTOR INDEX topic_embedding FOR (n:Topic) ON (n.embedding) "
        "OPTIONS {indexConfig: {`vector.dimensions`: 768, `vector.similarity_function`: 'cosine'}}",
        write=True,
    )
    try:
        with pytest.raises(SchemaMismatch) as e:
            Recollect.open(server_settings)
        msg = str(e.value)
        assert "768" in msg and "384" in msg and "re-embed" in msg
        assert "--reset-vector-indexes" in msg and "recollect-graph reembed" in msg
        assert e.value.remedy == "reset_vector_indexes"
        assert e.value.command == "recollect-graph reembed"
    finally:
        report = rg.init_schema(reset_vector_indexes_=True)
    topic = next(i for i in report.indexes if i.name == "topic_embedding")
    assert topic.dimensions == 384 and topic.state == "ONLINE"
    Recollect.open(server_settings).close()


def test_model_change_is_refused(rg: Recollect, server_settings: Settings) -> None:
    rg.query("MATCH (m:SchemaMeta {key: 'embedding'}) SET m.model = 'some-other-model'", write=True)
    try:
        with pytest.raises(SchemaMismatch, match="some-other-model"):
            Recollect.open(server_settings)
    finally:
        rg.query(
            "MATCH (m:SchemaMeta {key: 'embedding'}) SET m.model = $m",
            {"m": rg.embedder.model_id},
            write=True,
        )


def test_a_graph_behind_this_version_is_migrated_on_open(
    rg: Recollect, server_settings: Settings
) -> None:
    latest = latest_version()
    versions = "MATCH (m:SchemaMigration) RETURN m.version AS v"
    rg.query("MATCH (m:SchemaMigration {version: $v}) DELETE m", {"v": latest}, write=True)
    try:
        with pytest.raises(SchemaMismatch) as e:
            Recollect.open(server_settings, schema="check")
        assert (e.value.remedy, e.value.command) == ("migrate", "recollect-graph init")
        Recollect.open(server_settings).close()  # schema="auto" applies what is missing
        assert latest in {int(r["v"]) for r in rg.query(versions)}
    finally:
        rg.init_schema()


def test_vector_indexes_declare_the_filter_properties_their_lookups_use(rg: Recollect) -> None:
    """Neo4j 2026: scope (and state) filter inside each vector index; 5.26: plain indexes."""
    vector = {i.name: i for i in list_indexes(rg.db) if i.type == "VECTOR"}
    assert set(vector) >= set(VECTOR_FILTERS)
    for name, want in VECTOR_FILTERS.items():
        extra = [p for p in vector[name].properties if p != "embedding"]
        assert sorted(extra) == (sorted(want) if rg.db.filtered_vectors else []), name
    lookup = rg.db.statement_name("search/candidates")
    assert lookup == ("search/candidates_c25" if rg.db.filtered_vectors else "search/candidates")


def test_a_vector_index_without_filter_properties_is_recreated_once(
    rg: Recollect, server_settings: Settings, scope_id: str
) -> None:
    """An older 2026 store: init drops and recreates the index once; the data stays searchable."""
    rg.remember("the staging database is rebuilt every night", scope_id=scope_id, owner_id="kai")
    rg.query("DROP INDEX entry_embedding", write=True)
    rg.query(
        "CREATE VECTOR INDEX entry_embedding FOR (n:Entry) ON (n.embedding) "
        "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}",
        write=True,
    )
    try:
        if rg.db.filtered_vectors:
            with pytest.raises(SchemaMismatch, match="filter properties") as e:
                Recollect.open(server_settings, schema="check")
            assert e.value.command == "recollect-graph init"
    finally:
        first = rg.init_schema()
    second = rg.init_schema()
    assert first.recreated_vector_indexes == (["entry_embedding"] if rg.db.filtered_vectors else [])
    assert second.recreated_vector_indexes == []
    hits = rg.search("when is staging rebuilt?", scope_id=scope_id, limit=3, touch=False)
    assert hits and "staging database" in hits[0].entry.content


def test_a_fulltext_index_without_the_scope_is_recreated_once(
    rg: Recollect, server_settings: Settings, scope_id: str
) -> None:
    """A store made before entry_text indexed scope_id: init recreates it once; keyword works."""
    rg.remember("the ZQX-9921 gateway token rotates weekly", scope_id=scope_id, owner_id="kai")
    rg.query("DROP INDEX entry_text", write=True)
    rg.query(
        "CREATE FULLTEXT INDEX entry_text FOR (n:Entry) "
        "ON EACH [n.title, n.content, n.summary, n.description, n.tags]",
        write=True,
    )
    try:
        with pytest.raises(SchemaMismatch, match="does not index the scope") as e:
            Recollect.open(server_settings, schema="check")
        assert e.value.command == "recollect-graph init"
    finally:
        first = rg.init_schema()
    second = rg.init_schema()
    assert "entry_text" in first.recreated_vector_indexes
    assert "entry_text" not in second.recreated_vector_indexes
    indexes = {i.name: i for i in list_indexes(rg.db)}
    for name in ("entry_text", "chunk_text", "session_text"):
        assert "scope_id" in indexes[name].properties and indexes[name].state == "ONLINE", name
    hits = rg.search("ZQX-9921", scope_id=scope_id, limit=3, touch=False)
    assert hits and hits[0].signals.keyword == 1.0
