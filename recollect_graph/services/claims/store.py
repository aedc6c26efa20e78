"""Claims in the graph: the rows that store an entry's claims, and the contradiction lookups.

:func:`find_conflicts_many` finds, for each new statement of a batch, the current entries of the
scope whose claims it contradicts (the rules are :mod:`recollect_graph.nlp.conflicts`);
:func:`act_on_conflicts` records them and, on request, supersedes or rejects.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from recollect_graph import ids
from recollect_graph.errors import ContradictionFound
from recollect_graph.nlp.claims import Claim
from recollect_graph.nlp.conflicts import PRIORITY, Verdict, best, judge
from recollect_graph.nlp.entities import normalize
from recollect_graph.services.kernel.times import native
from recollect_graph.services.knowledge.changesets import Run, supersede

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
    """The ``claims/upsert`` row of one entry (stable claim and entity ids).

    A claim's entity is the one it is :attr:`~recollect_graph.nlp.frames.Claim.about`, keyed by
    the entity extractor's ``normalize`` so that documents and entries meet on it; a claim about
    no name-like noun phrase gets ``entity_id`` None and no entity.
    """
    out = []
    for i, c in enumerate(indexable(c) for c in claims):
        d = c.to_dict()
        d["id"] = ids.claim_id(entry_id, i, c.predicate, c.subject_key, c.object_key, c.polarity)
        key = normalize(c.about) if c.about else ""
        d["about_key"] = key or None
        d["entity_id"] = ids.entity_id(scope_id, key) if key else None
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
