"""The change sets that make lifecycle operations undoable, and the exact hard delete.

A lifecycle operation (supersede, invalidate, resolve, consolidate) records in its ``Operation``
node the lifecycle properties of every entry it touched (as they were), the edges it created and
the entries it created; :func:`revert` puts all of that back. :func:`delete_entry` removes an
entry with everything derived from it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from recollect_graph.services.kernel.times import aware, native
from recollect_graph.services.knowledge import footprint
from recollect_graph.vocabulary import SUPERSEDE_REL_TYPES

Run = Callable[..., list[dict[str, Any]]]


def snapshot_state(run: Run, ids: Sequence[str], scope_id: str) -> list[dict[str, Any]]:
    """Lifecycle properties of entries as they are now (JSON-ready)."""
    rows = run("supersede/state", ids=list(ids), scope_id=scope_id)
    return [{"id": r["id"], "props": _jsonable(r["props"])} for r in rows]


def record(
    run: Run,
    *,
    kind: str,
    scope_id: str,
    now: datetime,
    entry_ids: Sequence[str],
    state: list[dict[str, Any]],
    links: list[dict[str, Any]],
    created: Sequence[str] = (),
    contradictions: Sequence[Mapping[str, Any]] = (),
    reason: str | None = None,
    actor: str | None = None,
) -> str:
    """Write the ``Operation`` of a lifecycle change; returns its id."""
    op_id = str(uuid.uuid4())
    before = {
        "state": state,
        "links": links,
        "created": list(created),
        "contradictions": [dict(c) for c in contradictions],
    }
    run(
        "operations/record",
        id=op_id,
        kind=kind,
        scope_id=scope_id,
        actor=actor,
        now=now,
        entry_ids=list(entry_ids),
        reason=reason,
        before=json.dumps(before),
    )
    return op_id


def supersede(
    run: Run,
    scope_id: str,
    new_id: str,
    olds: Sequence[str],
    now: datetime,
    *,
    kind: str,
    created: Sequence[str] = (),
    reason: str | None = None,
    capture: footprint.Capture | None = None,
) -> str | None:
    """Retire ``olds`` in favour of ``new_id`` with ``SUPERSEDES`` edges, as one logged change.

    ``created`` are the entries the change wrote (undo deletes them); ``capture`` is the
    change's capture, opened by the caller at the start of its transaction (before it wrote
    anything); by default one is opened here over ``new_id`` and ``olds``.

    Returns:
        The id of the ``Operation`` that undoes it exactly, or ``None`` when there was nothing
        to retire (no operation is written then).
    """
    olds = [o for o in dict.fromkeys(olds) if o != new_id]
    if not olds:
        return None
    cap = capture or footprint.Capture(run, scope_id, entries=[new_id, *olds])
    cap.add(entries=[new_id, *olds])
    run("supersede/retire", ids=list(olds), scope_id=scope_id, now=now, by=new_id)
    run(
        "supersede/link",
        rows=[{"source_id": new_id, "target_id": o, "reason": reason} for o in olds],
        rel_type="SUPERSEDES",
        origin=kind,
        now=now,
    )
    change = cap.finish()
    if change is None:
        return None
    return footprint.record(
        run,
        change,
        kind=kind,
        scope_id=scope_id,
        now=now,
        entry_ids=list(olds),
        reason=reason,
        extra={"created_entries": list(created)},
    )


def revert(run: Run, before: Mapping[str, Any], now: datetime) -> None:
    """Undo a recorded lifecycle change exactly: edges and entries it made, state it changed."""
    for rel in SUPERSEDE_REL_TYPES:
        rows = [
            {"source_id": link["source_id"], "target_id": link["target_id"]}
            for link in before.get("links", [])
            if link.get("rel") == rel
        ]
        if rows:
            run("supersede/unlink", rows=rows, rel_type=rel)
    for eid in before.get("created", []):
        delete_entry(run, eid, now)
    state = [
        {"id": s["id"], "props": {k: _from_json(v) for k, v in s["props"].items()}}
        for s in before.get("state", [])
    ]
    if state:
        run("supersede/restore_state", rows=state)
    for c in before.get("contradictions", []):
        run(
            "conflicts/set_status",
            a=c["a"],
            b=c["b"],
            status=c.get("status") or "open",
            resolved_by=None,
            now=now,
        )


def delete_entry(run: Run, entry_id: str, now: datetime) -> bool:
    """Hard-delete an entry and everything derived from it, inside the caller's transaction.

    Its claims and mentions go (and entities left with nothing referring to them), reified
    relations lose its evidence (and go when none is left), pending link suggestions naming it
    go, a turn is taken out of its session (``NEXT`` relinked around it, ``turn_count``
    lowered), then the entry and its relationships. Nothing happens for an unknown id.

    Returns:
        Whether the entry was there and is now deleted (the caller logs the deletion only then).
    """
    rows = run("entries/scope_of", id=entry_id)
    if not rows:
        return False
    run("claims/retract", id=entry_id)
    run("claims/retract_relations", id=entry_id)
    run("links/drop_for_entry", id=entry_id, scope_id=rows[0]["scope_id"])
    run("sessions/unlink_turn", id=entry_id, now=now)
    return bool(run("entries/delete", id=entry_id)[0]["deleted"])


def revive_superseded(run: Run, entry_id: str) -> list[dict[str, Any]]:
    """Bring back what ``entry_id`` superseded (before it is deleted).

    Each entry it retired gets back the lifecycle state it had before that supersession (from
    the supersession's ``Operation``; without one, it is simply no longer retired). The
    ``SUPERSEDES`` edges go with the entry.

    Returns:
        ``[{id, props}]``: their state as it was (JSON-ready), for the undo of the deletion.
    """
    revived: list[dict[str, Any]] = []
    restore: list[dict[str, Any]] = []
    for r in run("supersede/superseded_by", id=entry_id):
        props = dict(r["props"])
        revived.append({"id": r["id"], "props": _jsonable(props)})
        back = _state_before(entry_id, r["id"], r["ops"] or [], props)
        if back is None:
            back = {**props, "retired_at": None, "retired_by": None, "valid_to": None}
        restore.append({"id": r["id"], "props": back})
    if restore:
        run("supersede/restore_state", rows=restore)
    return revived


def restore_states(run: Run, state: Sequence[Mapping[str, Any]]) -> None:
    """Put back lifecycle states recorded by :func:`revive_superseded` or :func:`snapshot_state`."""
    rows = [
        {"id": s["id"], "props": {k: _from_json(v) for k, v in s["props"].items()}} for s in state
    ]
    if rows:
        run("supersede/restore_state", rows=rows)


def _state_before(
    by: str, entry_id: str, ops: Sequence[str], now: Mapping[str, Any] | None = None
) -> dict[str, Any] | None:
    """The state ``entry_id`` had before the newest recorded operation that retired it by ``by``.

    Reads both before-state formats: the exact differences of :mod:`footprint` (the supersession
    drew ``SUPERSEDES`` from ``by`` or created ``by``; the entry's altered properties are put back
    over ``now``, its lifecycle properties as they are) and the older ``links``/``state`` one.
    """
    for raw in ops:
        try:
            before = json.loads(raw)
        except (TypeError, ValueError):
            continue
        if not isinstance(before, dict):
            continue
        if footprint.is_exact(before):
            back = _exact_state_before(by, entry_id, before, now or {})
            if back is not None:
                return back
            continue
        links = before.get("links") or []
        made = any(
            link.get("source_id") == by and link.get("target_id") == entry_id for link in links
        ) or by in (before.get("created") or [])
        if not made:
            continue
        for st in before.get("state") or []:
            if st.get("id") == entry_id:
                return {k: _from_json(v) for k, v in st.get("props", {}).items()}
    return None


def _exact_state_before(
    by: str, entry_id: str, change: Mapping[str, Any], now: Mapping[str, Any]
) -> dict[str, Any] | None:
    """:func:`_state_before` for one exact difference (None when it is not that supersession)."""
    made = any(
        r.get("type") == "SUPERSEDES"
        and list(r.get("start") or [])[:2] == ["Entry", by]
        and list(r.get("end") or [])[:2] == ["Entry", entry_id]
        for r in change.get("rels_created") or []
    ) or any(list(k)[:2] == ["Entry", by] for k in change.get("nodes_created") or [])
    if not made:
        return None
    for n in change.get("nodes_altered") or []:
        if list(n.get("key") or [])[:2] != ["Entry", entry_id]:
            continue
        props = {k: _from_json(v) for k, v in now.items()}
        props.update(footprint.restore(n.get("set") or {}))
        for k in n.get("unset") or []:
            props[k] = None
        return props
    return None


def _jsonable(props: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in props.items():
        v = native(v)
        out[k] = {"$dt": v.isoformat()} if isinstance(v, datetime) else v
    return out


def _from_json(v: Any) -> Any:
    if isinstance(v, dict) and "$dt" in v:
        return aware(v["$dt"], "value")
    return v
