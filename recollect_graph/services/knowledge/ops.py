"""Reads, typed edges and outcome feedback of the knowledge service (a mixin of ``Knowledge``).

``get`` / ``get_many`` / ``recent`` read entries of one scope; ``connect`` writes a typed edge
between two entries of one scope (idempotent); ``outcome`` is good/bad feedback; ``touch`` and
``links_of`` are the bookkeeping and neighbourhood reads that search and context use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import EntryNotFound, InvalidInput, ScopeViolation
from recollect_graph.models import Edge, Entry
from recollect_graph.services.kernel.times import aware, native, now_utc
from recollect_graph.services.kernel.validation import (
    MAX_OFFSET,
    in_range,
    one_of,
    optional_text,
    require_scope,
    require_text,
)
from recollect_graph.services.knowledge import lifecycle
from recollect_graph.services.knowledge.access import Access
from recollect_graph.services.knowledge.rows import entry_from_row, live_entries
from recollect_graph.vocabulary import RELATIONS


class EntryOps:
    """Mixin of the knowledge service: reads, typed edges and outcome feedback."""

    db: Db
    access: Access

    # -- reads -------------------------------------------------------------------------------
    def get_many(self, ids: Sequence[str], *, scope_id: str | None = None) -> list[Entry]:
        """Entries by id in the caller's order (duplicates once; unknown ids skipped).

        Args:
            ids: Entry ids.
            scope_id: The scope (required): ids of other scopes behave as not found.

        Raises:
            InvalidInput: No scope, or ``ids`` is not a list.
        """
        scope_id = require_scope(scope_id)
        if isinstance(ids, (str, bytes, Mapping)) or not isinstance(ids, Iterable):
            raise InvalidInput("ids must be a list of strings")
        wanted = list(dict.fromkeys(str(i) for i in ids))
        if not wanted:
            return []
        now = now_utc()
        return live_entries(
            self.db.read("entries/get_many", ids=wanted, scope_id=scope_id), now=now
        )

    def get(
        self,
        entry_id: str,
        *,
        scope_id: str | None = None,
        owner_id: str | None = None,
        touch: bool = True,
    ) -> Entry:
        """One entry, or :class:`EntryNotFound`.

        Args:
            entry_id: The entry.
            scope_id: The scope (required): an entry of another scope is not found.
            owner_id: Who viewed it (recorded with the access).
            touch: Record a ``view`` in the access history (default); off for lookups.
        """
        found = self.get_many([entry_id], scope_id=scope_id)
        if not found:
            raise EntryNotFound(entry_id)
        if touch:
            self.access.record(
                found[0].scope_id, "view", [found[0].id], owner_id=owner_id, best_effort=True
            )
        return found[0]

    def recent(
        self,
        scope_id: str,
        *,
        limit: int = 20,
        offset: int = 0,
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
    ) -> list[Entry]:
        """The newest current entries of a scope (not superseded, not deleted, valid now).

        A page: the first ``offset`` skipped (newest first, ties by id), then at most ``limit``.
        ``as_of`` (record time) answers with what was recorded and believed at a past moment;
        ``valid_at`` (valid time) with what was true at a moment (the same rules as search).
        """
        scope_id = require_text(scope_id, "scope_id")
        limit = int(in_range(limit, "limit", 1, 10_000))
        skip = int(in_range(offset, "offset", 0, MAX_OFFSET))
        now = now_utc()
        rows = self.db.read(
            "entries/recent",
            scope_id=scope_id,
            skip=skip,
            limit=limit,
            now=now,
            as_of=aware(as_of, "as_of"),
            valid_at=aware(valid_at, "valid_at"),
        )
        return [entry_from_row(r["entry"], now=now) for r in rows]

    # -- edges -------------------------------------------------------------------------------
    def connect(
        self,
        source_id: str,
        target_id: str,
        relation: str,
        *,
        weight: float = 1.0,
        reason: str | None = None,
        origin: str = "user",
        scope_id: str | None = None,
    ) -> Edge:
        """Connect two entries of one scope with a typed edge (idempotent).

        Raises:
            InvalidInput: Unknown relation, weight outside [0, 1], an entry to itself.
            InvalidInput: No ``scope_id`` (ids are resolved within one scope).
            EntryNotFound: Either entry does not exist in ``scope_id``.
            ScopeViolation: The entries are in different scopes.
        """
        scope_id = require_scope(scope_id)
        rel = one_of(str(relation).lower(), "relation", RELATIONS)
        weight = in_range(weight, "weight", 0, 1)
        if source_id == target_id:
            raise InvalidInput("an entry cannot be connected to itself")
        reason = optional_text(reason, "reason", max_len=2000)

        def tx_fn(tx: Tx) -> Edge:
            ends = tx.run("entries/endpoints", source_id=source_id, target_id=target_id)[0]
            for eid, scope in (
                (source_id, ends["source_scope"]),
                (target_id, ends["target_scope"]),
            ):
                if scope is None or (scope_id is not None and scope != scope_id):
                    raise EntryNotFound(eid)
            if ends["source_scope"] != ends["target_scope"]:
                raise ScopeViolation("cannot connect entries of different scopes")
            row = tx.run(
                "entries/connect",
                source_id=source_id,
                target_id=target_id,
                rel_type=rel.upper(),
                weight=weight,
                reason=reason,
                origin=origin,
                now=now_utc(),
            )[0]
            return Edge(
                source_id=source_id,
                target_id=target_id,
                relation=rel,
                weight=row["weight"],
                reason=row["reason"],
                origin=row["origin"],
                created_at=native(row["created_at"]),
                created=row["created"],
            )

        return self.db.write_tx(tx_fn)

    # -- lifecycle ---------------------------------------------------------------------------
    def outcome(
        self, entry_ids: Sequence[str], result: str, *, scope_id: str | None = None
    ) -> list[str]:
        """Outcome feedback: ``good`` adds 5 days of half-life and verifies; ``bad`` removes 3.

        Returns:
            The ids that were updated (unknown ids and other scopes' ids are left out).
        """
        scope_id = require_scope(scope_id)
        result = one_of(result, "result", ("good", "bad"))
        good = result == "good"
        rows = self.db.write(
            "entries/outcome",
            ids=list(entry_ids),
            scope_id=scope_id,
            delta=lifecycle.GOOD_HALF_LIFE_DELTA if good else -lifecycle.BAD_HALF_LIFE_DELTA,
            score=1 if good else -1,
            state="verified" if good else "active",
            now=now_utc(),
        )
        return [r["id"] for r in rows]

    def touch(self, ids: Sequence[str]) -> None:
        """Record that entries were used (access count, last access, stale wakes up).

        Bookkeeping: a lock race with a concurrent forget drops it (logged), never the read.
        """
        self.db.write_best_effort(
            "entries/bump_access",
            ids=list(ids),
            now=now_utc(),
            stale_days=lifecycle.STALE_AFTER_DAYS,
        )

    def links_of(
        self, ids: Sequence[str], *, per_entry: int = 5
    ) -> dict[str, list[dict[str, Any]]]:
        """Knowledge edges of each entry (both directions, strongest first)."""
        if not ids:
            return {}
        rows = self.db.read("entries/links_of", ids=list(ids), per_entry=per_entry)
        return {r["id"]: [x for x in r["links"] if x is not None] for r in rows}
