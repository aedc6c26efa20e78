"""The graph's vocabulary: every node label, relationship type, stored enum and index name.

This is the bottom layer: it imports nothing from the package. The schema migrations
(``cypher/schema/``), the statements under ``cypher/``, the export format, the neomodel classes
(:mod:`recollect_graph.ogm`) and the services' input checks all use these names;
``tests/unit/test_vocabulary.py`` checks, without a database, that they stay in step.
"""

from __future__ import annotations

# -- node labels ----------------------------------------------------------------------------------

#: The data labels in export order (what a node refers to comes before it). Each is the key label
#: of its nodes: a uniqueness constraint on ``id`` (``Session``: on ``(scope_id, id)``, the same
#: session may be ingested into two scopes).
KEY_LABELS = (
    "Entry",
    "Entity",
    "Identifier",
    "Marker",
    "Topic",
    "Session",
    "Claim",
    "Relation",
    "Collection",
    "Document",
    "Chunk",
    "PipelineRun",
    "AccessEvent",
    "LinkSuggestion",
    "Reflection",
    "LearnerCursor",
    "Operation",
)
#: Labels a node carries besides its key label: a conversation turn is an ``Entry`` that is also a
#: ``Turn`` (keyed as an entry; its ``id`` is unique too).
SECONDARY_LABELS = ("Turn",)
#: Every data label: each node of them carries a ``scope_id`` and a unique ``id``.
SCOPED_LABELS = (*KEY_LABELS, *SECONDARY_LABELS)
#: Every label a node of the data (and of an export) may carry.
NODE_LABELS = frozenset(SCOPED_LABELS)
#: Bookkeeping labels of the schema itself (applied migrations, the embedding model): unscoped,
#: never exported.
SCHEMA_LABELS = ("SchemaMigration", "SchemaMeta")
#: Every label in the graph.
ALL_LABELS = NODE_LABELS | frozenset(SCHEMA_LABELS)
#: The properties each label is unique by (its uniqueness constraint).
UNIQUE_KEYS: dict[str, tuple[str, ...]] = {
    **{label: ("id",) for label in SCOPED_LABELS},
    "Session": ("scope_id", "id"),
    "SchemaMigration": ("version",),
    "SchemaMeta": ("key",),
}

# -- relationship types ---------------------------------------------------------------------------

#: Knowledge edge relations between two entries of one scope, as callers name them (Recollect's
#: six plus Lore's); the relationship type is the upper-cased name.
RELATIONS = (
    "leads_to",
    "supports",
    "contradicts",
    "derived_from",
    "supersedes",
    "related_to",
    "references",
    "depends_on",
    "part_of",
    "causes",
)
#: Entry-to-entry knowledge edge types (``SUPPORTS``...), one per :data:`RELATIONS` name.
KNOWLEDGE_REL_TYPES = tuple(r.upper() for r in RELATIONS)
#: The knowledge edges a lifecycle change (supersede, consolidate) draws from the new entry to the
#: ones it replaces; undo removes them.
SUPERSEDE_REL_TYPES = ("SUPERSEDES", "DERIVED_FROM")
#: Structural relationship types (everything that is not a knowledge edge).
STRUCTURAL_REL_TYPES = (
    "ASSERTS",  # Entry -> Claim
    "ABOUT",  # Claim -> Entity
    "ABOUT_SESSION",  # Reflection -> Session
    "MENTIONS",  # Entry | Chunk -> Entity
    "IN_TOPIC",  # Entry | Document -> Topic
    "FROM_SESSION",  # Entry -> Session
    "CITES",  # Entry | Session -> Identifier
    "FORKED_FROM",  # Session -> Session (a fork to its parent)
    "CONTINUES",  # Session -> Session
    "HAS_TURN",  # Session -> Turn
    "HAS_MARKER",  # Session -> Marker
    "NEXT",  # Turn -> Turn, Chunk -> Chunk (reading order)
    "CONTAINS",  # Collection -> Document in the neomodel classes; accepted by import
    "HAS_CHUNK",  # Document -> Chunk
    "FROM",  # Relation -> Entity in the neomodel classes; accepted by import
    "TO",  # Relation -> Entity in the neomodel classes; accepted by import
    "EVIDENCED_BY",  # Relation -> Chunk | Entry
    "HAS_DOCUMENT",  # Collection -> Document
    "HAS_RUN",  # Document -> PipelineRun
    "SUBJECT",  # Relation -> Entity
    "OBJECT",  # Relation -> Entity
    "SIMILAR_TO",  # Document -> Document
    "SHARES_ENTITIES",  # Document -> Document
    "MAYBE_SAME_AS",  # Entity -> Entity (a merge candidate)
    "ACCESSED",  # AccessEvent -> Entry | Document | Chunk | Session
)
#: Every relationship type in the graph (and in an export).
REL_TYPES = frozenset((*KNOWLEDGE_REL_TYPES, *STRUCTURAL_REL_TYPES))

# -- entries --------------------------------------------------------------------------------------

#: Entry types (Recollect's list plus what the pattern classifier emits).
ENTRY_TYPES = (
    "note",
    "decision",
    "preference",
    "milestone",
    "problem",
    "emotional",
    "outcome",
    "event",
    "observation",
    "hypothesis",
    "session_summary",
    "conversation_turn",
    "commit",
    "ci_failure",
    "document",
    "reflection",
)
#: The entry type as a second label of its entry (``:Entry:Decision``), so that Neo4j Browser's
#: style colours commits, decisions, problems and document sections apart. Set when an entry is
#: written and backfilled by ``init``; a conversation turn keeps its ``Turn`` label instead. These
#: are not key labels (no constraint, no export branch): an export carries them, an import
#: restores them.
ENTRY_TYPE_LABELS: dict[str, str] = {
    "note": "Note",
    "decision": "Decision",
    "preference": "Preference",
    "milestone": "Milestone",
    "problem": "Problem",
    "emotional": "Emotional",
    "outcome": "Outcome",
    "event": "Event",
    "observation": "Observation",
    "hypothesis": "Hypothesis",
    "session_summary": "SessionSummary",
    "commit": "Commit",
    "ci_failure": "CiFailure",
    "document": "Section",
    "reflection": "Insight",
}
#: Every entry-type label.
TYPE_LABELS = frozenset(ENTRY_TYPE_LABELS.values())
#: Who wrote an entry.
SOURCES = ("agent", "system", "user")
#: How an entry's content was obtained.
SOURCE_TYPES = ("observed", "inferred", "user_stated", "consolidated", "injected")
#: An entry's emotional valence (it scales strength).
VALENCES = ("neutral", "positive", "negative", "critical")
#: Why a memory was deleted.
DELETE_REASONS = ("duplicate", "hallucinated", "outdated", "expired", "unspecified")
#: An entry's confidence state: ``active``, ``verified`` and ``observed`` are stored; ``stale`` is
#: computed at read time for an entry unused for 30 days (never for a verified one).
CONFIDENCE_STATES = ("active", "verified", "observed", "stale")

# -- documents and access -------------------------------------------------------------------------

#: Where a document came from.
DOCUMENT_SOURCE_TYPES = ("manual", "artifact", "conversation", "file")
#: A document's pipeline status.
DOCUMENT_STATUSES = ("pending", "ready", "failed")
#: What an ``AccessEvent`` records.
ACCESS_KINDS = ("view", "search", "recall")

# -- indexes --------------------------------------------------------------------------------------

#: Labels whose vector index ``<label>_embedding`` (on ``embedding``, cosine) the core migration
#: makes and ``doctor`` requires.
CORE_VECTOR_LABELS = ("Entry", "Chunk", "Entity", "Topic", "Session")
#: Every label with a vector index: the core ones plus ``Document`` (document vectors are derived
#: from their chunks').
VECTOR_LABELS = (*CORE_VECTOR_LABELS, "Document")
#: The full-text (Lucene) indexes: entry text, chunk text, entity names, session text.
FULLTEXT_INDEXES = ("entry_text", "chunk_text", "entity_name", "session_text")
#: What one search returns (``rg.search(kinds=...)``, ``search --kind``): entries, conversation
#: turns (entries of type ``conversation_turn``) and document chunks.
SEARCH_KINDS = ("entry", "turn", "chunk")
