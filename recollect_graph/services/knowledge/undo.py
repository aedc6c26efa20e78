"""Destructive changes that can be undone: forget, soft delete, and ``undo`` of any operation.

Each writes an ``Operation`` node with the before-state in the same transaction as the change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from recollect_graph.captions import caption
from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import EntryNotFound, InvalidInput, OperationNotFound
from recollect_graph.models import Entry, Operation
from recollect_graph.nlp.claims import ClaimExtractor
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.services.admin.scopes import undo_drop
from recollect_graph.services.claims.store import claim_rows
from recollect_graph.services.kernel.hashing import content_hash
from recollect_graph.services.kernel.times import aware, native, now_utc
from recollect_graph.services.kernel.validation import (
    MAX_CONTENT_CHARS,
    MAX_OFFSET,
    in_range,
    require_scope,
    require_text,
)
from recollect_graph.services.knowledge import changesets, footprint
from recollect_graph.services.knowledge.rows import entry_from_row


class History:
    """Mixin of the knowledge service: the undoable destructive operations."""

    db: Db
    embedder: Embedder
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
        self,
        tx: Tx,
        entry_id: str,
        scope_id: str | None,
        now: datetime,
        actor: str | None = None,
        *,
        capture: footprint.Capture | None = None,
        kind: str = "forget",
        reason: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> tuple[Entry, str]:
        """:meth:`forget` inside the caller's transaction (for multi-step writes such as resolve).

        ``capture`` is one the caller opened before its own earlier steps (so that the one
        operation undoes them too); by default one is opened here. ``kind``, ``reason`` and
        ``extra`` are what the operation is recorded as.

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
        scope = str(props["scope_id"])
        if capture is None:
            capture = footprint.Capture(tx.run, scope, entries=[entry_id])
        else:
            capture.add(entries=[entry_id])
        changesets.revive_superseded(tx.run, entry_id)
        if not changesets.delete_entry(tx.run, entry_id, now):
            raise EntryNotFound(entry_id)
        change = capture.finish()
        if change is None:  # cannot happen: the entry itself went
            raise EntryNotFound(entry_id)
        op_id = footprint.record(
            tx.run,
            change,
            kind=kind,
            scope_id=scope,
            now=now,
            entry_ids=[entry_id],
            reason=reason,
            actor=actor,
            extra=extra,
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
            ``{forgotten, not_found, operation_id}`` (``operation_id`` is None if nothing changed:
            nothing matched, and no operation was written).
        """
        now = now_utc()

        def tx_fn(tx: Tx) -> tuple[list[str], str | None]:
            capture = footprint.Capture(tx.run, scope_id, entries=list(ids), walk=False)
            done = [
                r["id"]
                for r in tx.run(
                    "entries/soft_delete", ids=list(ids), scope_id=scope_id, reason=reason, now=now
                )
            ]
            change = capture.finish() if done else None
            if change is None:
                return [], None
            op = footprint.record(
                tx.run,
                change,
                kind="soft_delete",
                scope_id=scope_id,
                now=now,
                entry_ids=done,
                reason=reason,
                actor=actor,
            )
            return done, op

        done, op_id = self.db.write_tx(tx_fn)
        return {
            "forgotten": done,
            "not_found": [i for i in ids if i not in done],
            "operation_id": op_id,
        }

    def edit(
        self, entry_id: str, content: str, *, scope_id: str, actor: str | None = None
    ) -> tuple[Entry, str | None]:
        """Edit an entry in place: new content, the same id, undoable.

        The vector is recomputed for the new text, the claims (and the mentions they make) are
        extracted again, the relation evidence it gave is retracted (``entities index`` finds the
        entry again: its content hash changed); ``edit_count`` and ``edited_at`` say it was
        edited. The earlier version is kept in the edit's ``Operation`` (the history: ``undo``
        puts it back exactly).

        Returns:
            The edited entry and the operation that undoes the edit (None when the content was
            already that: nothing changed, no operation).

        Raises:
            EntryNotFound: No such entry in ``scope_id``.
        """
        scope_id = require_text(scope_id, "scope_id")
        content = require_text(content, "content", max_len=MAX_CONTENT_CHARS)
        rows = self.db.read("entries/get_many", ids=[entry_id], scope_id=scope_id)
        if not rows:
            raise EntryNotFound(entry_id)
        old = rows[0]["entry"]
        now = now_utc()
        if old.get("content") == content:
            return entry_from_row(old, now=now), None
        text = ". ".join(str(p) for p in (old.get("title"), old.get("description"), content) if p)
        vector = self.embedder.embed([text])[0]
        claims = self.extractor.extract(content) if self.extractor else []

        def tx_fn(tx: Tx) -> tuple[Entry, str | None]:
            if not tx.run("entries/lock_one", id=entry_id, scope_id=scope_id):
                raise EntryNotFound(entry_id)
            capture = footprint.Capture(tx.run, scope_id, entries=[entry_id])
            rows = claim_rows(entry_id, scope_id, claims) if claims else None
            keys = [("Claim", c["id"]) for c in (rows or {}).get("claims", [])]
            keys += [
                ("Entity", c["entity_id"]) for c in (rows or {}).get("claims", []) if c["entity_id"]
            ]
            created = footprint.absent(tx.run, scope_id, keys)
            tx.run("claims/retract", id=entry_id)
            tx.run("claims/retract_relations", id=entry_id)
            props = tx.run(
                "entries/edit",
                id=entry_id,
                scope_id=scope_id,
                content=content,
                content_hash=content_hash(content),
                caption=caption(content, old.get("title")),
                embedding=list(vector),
                model=self.embedder.model_id,
                now=now,
            )[0]["props"]
            if rows:
                tx.run("claims/upsert", rows=[rows])
            change = capture.finish()
            op = None
            if change is not None:
                op = footprint.record(
                    tx.run,
                    change,
                    kind="edit",
                    scope_id=scope_id,
                    now=now,
                    entry_ids=[entry_id],
                    reason="edited in place",
                    actor=actor,
                    extra={"created_keys": created},
                )
            return entry_from_row(props, now=now), op

        return self.db.write_tx(tx_fn)

    def undo(self, operation_id: str, *, scope_id: str | None = None) -> Operation:
        """Undo a logged operation, in one transaction.

        An operation recorded with its exact difference (every destructive change since the
        format of :mod:`~recollect_graph.services.knowledge.footprint`) is reverted exactly: what
        it deleted comes back (derived data included), what it made goes, what it altered gets
        its old values. Older records: ``forget`` re-creates the entry and its edges,
        ``soft_delete`` restores, lifecycle changes revert their change set.

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
            before = footprint.recorded_before(op)
            if footprint.is_exact(before):
                for eid in before.get("created_entries") or []:
                    changesets.delete_entry(tx.run, eid, now)
                if before.get("created_keys"):  # e.g. the claims and entities an edit made
                    footprint.drop_created(tx.run, op["scope_id"], before["created_keys"])
                if before.get("created_topics"):
                    tx.run("topics/delete", scope_id=op["scope_id"], ids=before["created_topics"])
                for change in reversed(before.get("batches") or [before]):
                    footprint.revert(tx.run, change)
                for tid in footprint.deleted_turns(before):  # turns added since: mend the chain
                    tx.run("sessions/rechain_turn", id=tid)
            elif op["kind"] == "forget":
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
            elif op["kind"] == "scope_drop":
                undo_drop(tx, op)
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
