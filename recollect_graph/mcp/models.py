"""Typed items the MCP tools take and the shapes they answer (pydantic, light to import).

The nested items of the tools' arguments (:class:`MemoryItem`, :class:`LinkItem`,
:class:`FeedbackItem`, :class:`ReviewItem`) are closed models: an unknown key is refused, like an
unknown argument. The output models become each tool's ``outputSchema``; their nested objects stay
open (``extra="allow"``) so a field the services add later does not break a client, while the keys
a client relies on are declared and checked on every call.

Example:
    >>> MemoryItem(title="Build tool: Vite", content="We use Vite.").score
    5.0
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: Where a memory's content came from (:data:`recollect_graph.vocabulary.SOURCE_TYPES`).
SourceType = Literal["observed", "inferred", "user_stated", "consolidated", "injected"]
#: Why a memory is deleted (:data:`recollect_graph.vocabulary.DELETE_REASONS`).
DeleteReason = Literal["duplicate", "hallucinated", "outdated", "expired", "unspecified"]
#: A knowledge link's relation (:data:`recollect_graph.vocabulary.RELATIONS`).
Relation = Literal[
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
]
#: An entry's type (:data:`recollect_graph.vocabulary.ENTRY_TYPES`).
EntryType = Literal[
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
]

Id = Annotated[str, Field(min_length=1, max_length=200, description="An id.")]
#: A moment of record time: only what was recorded (and believed) then.
AsOf = Annotated[
    str | None,
    Field(max_length=40, description="ISO 8601 date-time: what was known then (record time)."),
]
#: A moment of valid time: only what was true then.
ValidAt = Annotated[
    str | None,
    Field(max_length=40, description="ISO 8601 date-time: what was true then (valid time)."),
]
Tag = Annotated[str, Field(min_length=1, max_length=100)]


class Item(BaseModel):
    """A closed argument item: unknown keys are refused."""

    model_config = ConfigDict(extra="forbid")


class Out(BaseModel):
    """An open answer object: declared keys checked, more allowed (``truncated``, ...)."""

    model_config = ConfigDict(extra="allow")


# -- argument items -------------------------------------------------------------------------------


class InlineLink(Item):
    """A link from the memory being inserted to an existing memory."""

    target_memory_id: Id
    relation_type: Relation = Field("related_to", description="The link's relation.")
    reason: str | None = Field(None, max_length=1000, description="Why the link holds.")


class MemoryItem(Item):
    """One titled memory for ``lore_insert``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "title": "Frontend build tool: Vite",
                    "content": "We chose Vite over webpack: the dev server starts 10x faster.",
                    "tags": ["build"],
                    "score": 7,
                }
            ]
        },
    )

    title: str = Field(
        min_length=1, max_length=300, description="Short title, unique in the project."
    )
    content: str | None = Field(None, max_length=200_000, description="The memory's text.")
    description: str | None = Field(None, max_length=2000, description="One-line summary.")
    score: float = Field(5.0, ge=0, le=10, description="Importance 0-10.")
    source_type: SourceType = "observed"
    entry_type: EntryType = "note"
    tags: list[Tag] = Field(default_factory=list, max_length=50)
    links: list[InlineLink] = Field(default_factory=list, max_length=50)


class LinkItem(Item):
    """A link between two existing memories for ``lore_insert``'s ``links``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"source_memory_id": "e1", "target_memory_id": "e2", "relation_type": "supports"}
            ]
        },
    )

    source_memory_id: Id
    target_memory_id: Id
    relation_type: Relation
    reason: str | None = Field(None, max_length=1000)
    score: float = Field(1.0, ge=0, le=1, description="The link's weight 0-1.")


class FeedbackItem(Item):
    """A rating of one memory or link for ``lore_feedback``."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"id": "e1", "useful": True}]}
    )

    id: Id
    useful: bool = Field(description="Did it help?")
    confidence: int = Field(10, ge=1, le=10, description="How sure you are, 1-10.")


class ReviewItem(Item):
    """A decision on one pending link suggestion for ``lore_review_suggestion``."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"id": "s1", "action": "accept"}]}
    )

    id: Id
    action: Literal["accept", "reject"]
    relation_type: Relation | None = Field(None, description="Override the type on accept.")


def dump_items(items: list[Any]) -> list[dict[str, Any]]:
    """Items as the plain dicts the services take (unset optional keys left out)."""
    return [i.model_dump(exclude_none=True) if isinstance(i, BaseModel) else i for i in items]


# -- answers --------------------------------------------------------------------------------------
Obj = dict[str, Any]


class Error(BaseModel):
    """What went wrong: a stable code and one line a person can act on."""

    code: str = Field(description="invalid_input, not_found, ...")
    message: str


class ErrorOut(BaseModel):
    """A refused or failed call: ``{"error": {"code", "message"}}``."""

    error: Error


class IdTitle(Out):
    """A memory by id and title."""

    id: str
    title: str | None = None


class LoreSearchOut(Out):
    """``lore_search``."""

    results: list[Obj]
    total_matched: int
    query: str | None = None


class LoreInsertOut(Out):
    """``lore_insert``."""

    inserted_memories: list[IdTitle]
    inserted_links: list[Obj]
    duplicates: list[Obj]
    auto_links: list[Obj]
    errors: list[Obj]


class LoreSuggestLinksOut(Out):
    """``lore_suggest_links``."""

    source_id: str
    candidates: list[Obj]
    count: int


class LoreCaptureOut(Out):
    """``lore_capture``."""

    id: str
    title: str
    duplicate: bool
    linked_to: Obj | None = None


class LoreFeedbackOut(Out):
    """``lore_feedback``."""

    updated_memories: list[Obj]
    updated_links: list[Obj]
    soft_deleted_memories: list[str]
    errors: list[Obj]


class LoreDeleteOut(Out):
    """``lore_delete``."""

    forgotten: list[str]
    not_found: list[str]
    operation_id: str | None = None


class PendingOut(Out):
    """``lore_pending_suggestions``."""

    suggestions: list[Obj]
    count: int
    total_pending: int


class ReviewOut(Out):
    """``lore_review_suggestion``."""

    results: list[Obj]


class ReflectOut(Out):
    """``lore_reflect``."""

    session_id: str
    reflection_id: str
    created: bool
    memory_ids: list[str]


class ProcessedOut(Out):
    """``lore_list_processed_sessions``."""

    session_ids: list[str]


class RememberOut(Out):
    """``recollect_remember``."""

    id: str
    created: bool
    entry_type: str
    title: str | None = None
    tags: list[str]
    conflicts: list[Obj]


class HitOut(Out):
    """One ``recollect_search`` hit."""

    id: str
    title: str | None = None
    content: str
    entry_type: str
    score: float
    signals: dict[str, float]


class SearchOut(Out):
    """``recollect_search``."""

    query: str
    count: int
    hits: list[HitOut]


class ConflictOut(Out):
    """One conflict ``recollect_check_contradiction`` found."""

    type: str
    score: float
    reason: str
    existing_id: str


class CheckOut(Out):
    """``recollect_check_contradiction``."""

    ok: bool
    conflicts: list[ConflictOut]
    claims: list[Any]


class RecallOut(Out):
    """``recollect_recall``."""

    candidates: list[Obj]
    probes: list[Any] = Field(default_factory=list)


class ContextOut(Out):
    """``recollect_context``."""

    markdown: str
    tokens: int
    budget: int
    citations: list[Obj]
    cut: Obj


class ChunkHit(Out):
    """One document passage ``recollect_documents_search`` found."""

    id: str
    document_id: str
    document_title: str | None = None
    heading: str | None = None
    text: str
    score: float


class DocumentsSearchOut(Out):
    """``recollect_documents_search``."""

    query: str
    count: int
    chunks: list[ChunkHit]


class SupersedeOut(Out):
    """``recollect_supersede``."""

    new_entry_id: str
    superseded: list[str]
    operation_id: str


class OperationOut(Out):
    """One logged operation (what ``recollect_undo`` reverts)."""

    id: str
    kind: str
    at: str
    entry_ids: list[str]
    reason: str | None = None
    undone_at: str | None = None


class OperationsOut(Out):
    """``recollect_operations``."""

    operations: list[OperationOut]
    count: int


class ConflictsOut(Out):
    """``recollect_conflicts``."""

    conflicts: list[Obj]
    count: int


class ResolveOut(Out):
    """``recollect_resolve``."""

    kept: str
    loser: str
    operation_id: str | None = None


class SessionsOut(Out):
    """``recollect_sessions``."""

    sessions: list[Obj]
    count: int


class SessionOut(Out):
    """``recollect_session``: one session, its handoff and (optionally) its turns."""

    id: str
    handoff: Obj | None = None
    turns: list[Obj] | None = None


class HandoffOut(Out):
    """``recollect_handoff``."""

    session_id: str
    what: str
    next: str | None = None
    artifacts: list[str]
    blockers: list[str]


class EntityOut(Out):
    """``recollect_entity``."""

    id: str
    name: str
    mentions: list[Obj]
    relations: list[Obj]
    neighbours: list[Obj] = Field(default_factory=list)


class TopicsOut(Out):
    """``recollect_topics``."""

    topics: list[Obj]
    count: int


class TopicOut(Out):
    """``recollect_topic``."""

    id: str
    label: str | None = None
    stale: bool
    digest: list[Any]
    members: list[Obj]
