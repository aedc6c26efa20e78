"""The bodies of the MCP tools: synchronous, bound to one scope and owner, JSON-ready, bounded.

:class:`MemoryTools` opens :class:`~recollect_graph.facade.Recollect` once (lazily, or ahead of
time with :meth:`MemoryTools.warm`), serialises the calls on it, and hands back plain dicts that
:func:`bound` has cut to size: long text is truncated to :data:`MAX_TEXT` characters and long lists
to :data:`MAX_ITEMS` items, and the object that lost something says so with ``truncated: true``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pydantic_core

from recollect_graph.settings import Settings

if TYPE_CHECKING:  # the facade pulls in the driver and the models: imported on first use
    from recollect_graph.facade import ContradictionResult, Memories, Recollect
    from recollect_graph.models import Hit

log = logging.getLogger(__name__)

#: Characters kept of a content-like field (``content``, ``description``, ...).
MAX_TEXT = 2000
#: Characters kept of any other string.
MAX_STRING = 4000
#: Items kept of any list.
MAX_ITEMS = 100
#: Fields cut at :data:`MAX_TEXT`.
TEXT_FIELDS = frozenset({"content", "description", "summary", "existing_content", "thought"})

#: What a tool body does with the open facade and the bound memories.
Body = Callable[["Recollect", "Memories"], Any]


def _cut(text: str, limit: int) -> str:
    return text[:limit].rstrip() + "..."


def bound(value: Any) -> Any:
    """A JSON-ready copy of ``value`` with long strings and lists cut (see the module doc).

    Example:
        >>> bound({"content": "x" * 3000})["truncated"]
        True
    """
    return _bound(pydantic_core.to_jsonable_python(value, fallback=str))


def _bound(value: Any) -> Any:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        cut = False
        for key, item in value.items():
            limit = MAX_TEXT if key in TEXT_FIELDS else MAX_STRING
            if isinstance(item, str) and len(item) > limit:
                item, cut = _cut(item, limit), True
            elif isinstance(item, list) and len(item) > MAX_ITEMS:
                item, cut = item[:MAX_ITEMS], True
            out[key] = _bound(item)
        if cut:
            out["truncated"] = True
        return out
    if isinstance(value, list):
        return [_bound(v) for v in value[:MAX_ITEMS]]
    if isinstance(value, str) and len(value) > MAX_STRING:
        return _cut(value, MAX_STRING)
    return value


def hit_dict(hit: Hit) -> dict[str, Any]:
    """One ``recollect_search`` hit: the entry's gist, its score and the per-signal breakdown."""
    e = hit.entry
    return {
        "id": e.id,
        "title": e.title,
        "content": e.content,
        "entry_type": e.entry_type,
        "tags": e.tags,
        "source_type": e.source_type,
        "confidence_state": e.confidence_state,
        "created_at": e.created_at.isoformat(),
        "score": round(hit.score, 4),
        "signals": hit.signals.model_dump(mode="json"),
        "via": hit.via,
        "rank": hit.rank,
    }


def contradiction_dict(result: ContradictionResult) -> dict[str, Any]:
    """``recollect_check_contradiction``'s answer: ``{ok, conflicts, claims}``."""
    return {
        "ok": result.ok,
        "conflicts": [
            {
                "type": c.type,
                "score": round(c.score, 4),
                "reason": c.reason,
                "existing_id": c.existing.id,
                "existing_title": c.existing.title,
                "existing_content": c.existing.content,
            }
            for c in result.conflicts
        ],
        "claims": result.claims,
    }


def _open(settings: Settings) -> Recollect:
    from recollect_graph.facade import Recollect  # heavy: the driver, the models, spaCy

    return Recollect.open(settings)


class MemoryTools:
    """The facade opened once and bound to ``settings.default_scope`` / ``default_owner``.

    Calls are serialised: the MCP server runs each tool on a worker thread, and this lock keeps
    them (and the start-up) one at a time on the shared connection and models.

    Args:
        settings: Effective settings; ``default_scope`` and ``default_owner`` bind every tool.
        opener: Opens the facade (default :meth:`Recollect.open`); for tests.
    """

    def __init__(
        self, settings: Settings, *, opener: Callable[[Settings], Recollect] | None = None
    ) -> None:
        self.settings = settings
        self.scope_id = settings.default_scope
        self.owner_id = settings.default_owner
        self._opener = opener or _open
        self._lock = threading.Lock()
        self._rg: Recollect | None = None
        self._mem: Memories | None = None

    def _ensure_open(self) -> tuple[Recollect, Memories]:
        """The open facade and bound memories (caller holds the lock). A failure is retried."""
        if self._rg is None or self._mem is None:
            log.info("opening recollect-graph (scope %r, owner %r)", self.scope_id, self.owner_id)
            rg = self._opener(self.settings)
            self._mem = rg.memories.in_scope(self.scope_id, self.owner_id)
            self._rg = rg
        return self._rg, self._mem

    def warm(self) -> None:
        """Open the database and load the embedding model ahead of the first call; never raises."""
        try:
            with self._lock:
                rg, _ = self._ensure_open()
                rg.embedder.embed_one("warm up")
            log.info("recollect-graph ready")
        except Exception as e:
            log.warning("start-up failed (the next tool call retries): %s", e)

    def call(self, body: Body) -> dict[str, Any]:
        """Run ``body`` on the open facade; its result, bounded and always a JSON object.

        Raises:
            RecollectError: What the library refused (bad input, database unavailable, ...).
        """
        with self._lock:
            rg, mem = self._ensure_open()
            result = body(rg, mem)
        out = bound(result)
        return out if isinstance(out, dict) else {"result": out}

    def close(self, timeout: float = 5.0) -> None:
        """Close the driver (the embedded server keeps running).

        Gives up after ``timeout`` seconds when a call or the start-up still holds the facade:
        the process is exiting, and that takes the connection down anyway.
        """
        if not self._lock.acquire(timeout=timeout):
            log.warning("closing while a call is still running; leaving the driver to exit")
            return
        try:
            if self._rg is not None:
                self._rg.close()
            self._rg = self._mem = None
        finally:
            self._lock.release()

    # -- the tool bodies ----------------------------------------------------------------------
    # Each returns what the tool answers (before bounding); the MCP layer validated the types.

    @staticmethod
    def remember(
        content: str,
        entry_type: str | None,
        tags: Sequence[str],
        title: str | None,
        auto_classify: bool,
    ) -> Body:
        """``recollect_remember``: ``{id, created, entry_type, title, tags, conflicts}``."""

        def body(rg: Recollect, mem: Memories) -> dict[str, Any]:
            opts: dict[str, Any] = {
                "entry_type": entry_type,
                "tags": list(tags),
                "auto_classify": auto_classify,
                "source": "agent",
            }
            if title is not None:
                opts["title"] = title
            entry = rg.remember(content, scope_id=mem.scope_id, owner_id=mem.owner_id, **opts)
            data = entry.model_dump(mode="json")
            return {
                "id": data["id"],
                "created": data["created"],
                "entry_type": data["entry_type"],
                "title": data["title"],
                "tags": data["tags"],
                "conflicts": data["conflicts"] or [],
            }

        return body

    @staticmethod
    def search(query: str, opts: Mapping[str, Any]) -> Body:
        """``recollect_search``: ``{query, hits: [{id, title, content, score, signals, ...}]}``."""

        def body(rg: Recollect, mem: Memories) -> dict[str, Any]:
            hits = rg.search(query, scope_id=mem.scope_id, owner_id=mem.owner_id, **opts)
            return {"query": query, "count": len(hits), "hits": [hit_dict(h) for h in hits]}

        return body

    @staticmethod
    def check_contradiction(content: str) -> Body:
        """``recollect_check_contradiction``: ``{ok, conflicts, claims}``; writes nothing."""

        def body(rg: Recollect, mem: Memories) -> dict[str, Any]:
            result = rg.check_contradiction(content, scope_id=mem.scope_id, owner_id=mem.owner_id)
            return contradiction_dict(result)

        return body

    @staticmethod
    def context(
        query: str, budget_tokens: int, *, as_of: str | None = None, valid_at: str | None = None
    ) -> Body:
        """``recollect_context``: a cited Markdown pack that never exceeds the token budget."""

        def body(rg: Recollect, mem: Memories) -> dict[str, Any]:
            pack = rg.context(
                query,
                scope_id=mem.scope_id,
                budget_tokens=budget_tokens,
                ids=False,
                as_of=as_of,
                valid_at=valid_at,
            )
            return {
                "markdown": pack.markdown,
                "tokens": pack.tokens,
                "budget": pack.budget,
                "citations": pack.citations,
                "cut": {k: v for k, v in pack.cut.items() if k in ("reason", "notes")},
            }

        return body

    @staticmethod
    def recall(
        text: str,
        hints: Sequence[str],
        attempt: int,
        *,
        as_of: str | None = None,
        valid_at: str | None = None,
    ) -> Body:
        """``recollect_recall``: the recall result (candidates or probes) with its prose."""

        def body(rg: Recollect, mem: Memories) -> dict[str, Any]:
            r = rg.recall(
                text,
                scope_id=mem.scope_id,
                hints=list(hints),
                attempt=attempt,
                owner_id=mem.owner_id,
                as_of=as_of,
                valid_at=valid_at,
            )
            return r.model_dump(mode="json")

        return body
