"""Hybrid search: native vector index + full-text index + graph neighbourhood + lifecycle.

1. Candidates: the top ``search_candidates`` of the ``entry_embedding`` vector index and of the
   ``entry_text`` full-text index (both limited to the scope inside the index: a filtered vector
   search, and a required scope phrase in the Lucene query, :mod:`..kernel.fulltext`) and, when
   the query names a time of at most two months, the ``search_time_candidates`` turns said then
   nearest to the query; filtered to the scope and to what is current (or believed
   ``as_of`` a moment). Each gets its cosine to the query (semantic) and its Lucene score,
   normalised by the best one (keyword). The full-text query is the query's content words (no
   stop words) less the names of the scope's speakers; when every name the query mentions is a
   speaker, the vector side uses the query with the names replaced by "they"
   (:mod:`.search_text`); a question that gathers ("how many", "which ... the most";
   :mod:`.gathering`) is searched by the sum of its vector and its vector without the counting
   or scale words (``search_gathering_frame``).
   Document chunks come from their own indexes and join the same list (:mod:`.kinds`);
   ``kinds`` keeps some of ``entry``, ``turn`` and ``chunk``.
2. Relevance: ``w_semantic*semantic + w_keyword*keyword + w_feedback*feedback`` (or
   reciprocal-rank fusion); ``feedback``, for a question that gathers every instance of
   something ("how many", "in total"), is the cosine to the centroid of the
   ``search_feedback_hits`` candidates nearest the query (pseudo-relevance feedback); such a
   question weighs its keywords by ``search_gathering_keyword`` x ``w_keyword``. The
   relevance floor: a candidate whose semantic similarity is under ``search_floor`` and whose
   keyword score is under ``search_floor_keyword`` is dropped, unless step 3 finds it next to a
   hit above the floor or it is a turn whose context signal (step 4: the query names its speaker
   or its date) reaches ``FLOOR_CONTEXT``; strength, quality and usage never bring it back.
3. Graph: entries within ``hops`` edges of the best ``search_graph_seeds`` (10) hits above the
   floor, or sharing entities with them (the ``3 x search_graph_seeds`` strongest), get
   ``graph = seed relevance x edge weights``; neighbours that were not candidates join the results.
4. Final score: ``core x (1 + w_strength*strength + w_quality*score/10 +
   w_usage*log2(1+uses)/log2(101))`` with ``core = relevance x (1 + w_event*event) +
   w_graph*graph + w_context*context + w_session*session`` (``event``: a person's turn that
   reports something that happened, "I just...", "last week"; ``search_lifecycle="add"``: the
   lifecycle terms added to the core instead, the old behaviour), so strength, quality and
   usage reorder hits of near-equal relevance and never lift an irrelevant one; ``context``
   (conversation turns) is 0.5 when the query names the turn's speaker, up to 1 when it names
   the turn's date or its time words ("four weeks ago", "last Saturday", resolved against
   ``valid_at`` / ``as_of`` / now) point at when the turn was said, and
   1.5 x the question's relevance for the turn right after a matching question (capped at 1);
   ``session`` (weight ``w_session``, 0.03: a tie-breaker; at 0.1 it cost LongMemEval R@10) is
   the best other relevant turn of the turn's session relative to the best candidate;
   a conversation turn loses ``w_length x (1 - substance)``, its substance rising (log-scaled)
   from 0 at 20 characters to 1 at ``search_full_turn`` (200): short turns ("Thanks!") rarely
   hold a fact.
   Every hit carries this breakdown (``brevity`` is the length term).
5. Every returned entry's ``access_count`` goes up by one and ``last_accessed_at`` is set; a stale
   entry wakes up as ``observed``; the search is recorded in the access history (with the owner
   when the caller names one), so every door (facade, memories, MCP, CLI) records the same way.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.errors import InvalidInput
from recollect_graph.models import Hit
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.services.kernel import fulltext
from recollect_graph.services.kernel.times import (
    ENTRY_TIMES,
    aware,
    epoch_fields,
    now_utc,
)
from recollect_graph.services.kernel.validation import in_range, require_text
from recollect_graph.services.knowledge import lifecycle
from recollect_graph.services.knowledge.access import Access
from recollect_graph.services.search import gathering
from recollect_graph.services.search import kinds as hit_kinds
from recollect_graph.services.search.answers import asks_for_name, mark_names, question_seeds
from recollect_graph.services.search.floors import KnownWords, keyword_passes, time_floor
from recollect_graph.services.search.fusion import fuse, relevance
from recollect_graph.services.search.latest import asks_for_latest
from recollect_graph.services.search.query_text import (
    QUERY_STOP,
    WORD,
    keyword_terms,
    without_names,
)
from recollect_graph.services.search.signals import (
    EVENT_PATTERN,
    asked_of,
    asks_only_about_time,
    conversation_cues,
    said_then_counts,
    time_windows,
    to_speaker,
    who_speaks,
    without_time_words,
)
from recollect_graph.settings import Settings

_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
#: Words Lucene reads as operators (and "to", of ranges), never searched for.
_OPERATORS = frozenset({"and", "or", "not", "to"})
#: The times the search statements return as epoch milliseconds (see :func:`epoch_fields`).
_TIMES = ("created_at", "last_accessed_at", "valid_from")
#: Graph neighbours read, per seed of ``search_graph_seeds``: the strongest of them all.
GRAPH_ROWS_PER_SEED = 3
#: Records fetched ahead beyond ``limit`` (the likeliest hits by relevance), next to the graph step.
PREFETCH_EXTRA = 5
#: The widest vector index window a search asks for when filters leave too few candidates.
MAX_WINDOW = 4000
#: Entities mentioned by more entries than this are hubs: sharing them says little.
MAX_ENTITY_FANOUT = 50


def lucene_query(text: str) -> str | None:
    """A safe Lucene query for free text: its words, escaped, OR-ed (``None`` if no words)."""
    words = [w.lower() for w in WORD.findall(text)]
    words = [w for w in words if w not in _OPERATORS]
    if not words:
        return None
    return " ".join(_LUCENE_SPECIAL.sub(r"\\\1", w) for w in dict.fromkeys(words))


def content_query(text: str, max_terms: int) -> str | None:
    """A safe Lucene query of a text's first ``max_terms`` distinct content words (OR-ed).

    For a whole memory used as a query (link suggestion): stop words match nearly every entry
    and only make Lucene score more of them, and each further word costs as much again (at 100k
    entries 25 words took 22 ms, 8 words 13 ms).
    """
    words = [w.lower() for w in WORD.findall(text)]
    kept = [w for w in dict.fromkeys(words) if w not in QUERY_STOP and w not in _OPERATORS]
    if not kept:
        return None
    return " ".join(_LUCENE_SPECIAL.sub(r"\\\1", w) for w in kept[:max_terms])


class Search:
    """Hybrid retrieval over entries.

    Args:
        db: The database client.
        embedder: Embeds the query.
        settings: Fusion method, weights and candidate counts.
    """

    #: Whether independent statements of one search run side by side (off: one after another).
    overlap = True

    def __init__(self, db: Db, embedder: Embedder, settings: Settings) -> None:
        self.db = db
        self.embedder = embedder
        self.settings = settings
        self.access = Access(db, getattr(embedder, "calibration", None))
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def _background(self) -> ThreadPoolExecutor:
        """The thread that runs a search's independent statement next to the main one.

        Neo4j runs each statement on one core, so two independent ones (the entry candidates and
        the document chunks) answer in the time of the slower instead of the sum.
        """
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="rg-search")
            return self._pool

    def close(self) -> None:
        """Stop the worker threads of overlapped statements (a later search starts them again)."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def search(
        self,
        query: str,
        *,
        scope_id: str,
        limit: int = 10,
        min_score: float = 0.0,
        entry_types: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        source_types: Sequence[str] | None = None,
        created_after: datetime | str | None = None,
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
        include_superseded: bool = False,
        include_deleted: bool = False,
        hops: int = 1,
        touch: bool = True,
        owner_id: str | None = None,
        kinds: Sequence[str] | str | None = None,
    ) -> list[Hit]:
        """Find entries, conversation turns and document chunks by meaning, keyword and graph.

        Args:
            query: Free text (non-empty).
            scope_id: The scope searched; nothing outside it is returned.
            limit: Maximum hits (1-1000).
            min_score: Drop hits whose final score is lower.
            entry_types: Keep entries of these types.
            tags: Keep entries carrying any of these tags.
            source_types: Keep entries of these source types.
            created_after: Keep entries created at or after this moment.
            as_of: Record time: answer as of a past moment (what was recorded and believed then,
                and valid then unless ``valid_at`` says another moment).
            valid_at: Valid time: what was true at this moment (entries whose validity,
                ``valid_from`` or else their creation, up to ``valid_to``, covers it; entries
                retired since count: they were true then). Without it, what is valid now: an
                entry whose ``valid_from`` is still ahead is not returned.
            include_superseded: Also return retired (superseded or invalidated) entries.
            include_deleted: Also return soft-deleted entries.
            hops: Graph expansion depth (0-3; 0 turns the graph signal off).
            touch: Record the access (default): bump the hits' usage and add a ``search``
                event to the access history. Off for previews and benchmarks.
            owner_id: Who searched (recorded with the access; filters nothing).
            kinds: Keep hits of these kinds (``entry``, ``turn``, ``chunk``; default: all).
                Chunks are left out when an entry-only filter (``entry_types``, ``tags``,
                ``source_types``, ``created_after``) is given.

        Returns:
            Hits, best first, each with its kind, origin and score breakdown; only hits above
            the relevance floor (``search_floor`` settings), so possibly fewer than ``limit``.
        """
        query = require_text(query, "query", max_len=10_000)
        scope_id = require_text(scope_id, "scope_id")
        limit = int(in_range(limit, "limit", 1, 1000))
        hops = int(in_range(hops, "hops", 0, 3))
        min_score = in_range(min_score, "min_score", 0, 10)
        wanted = hit_kinds.check_kinds(kinds)
        entry_kinds = None if wanted is None else [k for k in wanted if k != "chunk"]
        want_chunks = (wanted is None or "chunk" in wanted) and not (
            entry_types or tags or source_types or created_after
        )
        now = now_utc()
        terms, names = keyword_terms(query)
        as_of_, valid_at_ = aware(as_of, "as_of"), aware(valid_at, "valid_at")
        cues_ = conversation_cues(query, valid_at_ or as_of_ or now)
        wanted_role = asked_of(query) if self.settings.w_role > 0 else None
        # feedback, a lighter keyword weight and the frame vector (docs/search.md)
        gathers = gathering.gathers(query, self.settings)
        s = gathering.weights(self.settings, gathers)
        terms = without_time_words(terms, cues_)
        unnamed_text = without_names(query, names)
        vector, vector_unnamed = gathering.query_vectors(
            self.embedder, self.settings, query, unnamed_text, gathers
        )
        params: dict[str, Any] = {
            "vector": vector,
            "vector_unnamed": vector_unnamed,
            "lucene": " ".join(terms) or None,
            "terms": terms,
            "names": names,
            "scope_id": scope_id,
            "scope_clause": fulltext.scope_clause(scope_id),
            "entry_types": list(entry_types) if entry_types else None,
            "tags": list(tags) if tags else None,
            "source_types": list(source_types) if source_types else None,
            "created_after": aware(created_after, "created_after"),
            "as_of": as_of_,
            "valid_at": valid_at_,
            "include_superseded": bool(include_superseded),
            "include_deleted": bool(include_deleted),
            "now": now,
            "kinds": entry_kinds,
            "time_windows": time_windows(cues_, self.settings.search_time_candidates),
            "k_time": self.settings.search_time_candidates,
            "feedback_k": gathering.feedback_hits(self.settings, gathers),
            "event_pattern": EVENT_PATTERN if s.w_event > 0 else None,
            "want_text": s.w_name > 0 and asks_for_name(query),
            "turn_context": s.search_turn_context,
        }
        # The chunks need the query's vector: with no name left out of it (the usual case) it
        # is known now, and their statement runs next to the candidates'.
        early: Future[dict[str, dict[str, Any]]] | None = None
        if self.overlap and want_chunks and vector_unnamed is None and entry_kinds != []:
            early = self._background().submit(self._chunks, params, vector, s)
        cands = self._candidates(params, limit) if entry_kinds != [] else []
        if cands and cands[0].get("unnamed"):
            vector = vector_unnamed or vector
        scored = relevance(cands, s, self.embedder.calibration)
        if params["want_text"]:  # a question asking who or where: the turns that name someone
            mark_names(scored, names)
        floor = self.semantic_floor(c["semantic"] for c in scored.values())
        known = KnownWords(self.db.read, s, terms, scope_id)  # docs/search.md, the floor
        words_ok = known.allow(scored.values(), floor)
        for c in scored.values():
            c["relevant"] = self.above_floor(c["semantic"], c["keyword"] * words_ok, floor)
        graph: dict[str, tuple[float, str]] = {}
        relevant = [c for c in scored.values() if c["relevant"]]
        prefetch: Future[dict[str, dict[str, Any]]] | None = None
        if hops > 0 and relevant:
            # a fixed number of seeds and neighbours: the ranking does not hang on `limit`
            by_relevance = sorted(relevant, key=lambda c: (-c["relevance"], c["entry"]["id"]))
            seeds = by_relevance[: s.search_graph_seeds]
            asked = question_seeds(relevant, seeds, s.search_question_seeds)
            if self.overlap:  # the full records of the likely hits, fetched next to the graph's
                likely = [c["entry"]["id"] for c in by_relevance[: limit + PREFETCH_EXTRA]]
                prefetch = self._background().submit(self._full, likely, scope_id)
            for row in self._read_timed(
                "search/expand",
                seeds=[
                    {"id": c["entry"]["id"], "relevance": c["relevance"], "asks_only": only}
                    for group, only in ((seeds, False), (asked, True))
                    for c in group
                ],
                hops=hops,
                vector=vector,
                scope_id=scope_id,
                include_superseded=params["include_superseded"],
                include_deleted=params["include_deleted"],
                as_of=params["as_of"],
                valid_at=params["valid_at"],
                kinds=entry_kinds,
                now=now,
                max_fanout=MAX_ENTITY_FANOUT,
                limit=GRAPH_ROWS_PER_SEED * s.search_graph_seeds + len(asked),
                event_pattern=params["event_pattern"],
                turn_context=params["turn_context"],
            ):
                eid = row["id"]
                graph[eid] = (float(row["graph"]), row["via"])
                if eid not in scored:
                    scored[eid] = {
                        "entry": row,
                        "semantic": max(
                            0.0, self.embedder.similarity(float(row["semantic"] or 0.0))
                        ),
                        "keyword": 0.0,
                        "relevance": 0.0,
                        "graph_only": True,
                        "relevant": False,
                    }
        chunks = (
            early.result()
            if early is not None
            else self._chunks(params, vector, s)
            if want_chunks
            else {}
        )
        if chunks:  # their keyword matches too, once the question is known
            words_ok = words_ok and known.allow([*scored.values(), *chunks.values()], floor)
        for c in chunks.values():  # a confident hit lowers their floor too
            c["relevant"] = (c["relevant"] and words_ok) or self.above_floor(
                c["semantic"], 0.0, floor
            )
        scored.update(chunks)
        hits = fuse(
            s,
            scored,
            graph,
            now,
            min_score,
            limit,
            scope_id,
            to_speaker(cues_, who_speaks(query, cues_[0]), scored),
            full_records=self._full,
            prefetched=prefetch.result() if prefetch is not None else None,
            wanted_role=wanted_role,
            time_floor=time_floor(
                scored.values(),
                s,
                asks_only_about_time(terms, cues_),
                said_then_counts(scored, cues_),
                limit,
            ),
            latest=not cues_[1] and asks_for_latest(query),
        )
        used = [h.entry.id for h in hits if h.kind != "chunk"]
        if touch and used:  # bookkeeping: a lock race drops it, never the search
            self.db.write_best_effort(
                "entries/bump_access",
                ids=used,
                now=now,
                stale_days=lifecycle.STALE_AFTER_DAYS,
            )
            self.access.record(
                scope_id, "search", used, owner_id=owner_id, query=query, best_effort=True
            )
        return hits

    def semantic_floor(self, semantics: Iterable[float]) -> float:
        """The semantic floor of one search: ``search_floor``, or lower when a hit is confident.

        When the best candidate's similarity reaches ``search_floor_confident``, the question
        is plainly about this scope, and its other evidence may be worded apart from it ("the
        graduation ceremonies I attended" against "my cousin's preschool graduation"): the
        other candidates then pass from ``search_floor_relaxed``. A question the scope never
        talks about has no such hit and keeps the full floor (docs/search.md).
        """
        s = self.settings
        best = max(semantics, default=0.0)
        if best >= s.search_floor_confident:
            return min(s.search_floor, s.search_floor_relaxed)
        return s.search_floor

    def above_floor(self, semantic: float, keyword: float, floor: float | None = None) -> bool:
        """Whether a candidate's own relevance reaches the floor (``search_floor`` settings).

        Only the relevance signals count: semantic similarity (raw cosine) against ``floor``
        (default ``search_floor``; :meth:`semantic_floor` gives one search's) or the keyword
        score (normalised by the best). A graph neighbour of a hit above the floor is kept as
        well; strength, quality and usage never lift a hit over it.
        """
        s = self.settings
        floor = s.search_floor if floor is None else floor
        return semantic >= floor or keyword_passes(keyword, s)

    def _chunks(
        self, params: dict[str, Any], vector: list[float], s: Settings
    ) -> dict[str, dict[str, Any]]:
        """Document chunks scored like entries (keyword normalised among chunks)."""
        rows = self._read_timed(
            "search/chunks",
            vector=vector,
            lucene=fulltext.in_scope(params["lucene"], params["scope_id"], "chunk_text"),
            k=self.settings.search_candidates,
            scope_id=params["scope_id"],
            as_of=params["as_of"],
            valid_at=params["valid_at"],
            include_deleted=params["include_deleted"],
        )
        out = relevance(rows, s, self.embedder.calibration)
        for c in out.values():
            c["kind"] = "chunk"
            c["relevant"] = self.above_floor(c["semantic"], c["keyword"])
        return out

    def _candidates(self, params: dict[str, Any], limit: int) -> list[dict[str, Any]]:
        """Index candidates; widen the index window when filters leave too few."""
        k = self.settings.search_candidates
        while True:
            rows = epoch_fields(
                self.db.read_collected("search/candidates", "rows", k=k, **params), *_TIMES
            )
            window_full = not rows or int(rows[0]["window"]) >= k
            if len(rows) >= limit or not window_full or k >= MAX_WINDOW:
                return rows
            k *= 4

    def _read_timed(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """A search statement's rows, its times (sent as epoch milliseconds) as datetimes."""
        return epoch_fields(self.db.read(name, **params), *_TIMES)

    def _full(self, ids: list[str], scope_id: str) -> dict[str, dict[str, Any]]:
        """The hits' full records by id, their times exact (sent as epoch microseconds)."""
        entries = [r["entry"] for r in self.db.read("search/hits", ids=ids, scope_id=scope_id)]
        # an entry a concurrent forget deletes after the match reads back as a map of nulls
        # (read committed): its hit is skipped (fuse leaves out hits without a record)
        entries = [e for e in entries if e.get("id") is not None]
        return {e["id"]: e for e in epoch_fields(entries, *ENTRY_TIMES, micro=True)}


def check_query(query: str | None, ids: Sequence[str] | None) -> None:
    """Lore's rule: a search needs a query or ids."""
    if not ids and not (query or "").strip():
        raise InvalidInput("query is required (or pass ids)")
