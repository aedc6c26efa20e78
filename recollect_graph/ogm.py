"""neomodel models mirroring the graph, for notebooks and exploration.

The services never use these: they run the ``cypher/`` files through the driver. The models give
analysts typed, navigable objects over the same nodes. The node id is the ``id`` property; in
Python it is ``uid`` (neomodel reserves ``id``). The schema comes from ``cypher/schema/``, not
from neomodel's ``install_labels``.

Example:
    >>> from recollect_graph import Recollect
    >>> from recollect_graph import ogm
    >>> with Recollect.open() as rg:  # doctest: +SKIP
    ...     ogm.use(rg)
    ...     [e.title for e in ogm.Entry.nodes.filter(scope_id="demo")[:5]]
"""

from __future__ import annotations

from typing import Any

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    DateTimeNeo4jFormatProperty,
    FloatProperty,
    IntegerProperty,
    JSONProperty,
    RelationshipFrom,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
    get_config,
)


def use(rg: Any) -> None:
    """Point neomodel at the connection of a :class:`~recollect_graph.Recollect` object."""
    cfg = get_config()
    cfg.driver = rg.db.driver
    cfg.database_name = rg.db.database


class KnowledgeEdge(StructuredRel):
    """Properties of every Entry-to-Entry knowledge edge."""

    weight = FloatProperty(default=1.0)
    reason = StringProperty()
    score = FloatProperty()
    origin = StringProperty()
    created_at = DateTimeNeo4jFormatProperty()


class Scoped(StructuredNode):
    """Every node has an id and a scope."""

    __abstract_node__ = True
    uid = StringProperty(db_property="id", required=True)
    scope_id = StringProperty(index=True)


class Entity(Scoped):
    """A named thing found in entries and chunks."""

    name = StringProperty()
    normalized_name = StringProperty()
    entity_type = StringProperty()
    aliases = ArrayProperty(StringProperty())
    mention_count = IntegerProperty(default=0)
    embedding = ArrayProperty(FloatProperty())


class Claim(Scoped):
    """(subject, predicate, object, polarity, status) asserted by an entry."""

    subject = StringProperty()
    subject_key = StringProperty()
    predicate = StringProperty()
    object = StringProperty()
    polarity = StringProperty()
    status = StringProperty()
    asserted_by = RelationshipFrom("Entry", "ASSERTS")
    about = RelationshipTo(Entity, "ABOUT")


class Identifier(Scoped):
    """A literal with a namespace (url, fs_path, git_commit...)."""

    namespace = StringProperty()
    value = StringProperty()


class Topic(Scoped):
    """A cluster of entries/documents."""

    label = StringProperty()
    keywords = ArrayProperty(StringProperty())
    fingerprint = StringProperty()
    stale = BooleanProperty(default=False)
    embedding = ArrayProperty(FloatProperty())


class Entry(Scoped):
    """One unit of knowledge: a Recollect entry or a Lore memory (a memory has a title)."""

    owner_id = StringProperty(index=True)
    content = StringProperty()
    title = StringProperty()
    description = StringProperty()
    summary = StringProperty()
    tags = ArrayProperty(StringProperty())
    entry_type = StringProperty()
    source = StringProperty()
    source_type = StringProperty()
    source_id = StringProperty()
    metadata = JSONProperty()
    content_hash = StringProperty()
    embedding = ArrayProperty(FloatProperty())
    embedding_model = StringProperty()
    confidence = FloatProperty()
    half_life_days = FloatProperty()
    pinned = BooleanProperty(default=False)
    emotional_valence = StringProperty()
    schema_fit = FloatProperty()
    confidence_state = StringProperty()
    outcome_score = FloatProperty()
    score = FloatProperty()
    access_count = IntegerProperty(default=0)
    feedback_confidence = FloatProperty()
    created_at = DateTimeNeo4jFormatProperty()
    updated_at = DateTimeNeo4jFormatProperty()
    last_accessed_at = DateTimeNeo4jFormatProperty()
    valid_from = DateTimeNeo4jFormatProperty()
    valid_to = DateTimeNeo4jFormatProperty()
    retired_at = DateTimeNeo4jFormatProperty()
    soft_deleted_at = DateTimeNeo4jFormatProperty()

    leads_to = RelationshipTo("Entry", "LEADS_TO", model=KnowledgeEdge)
    supports = RelationshipTo("Entry", "SUPPORTS", model=KnowledgeEdge)
    contradicts = RelationshipTo("Entry", "CONTRADICTS", model=KnowledgeEdge)
    derived_from = RelationshipTo("Entry", "DERIVED_FROM", model=KnowledgeEdge)
    supersedes = RelationshipTo("Entry", "SUPERSEDES", model=KnowledgeEdge)
    related_to = RelationshipTo("Entry", "RELATED_TO", model=KnowledgeEdge)
    references = RelationshipTo("Entry", "REFERENCES", model=KnowledgeEdge)
    depends_on = RelationshipTo("Entry", "DEPENDS_ON", model=KnowledgeEdge)
    part_of = RelationshipTo("Entry", "PART_OF", model=KnowledgeEdge)
    causes = RelationshipTo("Entry", "CAUSES", model=KnowledgeEdge)
    asserts = RelationshipTo(Claim, "ASSERTS")
    mentions = RelationshipTo(Entity, "MENTIONS")
    in_topic = RelationshipTo(Topic, "IN_TOPIC")
    from_session = RelationshipTo("Session", "FROM_SESSION")
    cites = RelationshipTo(Identifier, "CITES")


class Session(Scoped):
    """An agent or work session; forks point at their parent."""

    cwd = StringProperty()
    title = StringProperty()
    initial_request = StringProperty()
    summary = StringProperty()
    handoff = StringProperty()
    keywords = ArrayProperty(StringProperty())
    topics = ArrayProperty(StringProperty())
    fork_marker = BooleanProperty(default=False)
    started_at = DateTimeNeo4jFormatProperty()
    last_turn_at = DateTimeNeo4jFormatProperty()
    processed_at = DateTimeNeo4jFormatProperty()
    embedding = ArrayProperty(FloatProperty())
    forked_from = RelationshipTo("Session", "FORKED_FROM")
    continues = RelationshipTo("Session", "CONTINUES")
    turns = RelationshipTo("Turn", "HAS_TURN")
    cites = RelationshipTo(Identifier, "CITES")


class Turn(Entry):
    """A conversation turn: an Entry that is also labelled Turn."""

    speaker = StringProperty()
    next = RelationshipTo("Turn", "NEXT")


class Collection(Scoped):
    """A named set of documents."""

    name = StringProperty()
    documents = RelationshipTo("Document", "CONTAINS")


class Chunk(Scoped):
    """A piece of a document, embedded and indexed."""

    text = StringProperty()
    heading = StringProperty()
    position = IntegerProperty()
    start_offset = IntegerProperty()
    end_offset = IntegerProperty()
    content_hash = StringProperty()
    embedding = ArrayProperty(FloatProperty())
    next = RelationshipTo("Chunk", "NEXT")
    mentions = RelationshipTo(Entity, "MENTIONS")


class Document(Scoped):
    """An ingested document."""

    owner_id = StringProperty()
    title = StringProperty()
    source_type = StringProperty()
    source_id = StringProperty()
    content_hash = StringProperty()
    status = StringProperty()
    updated_at = DateTimeNeo4jFormatProperty()
    chunks = RelationshipTo(Chunk, "HAS_CHUNK")


class Relation(Scoped):
    """An Entity-to-Entity fact, reified so it carries evidence."""

    predicate = StringProperty()
    source = RelationshipTo(Entity, "FROM")
    target = RelationshipTo(Entity, "TO")
    evidenced_by_chunk = RelationshipTo(Chunk, "EVIDENCED_BY")
    evidenced_by_entry = RelationshipTo(Entry, "EVIDENCED_BY")


class PipelineRun(Scoped):
    """One processing of a document, with per-step status."""

    status = StringProperty()
    started_at = DateTimeNeo4jFormatProperty()
    finished_at = DateTimeNeo4jFormatProperty()
    error = StringProperty()


class Marker(Scoped):
    """A salience marker (recall's salience track)."""

    kind = StringProperty()
    text = StringProperty()


class AccessEvent(Scoped):
    """One access (a view, a search or a recall) of entries, documents, chunks or sessions."""

    owner_id = StringProperty()
    kind = StringProperty()
    query = StringProperty()
    at = DateTimeNeo4jFormatProperty()
    entries = RelationshipTo(Entry, "ACCESSED")


class LinkSuggestion(Scoped):
    """A proposed edge between two entries, waiting for review."""

    relation_type = StringProperty()
    score = FloatProperty()
    status = StringProperty()


class Reflection(Scoped):
    """A reflection over processed sessions."""

    content = StringProperty()
    created_at = DateTimeNeo4jFormatProperty()


class LearnerCursor(Scoped):
    """How far a learner has read a source in a scope."""

    source = StringProperty()
    position = StringProperty()
    updated_at = DateTimeNeo4jFormatProperty()


class Operation(Scoped):
    """Audit log entry that makes a destructive change undoable."""

    kind = StringProperty()
    at = DateTimeNeo4jFormatProperty()
    payload = JSONProperty()
    undone_at = DateTimeNeo4jFormatProperty()


__all__ = [
    "AccessEvent",
    "Chunk",
    "Claim",
    "Collection",
    "Document",
    "Entity",
    "Entry",
    "Identifier",
    "KnowledgeEdge",
    "LearnerCursor",
    "LinkSuggestion",
    "Marker",
    "Operation",
    "PipelineRun",
    "Reflection",
    "Relation",
    "Session",
    "Topic",
    "Turn",
    "use",
]
