"""The sweep queue and its review, and session reflections (Lore's loop, graph side).

``sweep`` runs link suggestion over the memories changed since the last sweep and queues the
good candidates as ``LinkSuggestion`` nodes (one per pair, canonical order); rejected pairs stay
rejected forever. ``review_suggestions`` accepts (creating the link with the chosen or suggested
type) or rejects each item on its own; repeating a review is ``skipped``. ``reflect`` stores one
``Reflection`` per session and turns lessons and discoveries into memories of the session.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from recollect_graph.errors import InvalidInput, RecollectError, SuggestionNotFound
from recollect_graph.ids import reflection_id, suggestion_id
from recollect_graph.services.kernel.times import native, now_utc
from recollect_graph.services.kernel.validation import MAX_OFFSET, in_range, require_text
from recollect_graph.services.knowledge.entries import Knowledge
from recollect_graph.services.memories.links import LinkSuggester
from recollect_graph.vocabulary import RELATIONS

HIGH_CONFIDENCE = 0.6
#: Memories whose candidates one sweep step reads in a single query.
SWEEP_BATCH = 50
REFLECTION_KINDS = ("lessons", "discoveries", "good_patterns", "user_profile_updates", "decisions")


class Sweeper:
    """Suggestion queue, review, and reflections for one scope."""

    def __init__(self, knowledge: Knowledge, scope_id: str, owner_id: str) -> None:
        self.knowledge = knowledge
        self.db = knowledge.db
        self.scope_id = scope_id
        self.owner_id = owner_id

    def sweep(self, *, min_score: float = 0.3, per_memory: int = 5) -> dict[str, Any]:
        """Queue link suggestions for memories changed since the last sweep.

        Returns:
            ``{scanned, proposed, refreshed, skipped, seconds, full}``: proposed counts new
            pending pairs; skipped counts pairs already accepted or rejected.
        """
        started = now_utc()
        t0 = time.monotonic()
        cursor_id = f"sweep:{self.scope_id}"
        cur = self.db.read("links/cursor_get", id=cursor_id)
        since = native(cur[0]["position"]) if cur else None
        ids = [
            r["id"]
            for r in self.db.read("links/sweep_targets", scope_id=self.scope_id, since=since)
        ]
        suggester = LinkSuggester(self.db, self.knowledge.embedder.calibration)
        counts = {"proposed": 0, "refreshed": 0, "skipped": 0}
        for start in range(0, len(ids), SWEEP_BATCH):
            found = suggester.suggest_many(
                ids[start : start + SWEEP_BATCH], scope_id=self.scope_id, top_k=per_memory
            )
            rows = list(
                {
                    r["id"]: r
                    for cands in found.values()
                    for r in (_row(self.scope_id, c) for c in cands)
                    if r["weighted_score"] >= min_score
                }.values()
            )
            if not rows:
                continue
            for r in self.db.write(
                "links/suggestion_upsert", rows=rows, scope_id=self.scope_id, now=started
            ):
                if r["created"]:
                    counts["proposed"] += 1
                elif r["status"] == "pending":
                    counts["refreshed"] += 1
                else:
                    counts["skipped"] += 1
        self.db.write("links/cursor_set", id=cursor_id, scope_id=self.scope_id, position=started)
        return {
            "scanned": len(ids),
            **counts,
            "seconds": round(time.monotonic() - t0, 2),
            "full": since is None,
        }

    def pending(
        self, *, limit: int = 20, min_score: float = 0.0, offset: int = 0
    ) -> dict[str, Any]:
        """Pending suggestions, best first: ``{suggestions, count, total_pending}``.

        A page: best first (ties by id), the first ``offset`` skipped, then at most ``limit``
        (100 at most); ``total_pending`` counts them all.
        """
        limit = min(int(in_range(limit, "limit", 1, 10_000)), 100)
        skip = int(in_range(offset, "offset", 0, MAX_OFFSET))
        min_score = in_range(min_score, "min_score", 0.0, 1.0)
        rows = self.db.read(
            "links/pending", scope_id=self.scope_id, skip=skip, limit=limit, min_score=min_score
        )
        out = []
        for r in rows:
            s = {k: native(v) for k, v in r["suggestion"].items()}
            s.update(from_title=r["from_title"], to_title=r["to_title"])
            out.append(s)
        total = int(rows[0]["total_pending"]) if rows else self._total_pending()
        return {"suggestions": out, "count": len(out), "total_pending": total}

    def _total_pending(self) -> int:
        rows = self.db.read("links/pending", scope_id=self.scope_id, skip=0, limit=1, min_score=0.0)
        return int(rows[0]["total_pending"]) if rows else 0

    def review(self, reviews: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Accept or reject suggestions, each on its own.

        Each review is ``{id, action: accept|reject, relation_type?}``. Accept creates the link
        with the given type, else the suggested one (``references`` when none is usable).

        Returns:
            ``{results: [{id, status: accepted|rejected|skipped|error, message?}]}``.
        """
        results = []
        for i, item in enumerate(reviews):
            try:
                results.append(self._review_one(item, i))
            except RecollectError as e:
                sid = item.get("id") if isinstance(item, Mapping) else None
                results.append({"id": sid, "status": "error", "message": str(e)})
        return {"results": results}

    def _review_one(self, item: Mapping[str, Any], i: int) -> dict[str, Any]:
        if not isinstance(item, Mapping):
            raise InvalidInput(f"review {i}: must be an object")
        sid = require_text(item.get("id"), f"review {i}: id")
        action = item.get("action")
        if action not in ("accept", "reject"):
            raise InvalidInput(f"review {i}: action must be accept or reject")
        rows = self.db.read("links/suggestion_get", id=sid, scope_id=self.scope_id)
        if not rows:
            raise SuggestionNotFound(sid, scope_id=self.scope_id)
        s = rows[0]["suggestion"]
        if s["status"] != "pending":
            return {
                "id": sid,
                "status": "skipped",
                "message": f"already {s['status']}; reviews are final",
            }
        now = now_utc()
        if action == "reject":
            self.db.write(
                "links/suggestion_review", id=sid, status="rejected", relation_type=None, now=now
            )
            return {"id": sid, "status": "rejected"}
        rel = str(item.get("relation_type") or s.get("relation_type") or "references").lower()
        if rel not in RELATIONS:
            if item.get("relation_type"):
                raise InvalidInput(f"relation_type must be one of {', '.join(RELATIONS)}")
            rel = "references"
        edge = self.knowledge.connect(
            s["from_id"],
            s["to_id"],
            rel,
            weight=min(1.0, float(s["weighted_score"])),
            reason=s.get("reason"),
            origin="suggestion",
            scope_id=self.scope_id,
        )
        self.db.write(
            "links/suggestion_review", id=sid, status="accepted", relation_type=rel, now=now
        )
        return {
            "id": sid,
            "status": "accepted",
            "relation_type": rel,
            "source_id": edge.source_id,
            "target_id": edge.target_id,
        }

    def reflect(self, session_id: str, summary: str, **lists: Sequence[str]) -> dict[str, Any]:
        """Save what a session taught: one reflection per session (idempotent).

        Lessons and discoveries become memories (``FROM_SESSION`` the session); repeating the
        call for the same session changes nothing.

        Returns:
            ``{session_id, created, memory_ids}``.
        """
        session_id = require_text(session_id, "session_id", max_len=300)
        summary = require_text(summary, "summary", max_len=20_000)
        unknown = set(lists) - set(REFLECTION_KINDS)
        if unknown:
            raise InvalidInput(f"unknown reflection fields {sorted(unknown)}")
        clean: dict[str, list[str]] = {}
        for kind in REFLECTION_KINDS:
            values = lists.get(kind) or []
            if isinstance(values, str):
                raise InvalidInput(f"{kind} must be a list of strings")
            clean[kind] = [require_text(v, kind, max_len=5000) for v in values]
        items = [
            {
                "content": text,
                "title": f"{kind.rstrip('s').replace('_', ' ')}: {text}"[:120],
                "source": "agent",
                "source_type": "inferred",
                "entry_type": "note",
                "source_id": f"reflect:{session_id}:{kind}:{i}",
                "tags": ["reflection", kind],
            }
            for kind in ("lessons", "discoveries", "decisions")
            for i, text in enumerate(clean[kind])
        ]
        entries = (
            self.knowledge.remember_many(items, scope_id=self.scope_id, owner_id=self.owner_id)
            if items
            else []
        )
        memory_ids = [e.id for e in entries]
        rid = reflection_id(self.scope_id, session_id)
        rows = self.db.write(
            "sessions/reflect",
            session_id=session_id,
            scope_id=self.scope_id,
            reflection_id=rid,
            summary=summary,
            lists=clean,
            memory_ids=memory_ids,
            now=now_utc(),
        )
        return {
            "session_id": session_id,
            "reflection_id": rid,
            "created": bool(rows and rows[0]["created"]),
            "memory_ids": memory_ids,
        }

    def processed_sessions(self) -> dict[str, Any]:
        """Ids of the sessions reflected on: ``{session_ids}``."""
        rows = self.db.read("sessions/processed", scope_id=self.scope_id)
        return {"session_ids": [r["session_id"] for r in rows]}


def _row(scope_id: str, c: Mapping[str, Any]) -> dict[str, Any]:
    a, b = sorted((c["source_id"], c["target_id"]))
    return {
        "id": suggestion_id(scope_id, a, b),
        "a": a,
        "b": b,
        "from_id": c["source_id"],
        "to_id": c["target_id"],
        "relation_type": c["relation_type"],
        "reason": c["reason"],
        "weighted_score": c["weighted_score"],
        **c["scores"],
        "confidence": "high" if c["weighted_score"] >= HIGH_CONFIDENCE else "standard",
    }
