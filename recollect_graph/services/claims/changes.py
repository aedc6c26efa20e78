"""Claims in the graph, contradiction lookups, and the change sets that make operations undoable.

A lifecycle operation (supersede, invalidate, resolve, consolidate) records in its ``Operation``
node the lifecycle properties of every entry it touched (as they were), the edges it created and
the entries it created; :func:`revert` puts all of that back.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from recollect_graph import ids
from recollect_graph.errors import ContradictionFound
from recollect_graph.nlp.claims import Claim
from recollect_graph.nlp.conflicts import PRIORITY, Verdict, best, judge
from recollect_graph.services.kernel.times import aware, native
from recollect_graph.vocabulary import SUPERSEDE_REL_TYPES

Run = Callable[..., list[dict[str, Any]]]
#: Contradictions kept per new statement (strongest first): enough to act on, not a flood.
MAX_CONFLICTS = 10


#: Longest claim key stored as is: the keys are in range indexes, whose entries must stay under
#: about 8 KB (4 bytes a character at worst); a longer key keeps its start and a hash of the rest.
MAX_KEY_CHARS = 1000


def index_key(key: str) -> str:
    """``key`` when short enough for a range index; else its start and a hash of all of it."""
    if len(key) <= MAX_KEY_CHARS:
        return key
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{key[: MAX_KEY_CHARS - 40]}~{digest}"


def indexable(claim: Claim) -> Claim:
    """The claim with keys a range index can hold (see :func:`index_key`)."""
    subject_key, object_key = index_key(claim.subject_key), index_key(claim.object_key)
    if subject_key == claim.subject_key and object_key == claim.object_key:
        return claim
    return dataclasses.replace(claim, subject_key=subject_key, object_key=object_key)


def claim_rows(entry_id: str, scope_id: str, claims: Sequence[Claim]) -> dict[str, Any]:
    """The ``claims/upsert`` row of one entry (stable claim and entity ids)."""
    out = []
    for i, c in enumerate(indexable(c) for c in claims):
        d = c.to_dict()
        d["id"] = ids.claim_id(entry_id, i, c.predicate, c.subject_key, c.object_key, c.polarity)
        d["entity_id"] = ids.entity_id(scope_id, c.subject_key)
        out.append(d)
    return {"entry_id": entry_id, "claims": out}


Found = tuple[str, Verdict, dict[str, Any], dict[str, Any]]


def find_conflicts(
    run: Run,
    claims: Sequence[Claim],
    *,
    scope_id: str,
    owner_id: str | None,
    exclude_ids: Sequence[str],
    now: datetime,
) -> list[Found]:
    """Conflicts of new ``claims`` with the scope's current claims: one (the best) per entry.

    Returns:
        ``(existing entry id, verdict, new claim, existing claim)`` tuples, strongest first.
    """
    return find_conflicts_many(
        run, [claims], scope_id=scope_id, owner_id=owner_id, exclude_ids=exclude_ids, now=now
    ).get(0, [])


def find_conflicts_many(
    run: Run,
    claims_per_item: Sequence[Sequence[Claim]],
    *,
    scope_id: str,
    owner_id: str | None,
    exclude_ids: Sequence[str],
    now: datetime,
) -> dict[int, list[Found]]:
    """:func:`find_conflicts` for several new items in one lookup, keyed by item index."""
    flat = [(item, indexable(c)) for item, cs in enumerate(claims_per_item) for c in cs]
    if not flat:
        return {}
    rows = run(
        "conflicts/candidates",
        claims=[
            {
                "i": i,
                "subject_key": c.subject_key,
                "predicate": c.predicate,
                "object_key": c.object_key,
                "category": c.category,
            }
            for i, (_, c) in enumerate(flat)
        ],
        scope_id=scope_id,
        owner_id=owner_id,
        exclude_ids=list(exclude_ids),
        now=now,
    )
    per: dict[tuple[int, str], list[tuple[Verdict, dict[str, Any], dict[str, Any]]]] = {}
    for r in rows:
        item, new = flat[int(r["i"])]
        v = judge(new, r["claim"])
        if v is not None:
            per.setdefault((item, r["entry_id"]), []).append((v, new.to_dict(), r["claim"]))
    out: dict[int, list[Found]] = {}
    for (item, eid), found in per.items():
        top = best([f[0] for f in found])
        assert top is not None
        match = next(f for f in found if f[0] == top)
        out.setdefault(item, []).append(
            (eid, top, match[1], {k: native(v) for k, v in match[2].items()})
        )
    for item, lst in out.items():
        lst.sort(key=lambda t: (PRIORITY.index(t[1].type), -t[1].score))
        out[item] = lst[:MAX_CONFLICTS]
    return out


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
    contradictions: Sequence[Mapping[str, Any]] = (),
    reason: str | None = None,
) -> str:
    """Retire ``olds`` in favour of ``new_id`` with ``SUPERSEDES`` edges, as one logged change.

    Returns:
        The id of the ``Operation`` that undoes it.
    """
    state = snapshot_state(run, olds, scope_id)
    links: list[dict[str, Any]] = []
    if olds:
        run("supersede/retire", ids=list(olds), scope_id=scope_id, now=now, by=new_id)
        links = run(
            "supersede/link",
            rows=[{"source_id": new_id, "target_id": o, "reason": reason} for o in olds],
            rel_type="SUPERSEDES",
            origin=kind,
            now=now,
        )
    return record(
        run,
        kind=kind,
        scope_id=scope_id,
        now=now,
        entry_ids=list(olds),
        state=state,
        links=[{**link, "rel": "SUPERSEDES"} for link in links if link["created"]],
        created=created,
        contradictions=contradictions,
        reason=reason,
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


def delete_entry(run: Run, entry_id: str, now: datetime) -> None:
    """Hard-delete an entry and everything derived from it, inside the caller's transaction.

    Its claims and mentions go (and entities left with nothing referring to them), reified
    relations lose its evidence (and go when none is left), pending link suggestions naming it
    go, a turn is taken out of its session (``NEXT`` relinked around it, ``turn_count``
    lowered), then the entry and its relationships. Nothing happens for an unknown id.
    """
    rows = run("entries/scope_of", id=entry_id)
    if not rows:
        return
    run("claims/retract", id=entry_id)
    run("claims/retract_relations", id=entry_id)
    run("links/drop_for_entry", id=entry_id, scope_id=rows[0]["scope_id"])
    run("sessions/unlink_turn", id=entry_id, now=now)
    run("entries/delete", id=entry_id)


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
        back = _state_before(entry_id, r["id"], r["ops"] or [])
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


def _state_before(by: str, entry_id: str, ops: Sequence[str]) -> dict[str, Any] | None:
    """The state ``entry_id`` had before the newest recorded operation that retired it by ``by``."""
    for raw in ops:
        try:
            before = json.loads(raw)
        except (TypeError, ValueError):
            continue
        if not isinstance(before, dict):
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


def act_on_conflicts(
    run: Run,
    per_item: dict[int, list[Any]],
    modes: dict[int, str],
    new_ids: dict[int, str],
    scope_id: str,
    now: Any,
) -> dict[int, list[dict[str, Any]]]:
    """Act on the contradictions of a batch: record them (one write), supersede or reject."""
    found: dict[int, list[dict[str, Any]]] = {}
    for i, conflicts in sorted(per_item.items()):
        found[i] = [
            {
                "entry_id": eid,
                "type": v.type,
                "score": v.score,
                "reason": v.reason,
                "claim": new,
                "existing_claim": old,
            }
            for eid, v, new, old in conflicts
        ]
        if modes[i] == "reject":
            raise ContradictionFound(found[i])
    run(
        "conflicts/record",
        rows=[
            {
                "source_id": new_ids[i],
                "target_id": c["entry_id"],
                "type": c["type"],
                "score": c["score"],
                "reason": c["reason"],
                "claim": json.dumps(c["claim"], default=str),
                "existing_claim": json.dumps(c["existing_claim"], default=str),
            }
            for i, cs in found.items()
            for c in cs
        ],
        now=now,
    )
    for i, cs in found.items():
        if modes[i] == "supersede":
            _supersede_in_batch(run, new_ids[i], scope_id, cs, now)
    return found


def _supersede_in_batch(
    run: Run, new_id: str, scope_id: str, out: list[dict[str, Any]], now: Any
) -> None:
    op = supersede(
        run,
        scope_id,
        new_id,
        [c["entry_id"] for c in out],
        now,
        kind="supersede",
        reason=f"superseded by {new_id}",
    )
    for c in out:
        c["superseded"] = True
        c["operation_id"] = op
