"""Access history (views, searches, recalls) and recommendations from it.

Every access is an ``(:AccessEvent {id, scope_id, owner_id, kind, at, query})`` with an
``[:ACCESSED {rank}]`` edge to each item it reached: an ``Entry``, ``Document``, ``Chunk`` or
``Session`` of the same scope. Items are referenced only by those edges (never by stored ids), so
deleting an item leaves no dangling reference; ``cypher/invariants/access_events.cypher`` checks
it.

``recommend`` ranks entries and documents the owner (or, without one, anybody in the scope) has
NOT accessed yet, from a decayed profile of recent accesses:

- each accessed item weighs ``sum(kind weight x 0.5^(age_days / half_life_days) / sqrt(rank))``
  over its accesses (views and recalls 1.0, search results 0.5; rank 1 is the top result);
- the profile vector is the weighted mean of their embeddings (a chunk without one uses its
  document's); the profile's topics are the ``(:X)-[:IN_TOPIC]->(:Topic)`` of accessed items,
  weighed the same way;
- candidates come from the entry and chunk vector indexes (a chunk brings its document) and from
  the profile's topics; ``score = 0.75 x cosine(profile, item) + 0.25 x topic weight`` (the
  cosine alone when no accessed item has a topic);
- every recommendation has a ``reason``: the recent items closest to it (titles) and the topic
  behind it.

Nothing accessed gives an empty :class:`Recommendations` whose ``reason`` says so, not an error.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from recollect_graph.db.client import Db
from recollect_graph.errors import InvalidInput
from recollect_graph.nlp.model_profiles import Calibration
from recollect_graph.services.kernel.times import aware, native, now_utc
from recollect_graph.services.kernel.validation import in_range, one_of, optional_text, require_text
from recollect_graph.vocabulary import ACCESS_KINDS

KIND_WEIGHT = {"view": 1.0, "recall": 1.0, "search": 0.5}
W_SEMANTIC = 0.75
W_TOPIC = 0.25
#: Accesses older than this many half-lives weigh under 0.4% and are not read.
HORIZON_HALF_LIVES = 8
MAX_ITEMS = 1000


@dataclass(frozen=True)
class AccessEvent:
    """A recorded access.

    Attributes:
        linked: Item ids that got an ``ACCESSED`` edge, in rank order.
        missing: Ids that matched no entry, document, chunk or session of the scope.
    """

    id: str
    scope_id: str
    owner_id: str | None
    kind: str
    at: datetime
    query: str | None
    linked: list[str]
    missing: list[str]


@dataclass(frozen=True)
class Recommendation:
    """One recommended entry or document, with the scores and the reason behind it."""

    id: str
    kind: str
    title: str
    score: float
    semantic: float
    topic: float
    reason: str
    because: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Recommendations:
    """Recommendations, best first; behaves as a list of :class:`Recommendation`.

    Attributes:
        items: The recommendations.
        reason: Why the list is what it is (always set; says so when nothing was accessed).
        profile: The most weighted recent items (id, title, weight).
        topics: The profile's topics (id, label, weight).
    """

    items: list[Recommendation]
    reason: str
    profile: list[dict[str, Any]] = field(default_factory=list)
    topics: list[dict[str, Any]] = field(default_factory=list)

    def __iter__(self) -> Iterator[Recommendation]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> Recommendation:
        return self.items[i]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for ``--json``)."""
        return asdict(self)


class Access:
    """Records accesses and recommends from them.

    Args:
        db: The database client.
    """

    def __init__(self, db: Db, calibration: Calibration | None = None) -> None:
        self.db = db
        #: The embedding model's cosine scale (:mod:`recollect_graph.nlp.model_profiles`).
        self.calibration = calibration or Calibration()

    def record(
        self,
        scope_id: str,
        kind: str,
        item_ids: Sequence[str],
        *,
        owner_id: str | None = None,
        query: str | None = None,
        at: datetime | str | None = None,
        best_effort: bool = False,
    ) -> AccessEvent:
        """Record one access: ``item_ids`` in rank order (the first is rank 1).

        Args:
            scope_id: The scope; items of other scopes are never linked.
            kind: ``view``, ``search`` or ``recall``.
            item_ids: Entry, document, chunk or session ids (duplicates keep their first rank).
            owner_id: Who accessed.
            query: The search or recall text.
            at: When (default: now).
            best_effort: A read's own record: a lock race with a concurrent forget drops it
                (logged; the event comes back with every item ``missing``), never the read.

        Raises:
            InvalidInput: An unknown kind, an empty scope or a non-string id.
        """
        scope_id = require_text(scope_id, "scope_id")
        kind = one_of(kind, "kind", ACCESS_KINDS)
        if isinstance(item_ids, str):
            raise InvalidInput("item_ids must be a list of ids, not one string")
        ids = [require_text(i, "item id") for i in item_ids]
        ids = list(dict.fromkeys(ids))
        when = aware(at, "at") or now_utc()
        params: dict[str, Any] = {
            "id": str(uuid.uuid4()),
            "scope_id": scope_id,
            "owner_id": optional_text(owner_id, "owner_id"),
            "kind": kind,
            "at": when,
            "query": optional_text(query, "query", max_len=10_000),
            "items": [{"id": i, "rank": n} for n, i in enumerate(ids, start=1)],
        }
        if best_effort:
            rows = self.db.write_best_effort("access/record", **params)
        else:
            rows = self.db.write("access/record", **params)
        row = rows[0] if rows else {"id": params["id"], "at": when, "linked": []}
        linked = set(row["linked"])
        return AccessEvent(
            id=row["id"],
            scope_id=scope_id,
            owner_id=owner_id,
            kind=kind,
            at=native(row["at"]),
            query=query,
            linked=[i for i in ids if i in linked],
            missing=[i for i in ids if i not in linked],
        )

    def history(
        self, scope_id: str, *, owner_id: str | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        """The newest events (id, kind, at, owner_id, query, item_ids), newest first."""
        rows = self.db.read(
            "access/recent",
            scope_id=require_text(scope_id, "scope_id"),
            owner_id=owner_id,
            limit=int(in_range(limit, "limit", 1, 10_000)),
        )
        return [{k: native(v) for k, v in r.items()} for r in rows]

    def prune(self, scope_id: str, *, older_than_days: float) -> int:
        """Delete the scope's events older than ``older_than_days``; returns how many."""
        days = in_range(older_than_days, "older_than_days", 0, 100_000)
        before = now_utc() - timedelta(days=days)
        total = 0
        while True:
            n = int(
                self.db.write(
                    "access/prune",
                    scope_id=require_text(scope_id, "scope_id"),
                    before=before,
                    limit=10_000,
                )[0]["deleted"]
            )
            total += n
            if n < 10_000:
                return total

    def recommend(
        self,
        scope_id: str,
        *,
        owner_id: str | None = None,
        limit: int = 10,
        half_life_days: float = 7,
    ) -> Recommendations:
        """Unseen entries and documents ranked from a decayed profile of recent accesses.

        Args:
            scope_id: The scope.
            owner_id: Whose accesses make the profile (and what counts as seen); default: all.
            limit: Most recommendations (1-1000).
            half_life_days: An access loses half its weight every this many days.

        Returns:
            :class:`Recommendations` (empty, with a reason, when nothing was accessed).
        """
        scope_id = require_text(scope_id, "scope_id")
        limit = int(in_range(limit, "limit", 1, 1000))
        hl = in_range(half_life_days, "half_life_days", 0.01, 10_000)
        now = now_utc()
        horizon = hl * HORIZON_HALF_LIVES
        rows = self.db.read(
            "access/profile",
            scope_id=scope_id,
            owner_id=owner_id,
            since=now - timedelta(days=horizon),
            limit=MAX_ITEMS,
        )
        items = [_weighted(r, now, hl) for r in rows]
        items = sorted((i for i in items if i["weight"] > 0), key=lambda i: -i["weight"])
        who = f" by {owner_id}" if owner_id else ""
        if not items:
            return Recommendations(
                [],
                f"nothing was accessed in scope {scope_id}{who} in the last {horizon:g} days: "
                "view, search or recall something first",
            )
        topics = _topic_weights(items)
        profile = [
            {"id": i["id"], "title": i["title"], "weight": round(i["weight"], 4)}
            for i in items[:10]
        ]
        with_vec = [i for i in items if i["embedding"]]
        if not with_vec:
            return Recommendations(
                [], "the accessed items carry no embeddings", profile, list(topics.values())
            )
        mat = np.array([i["embedding"] for i in with_vec], dtype=np.float64)
        w = np.array([i["weight"] for i in with_vec], dtype=np.float64)
        vec = (w[:, None] * mat).sum(axis=0) / w.sum()
        norm = float(np.linalg.norm(vec))
        if norm == 0:
            return Recommendations(
                [], "the accessed items' embeddings cancel out", profile, list(topics.values())
            )
        vec = vec / norm
        cands = self._candidates(vec.tolist(), list(topics), scope_id, owner_id, limit, now)
        ranked = [_score(c, topics, with_vec, mat, self.calibration) for c in cands]
        ranked.sort(key=lambda r: (-r.score, r.id))
        out = ranked[:limit]
        reason = (
            f"{len(out)} unseen item(s) ranked against {len(items)} item(s) accessed{who} in "
            f"the last {horizon:g} days (half-life {hl:g} days)"
            if out
            else f"everything close to what was accessed{who} has been seen already"
        )
        return Recommendations(out, reason, profile, list(topics.values()))

    def _candidates(
        self,
        vec: list[float],
        topic_ids: list[str],
        scope_id: str,
        owner_id: str | None,
        limit: int,
        now: datetime,
    ) -> list[dict[str, Any]]:
        k = max(100, limit * 10)
        while True:
            rows = self.db.read(
                "access/candidates",
                vector=vec,
                k=k,
                topic_ids=topic_ids,
                scope_id=scope_id,
                owner_id=owner_id,
                now=now,
            )
            full = bool(rows) and int(rows[0]["window"]) >= k
            if len(rows) >= limit or not full or k >= 4000:
                return rows
            k *= 4


def _weighted(r: dict[str, Any], now: datetime, hl: float) -> dict[str, Any]:
    weight = 0.0
    last: datetime | None = None
    last_kind = ""
    for ev in r["events"]:
        at = native(ev["at"])
        age = max(0.0, (now - at).total_seconds() / 86400)
        rank = max(1, int(ev.get("rank") or 1))
        weight += KIND_WEIGHT.get(ev["kind"], 0.5) * 0.5 ** (age / hl) / math.sqrt(rank)
        if last is None or at > last:
            last, last_kind = at, ev["kind"]
    return {
        "id": r["id"],
        "title": r["title"] or r["id"],
        "embedding": r["embedding"],
        "topics": r["topics"],
        "weight": weight,
        "last": last,
        "last_kind": last_kind,
        "now": now,
    }


def _topic_weights(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    topics: dict[str, dict[str, Any]] = {}
    for i in items:
        for t in i["topics"]:
            cur = topics.setdefault(
                t["id"], {"id": t["id"], "label": t.get("label") or t["id"], "weight": 0.0}
            )
            cur["weight"] = round(cur["weight"] + i["weight"], 4)
    return topics


def _ago(i: dict[str, Any]) -> str:
    days = (i["now"] - i["last"]).total_seconds() / 86400 if i["last"] else 0.0
    when = "today" if days < 1 else f"{days:.0f}d ago"
    return f"{i['last_kind']} {when}"


def _score(
    c: dict[str, Any],
    topics: dict[str, dict[str, Any]],
    items: list[dict[str, Any]],
    mat: np.ndarray[Any, Any],
    cal: Calibration,
) -> Recommendation:
    sem = max(0.0, cal.score(float(c["semantic"] or 0.0)))
    top_w = max((t["weight"] for t in topics.values()), default=0.0)
    mine = [topics[t] for t in c["topic_ids"] if t in topics]
    topic = max((t["weight"] for t in mine), default=0.0) / top_w if top_w > 0 else 0.0
    score = W_SEMANTIC * sem + W_TOPIC * topic if topics else sem
    parts: list[str] = []
    because: list[str] = []
    if c["embedding"]:
        sims = mat @ np.array(c["embedding"], dtype=np.float64)
        pull = sims * np.array([i["weight"] for i in items])
        for idx in np.argsort(-pull)[:2]:
            i = items[int(idx)]
            if cal.score(float(sims[int(idx)])) > 0.2:
                because.append(i["id"])
                parts.append(f"'{i['title']}' ({_ago(i)}, similarity {sims[int(idx)]:.2f})")
    reason = ("close to what was accessed recently: " + ", ".join(parts)) if parts else ""
    if mine:
        best = max(mine, key=lambda t: t["weight"])
        reason += ("; " if reason else "") + f"in topic '{best['label']}' accessed recently"
    if not reason:
        reason = f"nearest to the recent-access profile (similarity {sem:.2f})"
    title = c["title"] or (c["content"] or "")[:80] or c["id"]
    return Recommendation(
        id=c["id"],
        kind=c["kind"],
        title=title,
        score=round(score, 4),
        semantic=round(sem, 4),
        topic=round(topic, 4),
        reason=reason,
        because=because,
        topics=[t["label"] for t in mine],
    )
