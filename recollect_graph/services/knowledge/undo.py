"""Destructive changes that can be undone: forget, soft delete, and ``undo`` of any operation.

Each writes an ``Operation`` node with the before-state in the same transaction as the change.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import EntryNotFound, InvalidInput, OperationNotFound
from recollect_graph.models import Entry, Operation
from recollect_graph.nlp.claims import ClaimExtractor
from recollect_graph.services.claims.store import claim_rows
from recollect_graph.services.kernel.times import aware, native, now_utc
from recollect_graph.services.kernel.validation import (
    MAX_OFFSET,
    in_range,
    require_scope,
    require_text,
)
from recollect_graph.services.knowledge import changesets
from recollect_graph.services.knowledge.rows import entry_from_row


class History:
    """Mixin of the knowledge service: the undoable destructive operations."""

    db: Db
    extractor: ClaimExtractor | None

    # -- destructive, undoable ---------------------------------------------------------------
    def forget(
        self, entry_id: str, *, scope_id: str | None = None, actor: str | None = None
    ) -> Entry:
        """Hard-delete an entry and its edges; the before-state is kept in an ``Operation``.

        Everything derived from the entry goes in the same transaction (claims, mentions,
        relation evidence, pending link suggestions naming it); entries it had superseded come
        back; a turn is taken out of its session's chain and count. ``undo`` reverses all of it.

        Raises:
            InvalidInput: No ``scope_id`` (ids are resolved within one scope).
            EntryNotFound: No such entry in ``scope_id``.
        """
        scope_id = require_scope(scope_id)
        now = now_utc()
        return self.db.write_tx(lambda tx: self.forget_in(tx, entry_id, scope_id, now, actor)[0])

    def forget_in(
        self, tx: Tx, entry_id: str, scope_id: str | None, now: datetime, actor: str | None = None
    ) -> tuple[Entry, str]:
        """:meth:`forget` inside the caller's transaction (for multi-step writes such as resolve).

        Returns:
            The forgotten entry and the id of the ``Operation`` that undoes it.

        Raises:
            EntryNotFound: No such entry (in ``scope_id`` when given).
        """
        # The entry's write lock first: a concurrent forget of it waits here, then finds it
        # gone; the check, the delete and the operation are one atomic step.
        if not tx.run("entries/lock_one", id=entry_id, scope_id=scope_id):
            raise EntryNotFound(entry_id)
        snap = tx.run("entries/snapshot", id=entry_id, scope_id=scope_id)
        if not snap:
            raise EntryNotFound(entry_id)
        props = snap[0]["props"]
        edges = [e for e in snap[0]["edges"] if e is not None]
        revived = changesets.revive_superseded(tx.run, entry_id)
        if not changesets.delete_entry(tx.run, entry_id, now):
            raise EntryNotFound(entry_id)
        before = json.dumps(
            {"props": props, "labels": snap[0]["labels"], "edges": edges, "revived": revived},
            default=_json_default,
        )
        op_id = str(uuid.uuid4())
        tx.run(
            "operations/record",
            id=op_id,
            kind="forget",
            scope_id=props["scope_id"],
            actor=actor,
            now=now,
            entry_ids=[entry_id],
            reason=None,
            before=before,
        )
        return entry_from_row(props, now=now), op_id

    def soft_delete(
        self,
        ids: Sequence[str],
        *,
        scope_id: str,
        reason: str = "unspecified",
        actor: str | None = None,
    ) -> dict[str, Any]:
        """Soft-delete entries of a scope (logged as one undoable operation).

        Returns:
            ``{forgotten, not_found, operation_id}`` (``operation_id`` is None if nothing changed).
        """
        now = now_utc()
        op_id = str(uuid.uuid4())

        def tx_fn(tx: Tx) -> list[str]:
            done = [
                r["id"]
                for r in tx.run(
                    "entries/soft_delete", ids=list(ids), scope_id=scope_id, reason=reason, now=now
                )
            ]
            if done:
                tx.run(
                    "operations/record",
                    id=op_id,
                    kind="soft_delete",
                    scope_id=scope_id,
                    actor=actor,
                    now=now,
                    entry_ids=done,
                    reason=reason,
                    before="{}",
                )
            return done

        done = self.db.write_tx(tx_fn)
        return {
            "forgotten": done,
            "not_found": [i for i in ids if i not in done],
            "operation_id": op_id if done else None,
        }

    def undo(self, operation_id: str, *, scope_id: str | None = None) -> Operation:
        """Undo a logged operation.

        ``forget`` re-creates the entry and its edges; ``soft_delete`` restores.

        Raises:
            OperationNotFound: No such operation in ``scope_id``.
            InvalidInput: Already undone, or no ``scope_id``.
        """
        scope_id = require_scope(scope_id)
        now = now_utc()

        def tx_fn(tx: Tx) -> Operation:
            rows = tx.run("operations/get", id=operation_id, scope_id=scope_id)
            if not rows:
                raise OperationNotFound(operation_id)
            op = rows[0]["op"]
            if op.get("undone_at") is not None:
                raise InvalidInput(f"operation {operation_id} was already undone")
            before = json.loads(op["before"])
            if op["kind"] == "forget":
                props = _restore_types(before["props"])
                edges = [{**e, "props": _restore_types(e["props"])} for e in before["edges"]]
                turn = _was_turn(before, props)
                if turn:  # its place in the chain is found again by seq, next to today's turns
                    edges = [e for e in edges if e["type"] != "NEXT"]
                tx.run("entries/restore_snapshot", props=props, edges=edges)
                if turn:
                    tx.run("sessions/restore_turn", id=props["id"], now=now)
                changesets.restore_states(tx.run, before.get("revived") or [])
                if self.extractor and props.get("content"):
                    found = self.extractor.extract(str(props["content"]))
                    if found:
                        tx.run(
                            "claims/upsert",
                            rows=[claim_rows(props["id"], props["scope_id"], found)],
                        )
            elif op["kind"] in ("supersede", "invalidate", "resolve", "consolidate"):
                changesets.revert(tx.run, before, now)
            elif op["kind"] == "soft_delete":
                tx.run("entries/restore", ids=op["entry_ids"], scope_id=op["scope_id"], now=now)
            else:
                raise InvalidInput(f"operations of kind {op['kind']!r} cannot be undone")
            tx.run("operations/mark_undone", id=operation_id, now=now)
            return operation_from_row({**op, "undone_at": now})

        return self.db.write_tx(tx_fn)

    def operations(self, scope_id: str, *, limit: int = 50, offset: int = 0) -> list[Operation]:
        """The newest logged operations of a scope.

        A page: the first ``offset`` skipped (newest first, ties by id), then at most ``limit``.
        """
        rows = self.db.read(
            "operations/list",
            scope_id=require_text(scope_id, "scope_id"),
            skip=int(in_range(offset, "offset", 0, MAX_OFFSET)),
            limit=int(in_range(limit, "limit", 1, 10_000)),
        )
        return [operation_from_row(r["op"]) for r in rows]


def operation_from_row(op: Mapping[str, Any]) -> Operation:
    """Build an :class:`Operation` record."""
    return Operation(
        id=op["id"],
        kind=op["kind"],
        scope_id=op["scope_id"],
        actor=op.get("actor"),
        at=native(op["at"]),
        entry_ids=list(op.get("entry_ids") or []),
        reason=op.get("reason"),
        undone_at=native(op.get("undone_at")),
    )


_TEMPORAL_KEYS = (
    "created_at",
    "updated_at",
    "last_accessed_at",
    "valid_from",
    "valid_to",
    "retired_at",
    "soft_deleted_at",
)


def _was_turn(before: Mapping[str, Any], props: Mapping[str, Any]) -> bool:
    """Whether a forgotten entry was a conversation turn (older records keep no labels)."""
    labels = before.get("labels")
    if labels is not None:
        return "Turn" in labels
    return props.get("entry_type") == "conversation_turn" and bool(props.get("session_id"))


def _json_default(v: Any) -> Any:
    v = native(v)
    if hasattr(v, "isoformat"):
        return {"$dt": v.isoformat()}
    raise TypeError(f"cannot serialise {type(v).__name__}")


def _restore_types(props: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in props.items():
        if isinstance(v, dict) and "$dt" in v:
            out[k] = aware(v["$dt"], k)
        else:
            out[k] = v
    return out
