"""Lore's dialect over the same graph: titled memories with a 0-10 score.

A memory is an :class:`~recollect_graph.models.Entry` with a ``title`` (unique per scope).
Results are JSON-ready dicts shaped like Lore's tools, so agents can use them as they are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from recollect_graph.errors import InvalidInput, RecollectError
from recollect_graph.models import Entry, Hit
from recollect_graph.nlp.conflicts import judge
from recollect_graph.services.kernel.times import aware, now_utc
from recollect_graph.services.kernel.validation import in_range, json_map, one_of, require_text
from recollect_graph.services.knowledge.entries import Knowledge
from recollect_graph.services.knowledge.rows import entry_from_row
from recollect_graph.services.memories.links import Feedback, LinkSuggester
from recollect_graph.services.memories.sweep import Sweeper
from recollect_graph.services.search.hybrid import Search
from recollect_graph.settings import Settings
from recollect_graph.vocabulary import DELETE_REASONS, RELATIONS, SOURCE_TYPES

MAX_IDS = 50
#: Lore's legacy relation names, read as ours.
LEGACY_RELATIONS = {
    "used_in": "part_of",
    "used_for": "references",
    "used_by": "depends_on",
    "used_as": "references",
}


def derive_title(thought: str) -> str:
    """A title from free text: about 80 characters, cut at a sentence end after 40, else a word."""
    text = re.sub(r"\s+", " ", thought).strip()
    if len(text) <= 80:
        return text
    head = text[:80]
    end = max(head.rfind("."), head.rfind("!"), head.rfind("?"))
    if end >= 40:
        return head[: end + 1]
    cut = text.rfind(" ", 0, 120)
    return text[: cut if cut > 40 else 80].rstrip(" ,;:") + "..."


def memory_dict(e: Entry) -> dict[str, Any]:
    """A memory as Lore shows it (plus our lifecycle fields)."""
    return {
        "id": e.id,
        "title": e.title,
        "description": e.description,
        "content": e.content,
        "created_at": e.created_at.isoformat(),
        "updated_at": e.updated_at.isoformat() if e.updated_at else None,
        "usage_count": e.access_count,
        "score": e.score,
        "soft_deleted": e.soft_deleted_at is not None,
        "confidence": e.feedback_confidence,
        "namespace": e.scope_id,
        "last_used": e.last_accessed_at.isoformat() if e.last_accessed_at else None,
        "source_type": e.source_type,
        "entry_type": e.entry_type,
        "tags": e.tags,
        "strength": e.strength,
        "confidence_state": e.confidence_state,
    }


class Memories:
    """``rg.memories``: insert, capture, search, delete and restore, bound to a default scope.

    Args:
        knowledge: The knowledge service.
        search: The search service.
        settings: Default scope/owner and the dedup and auto-link thresholds.
        scope_id: The bound scope (default ``settings.default_scope``).
        owner_id: The bound owner (default ``settings.default_owner``).
    """

    def __init__(
        self,
        knowledge: Knowledge,
        search: Search,
        settings: Settings,
        *,
        scope_id: str | None = None,
        owner_id: str | None = None,
    ) -> None:
        self.knowledge = knowledge
        self._search = search
        self.settings = settings
        self.scope_id = scope_id or settings.default_scope
        self.owner_id = owner_id or settings.default_owner

    def in_scope(self, scope_id: str, owner_id: str | None = None) -> Memories:
        """The same dialect bound to another scope (and owner)."""
        return Memories(
            self.knowledge,
            self._search,
            self.settings,
            scope_id=require_text(scope_id, "scope_id"),
            owner_id=owner_id or self.owner_id,
        )

    # -- writes ------------------------------------------------------------------------------
    def insert(
        self,
        memories: Sequence[Mapping[str, Any]],
        links: Sequence[Mapping[str, Any]] = (),
        force: bool = False,
    ) -> dict[str, Any]:
        """Insert memories and links, reporting duplicates instead of inserting them.

        Each memory: ``title`` (required, unique in the scope), ``content``, ``description``,
        ``score`` (0-10, default 5), ``source_type`` (default observed), ``tags``, and inline
        ``links`` ``[{target_memory_id, relation_type, reason}]``. Top-level ``links`` are
        ``{source_memory_id, target_memory_id, relation_type, reason}``.

        A memory is a duplicate when an existing one has the same title, or when
        ``0.6*semantic + 0.4*keyword`` reaches ``dedup_threshold``; ``force`` skips that check.
        A new memory is auto-linked (``references``, or ``contradicts`` when their claims
        conflict) to the most similar existing memory at or
        above ``auto_link_threshold``. Each item succeeds or fails on its own.

        Returns:
            ``{inserted_memories, inserted_links, duplicates, errors}``.
        """
        if isinstance(memories, Mapping) or not isinstance(memories, Sequence):
            raise InvalidInput("memories must be a list of dicts")
        out: dict[str, Any] = {
            "inserted_memories": [],
            "inserted_links": [],
            "duplicates": [],
            "auto_links": [],
            "errors": [],
        }
        for mem in memories:
            try:
                self._insert_one(mem, force, out)
            except RecollectError as e:
                out["errors"].append({"input": _brief(mem), "error": str(e)})
        for link in links:
            self._link(link, out)
        return out

    def _insert_one(self, mem: Mapping[str, Any], force: bool, out: dict[str, Any]) -> None:
        if not isinstance(mem, Mapping):
            raise InvalidInput("each memory must be a dict")
        title = require_text(mem.get("title"), "title", max_len=300)
        content = mem.get("content") or mem.get("description") or title
        item = {
            "content": content,
            "title": title,
            "description": mem.get("description"),
            "score": in_range(mem.get("score", 5.0), "score", 0, 10),
            "source_type": one_of(mem.get("source_type", "observed"), "source_type", SOURCE_TYPES),
            "tags": mem.get("tags") or [],
            "entry_type": mem.get("entry_type", "note"),
            "source": "agent",
        }
        dup = None if force else self._same_title(title)
        similar: list[Hit] = []
        if dup is None:
            similar = self._similar(f"{title}. {mem.get('description') or ''} {content}")
            dup = None if force else self._near_duplicate(similar, content)
        if dup is not None:
            out["duplicates"].append(
                {
                    "input_title": title,
                    "existing_memory": {"id": dup[0].id, "title": dup[0].title},
                    "similarity": dup[1],
                }
            )
            return
        entry = self.knowledge.remember(
            item["content"],
            scope_id=self.scope_id,
            owner_id=self.owner_id,
            force=force,
            **{k: v for k, v in item.items() if k != "content"},
        )
        out["inserted_memories"].append({"id": entry.id, "title": entry.title})
        linked = self._auto_link(entry, similar, "insert")
        if linked:
            out["auto_links"].append(linked)
        for link in mem.get("links") or []:
            self._link({**link, "source_memory_id": entry.id}, out)

    def capture(self, thought: str, source_type: str = "observed") -> dict[str, Any]:
        """Capture one thought: title derived from the text, de-duplicated, auto-linked.

        Returns:
            ``{id, title, duplicate, linked_to: {id, score} | None}``.
        """
        thought = require_text(thought, "thought", max_len=200_000)
        source_type = one_of(source_type, "source_type", SOURCE_TYPES)
        title = derive_title(thought)
        dup = self._same_title(title)
        similar: list[Hit] = []
        if dup is None:
            similar = self._similar(thought)
            dup = self._near_duplicate(similar, thought)
        if dup is not None:
            return {"id": dup[0].id, "title": dup[0].title, "duplicate": True, "linked_to": None}
        entry = self.knowledge.remember(
            thought,
            scope_id=self.scope_id,
            owner_id=self.owner_id,
            title=title,
            description=title,
            source_type=source_type,
            source="agent",
            auto_classify=True,
        )
        linked = self._auto_link(entry, similar, "capture")
        return {
            "id": entry.id,
            "title": entry.title,
            "duplicate": False,
            "linked_to": {"id": linked["target_memory_id"], "score": linked["score"]}
            if linked
            else None,
        }

    def _similar(self, text: str) -> list[Hit]:
        return self._search.search(text, scope_id=self.scope_id, limit=5, hops=0, touch=False)

    def _same_title(self, title: str) -> tuple[Entry, float] | None:
        same = self.knowledge.db.read("entries/by_title", scope_id=self.scope_id, titles=[title])
        return (entry_from_row(same[0]["entry"]), 1.0) if same else None

    def _near_duplicate(
        self, similar: list[Hit], text: str | None = None
    ) -> tuple[Entry, float] | None:
        for h in similar:
            combined = 0.6 * h.signals.semantic + 0.4 * h.signals.keyword
            if combined >= self.settings.dedup_threshold:
                if text is not None and self._claims_conflict(h.entry.content, text):
                    continue  # "the rate limit is 500" is no duplicate of "... is 1000"
                return h.entry, round(combined, 4)
        return None

    def _claims_conflict(self, old: str, new: str) -> bool:
        extractor = self.knowledge.extractor
        if extractor is None:
            return False
        co, cn = extractor.extract_many([old, new])
        return any(judge(n, o) is not None for n in cn for o in co)

    def _auto_link(self, entry: Entry, similar: list[Hit], how: str) -> dict[str, Any] | None:
        for h in similar:
            if h.entry.id == entry.id or h.entry.soft_deleted_at is not None:
                continue
            if h.signals.semantic >= self.settings.auto_link_threshold:
                # two memories whose claims conflict are linked as contradicting, not as a
                # reference (the conflict itself was recorded when the entry was written)
                clash = next(
                    (c for c in entry.conflicts or [] if c.get("entry_id") == h.entry.id), None
                )
                rel = "contradicts" if clash else "references"
                why = f": {clash.get('reason')}" if clash and clash.get("reason") else ""
                edge = self.knowledge.connect(
                    entry.id,
                    h.entry.id,
                    rel,
                    weight=round(h.signals.semantic, 4),
                    reason=f"auto-linked from {how}: {h.signals.semantic:.2f}{why}",
                    origin="auto",
                    scope_id=entry.scope_id,
                )
                return {
                    "source_memory_id": edge.source_id,
                    "target_memory_id": edge.target_id,
                    "relation_type": rel,
                    "score": round(h.signals.semantic, 4),
                }
            return None  # only the most similar is considered
        return None

    def _link(self, link: Mapping[str, Any], out: dict[str, Any]) -> None:
        try:
            rel = str(link.get("relation_type", "")).lower()
            rel = LEGACY_RELATIONS.get(rel, rel)
            rel = one_of(rel, "relation_type", RELATIONS)
            edge = self.knowledge.connect(
                require_text(link.get("source_memory_id"), "source_memory_id"),
                require_text(link.get("target_memory_id"), "target_memory_id"),
                rel,
                weight=in_range(link.get("score", 1.0), "score", 0, 1),
                reason=link.get("reason"),
                origin="agent",
                scope_id=self.scope_id,
            )
            out["inserted_links"].append(
                {
                    "source_memory_id": edge.source_id,
                    "target_memory_id": edge.target_id,
                    "relation_type": edge.relation,
                    "created": edge.created,
                }
            )
        except RecollectError as e:
            out["errors"].append({"input": dict(link), "error": str(e)})

    def delete(self, ids: Sequence[str], reason: str = "unspecified") -> dict[str, Any]:
        """Soft-delete memories (hidden from search; undo with :meth:`restore` or ``rg.undo``).

        Returns:
            ``{forgotten, not_found, operation_id}``.
        """
        if isinstance(ids, str) or not ids:
            raise InvalidInput("ids must be a non-empty list")
        reason = one_of(reason, "reason", DELETE_REASONS)
        return self.knowledge.soft_delete(list(ids), scope_id=self.scope_id, reason=reason)

    def restore(self, ids: Sequence[str]) -> dict[str, Any]:
        """Undo soft deletes. Returns ``{restored, not_found}``."""
        if isinstance(ids, str) or not ids:
            raise InvalidInput("ids must be a non-empty list")
        rows = self.knowledge.db.write(
            "entries/restore", ids=list(ids), scope_id=self.scope_id, now=now_utc()
        )
        restored = [r["id"] for r in rows]
        return {"restored": restored, "not_found": [i for i in ids if i not in restored]}

    # -- the quality loop ---------------------------------------------------------------------
    def feedback(
        self,
        memory_feedback: Sequence[Mapping[str, Any]] = (),
        link_feedback: Sequence[Mapping[str, Any]] = (),
    ) -> dict[str, Any]:
        """Rate memories and links (:mod:`recollect_graph.services.memories.links` has the rule)."""
        return Feedback(self.knowledge.db, self.settings).feedback(
            self.scope_id, memory_feedback, link_feedback
        )

    def suggest_links(self, memory_id: str, top_k: int = 10) -> dict[str, Any]:
        """Typed link candidates for a memory, with per-signal scores. Writes nothing."""
        return LinkSuggester(self.knowledge.db, self.knowledge.embedder.calibration).suggest_links(
            memory_id, scope_id=self.scope_id, top_k=top_k
        )

    def _sweeper(self) -> Sweeper:
        return Sweeper(self.knowledge, self.scope_id, self.owner_id)

    def sweep(self, min_score: float = 0.3) -> dict[str, Any]:
        """Queue link suggestions for memories changed since the last sweep (incremental)."""
        return self._sweeper().sweep(min_score=min_score)

    def pending_suggestions(
        self, limit: int = 20, min_score: float = 0.0, offset: int = 0
    ) -> dict[str, Any]:
        """Pending link suggestions, best first (a page: ``offset`` skipped, then ``limit``)."""
        return self._sweeper().pending(limit=limit, min_score=min_score, offset=offset)

    def review_suggestions(self, reviews: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Accept or reject link suggestions, each on its own; repeats are ``skipped``."""
        return self._sweeper().review(reviews)

    def reflect(self, session_id: str, summary: str, **lists: Sequence[str]) -> dict[str, Any]:
        """Store a session's reflection (lessons, discoveries, ...) once per session."""
        return self._sweeper().reflect(session_id, summary, **lists)

    def processed_sessions(self) -> dict[str, Any]:
        """Sessions reflected on."""
        return self._sweeper().processed_sessions()

    # -- reads -------------------------------------------------------------------------------
    def search(
        self,
        query: str = "",
        ids: Sequence[str] | None = None,
        limit: int = 10,
        min_score: float = 0.0,
        include_links: bool = True,
        format: str = "full",
        sort_by: str = "relevance",
        include_deleted: bool = False,
        created_after: Any = None,
        source_type: str | None = None,
    ) -> dict[str, Any]:
        """Search memories (hybrid), or bulk-fetch them by ``ids`` in the caller's order.

        Either is recorded in the access history as the bound owner's (a ``search``, or a
        ``view`` of the fetched memories), as every other door records it.

        Returns:
            ``{results, total_matched, query}``; a full result is
            ``{memory, relevance: {combined_score, semantic_score, keyword_score, graph_score,
            strength, quality, usage}, links}``, a title result ``{id, title, score}``.
        """
        one_of(format, "format", ("full", "title"))
        one_of(sort_by, "sort_by", ("relevance", "recent", "frequent"))
        if not ids and not (query or "").strip():
            raise InvalidInput("query is required (or pass ids)")
        if ids:
            wanted = list(dict.fromkeys(ids))[:MAX_IDS]
            entries = self.knowledge.get_many(wanted, scope_id=self.scope_id)
            if not include_deleted:
                entries = [e for e in entries if e.soft_deleted_at is None]
            pairs: list[tuple[Entry, dict[str, float]]] = [
                (e, {"combined_score": 0.0, "semantic_score": 0.0, "keyword_score": 0.0})
                for e in entries
            ]
            if entries:
                self.knowledge.touch([e.id for e in entries])
                self.knowledge.access.record(
                    self.scope_id,
                    "view",
                    [e.id for e in entries],
                    owner_id=self.owner_id,
                    best_effort=True,
                )
        else:
            hits = self._search.search(
                query,
                scope_id=self.scope_id,
                limit=int(in_range(limit, "limit", 1, 1000)),
                min_score=min_score,
                include_deleted=include_deleted,
                created_after=aware(created_after, "created_after"),
                source_types=[one_of(source_type, "source_type", SOURCE_TYPES)]
                if source_type
                else None,
                owner_id=self.owner_id,
                kinds=("entry", "turn"),
            )
            pairs = [
                (
                    h.entry,
                    {
                        "combined_score": h.score,
                        "semantic_score": h.signals.semantic,
                        "keyword_score": h.signals.keyword,
                        "graph_score": h.signals.graph,
                        "strength": h.signals.strength,
                        "quality": h.signals.quality,
                        "usage": h.signals.usage,
                    },
                )
                for h in hits
            ]
        if sort_by == "recent":
            pairs.sort(key=lambda p: p[0].updated_at or p[0].created_at, reverse=True)
        elif sort_by == "frequent":
            pairs.sort(key=lambda p: p[0].access_count, reverse=True)
        links = self.knowledge.links_of([e.id for e, _ in pairs]) if include_links else {}
        results: list[dict[str, Any]] = []
        for e, rel in pairs[: int(limit)]:
            if format == "title":
                results.append({"id": e.id, "title": e.title, "score": e.score})
            else:
                item: dict[str, Any] = {"memory": memory_dict(e), "relevance": rel}
                if include_links:
                    item["links"] = links.get(e.id, [])
                results.append(item)
        return {"results": results, "total_matched": len(pairs), "query": query}


def _brief(mem: Any) -> Any:
    if isinstance(mem, Mapping):
        return {k: mem[k] for k in ("title", "description") if k in mem}
    return json_map({"value": str(mem)[:100]}, "input")
