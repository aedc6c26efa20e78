"""``AsyncRecollect``: an async facade for asyncio applications (agents, web servers).

The reads that are one statement run natively on the driver's async API (:mod:`.db.aio`), with
the same ``cypher/`` files and the same result records as :class:`recollect_graph.Recollect`:
:meth:`~AsyncRecollect.get`, :meth:`~AsyncRecollect.get_many`, :meth:`~AsyncRecollect.recent`,
:meth:`~AsyncRecollect.operations`, :meth:`~AsyncRecollect.sessions` and
:meth:`~AsyncRecollect.turns`. The reads that embed the query and fuse several statements
(:meth:`~AsyncRecollect.search`, :meth:`~AsyncRecollect.context`, :meth:`~AsyncRecollect.recall`)
and the writes (:meth:`~AsyncRecollect.remember`) run the sync facade's code in a worker thread
(``asyncio.to_thread``), so the event loop never blocks on the embedding model; that facade is
opened on first use, with the same settings.

Example:
    >>> import asyncio
    >>> from recollect_graph.aio import AsyncRecollect
    >>> async def main() -> None:
    ...     async with await AsyncRecollect.open() as rg:
    ...         hits = await rg.search("build tool", scope_id="app")
    ...         newest = await rg.recent("app", limit=5)
    >>> asyncio.run(main())  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from recollect_graph.db.aio import AsyncDb
from recollect_graph.db.host import ensure_password
from recollect_graph.db.server import LocalServer
from recollect_graph.errors import EntryNotFound, InvalidInput, SessionNotFound
from recollect_graph.facade import Recollect
from recollect_graph.models import Entry, Hit, Operation, RecallResult, ServerStatus
from recollect_graph.services.context.budget import Pack
from recollect_graph.services.kernel.times import native_row, now_utc
from recollect_graph.services.kernel.validation import (
    MAX_OFFSET,
    in_range,
    require_scope,
    require_text,
)
from recollect_graph.services.knowledge.rows import entry_from_row, live_entries
from recollect_graph.services.knowledge.undo import operation_from_row
from recollect_graph.settings import Settings

__all__ = ["AsyncRecollect"]


class AsyncRecollect:
    """The async facade. Open it with ``await AsyncRecollect.open()``; close it (or ``async with``).

    Args:
        db: The async database client.
        settings: The settings it was opened with.
        server: The embedded server's status (None for an external ``NEO4J_URI``).
    """

    def __init__(
        self, db: AsyncDb, settings: Settings, *, server: ServerStatus | None = None
    ) -> None:
        self.db = db
        self.settings = settings
        self.server = server
        self._sync: Recollect | None = None
        self._sync_lock = asyncio.Lock()

    @classmethod
    async def open(cls, settings: Settings | None = None, **overrides: Any) -> AsyncRecollect:
        """Connect (starting or attaching to the embedded server when there is no URI).

        Args:
            settings: Settings to use (default: :meth:`Settings.from_env` with ``overrides``).
            **overrides: Settings fields, e.g. ``neo4j_uri="bolt://..."``.

        Raises:
            ServerError, DatabaseUnavailable, AuthFailed: The database cannot be used.
        """
        cfg = settings or Settings.from_env(**overrides)
        status: ServerStatus | None = None
        password = cfg.neo4j_password
        if cfg.embedded:
            status = await asyncio.to_thread(LocalServer(cfg).start)
            password = ensure_password(cfg) if status.auth else None
            uri = status.bolt_uri
        else:
            uri = cfg.effective_uri()
        db = await AsyncDb.connect(
            uri, user=cfg.neo4j_user, password=password, database=cfg.neo4j_database
        )
        return cls(db, cfg, server=status)

    async def close(self) -> None:
        """Close the driver (and the sync facade, when it was opened)."""
        if self._sync is not None:
            await asyncio.to_thread(self._sync.close)
            self._sync = None
        await self.db.close()

    async def __aenter__(self) -> AsyncRecollect:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- native async reads ----------------------------------------------------------------
    async def get_many(self, ids: Sequence[str], *, scope_id: str | None = None) -> list[Entry]:
        """Entries by id in the caller's order (duplicates once; unknown ids skipped).

        Args:
            ids: Entry ids.
            scope_id: The scope (required): ids of other scopes behave as not found.

        Raises:
            InvalidInput: No scope, or ids not a list.
        """
        scope_id = require_scope(scope_id)
        if isinstance(ids, str | bytes) or not isinstance(ids, Sequence):
            raise InvalidInput("ids must be a list of strings")
        wanted = list(dict.fromkeys(str(i) for i in ids))
        if not wanted:
            return []
        now = now_utc()
        rows = await self.db.read("entries/get_many", ids=wanted, scope_id=scope_id)
        return live_entries(rows, now=now)

    async def get(self, entry_id: str, *, scope_id: str | None = None) -> Entry:
        """One entry of ``scope_id`` (required), or :class:`EntryNotFound` (records no access)."""
        found = await self.get_many([entry_id], scope_id=scope_id)
        if not found:
            raise EntryNotFound(entry_id)
        return found[0]

    async def recent(self, scope_id: str, *, limit: int = 20, offset: int = 0) -> list[Entry]:
        """The newest current entries of a scope (a page: ``offset`` skipped, ``limit`` kept)."""
        scope_id = require_text(scope_id, "scope_id")
        lim = int(in_range(limit, "limit", 1, 10_000))
        skip = int(in_range(offset, "offset", 0, MAX_OFFSET))
        now = now_utc()
        rows = await self.db.read(
            "entries/recent",
            scope_id=scope_id,
            skip=skip,
            limit=lim,
            now=now,
            as_of=None,
            valid_at=None,
        )
        return [entry_from_row(r["entry"], now=now) for r in rows]

    async def operations(
        self, scope_id: str, *, limit: int = 50, offset: int = 0
    ) -> list[Operation]:
        """The newest logged operations of a scope (a page)."""
        rows = await self.db.read(
            "operations/list",
            scope_id=require_text(scope_id, "scope_id"),
            skip=int(in_range(offset, "offset", 0, MAX_OFFSET)),
            limit=int(in_range(limit, "limit", 1, 10_000)),
        )
        return [operation_from_row(r["op"]) for r in rows]

    async def sessions(
        self, scope_id: str, *, limit: int = 50, offset: int = 0
    ) -> list[dict[str, Any]]:
        """The sessions of a scope, newest first (a page)."""
        rows = await self.db.read(
            "sessions/list",
            scope_id=require_text(scope_id, "scope_id"),
            forks_only=False,
            cwd=None,
            skip=int(in_range(offset, "offset", 0, MAX_OFFSET)),
            limit=int(in_range(limit, "limit", 1, 10_000)),
        )
        return [native_row(r["session"]) for r in rows]

    async def turns(self, session_id: str, *, scope_id: str) -> list[dict[str, Any]]:
        """A session's turns in order (id, role, speaker, text, at), or SessionNotFound."""
        rows = await self.db.read(
            "sessions/turn_texts",
            session_id=require_text(session_id, "session_id"),
            scope_id=require_text(scope_id, "scope_id"),
        )
        if not rows:
            raise SessionNotFound(session_id, scope_id=scope_id)
        return [native_row(t) for t in rows[0]["turns"]]

    # -- through the sync facade, in a worker thread ---------------------------------------
    async def facade(self) -> Recollect:
        """The sync :class:`Recollect` on the same settings (opened on first use)."""
        async with self._sync_lock:
            if self._sync is None:
                self._sync = await asyncio.to_thread(Recollect.open, self.settings)
            return self._sync

    async def search(self, query: str, *, scope_id: str, **opts: Any) -> list[Hit]:
        """Hybrid search (see :meth:`Recollect.search`), in a worker thread."""
        rg = await self.facade()
        return await asyncio.to_thread(lambda: rg.search(query, scope_id=scope_id, **opts))

    async def context(self, query: str, *, scope_id: str, budget_tokens: int, **opts: Any) -> Pack:
        """A cited context pack within a token budget (see :meth:`Recollect.context`)."""
        rg = await self.facade()
        return await asyncio.to_thread(
            lambda: rg.context(query, scope_id=scope_id, budget_tokens=budget_tokens, **opts)
        )

    async def recall(self, text: str, *, scope_id: str, **opts: Any) -> RecallResult:
        """Vague recall of a past session (see :meth:`Recollect.recall`)."""
        rg = await self.facade()
        return await asyncio.to_thread(lambda: rg.recall(text, scope_id=scope_id, **opts))

    async def remember(self, content: str, *, scope_id: str, owner_id: str, **opts: Any) -> Entry:
        """Store one entry (see :meth:`Recollect.remember`)."""
        rg = await self.facade()
        return await asyncio.to_thread(
            lambda: rg.remember(content, scope_id=scope_id, owner_id=owner_id, **opts)
        )
