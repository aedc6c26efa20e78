"""Scope administration: list scopes with counts, drop a scope (undoable until purged), purge.

A drop hides a whole scope in one transaction: every node of it moves to a reserved scope id
(``DROPPED_PREFIX`` + the drop's operation id + the scope), where no call that names a scope can
reach it, and one ``Operation`` (kind ``scope_drop``, in the dropped scope's name) records it.
``undo`` of that operation moves everything back, exactly as it was. ``purge`` deletes dropped
scopes for good; a purged drop can no longer be undone.

Example:
    >>> op = rg.scopes.drop("scratch")  # doctest: +SKIP
    >>> rg.undo(op["operation_id"], scope_id="scratch")  # doctest: +SKIP
"""

from __future__ import annotations

import builtins
import json
import uuid
from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import InvalidInput
from recollect_graph.services.kernel.times import native, now_utc
from recollect_graph.services.kernel.validation import MAX_SCOPE_CHARS, require_text

#: The reserved scope ids of dropped scopes start with this (a control character: no scope a
#: caller names can start with it).
DROPPED_PREFIX = "\x00dropped:"
KINDS = ("entries", "documents", "chunks", "entities", "sessions", "operations")


def hidden_scope(op_id: str, scope_id: str) -> str:
    """The reserved scope id a drop moves a scope to."""
    return f"{DROPPED_PREFIX}{op_id}:{scope_id}"


def valid_scope(scope_id: str) -> str:
    """A scope id a caller may name (not empty, not too long, not a reserved id)."""
    scope_id = require_text(scope_id, "scope_id", max_len=MAX_SCOPE_CHARS)
    if scope_id.startswith(DROPPED_PREFIX[0]):
        raise InvalidInput("scope_id may not start with a control character")
    return scope_id


class Scopes:
    """The scopes of one database.

    Args:
        db: The database client.
    """

    def __init__(self, db: Db) -> None:
        self.db = db

    def list(self, *, include_dropped: bool = False) -> builtins.list[dict[str, Any]]:
        """Every scope with its counts, by scope id.

        Each item: ``scope_id``, ``entries``, ``current`` (not retired, not soft-deleted),
        ``documents``, ``chunks``, ``entities``, ``sessions``, ``operations`` and ``dropped``
        (False; with ``include_dropped``, dropped scopes not yet purged are listed too, under
        their own name, with ``dropped`` True and the ``operation_id`` that undoes the drop).
        """
        by: dict[str, dict[str, Any]] = {}
        for r in self.db.read("scopes/list"):
            sid = r["scope_id"]
            if sid is None:
                continue
            row = by.setdefault(sid, {"scope_id": sid, "current": 0, **dict.fromkeys(KINDS, 0)})
            row[r["kind"]] = int(r["count"])
            if r["kind"] == "entries":
                row["current"] = int(r["current"])
        drops = {hidden_scope(d["id"], d["scope_id"]): d for d in self._drops(None)}
        out: builtins.list[dict[str, Any]] = []
        for sid, row in sorted(by.items()):
            if not sid.startswith(DROPPED_PREFIX):
                if row["entries"] or row["documents"] or row["sessions"] or row["entities"]:
                    out.append({**row, "dropped": False})
                continue
            d = drops.get(sid)
            if include_dropped and d is not None:
                out.append(
                    {
                        **row,
                        "scope_id": d["scope_id"],
                        "dropped": True,
                        "dropped_at": native(d["at"]),
                        "operation_id": d["id"],
                    }
                )
        return out

    def drop(self, scope_id: str, *, actor: str | None = None) -> dict[str, Any]:
        """Drop a scope: everything in it is hidden at once, undoably (until purged).

        Returns:
            ``{scope_id, nodes, operation_id}`` (undo the operation to bring the scope back).

        Raises:
            InvalidInput: The scope holds nothing (nothing is dropped, no operation written).
        """
        scope_id = valid_scope(scope_id)
        op_id = str(uuid.uuid4())
        hidden = hidden_scope(op_id, scope_id)
        now = now_utc()

        def tx_fn(tx: Tx) -> int:
            moved = int(tx.run("scopes/rename", source=scope_id, target=hidden)[0]["moved"])
            if not moved:
                raise InvalidInput(f"scope {scope_id!r} holds nothing: nothing to drop")
            tx.run(
                "operations/record",
                id=op_id,
                kind="scope_drop",
                scope_id=scope_id,
                actor=actor,
                now=now,
                entry_ids=[],
                reason=f"scope {scope_id} dropped ({moved} nodes)",
                before=json.dumps({"hidden": hidden, "nodes": moved}),
            )
            return moved

        moved = self.db.write_tx(tx_fn)
        return {"scope_id": scope_id, "nodes": moved, "operation_id": op_id}

    def purge(self, scope_id: str | None = None) -> dict[str, Any]:
        """Delete dropped scopes for good (those of ``scope_id``, or every dropped scope).

        Each dropped scope goes in its own transaction; its drop can no longer be undone.

        Returns:
            ``{purged: [{scope_id, operation_id, nodes}], nodes}``.
        """
        if scope_id is not None:
            scope_id = valid_scope(scope_id)
        purged: builtins.list[dict[str, Any]] = []
        for d in self._drops(scope_id):
            hidden = json.loads(d["before"])["hidden"]

            def tx_fn(tx: Tx, op: str = d["id"], hidden: str = hidden) -> int:
                if not tx.run("scopes/mark_purged", id=op, now=now_utc()):
                    return -1  # purged (or undone) meanwhile
                return int(tx.run("scopes/purge", scope_id=hidden)[0]["deleted"])

            n = self.db.write_tx(tx_fn)
            if n >= 0:
                purged.append({"scope_id": d["scope_id"], "operation_id": d["id"], "nodes": n})
        return {"purged": purged, "nodes": sum(p["nodes"] for p in purged)}

    def _drops(self, scope_id: str | None) -> builtins.list[dict[str, Any]]:
        return self.db.read("scopes/drops", scope_id=scope_id)


def undo_drop(tx: Tx, op: dict[str, Any]) -> None:
    """Undo a scope drop inside the undo's transaction: every node moves back to its scope.

    Raises:
        InvalidInput: The drop was purged (the scope is gone for good).
    """
    if op.get("purged_at") is not None:
        raise InvalidInput(f"scope {op['scope_id']!r} was purged: its drop cannot be undone")
    hidden = json.loads(op["before"])["hidden"]
    tx.run("scopes/rename", source=hidden, target=op["scope_id"])
