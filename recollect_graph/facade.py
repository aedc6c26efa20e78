"""``Recollect``: the one object users hold.

It is the whole public surface in one place: the capability handles, and one documented
delegation per top-level verb (with its example). That is why it runs past the ~500 lines other
modules keep to; it holds no behaviour of its own beyond opening, the start-up check and closing.

Example:
    >>> from recollect_graph import Recollect
    >>> with Recollect.open() as rg:  # doctest: +SKIP
    ...     rg.query("MATCH (e:Entry) RETURN count(e) AS n")
    [{'n': 0}]
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from recollect_graph.db.client import Db
from recollect_graph.db.host import ensure_password
from recollect_graph.db.records import Row
from recollect_graph.db.schema import apply_schema, check_schema, reset_vector_indexes
from recollect_graph.db.server import LocalServer
from recollect_graph.errors import SchemaMismatch
from recollect_graph.models import (
    Check,
    Edge,
    Entry,
    Hit,
    Operation,
    RecallProbe,
    RecallResult,
    SchemaReport,
    ServerStatus,
)
from recollect_graph.nlp.claims import CLAIM_EXCLUDE, ClaimExtractor
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.nlp.entities import EntityExtractor
from recollect_graph.nlp.model_profiles import for_model
from recollect_graph.nlp.spacy_loader import SpacyLoader
from recollect_graph.results import (
    ConsolidationReport,
    EntrySupersession,
    ForkParent,
    ImportReport,
    Invalidation,
    OpenConflict,
    Resolution,
    Supersession,
)
from recollect_graph.services.admin.doctor import run_doctor
from recollect_graph.services.admin.invariants import Invariants
from recollect_graph.services.admin.reembed import Reembedder, ReembedReport
from recollect_graph.services.admin.scopes import Scopes
from recollect_graph.services.admin.stats import Stats
from recollect_graph.services.claims.contradictions import ContradictionResult, Contradictions
from recollect_graph.services.context.budget import Pack
from recollect_graph.services.context.builder import ContextPack
from recollect_graph.services.documents.service import Documents
from recollect_graph.services.entities.service import Entities
from recollect_graph.services.knowledge.access import Recommendations
from recollect_graph.services.knowledge.consolidation import Consolidation
from recollect_graph.services.knowledge.entries import Knowledge
from recollect_graph.services.memories.service import Memories
from recollect_graph.services.search.hybrid import Search
from recollect_graph.services.sessions.recall import Recall
from recollect_graph.services.sessions.service import Sessions
from recollect_graph.services.transfer.service import Transfer
from recollect_graph.settings import Settings
from recollect_graph.tables import Records

if TYPE_CHECKING:  # loaded when first used: the learners and networkx (topics) cost ~0.2 s
    from recollect_graph.learners import LearnerRunner, LearnResult
    from recollect_graph.services.topics.service import Topics

#: The public names: the facade and the types its handles and verbs take or give back, so that
#: callers (the CLI, the MCP server, notebooks) annotate with them without importing services.
__all__ = [
    "ContradictionResult",
    "Contradictions",
    "Memories",
    "Pack",
    "Recollect",
    "Recommendations",
    "Topics",
    "connect_db",
]

log = logging.getLogger(__name__)


def __getattr__(name: str) -> Any:
    """``Topics`` stays importable from here (``__all__``) without loading it with the facade."""
    if name == "Topics":
        from recollect_graph.services.topics.service import Topics

        return Topics
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def connect_db(
    settings: Settings, *, progress: Callable[[str], None] | None = None
) -> tuple[Db, ServerStatus | None]:
    """Connect to ``NEO4J_URI``, or start/attach the embedded server when it is unset.

    Returns:
        The client and, for the embedded default, the server's status.
    """
    status: ServerStatus | None = None
    password = settings.neo4j_password
    if settings.embedded:
        status = LocalServer(settings).start(progress=progress)
        password = ensure_password(settings) if status.auth else None
        uri = status.bolt_uri
    else:
        uri = settings.effective_uri()
    db = Db.connect(
        uri, user=settings.neo4j_user, password=password, database=settings.neo4j_database
    )
    return db, status


class Recollect:
    """The facade over the services. Open it with :meth:`open`; close it (or use ``with``).

    The capability handles are the API: one service object per capability, each the one door
    every caller (Python, the CLI, the MCP server, notebooks) goes through. The top-level verbs
    (:meth:`search`, :meth:`remember`, :meth:`recall`, ...) are one-line delegations to them.
    Accesses (views, searches, recalls) are recorded by the services themselves, so every door
    records them the same way.

    Attributes:
        settings: The effective settings.
        db: The database client (driver owner).
        embedder: The lazily-loaded embedding model.
        spacy: The lazily-loaded spaCy pipeline.
        server: Status of the embedded server when this object started or attached to it.
        knowledge: Entries: remember, get, forget, connect, recent, outcome, undo
            (:class:`~recollect_graph.services.knowledge.entries.Knowledge`); ``entries`` is
            the same object.
        claims: Contradiction checks, conflicts, supersession, invalidation and resolution
            (:class:`~recollect_graph.services.claims.contradictions.Contradictions`);
            ``contradictions`` is the same object.
        consolidation: Near-duplicate merges, resolutions and archiving.
        searcher: Hybrid search (:class:`~recollect_graph.services.search.hybrid.Search`).
        memories: Lore's dialect, bound to the default scope and owner
            (:class:`~recollect_graph.services.memories.service.Memories`).
        learners: Learning from git, shell history, CI reports, notes and plugins.
        sessions: Conversation sessions, turns, forks and handoffs.
        recaller: Vague recall of a past session
            (:class:`~recollect_graph.services.sessions.recall.Recall`).
        documents: The documents pipeline.
        entities: Entities and their relations.
        topics: Topic clustering.
        access: Access history and recommendations
            (:class:`~recollect_graph.services.knowledge.access.Access`).
        packer: Context packs under a token budget
            (:class:`~recollect_graph.services.context.builder.ContextPack`).
        statistics: Counts, index states, store size and node inspection
            (:class:`~recollect_graph.services.admin.stats.Stats`).
        claim_extractor: Extracts claims from text (spaCy, lazily loaded).
        entity_extractor: Extracts named entities from text (spaCy, lazily loaded).
    """

    def __init__(
        self,
        db: Db,
        settings: Settings,
        *,
        embedder: Embedder | None = None,
        spacy: SpacyLoader | None = None,
        server: ServerStatus | None = None,
    ) -> None:
        settings = for_model(settings)
        self.settings = settings
        self.db = db
        self.embedder = embedder or Embedder(
            settings.embedding_model,
            batch_size=settings.embedding_batch_size,
            backend=settings.embedding_backend,
            cache_dir=settings.cache_dir,
        )
        self.spacy = spacy or SpacyLoader(settings.spacy_model)
        self.server = server
        self.claim_extractor = ClaimExtractor(
            SpacyLoader(settings.spacy_model, exclude=CLAIM_EXCLUDE)
        )
        self.knowledge = Knowledge(db, self.embedder, extractor=self.claim_extractor)
        self.entries = self.knowledge
        self.claims = Contradictions(self.knowledge, self.claim_extractor)
        self.contradictions = self.claims
        self.consolidation = Consolidation(self.knowledge, self.claims)
        self.searcher = Search(db, self.embedder, settings)
        self.memories = Memories(self.knowledge, self.searcher, settings)
        self.sessions = Sessions(db, self.embedder, context_vectors=settings.turn_context_vectors)
        self.recaller = Recall(db, self.embedder)
        self.entity_extractor = EntityExtractor(self.spacy)
        self.documents = Documents(db, self.embedder, self.entity_extractor)
        self.entities = Entities(db)
        self.access = self.knowledge.access
        self.packer = ContextPack(db, self.embedder, self.searcher)
        store = settings.server_home / "data" if server is not None else None
        self.statistics = Stats(db, store_dir=store)
        self.scopes = Scopes(db)
        self.reembedder = Reembedder(
            db, self.embedder, self.sessions.index, context_vectors=settings.turn_context_vectors
        )

    @cached_property
    def learners(self) -> LearnerRunner:
        """The learners' runner (a :class:`LearnerRunner`), imported when first used."""
        from recollect_graph.learners import LearnerRunner

        return LearnerRunner(self.knowledge)

    @cached_property
    def topics(self) -> Topics:
        """Topic building and browsing (a :class:`Topics`), imported when first used."""
        from recollect_graph.services.topics.service import Topics

        return Topics(self.db, self.embedder)

    @property
    def transfer(self) -> Transfer:
        """Export and import of a scope (a :class:`Transfer`).

        A property: it reads the embedding model's id and size when first used.
        """
        return Transfer(self.db, model=self.embedder.model_id, dimensions=self.embedder.dimension)

    @property
    def invariants(self) -> Invariants:
        """The invariant checks (:class:`~recollect_graph.services.admin.invariants.Invariants`).

        A property: it reads the embedding model's id and size when first used.
        """
        return Invariants(self.db, model=self.embedder.model_id, dimensions=self.embedder.dimension)

    @classmethod
    def open(
        cls,
        settings: Settings | None = None,
        *,
        schema: Literal["auto", "check", "skip"] = "auto",
        progress: Callable[[str], None] | None = None,
        **overrides: Any,
    ) -> Recollect:
        """Connect (starting the embedded server if no ``NEO4J_URI``) and check the schema.

        Args:
            settings: Settings to use (default: :meth:`Settings.from_env` with ``overrides``).
            schema: ``auto`` applies the migrations this version ships and the graph lacks;
                ``check`` makes a graph behind this version an error; ``skip`` checks nothing
                (for ``init`` itself). A vector index built for another embedding size is an
                error in ``auto`` and ``check``.
            progress: Called with short status lines while a server starts.
            **overrides: Settings fields, e.g. ``neo4j_uri="bolt://..."``.

        Raises:
            SchemaMismatch: The vector indexes were built for another embedding model/size.
            ServerError, DatabaseUnavailable, AuthFailed: The database cannot be used.
        """
        cfg = settings or Settings.from_env(**overrides)
        db, status = connect_db(cfg, progress=progress)
        rg = cls(db, cfg, server=status)
        try:
            if schema != "skip":
                rg.check(auto_init=schema == "auto")
        except Exception:
            rg.close()
            raise
        return rg

    def check(self, *, auto_init: bool = False) -> None:
        """Start-up check: schema current and vector dimensions equal to the model's.

        Raises:
            SchemaMismatch: With a message saying what to run.
        """
        try:
            check_schema(self.db, model=self.embedder.model_id, dimensions=self.embedder.dimension)
        except SchemaMismatch as e:
            if not auto_init or e.remedy != "migrate":
                raise
            log.info("applying schema migrations: %s", e)
            self.init_schema()

    @staticmethod
    def doctor(settings: Settings, *, load_models: bool = True, deep: bool = False) -> list[Check]:
        """Diagnose Java, Maven, the server, the schema, the indexes and the models (no ``open``).

        See :func:`recollect_graph.services.admin.doctor.run_doctor`.
        """
        return run_doctor(settings, load_models=load_models, deep=deep)

    def init_schema(self, *, reset_vector_indexes_: bool = False) -> SchemaReport:
        """Apply the schema idempotently and wait until every index is ONLINE.

        Args:
            reset_vector_indexes_: First drop the vector indexes and stored vectors (after a
                model change); the caller re-embeds.
        """
        model, dims = self.embedder.model_id, self.embedder.dimension
        if reset_vector_indexes_:
            reset_vector_indexes(self.db, model=model, dimensions=dims)
        return apply_schema(self.db, model=model, dimensions=dims)

    def reembed(
        self,
        scope_id: str | None = None,
        *,
        batch_size: int = 128,
        progress: Callable[[int, int], None] | None = None,
        turn_contexts: bool = False,
    ) -> ReembedReport:
        """Give every vector of the scope (or all: None) the configured model (entries first).

        Resumable (what is done is not redone), one transaction per batch; the vector indexes are
        rebuilt once when their size differs. Open with ``schema="skip"`` after a model change
        (the start-up check refuses the old vectors until this is run). ``turn_contexts`` also
        gives turns stored before context vectors existed theirs (docs/search.md). See
        :mod:`recollect_graph.services.admin.reembed`.
        """
        return self.reembedder.run(
            scope_id, batch_size=batch_size, progress=progress, turn_contexts=turn_contexts
        )

    # -- the knowledge API (Recollect dialect) ------------------------------------------------
    def remember(self, content: str, *, scope_id: str, owner_id: str, **opts: Any) -> Entry:
        """Store one entry, embedded and searchable when this returns.

        See :meth:`recollect_graph.services.knowledge.entries.Knowledge.remember` for every option.

        Example:
            >>> rg.remember("We chose Vite over webpack", scope_id="app", owner_id="kai",
            ...             auto_classify=True, tags=["build"])  # doctest: +SKIP
        """
        return self.knowledge.remember(content, scope_id=scope_id, owner_id=owner_id, **opts)

    def remember_many(
        self,
        items: Iterable[Mapping[str, Any]],
        *,
        scope_id: str,
        owner_id: str,
        progress: Callable[[int, int], None] | None = None,
        batch_size: int = 256,
        redact: bool = False,
    ) -> list[Entry]:
        """Store many entries (batched embedding and ``UNWIND`` writes).

        ``redact=True`` replaces secrets by ``[REDACTED:<kind>]`` markers in every item that
        does not set its own ``redact`` (see :mod:`recollect_graph.redaction`).
        """
        return self.knowledge.remember_many(
            items,
            scope_id=scope_id,
            owner_id=owner_id,
            progress=progress,
            batch_size=batch_size,
            redact=redact,
        )

    def forget(self, entry_id: str, *, scope_id: str | None = None) -> Entry:
        """Hard-delete an entry and its edges (logged; undo with :meth:`undo`)."""
        return self.knowledge.forget(entry_id, scope_id=scope_id)

    def connect(
        self,
        source_id: str,
        target_id: str,
        relation: str,
        *,
        weight: float = 1.0,
        reason: str | None = None,
        scope_id: str | None = None,
    ) -> Edge:
        """Connect two entries of one scope with a typed edge (idempotent).

        ``supersedes`` retires ``target_id`` exactly as :meth:`supersede_entry` does (undoable),
        then returns the edge.
        """
        if str(relation).strip().lower() == "supersedes" and source_id != target_id:
            if scope_id is not None:
                self.knowledge.get(target_id, scope_id=scope_id, touch=False)
                self.knowledge.get(source_id, scope_id=scope_id, touch=False)
            if self.knowledge.get(target_id, scope_id=scope_id, touch=False).retired_at is None:
                self.contradictions.supersede_entry(
                    target_id, source_id, scope_id=scope_id, reason=reason
                )
        return self.knowledge.connect(
            source_id, target_id, relation, weight=weight, reason=reason, scope_id=scope_id
        )

    def recent(
        self,
        scope_id: str,
        *,
        limit: int = 20,
        offset: int = 0,
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
    ) -> Records[Entry]:
        """The newest current entries of a scope (a page: ``offset`` skipped, ``limit`` kept).

        ``as_of``: what was known then (record time); ``valid_at``: what was true then.
        """
        return Records(
            self.knowledge.recent(
                scope_id, limit=limit, offset=offset, as_of=as_of, valid_at=valid_at
            )
        )

    def search(self, query: str, *, scope_id: str, **opts: Any) -> Records[Hit]:
        """Hybrid search with a per-signal breakdown on every hit.

        See :meth:`recollect_graph.services.search.hybrid.Search.search` for every option.
        """
        return Records(self.searcher.search(query, scope_id=scope_id, **opts))

    def get_many(self, ids: Sequence[str], *, scope_id: str | None = None) -> Records[Entry]:
        """Entries by id, in the caller's order, skipping the search pipeline."""
        return Records(self.knowledge.get_many(ids, scope_id=scope_id))

    def get(
        self,
        entry_id: str,
        *,
        scope_id: str | None = None,
        owner_id: str | None = None,
        touch: bool = True,
    ) -> Entry:
        """One entry by id (:class:`~recollect_graph.errors.EntryNotFound` otherwise).

        See :meth:`recollect_graph.services.knowledge.entries.Knowledge.get`.
        """
        return self.knowledge.get(entry_id, scope_id=scope_id, owner_id=owner_id, touch=touch)

    def outcome(
        self, entry_ids: Sequence[str], result: str, *, scope_id: str | None = None
    ) -> list[str]:
        """Outcome feedback (``good`` or ``bad``) on entries that were used."""
        return self.knowledge.outcome(entry_ids, result, scope_id=scope_id)

    def undo(self, operation_id: str, *, scope_id: str | None = None) -> Operation:
        """Undo a logged destructive operation exactly (every kind: see docs/undo.md)."""
        return self.knowledge.undo(operation_id, scope_id=scope_id)

    def edit(self, entry_id: str, content: str, *, scope_id: str) -> tuple[Entry, str | None]:
        """Edit an entry in place (vector and claims recomputed, undoable).

        Returns:
            The edited entry and the operation that undoes it (None when nothing changed).
        """
        return self.knowledge.edit(entry_id, content, scope_id=scope_id)

    def operations(self, scope_id: str, *, limit: int = 50, offset: int = 0) -> Records[Operation]:
        """The newest logged operations of a scope (a page)."""
        return Records(self.knowledge.operations(scope_id, limit=limit, offset=offset))

    # -- contradictions and supersession ---------------------------------------------------------
    def check_contradiction(
        self, content: str, *, scope_id: str, owner_id: str | None = None
    ) -> ContradictionResult:
        """Does ``content`` contradict current knowledge of the scope? Writes nothing.

        Example:
            >>> r = rg.check_contradiction("We moved the build to vite", scope_id="app")
            >>> [(c.type, c.reason) for c in r.conflicts]  # doctest: +SKIP
        """
        return self.contradictions.check(content, scope_id=scope_id, owner_id=owner_id)

    def supersede(
        self, scope_id: str, entity: str, relation: str, new_value: str, *, create: bool = False
    ) -> Supersession:
        """Retire what the scope says about (entity, relation) with another value (undoable).

        Only claims of that slot are retired; when none matches nothing is written and
        :class:`~recollect_graph.errors.NothingToSupersede` names the closest claims, unless
        ``create`` asks for the new value to be recorded anyway.
        """
        return self.contradictions.supersede(scope_id, entity, relation, new_value, create=create)

    def supersede_entry(
        self, old_id: str, new_id: str, *, scope_id: str | None = None, reason: str | None = None
    ) -> EntrySupersession:
        """``new_id`` supersedes ``old_id`` in ``scope_id`` (required; undoable)."""
        return self.contradictions.supersede_entry(old_id, new_id, scope_id=scope_id, reason=reason)

    def invalidate(
        self, scope_id: str, pattern: str, *, reason: str, replacement: str | None = None
    ) -> Invalidation:
        """Weaken entries that mention a deprecated concept; a replacement supersedes them."""
        return self.contradictions.invalidate(
            scope_id, pattern, reason=reason, replacement=replacement
        )

    def conflicts(
        self,
        scope_id: str,
        *,
        limit: int = 50,
        offset: int = 0,
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
    ) -> Records[OpenConflict]:
        """Open contradictions of a scope, strongest first (a page); at ``as_of``/``valid_at``."""
        return Records(
            self.contradictions.conflicts(
                scope_id, limit=limit, offset=offset, as_of=as_of, valid_at=valid_at
            )
        )

    def resolve(
        self, scope_id: str, a: str, b: str, *, keep: str, forget_loser: bool = False
    ) -> Resolution:
        """Resolve the contradiction between entries ``a`` and ``b`` by keeping ``keep``."""
        return self.contradictions.resolve(scope_id, a, b, keep=keep, forget_loser=forget_loser)

    def consolidate(self, scope_id: str, *, dry_run: bool = True) -> ConsolidationReport:
        """Propose (or apply) merges of near-duplicates, resolutions and archiving (undoable)."""
        return self.consolidation.consolidate(scope_id, dry_run=dry_run)

    def learn(
        self,
        scope_id: str,
        *,
        owner_id: str,
        sources: Sequence[Any] | Mapping[str, Mapping[str, Any]],
        since: Any = None,
        dry_run: bool = False,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> dict[str, LearnResult]:
        """Learn from git, shell history, CI reports, notes or plugins into a scope.

        ``sources`` are names (``["git"]``), learner objects, or ``{name: options}``
        (``{"git": {"repo": "."}, "notes": {"folder": "docs"}}``). Each source resumes from its
        cursor; a re-run stores nothing twice. See :meth:`LearnerRunner.learn`.

        Example:
            >>> r = rg.learn("app", owner_id="kai", sources=["git"])  # doctest: +SKIP
            >>> r["git"].learned, dict(r["git"].skipped)  # doctest: +SKIP
        """
        return self.learners.learn(
            scope_id, owner_id, sources, since=since, dry_run=dry_run, progress=progress
        )

    # -- sessions and recall (Anamnesis) --------------------------------------------------------
    def recall(self, text: str, *, scope_id: str, **opts: Any) -> RecallResult:
        """Resolve a vague memory of a past session into ranked candidates (or probes).

        Options (``attempt``, ``hints``, ``max_attempts``, ``limit``, ``now``, ``owner_id``,
        ``touch``, ``as_of``, ``valid_at``): see
        :meth:`recollect_graph.services.sessions.recall.Recall.recall`.

        Example:
            >>> r = rg.recall("the session where the CI cache drove me nuts", scope_id="me")
            >>> print(r.prose)  # doctest: +SKIP
        """
        return self.recaller.recall(text, scope_id=scope_id, **opts)

    # -- documents, context packs and recommendations (issue 6) ---------------------------------
    def context(
        self,
        query: str,
        *,
        scope_id: str,
        budget_tokens: int,
        owner_id: str | None = None,
        ids: bool = True,
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
    ) -> Pack:
        """A cited Markdown context pack that never exceeds ``budget_tokens`` (docs/context.md).

        ``as_of``: what was known then (record time); ``valid_at``: what was true then.
        """
        return self.packer.build(
            query,
            scope_id=scope_id,
            budget_tokens=budget_tokens,
            owner_id=owner_id,
            ids=ids,
            as_of=as_of,
            valid_at=valid_at,
        )

    def recommend(
        self,
        scope_id: str,
        *,
        owner_id: str | None = None,
        limit: int = 10,
        half_life_days: float = 7,
    ) -> Recommendations:
        """Unseen entries and documents ranked from a decayed profile of recent accesses."""
        return self.access.recommend(
            scope_id, owner_id=owner_id, limit=limit, half_life_days=half_life_days
        )

    def recall_probes(self, text: str, *, scope_id: str) -> list[RecallProbe]:
        """Socratic probes for a recall: adjacent months, topics and places from the store."""
        return self.recaller.probes(text, scope_id=scope_id)

    def fork_parent(self, session_id: str, *, scope_id: str) -> ForkParent:
        """Where a fork resumes: its top-level ancestor, that ancestor's cwd and the command."""
        return self.sessions.fork_parent(session_id, scope_id=scope_id)

    # -- reliability ------------------------------------------------------------------------------
    def check_invariants(
        self, scope_id: str | None = None, *, limit: int = 1000
    ) -> dict[str, list[dict[str, Any]]]:
        """Every orphan and invariant violation in the graph (or one scope), with the ids.

        See :mod:`recollect_graph.services.admin.invariants` for the checks. Read-only.

        Example:
            >>> bad = {k: v for k, v in rg.check_invariants("app").items() if v}  # doctest: +SKIP
            >>> bad  # doctest: +SKIP
            {}

        Returns:
            ``{check: [violation, ...]}``; every list is empty when the graph is clean.
        """
        return self.invariants.check(scope_id, limit=limit)

    # -- export, import, statistics and inspection --------------------------------------------
    def export(self, scope_id: str, *, page_size: int = 500) -> Iterator[dict[str, Any]]:
        """Every node and relationship of a scope as export-format lines (streamed in pages).

        See :mod:`recollect_graph.services.transfer.service` for the format.

        Example:
            >>> with open("app.jsonl", "w") as f:  # doctest: +SKIP
            ...     for line in rg.export("app"):
            ...         f.write(json.dumps(line) + "\\n")
        """
        return self.transfer.export(scope_id, page_size=page_size)

    def import_(
        self,
        lines: Iterable[str | dict[str, Any]],
        *,
        scope_id: str | None = None,
        keep_ids: bool | None = None,
        batch_size: int = 500,
        progress: Callable[[int], None] | None = None,
    ) -> ImportReport:
        """Import an export into its scope or ``scope_id`` (idempotent, atomic per batch).

        ``keep_ids`` defaults to keeping ids in the exported scope and remapping them in another.
        See :meth:`recollect_graph.services.transfer.service.Transfer.import_`.
        """
        return self.transfer.import_(
            lines, scope_id=scope_id, keep_ids=keep_ids, batch_size=batch_size, progress=progress
        )

    def stats(self, scope_id: str | None = None) -> dict[str, Any]:
        """Counts per label and relationship type, waiting work, index states, store size.

        See :meth:`recollect_graph.services.admin.stats.Stats.stats`.

        Example:
            >>> rg.stats("app")["labels"]  # doctest: +SKIP
            {'Claim': 12, 'Entity': 9, 'Entry': 30, 'Session': 2, 'Turn': 18}
        """
        return self.statistics.stats(scope_id)

    def show(self, node_id: str, *, scope_id: str | None = None, limit: int = 50) -> dict[str, Any]:
        """Any node by id with its properties (no embedding) and up to ``limit`` neighbours."""
        return self.statistics.show(node_id, scope_id=scope_id, limit=limit)

    # -- analysts' own Cypher -----------------------------------------------------------------
    def query(
        self, cypher: str, params: Mapping[str, Any] | None = None, *, write: bool = False
    ) -> Records[Row]:
        """Run your own Cypher on the same connection as everything else.

        Read-only unless ``write=True`` (a writing statement is refused otherwise). Read-only,
        it may use reading clauses, ``SHOW INDEXES / CONSTRAINTS / PROCEDURES / FUNCTIONS`` and
        a few procedures (``db.labels``, the full-text and vector index queries...); LOAD CSV is
        refused unless ``write=True`` and ``RECOLLECT_ALLOW_CSV_URLS=true`` (``docs/security.md``).

        Args:
            cypher: The statement. Pass values as ``$params``, never by formatting text.
            params: Parameter values.
            write: Allow the statement to write.

        Returns:
            Rows as dicts (nodes as property maps, temporal values as ISO strings).

        Raises:
            ReadOnlyViolation: The statement writes and ``write`` is false.
            ForbiddenQuery: It uses a clause or procedure outside the allow-list (LOAD CSV,
                ``TERMINATE TRANSACTIONS``, ``CALL dbms.listConfig()``...).
            QueryError: Neo4j rejected it.
        """
        return Records(
            self.db.run_adhoc(
                cypher, params, write=write, allow_load_csv=self.settings.allow_csv_urls
            )
        )

    def close(self) -> None:
        """Close the driver and search's worker threads. The embedded server keeps running."""
        self.searcher.close()
        self.db.close()

    def __enter__(self) -> Recollect:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
