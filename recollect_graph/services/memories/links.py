"""Lore's quality loop: explicit feedback on memories and links, and typed link suggestions.

Feedback rule (thresholds are settings):

- ``useful``: score += ``feedback_bump_up * confidence / 10`` (capped at 10);
- not useful: score -= ``feedback_bump_down * (11 - confidence) / 10`` (floor 0): the less the
  rater believes in the memory, the bigger the drop;
- the running feedback confidence is a mean over the last 20 ratings;
- every item counts as a use (access count + 1);
- a memory is soft-deleted (reason ``feedback``, undoable with restore) once it has received
  ``soft_delete_after`` not-useful ratings with confidence at most ``soft_delete_confidence``.

Link suggestions write nothing: candidates come from the vector and full-text indexes, pairs
already linked either way are left out, and each candidate carries its per-signal scores, a
weighted score and a suggested relation type with the reason for it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import EntryNotFound, InvalidInput
from recollect_graph.nlp.conflicts import best, judge
from recollect_graph.nlp.model_profiles import Calibration
from recollect_graph.services.kernel import fulltext
from recollect_graph.services.kernel.times import epoch_fields, native, now_utc
from recollect_graph.services.kernel.validation import require_text
from recollect_graph.services.knowledge import footprint
from recollect_graph.services.search.hybrid import content_query
from recollect_graph.settings import Settings

#: Content words of a memory its keyword side searches for (its first ones, stop words out).
LINK_TERMS = 8
WEIGHTS = {"semantic": 0.5, "keyword": 0.2, "entities": 0.2, "temporal": 0.1}
_CAUSAL = re.compile(
    r"\b(because|caused|causes|led to|leads to|as a result|due to|so we|therefore|root cause|"
    r"which broke|resulted in|after the|triggered)\b",
    re.I,
)
_DERIVED = re.compile(r"\b(summary of|summari[sz]ed|based on|derived from|according to)\b", re.I)


def _rating(item: Mapping[str, Any], i: int) -> tuple[str, bool, int]:
    if not isinstance(item, Mapping):
        raise InvalidInput(f"item {i}: must be an object with id, useful, confidence")
    eid = item.get("id")
    if not isinstance(eid, str) or not eid.strip():
        raise InvalidInput(f"item {i}: id is required")
    useful = item.get("useful")
    if not isinstance(useful, bool):
        raise InvalidInput(f"item {i}: useful must be true or false")
    conf = item.get("confidence", 10)
    if isinstance(conf, bool) or not isinstance(conf, int) or not 1 <= conf <= 10:
        raise InvalidInput(f"item {i}: confidence must be an integer from 1 to 10")
    return eid.strip(), useful, conf


class Feedback:
    """Applies ``lore_feedback``-style ratings."""

    def __init__(self, db: Db, settings: Settings) -> None:
        self.db = db
        self.settings = settings

    def delta(self, useful: bool, confidence: int, *, link: bool = False) -> float:
        """How much one rating moves a memory's score (or, divided by 10, a link's weight)."""
        s = self.settings
        d = (
            s.feedback_bump_up * confidence / 10
            if useful
            else -s.feedback_bump_down * (11 - confidence) / 10
        )
        return d / 10 if link else d

    def _rows(
        self, items: Sequence[Mapping[str, Any]], errors: list[dict[str, Any]], *, link: bool
    ) -> list[dict[str, Any]]:
        """Valid ratings as query rows; invalid ones go to ``errors``."""
        rows = []
        for i, item in enumerate(items):
            try:
                eid, useful, conf = _rating(item, i)
            except InvalidInput as e:
                errors.append({"id": _id_of(item), "error": str(e)})
                continue
            rows.append(
                {
                    "id": eid,
                    "useful": useful,
                    "confidence": conf,
                    "delta": self.delta(useful, conf, link=link),
                }
            )
        return rows

    def feedback(
        self,
        scope_id: str,
        memory_feedback: Sequence[Mapping[str, Any]] = (),
        link_feedback: Sequence[Mapping[str, Any]] = (),
    ) -> dict[str, Any]:
        """Rate memories and links; each item stands alone and unknown ids are reported.

        Returns:
            ``{updated_memories, updated_links, soft_deleted_memories, errors: [{id, error}],
            operation_id}`` (``operation_id`` undoes the soft deletes, None when there were none).
        """
        scope_id = require_text(scope_id, "scope_id")
        out: dict[str, Any] = {
            "updated_memories": [],
            "updated_links": [],
            "soft_deleted_memories": [],
            "errors": [],
            "operation_id": None,
        }
        rows = self._rows(memory_feedback, out["errors"], link=False)
        link_rows = self._rows(link_feedback, out["errors"], link=True)
        now = now_utc()
        s = self.settings

        def rate(tx: Tx) -> list[dict[str, Any]]:
            # lock the rated memories first: the counts read next are then the latest committed
            # ones, so concurrent ratings of one memory are all counted
            out["operation_id"] = None
            ids = sorted({r["id"] for r in rows})
            tx.run("entries/lock", ids=ids, scope_id=scope_id)
            capture = footprint.Capture(tx.run, scope_id, entries=ids, walk=False)
            was_deleted = {
                n["props"]["id"]
                for n in capture.nodes.values()
                if n["props"].get("soft_deleted_at")
            }
            done = tx.run(
                "feedback/memory",
                rows=rows,
                scope_id=scope_id,
                now=now,
                delete_after=s.soft_delete_after,
                delete_confidence=s.soft_delete_confidence,
            )
            # a soft delete by feedback is undoable like any other: one operation (its undo
            # puts back the ratings of this call too)
            newly = [r["id"] for r in done if r["soft_deleted"] and r["id"] not in was_deleted]
            change = capture.finish() if newly else None
            if change is not None:
                out["operation_id"] = footprint.record(
                    tx.run,
                    change,
                    kind="soft_delete",
                    scope_id=scope_id,
                    now=now,
                    entry_ids=newly,
                    reason="feedback",
                )
            return done

        done = self.db.write_tx(rate) if rows else []
        seen = {r["id"] for r in done}
        for r in done:
            out["updated_memories"].append(
                {
                    "id": r["id"],
                    "score": round(r["score"], 3),
                    "feedback_confidence": round(r["feedback_confidence"], 3),
                }
            )
            if r["soft_deleted"] and r["negative_feedback"] >= s.soft_delete_after:
                out["soft_deleted_memories"].append(r["id"])
        out["errors"] += [
            {"id": r["id"], "error": "memory not found in this scope"}
            for r in rows
            if r["id"] not in seen
        ]
        linked = (
            self.db.write("feedback/link", rows=link_rows, scope_id=scope_id, now=now)
            if link_rows
            else []
        )
        seen_links = {r["id"] for r in linked}
        out["updated_links"] = [{"id": r["id"], "weight": round(r["weight"], 3)} for r in linked]
        out["errors"] += [
            {"id": r["id"], "error": "link not found in this scope"}
            for r in link_rows
            if r["id"] not in seen_links
        ]
        return out


def _id_of(item: Any) -> Any:
    return item.get("id") if isinstance(item, Mapping) else None


class LinkSuggester:
    """Proposes typed links for a memory (writes nothing)."""

    def __init__(self, db: Db, calibration: Calibration | None = None) -> None:
        self.db = db
        #: The embedding model's cosine scale (:mod:`recollect_graph.nlp.model_profiles`).
        self.calibration = calibration or Calibration()

    def suggest_links(self, memory_id: str, *, scope_id: str, top_k: int = 10) -> dict[str, Any]:
        """Ranked link candidates with per-signal scores and a suggested relation type.

        Returns:
            ``{source_id, candidates: [{source_id, target_id, relation_type, reason,
            weighted_score, scores: {semantic, keyword, entities, temporal}}], count}``.
        """
        if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= 50:
            raise InvalidInput("top_k must be an integer from 1 to 50")
        found = self.suggest_many([memory_id], scope_id=scope_id, top_k=top_k)
        if memory_id not in found:
            raise EntryNotFound(memory_id)
        cands = found[memory_id]
        return {"source_id": memory_id, "candidates": cands, "count": len(cands)}

    def suggest_many(
        self, memory_ids: Sequence[str], *, scope_id: str, top_k: int = 10
    ) -> dict[str, list[dict[str, Any]]]:
        """:meth:`suggest_links` for many memories in three reads (the sweep's batch step).

        Returns:
            Candidates per memory id; ids not found in the scope are absent.
        """
        entries = {
            r["entry"]["id"]: r["entry"]
            for r in self.db.read("entries/get_many", ids=list(memory_ids), scope_id=scope_id)
        }
        if not entries:
            return {}
        rows = self.db.read_collected(
            "links/candidates",
            "rows",
            rows=[
                {
                    "id": eid,
                    "lucene": fulltext.in_scope(
                        content_query(
                            " ".join(str(x) for x in (m.get("title"), m.get("content")) if x),
                            LINK_TERMS,
                        ),
                        scope_id,
                    ),
                }
                for eid, m in entries.items()
            ],
            scope_id=scope_id,
            # Neo4j 2026+ filters scope, retirement and deletion inside the index; older servers
            # filter afterwards and need the wider window.
            k=max(50, top_k * 4) if self.db.filtered_vectors else max(100, top_k * 10),
        )
        by_source: dict[str, list[dict[str, Any]]] = {eid: [] for eid in entries}
        for r in epoch_fields(rows, "created_at", micro=True):
            by_source[r["source"]].append(r)
        claims = self._claims(list({*entries, *(r["id"] for r in rows)}))
        return {
            eid: self._rank(entries[eid], found, claims, top_k) for eid, found in by_source.items()
        }

    def _rank(
        self,
        m: Mapping[str, Any],
        rows: list[dict[str, Any]],
        claims: dict[str, list[dict[str, Any]]],
        top_k: int,
    ) -> list[dict[str, Any]]:
        best_kw = max((float(r["keyword"] or 0.0) for r in rows), default=0.0)
        m_at = native(m["created_at"])
        cands = []
        for r in rows:
            sem = max(0.0, self.calibration.score(float(r["semantic"] or 0.0)))
            kw = float(r["keyword"] or 0.0) / best_kw if best_kw else 0.0
            ent = r["shared"] / r["entity_union"] if r["entity_union"] else 0.0
            days = abs((native(r["created_at"]) - m_at).total_seconds()) / 86400
            temporal = math.exp(-days / 30.0)
            scores = {
                "semantic": round(sem, 4),
                "keyword": round(kw, 4),
                "entities": round(ent, 4),
                "temporal": round(temporal, 4),
            }
            weighted = sum(WEIGHTS[k] * v for k, v in scores.items())
            rel, reason, src, dst = suggest_type(
                m, r, claims.get(m["id"], []), claims.get(r["id"], []), r["shared"], sem
            )
            cands.append(
                {
                    "source_id": src,
                    "target_id": dst,
                    "candidate_id": r["id"],
                    "title": r["title"],
                    "relation_type": rel,
                    "reason": reason,
                    "weighted_score": round(weighted, 4),
                    "scores": scores,
                }
            )
        cands.sort(key=lambda c: -c["weighted_score"])
        return cands[:top_k]

    def _claims(self, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for r in self.db.read("claims/of_entries", ids=ids):
            out.setdefault(r["entry_id"], []).append(r["claim"])
        return out


def suggest_type(
    m: Mapping[str, Any],
    c: Mapping[str, Any],
    m_claims: list[dict[str, Any]],
    c_claims: list[dict[str, Any]],
    shared: int,
    semantic: float,
) -> tuple[str, str, str, str]:
    """Relation type, reason and direction (source, target) for a pair of memories.

    A newer statement that conflicts with an older one by value, status or attribution
    supersedes it; a negation contradicts; causal wording in the newer text makes the older one
    lead to it; summaries derive; a mention of the other's title references; shared entities
    with close meaning support; anything else is related.
    """
    m_new = native(m["created_at"]) >= native(c["created_at"])
    newer, older = (m, c) if m_new else (c, m)
    new_claims, old_claims = (m_claims, c_claims) if m_new else (c_claims, m_claims)
    verdicts = [v for n in new_claims for o in old_claims if (v := judge(n, o)) is not None]
    found = best(verdicts)
    if found is not None:
        if found.type == "polarity_conflict":
            return "contradicts", f"negates it: {found.reason}", m["id"], c["id"]
        return (
            "supersedes",
            f"newer {found.type.replace('_', ' ')}: {found.reason}",
            (newer["id"]),
            older["id"],
        )
    new_text = str(newer.get("content") or "")
    related = semantic >= 0.35 or shared > 0
    if related and _CAUSAL.search(new_text):
        word = _CAUSAL.search(new_text)
        cue = word.group(0) if word else ""
        return "leads_to", f"the newer one explains itself with '{cue}'", older["id"], newer["id"]
    if related and _DERIVED.search(new_text):
        return "derived_from", "the newer one summarises or builds on it", newer["id"], older["id"]
    title = str(c.get("title") or "")
    if title and len(title) > 3 and title.lower() in str(m.get("content") or "").lower():
        return "references", f"mentions '{title}'", m["id"], c["id"]
    if shared and semantic >= 0.6:
        return "supports", f"same entities ({shared}) and close meaning", m["id"], c["id"]
    return "related_to", "similar content", m["id"], c["id"]
