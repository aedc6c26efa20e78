"""Frozen records passed between layers. Data only, no behaviour."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Record(BaseModel):
    """Base of every record: frozen, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class ServerStatus(Record):
    """State of the embedded Neo4j server.

    Attributes:
        running: A launcher process for this data directory is alive.
        pid: Its process id.
        bolt_uri: The Bolt URI to connect to.
        bolt_port: Bolt port.
        http_port: Neo4j Browser port (0 when Browser is off).
        browser_url: Where to open Neo4j Browser.
        home: Server home (store under ``data/``, logs under ``logs/``).
        version: Neo4j version the server reported.
        started_at: When it became ready.
        uptime_s: Seconds since ``started_at``.
        auth: Whether the server requires a password.
        rss_mb: Resident memory of the server process.
        attached: ``start`` found it already running and attached to it.
        recovered_stale: ``start`` found a pid file of a dead server and cleared it.
        start_seconds: How long ``start`` waited for the server (0 when it attached).
    """

    running: bool
    pid: int | None = None
    bolt_uri: str
    bolt_port: int
    http_port: int
    browser_url: str | None = None
    home: str
    version: str | None = None
    started_at: datetime | None = None
    uptime_s: float | None = None
    auth: bool = True
    rss_mb: float | None = None
    attached: bool = False
    recovered_stale: bool = False
    start_seconds: float | None = None


class Check(Record):
    """One line of ``recollect-graph doctor``."""

    name: str
    status: Literal["ok", "warn", "fail"]
    detail: str
    data: dict[str, Any] = {}


class IndexInfo(Record):
    """One index as ``SHOW INDEXES`` reports it."""

    name: str
    type: str
    entity_type: str | None = None
    labels: list[str] = []
    properties: list[str] = []
    state: str
    population_percent: float | None = None
    dimensions: int | None = None
    similarity: str | None = None


class SchemaReport(Record):
    """What ``init`` applied and the state of the schema afterwards."""

    applied: list[str]
    already_applied: list[str]
    indexes: list[IndexInfo]
    constraints: list[str]
    embedding_model: str
    dimensions: int
    seconds: float
    #: Indexes dropped and recreated with their filter properties, once: vector indexes for
    #: filtered vector search (Neo4j 2026), ``entry_text`` with ``scope_id``.
    recreated_vector_indexes: list[str] = Field(default_factory=list)


# -- knowledge core ---------------------------------------------------------------------------


class Entry(Record):
    """One unit of knowledge. A Lore memory is an entry with a ``title``.

    Lifecycle fields follow Recollect: ``strength`` and the effective ``confidence_state`` are
    computed at read time (see :mod:`recollect_graph.services.knowledge.lifecycle`).
    """

    id: str
    scope_id: str
    owner_id: str
    content: str
    title: str | None = None
    caption: str | None = None
    description: str | None = None
    summary: str | None = None
    tags: list[str] = []
    entry_type: str = "note"
    source: str = "system"
    source_type: str = "observed"
    source_id: str | None = None
    metadata: dict[str, Any] = {}
    context_hints: dict[str, Any] = {}
    content_hash: str | None = None
    embedding_model: str | None = None
    confidence: float = 1.0
    half_life_days: float = 7.0
    pinned: bool = False
    emotional_valence: str = "neutral"
    schema_fit: float = 0.5
    confidence_state: str = "active"
    outcome_score: int | None = None
    score: float = 5.0
    access_count: int = 0
    feedback_confidence: float | None = None
    created_at: datetime
    updated_at: datetime | None = None
    last_accessed_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    retired_at: datetime | None = None
    soft_deleted_at: datetime | None = None
    strength: float | None = None
    created: bool | None = None
    conflicts: list[dict[str, Any]] | None = None


class Edge(Record):
    """A knowledge edge between two entries of one scope."""

    source_id: str
    target_id: str
    relation: str
    weight: float = 1.0
    reason: str | None = None
    origin: str = "user"
    created_at: datetime | None = None
    created: bool | None = None


class Signals(Record):
    """Per-signal breakdown of a search hit (each in [0, 1]).

    ``brevity`` is the only signal that lowers a score: how short a conversation turn is (1 at 20
    characters or fewer, 0 from ``search_full_turn``, 200 by default; always 0 for other
    entries), weighted by ``w_length``. ``session``: for a conversation turn, the relevance of
    the best other turn of its session among the candidates, relative to the best candidate
    (weighted by ``w_session``). ``role``: 1 for a conversation turn of the other role than
    the one the question asks about (a user's question about what the assistant said, or about
    the user themself; see ``docs/search.md``), which lowers its score by ``w_role``.
    ``feedback``: similarity to the centroid of the candidates nearest the query (pseudo-relevance
    feedback, weighted by ``w_feedback``).
    ``event``: 1 for a person's conversation turn that reports something that happened ("I
    just signed...", "last weekend", "two days ago"): its relevance rises by ``w_event`` of itself.
    ``named``: 1 for a person's conversation turn that names someone or somewhere, when the
    question asks who or where ("Who did John go to yoga with?"): its relevance rises by
    ``w_name`` of itself.
    ``latest``: for a question about the current state of something ("How many followers do I
    have now?"), a conversation turn's place in time among the turns that answer it (the newest
    1, the oldest 0): its relevance rises by ``w_latest`` x ``latest`` of itself.
    """

    semantic: float = 0.0
    keyword: float = 0.0
    graph: float = 0.0
    strength: float = 0.0
    quality: float = 0.0
    usage: float = 0.0
    context: float = 0.0
    brevity: float = 0.0
    session: float = 0.0
    role: float = 0.0
    feedback: float = 0.0
    event: float = 0.0
    named: float = 0.0
    latest: float = 0.0


class Hit(Record):
    """One search result: the entry, its final score and why.

    Attributes:
        entry: The entry (as it was before this search bumped its access count). For a
            document chunk, a read-only view of it: the chunk's id and text, the document's
            title, owner and ingest time, ``entry_type`` ``"chunk"`` and ``source_id`` the
            document's id.
        score: The fused score results are ranked by.
        signals: The per-signal breakdown.
        via: When the graph signal is non-zero, how: ``"<relation> <hit id>"`` or
            ``"shares N entities with <hit id>"``.
        rank: 1-based position in the results.
        kind: What it is: ``entry``, ``turn`` (a conversation turn) or ``chunk`` (of a
            document); see :data:`recollect_graph.vocabulary.SEARCH_KINDS`.
        origin: Where it came from: for a chunk ``document_id``, ``document_title``,
            ``document_path``, ``heading`` (the heading path) and ``chunk`` (its index in the
            document); for a turn ``session_id``, ``speaker`` and ``turn`` (its index in the
            session); empty for other entries.
    """

    entry: Entry
    score: float
    signals: Signals
    via: str | None = None
    rank: int = 0
    kind: str = "entry"
    origin: dict[str, Any] = {}


class Operation(Record):
    """An audit record of a destructive change; ``before`` is what undo restores."""

    id: str
    kind: str
    scope_id: str
    actor: str | None = None
    at: datetime
    entry_ids: list[str]
    reason: str | None = None
    undone_at: datetime | None = None


class RecallCandidate(Record):
    """A session a vague recall may mean (Anamnesis' Candidate).

    Attributes:
        session_id: The session (for a fork: the fork's own id).
        confidence: ``low``, ``medium`` or ``high``.
        score: The fused score candidates are ranked by, with ``signals`` behind it.
        fingerprint: A prose description of the session (request, decision, outcome).
        cross_refs: Issues, PRs, URLs, commits and sessions the session cites.
        evidence: Why it matched (anchoring identifiers, shared markers, coinage, time).
        fork_marker: The session is a fork (sub-agent/sidechain); its own id is no resume handle.
        parent_pointer: For a fork, the resumable ancestor (or the missing parent's id).
        parent_cwd: That ancestor's working directory, when known.
        resumption_hint: ``cd <cwd> && claude --resume <id>``, or None when not resumable.
        missing_parent: For a fork whose parent record is gone, that parent's id.
    """

    session_id: str
    confidence: str
    score: float
    signals: dict[str, float] = {}
    cwd: str | None = None
    title: str | None = None
    topic: str | None = None
    keywords: list[str] = []
    fingerprint: str = ""
    cross_refs: list[str] = []
    evidence: list[str] = []
    started_at: datetime | None = None
    last_turn_at: datetime | None = None
    origin: str | None = None
    fork_marker: bool = False
    parent_pointer: str | None = None
    parent_cwd: str | None = None
    resumption_hint: str | None = None
    missing_parent: str | None = None
    handoff: str | None = None


class RecallProbe(Record):
    """A Socratic probe: a question along one dimension with concrete choices from the store."""

    dimension: str
    question: str
    options: list[str] = []


class RecallResult(Record):
    """The outcome of one recall attempt.

    Attributes:
        input_type: ``StructuredIdentifier``, ``NaturalRecall`` or ``Mixed``.
        track: ``entropy``, ``salience`` or ``hybrid``.
        attempt: Which attempt this was (1-based).
        candidates: Ranked candidates (empty when nothing matched).
        probes: Socratic probes offered instead of a verdict (zero candidates, first attempt).
        null_match: Nothing matched after a probe and an enriched re-scan (or at max attempts).
        single_obvious: Exactly one candidate, with high confidence.
        prose: The ClueVector prose of the best candidate (or what to do next).
        trace: What was read from the text: identifiers (anchoring or not), markers, time.
    """

    input_type: str
    track: str
    attempt: int
    candidates: list[RecallCandidate] = []
    probes: list[RecallProbe] = []
    null_match: bool = False
    single_obvious: bool = False
    prose: str = ""
    trace: dict[str, Any] = {}
