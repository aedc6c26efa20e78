"""Fusion of a search's signals into hits: relevance, the final score and the breakdown.

:func:`relevance` fuses a candidate's semantic, keyword and feedback signals (a weighted sum or
reciprocal-rank fusion); :func:`fuse` adds the graph, context, session, length and role terms,
multiplies by the lifecycle signals (:func:`final_score`), ranks, and builds each ``Hit`` with
its breakdown. The formula is documented in ``docs/search.md`` ("How a hit's score is made").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Any

from recollect_graph.models import Hit, Signals
from recollect_graph.nlp.model_profiles import Calibration
from recollect_graph.services.kernel.times import native
from recollect_graph.services.knowledge import lifecycle
from recollect_graph.services.knowledge.rows import entry_from_row
from recollect_graph.services.search import kinds as hit_kinds
from recollect_graph.services.search.latest import latest_positions
from recollect_graph.services.search.query_text import substance
from recollect_graph.services.search.signals import (
    FLOOR_CONTEXT,
    Cues,
    best_said_then,
    context_parts,
    date_gate,
    other_role,
    session_support,
)
from recollect_graph.settings import Settings

RRF_K = 60


def usage_signal(access_count: int) -> float:
    """Usage in [0, 1]: log-scaled, saturating at 100 uses."""
    return min(1.0, math.log2(1 + max(access_count, 0)) / math.log2(101))


def relevance(
    cands: list[dict[str, Any]], s: Settings, calibration: Calibration | None = None
) -> dict[str, dict[str, Any]]:
    """Each candidate's relevance signals (keyword normalised by the best) and fused relevance.

    ``calibration`` puts the model's cosines (semantic, feedback) on the reference scale the
    weights and floors were set on (:mod:`recollect_graph.nlp.model_profiles`).
    """
    cal = calibration or Calibration()
    best_kw = max((float(c["keyword"] or 0.0) for c in cands), default=0.0)
    out: dict[str, dict[str, Any]] = {}
    for c in cands:
        sem = max(0.0, cal.score(float(c["semantic"] or 0.0)))
        kw = float(c["keyword"] or 0.0) / best_kw if best_kw > 0 else 0.0
        fb = max(0.0, cal.score(float(c.get("feedback") or 0.0)))
        out[c["id"]] = {"entry": c, "semantic": sem, "keyword": kw, "feedback": fb}
    if s.fusion == "rrf":
        for key, w in (
            ("semantic", s.w_semantic),
            ("keyword", s.w_keyword),
            ("feedback", s.w_feedback),
        ):
            if w <= 0:  # a list of no weight adds nothing (feedback off, most questions)
                continue
            ranked = sorted(out.values(), key=_by(key))
            for rank, c in enumerate(ranked):
                if c[key] > 0:
                    c["relevance"] = c.get("relevance", 0.0) + w * (RRF_K + 1) / (RRF_K + rank + 1)
        for c in out.values():
            c.setdefault("relevance", 0.0)
    else:
        for c in out.values():
            c["relevance"] = (
                s.w_semantic * c["semantic"]
                + s.w_keyword * c["keyword"]
                + s.w_feedback * c["feedback"]
            )
    return out


def final_score(s: Settings, core: float, strength: float, quality: float, usage: float) -> float:
    """A hit's final score from its relevance core and its lifecycle signals."""
    life = s.w_strength * strength + s.w_quality * quality + s.w_usage * usage
    if s.search_lifecycle == "add":
        return core + life
    return max(core, 0.0) * (1.0 + life)


def fuse(
    s: Settings,
    scored: dict[str, dict[str, Any]],
    graph: dict[str, tuple[float, str]],
    now: datetime,
    min_score: float,
    limit: int,
    scope_id: str,
    cues_: Cues = (set(), []),
    *,
    full_records: Callable[[list[str], str], dict[str, dict[str, Any]]],
    prefetched: dict[str, dict[str, Any]] | None = None,
    wanted_role: str | None = None,
    time_floor: float | None = None,
    latest: bool = False,
) -> list[Hit]:
    """Final scores from slim rows; full records are fetched only for the hits returned.

    ``full_records(ids, scope_id)`` reads the records of hits not in ``prefetched``.
    ``time_floor``: the similarity a turn said in the time the query names needs to pass the
    floor on that time (``Search`` decides it: 0 with a confident hit or for a query about its
    time only, else ``search_floor_time``; the latter when not given).
    ``latest``: the query asks about the current state of something (:mod:`.latest`): the newer
    of the turns that answer it gain up to ``w_latest`` of their relevance.
    """
    ranked: list[_Ranked] = []
    support = session_support(scored)  # in every breakdown; it weighs w_session (0.03)
    best_then = best_said_then(scored, cues_, wanted_role)
    time_floor = s.search_floor_time if time_floor is None else time_floor
    newest = latest_positions(scored, wanted_role) if latest and s.w_latest > 0 else {}
    for eid, c in scored.items():
        row = c["entry"]
        g, via = graph.get(eid, (0.0, None))
        g = min(1.0, g)
        chunk = c.get("kind") == "chunk"
        cued, said_then = (0.0, 0.0) if chunk else context_parts(row, via, g, cues_)
        timed = said_then if float(c.get("semantic") or 0.0) >= time_floor else 0.0
        if not c.get("relevant", True) and g <= 0 and cued + timed < FLOOR_CONTEXT:
            continue  # below the relevance floor: no neighbour of a hit above it, no cue
        if c.get("graph_only") and s.fusion != "rrf":
            c["relevance"] = s.w_semantic * c["semantic"]
        role = other_role(row, wanted_role)
        if said_then:  # a named time lifts a turn by its own relevance, and none of the role
            # the question does not ask about ("what did I buy" then)
            said_then *= date_gate(c["relevance"], best_then) * (1.0 - role)
        ctx = min(1.0, cued + said_then)
        if chunk:
            strength, quality, usage = hit_kinds.CHUNK_STRENGTH, hit_kinds.CHUNK_QUALITY, 0.0
            score = final_score(s, c["relevance"], strength, quality, 0.0)
            zero = (0.0, None, strength, quality, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            ranked.append((round(score, 4), eid, c, *zero))
            continue
        strength = lifecycle.strength(
            created_at=native(row["created_at"]),
            last_accessed_at=native(row.get("last_accessed_at")),
            half_life_days=float(row.get("half_life_days") or 7.0),
            access_count=int(row.get("access_count") or 0),
            emotional_valence=row.get("emotional_valence") or "neutral",
            confidence=float(row["confidence"] if row.get("confidence") is not None else 1.0),
            pinned=bool(row.get("pinned")),
            now=now,
        )
        quality = float(row["score"] if row.get("score") is not None else 5.0) / 10.0
        usage = usage_signal(int(row.get("access_count") or 0))
        brevity = (
            1.0 - substance(row.get("length"), s.search_full_turn) if row.get("speaker") else 0.0
        )
        sess = support.get(eid, 0.0)
        event = 1.0 if row.get("event") else 0.0
        named = float(c.get("named", 0.0))
        newer = newest.get(eid, 0.0)
        penalty = s.w_length * brevity + s.w_role * role
        core = (
            c["relevance"]
            + s.w_graph * g
            + s.w_context * ctx
            + s.w_session * sess
            - penalty
            + (s.w_event * event + s.w_name * named + s.w_latest * newer)
            * max(c["relevance"], 0.0)  # lifts no irrelevant turn
        )
        if core <= 0 < core + penalty and g <= 0 and cued + timed < FLOOR_CONTEXT:
            continue  # its penalties (a short turn, the other role) take all its relevance
        score = final_score(s, core, strength, quality, usage)
        row_: _Ranked = (
            score,
            eid,
            c,
            g,
            via,
            strength,
            quality,
            usage,
            ctx,
            brevity,
            sess,
            role,
            event,
            named,
            newer,
        )
        ranked.append((round(score, 4), *row_[1:]))
    ranked.sort(key=lambda t: (-t[0], t[1]))
    top = [t for t in ranked if t[0] >= min_score][:limit]
    entry_ids = [t[1] for t in top if t[2].get("kind") != "chunk"]
    full = dict(prefetched or {})
    missing = [i for i in entry_ids if i not in full]
    if missing:  # hits the graph, a cue or the lifecycle lifted past the likely ones
        full.update(full_records(missing, scope_id))
    hits: list[Hit] = []
    for t in top:
        score, eid, c, g, via = t[:5]
        strength, quality, usage, ctx, brevity, sess, role, event, named, newer = t[5:]
        chunk = c.get("kind") == "chunk"
        if not chunk and eid not in full:
            continue
        sig = Signals(
            semantic=round(c["semantic"], 4),
            keyword=round(c["keyword"], 4),
            graph=round(g, 4),
            strength=round(strength, 4),
            quality=round(quality, 4),
            usage=round(usage, 4),
            context=round(ctx, 4),
            brevity=round(brevity, 4),
            session=round(sess, 4),
            role=role,
            feedback=round(c.get("feedback", 0.0), 4),
            event=event,
            named=named,
            latest=round(newer, 4),
        )
        if chunk:
            entry = hit_kinds.chunk_entry(c["entry"], scope_id, now)
            kind, origin = "chunk", hit_kinds.chunk_origin(c["entry"])
        else:
            entry = entry_from_row(full[eid], now=now)
            kind, origin = hit_kinds.entry_kind(full[eid]), hit_kinds.entry_origin(full[eid])
        hits.append(
            Hit(
                entry=entry,
                score=score,
                signals=sig,
                via=via,
                rank=len(hits) + 1,
                kind=kind,
                origin=origin,
            )
        )
    return hits


#: score, id, candidate, graph, via, strength, quality, usage, context, brevity, session, role,
#: event, named, latest
_Ranked = tuple[
    float,
    str,
    dict[str, Any],
    float,
    str | None,
    float,
    float,
    float,
    float,
    float,
    float,
    float,
    float,
    float,
    float,
]


def _by(key: str) -> Callable[[dict[str, Any]], float]:
    def k(c: dict[str, Any]) -> float:
        return -float(c[key])

    return k
