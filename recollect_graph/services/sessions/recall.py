"""Vague recall over sessions: the Anamnesis protocol as graph queries.

``recall(text)`` classifies the text (``StructuredIdentifier`` when it carries identifier
literals and little else, ``NaturalRecall`` when it has none, ``Mixed`` for both) and dispatches:

* **entropy** track: exact identifier matches through ``Identifier`` nodes, ranked by rarity
  ``precision = 1 / (1 + sessions citing it elsewhere)``; a literal anchors only when its
  namespace authorises the claim the text makes ("issue #87" is not anchored by a PR #87);
  literals that do not anchor stay in the trace as evidence and send the scan to hybrid.
* **salience** track: semantic similarity of the session vector and of its best turn, keyword
  scores, shared markers (actors, emotions, realisations, events, time words), coinage terms
  (``occ_s / (1 + occ_elsewhere) >= 0.5``, used at least twice); a time clue ("in March", "last
  week", a date; in the text or in a probe's answer) multiplies each session's salience by its
  proximity to the named time (:func:`time_factor`), so sessions of that time rank first.
* **hybrid**: both, fused.

Zero candidates on a first attempt return Socratic probes (temporal, associative, contextual,
each with concrete choices from the store) instead of a verdict; ``null_match`` is declared only
after an enriched re-scan or at the last attempt. Fork candidates carry their resumable
ancestor (fork-parent backtracking is one Cypher query over ``FORKED_FROM``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.errors import InvalidInput
from recollect_graph.ids import recall_node_id as node_id
from recollect_graph.models import RecallCandidate, RecallProbe, RecallResult
from recollect_graph.nlp import cues
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.services.kernel import fulltext
from recollect_graph.services.kernel.times import aware, native, now_utc
from recollect_graph.services.kernel.validation import in_range, require_text
from recollect_graph.services.knowledge.access import Access
from recollect_graph.services.search.hybrid import lucene_query
from recollect_graph.services.sessions.index import resolve_chain
from recollect_graph.services.sessions.recall_scoring import (
    classify,
    confidence,
    fuse,
    read_trace,
    scale_cos,
    time_factor,
)
from recollect_graph.services.sessions.recall_view import clue_prose, ref, render, trace_view

#: Rarity below which an identifier does not anchor (cited by more than 5 sessions).
PRECISION_MIN = 0.2
#: Salience weights (semantic, keyword, markers, coinage); tuned on the fixture set.
WEIGHTS = {"semantic": 0.50, "keyword": 0.20, "markers": 0.10, "coinage": 0.12}
SCORE_FLOOR = 0.30
#: Added to forks when the recall names a sub-agent ("the helper that...", "the sub-agent").
FORK_CUE_BONUS = 0.2
VECTOR_K = 60
#: The vector indexes span every scope; when other scopes crowd the nearest ``k``, ask for more
#: (x8 each time) until enough of this scope's sessions come back or this cap is reached.
VECTOR_K_MAX = VECTOR_K * 64
#: A marker held by more sessions than this only re-scores sessions that are already candidates.
MARKER_FANOUT = 200
#: The record-time and valid-time bounds of a recall (``as_of``, ``valid_at``; None: now).
When = dict[str, datetime | None]


class Recall:
    """``rg.recall``: resolve a vague memory of a session into ranked candidates.

    Args:
        db: The database client.
        embedder: Embeds the recall text.
    """

    def __init__(self, db: Db, embedder: Embedder) -> None:
        self.db = db
        self.embedder = embedder
        self.access = Access(db, embedder.calibration)

    def recall(
        self,
        text: str,
        *,
        scope_id: str,
        attempt: int = 1,
        hints: Sequence[str] = (),
        max_attempts: int = 3,
        limit: int = 5,
        now: datetime | None = None,
        owner_id: str | None = None,
        touch: bool = True,
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
    ) -> RecallResult:
        """One recall attempt; candidates found are recorded in the access history.

        Args:
            text: What the user vaguely remembers.
            scope_id: Whose sessions to scan.
            attempt: 1 for a first try; the CLI passes 2, 3 after a probe or a reorientation.
            hints: Answers to probes (chosen options or free text), used to enrich the text.
            max_attempts: After this many attempts a zero-candidate scan is a NullMatch.
            limit: At most this many candidates.
            now: The moment relative time words resolve against (default: now).
            owner_id: Who recalls (recorded with the access).
            touch: Record the candidates as a ``recall`` access (default).
            as_of: Record time: recall as of a past moment (only sessions and turns recorded
                by then; they must also have happened by then unless ``valid_at`` says another
                moment).
            valid_at: Valid time: only sessions started, and turns said, by this moment.
                Either one is also the default ``now`` that time words resolve against.

        Returns:
            The result: candidates (best first), or probes, or a NullMatch, and the prose.
        """
        text = require_text(text, "text", max_len=10_000)
        scope_id = require_text(scope_id, "scope_id", max_len=200)
        attempt = int(in_range(attempt, "attempt", 1, 10))
        max_attempts = int(in_range(max_attempts, "max_attempts", 1, 10))
        limit = int(in_range(limit, "limit", 1, 50))
        if isinstance(hints, str):
            raise InvalidInput("hints must be a list of strings")
        hint_list = [require_text(h, "hint", max_len=2000) for h in hints]
        full = " ".join([text, *hint_list])
        when = {"as_of": aware(as_of, "as_of"), "valid_at": aware(valid_at, "valid_at")}
        when["valid_at"] = when["valid_at"] or when["as_of"]
        now = now or when["valid_at"] or now_utc()
        trace = read_trace(full, now)
        input_type, track = classify(trace)
        entropy: dict[str, tuple[float, list[str]]] = {}
        if trace["identifiers"]:
            entropy = self._entropy(full, trace, scope_id)
            if not entropy and track == "entropy":
                track = "hybrid"  # literals that anchor nothing: never silently zero
        salience: dict[str, tuple[float, dict[str, float], list[str]]] = {}
        if track in ("salience", "hybrid"):
            salience = self._salience(trace, scope_id, now, when)
        ranked = [r for r in fuse(entropy, salience) if r[1] >= SCORE_FLOOR * 0.8][:15]
        cands = self._candidates(
            ranked, scope_id, fork_cue=trace["fork_cue"], limit=limit, when=when
        )
        probes: list[RecallProbe] = []
        null = False
        if not cands:
            if attempt == 1 and max_attempts > 1:
                probes = self.probes(full, scope_id=scope_id, near=salience)
            else:
                null = True
        if touch and cands:
            self.access.record(
                scope_id,
                "recall",
                [c.session_id for c in cands],
                owner_id=owner_id,
                query=text,
                best_effort=True,
            )
        single = len(cands) == 1 and cands[0].confidence == "high"
        result = RecallResult(
            input_type=input_type,
            track=track,
            attempt=attempt,
            candidates=cands,
            probes=probes,
            null_match=null,
            single_obvious=single,
            prose="",
            trace=trace_view(trace),
        )
        return result.model_copy(update={"prose": render(result)})

    @staticmethod
    def prose(candidate: RecallCandidate) -> str:
        """A candidate as Anamnesis' ClueVector prose (see :func:`clue_prose`)."""
        return clue_prose(candidate)

    # -- entropy track -------------------------------------------------------------------------
    def _entropy(
        self, text: str, trace: dict[str, Any], scope_id: str
    ) -> dict[str, tuple[float, list[str]]]:
        idents: list[cues.Identifier] = trace["identifiers"]
        values = sorted({i.value for i in idents})
        names = sorted({i.value.rsplit("/", 1)[-1] for i in idents if i.namespace == "fs_path"})
        out: dict[str, tuple[float, list[str]]] = {}
        unanchored = trace.setdefault("unanchored", [])

        def credit(sid: str, p: float, why: str) -> None:
            best, ev = out.get(sid, (0.0, []))
            out[sid] = (max(best, p) + 0.1 * min(best, p), [*ev, why])

        literal_ids = [i.value for i in idents if i.namespace in ("session", "git_commit")]
        for r in self.db.read("recall/sessions_by_id", scope_id=scope_id, ids=literal_ids):
            credit(r["id"], 1.0, f"names the session id {r['literal']}")
        by_value = {i.value: i for i in idents}
        by_name = {i.value.rsplit("/", 1)[-1]: i for i in idents if i.namespace == "fs_path"}
        # Rarity is per literal: a file name matches every path ending in it, so its
        # occurrences are the sessions citing any of them.
        matched: dict[str, list[dict[str, Any]]] = {}
        for r in self.db.read("recall/identifiers", scope_id=scope_id, values=values, names=names):
            lit = by_value.get(r["value"]) or by_name.get(str(r["value"]).rsplit("/", 1)[-1])
            if lit is None:
                continue
            kind = cues.claim_kind(text, lit)
            if not cues.compatible_anchor(r["namespace"], kind):
                unanchored.append(f"{lit.literal} ({r['namespace']} cannot anchor a {kind})")
                continue
            matched.setdefault(lit.literal, []).append(r)
        for literal, nodes in matched.items():
            citing = {s["id"] for r in nodes for s in r["sessions"]}
            precision = 1.0 / len(citing) if citing else 0.0
            if precision < PRECISION_MIN:
                unanchored.append(f"{literal} (cited by {len(citing)} sessions: too common)")
                continue
            for r in nodes:
                exact = r["value"] in by_value
                for s in r["sessions"]:
                    credit(
                        s["id"],
                        precision * (1.0 if exact else 0.8),
                        f"cites {r['namespace']} {r['value']} (precision {precision:.2f})",
                    )
        return {k: (min(1.0, v[0]), v[1]) for k, v in out.items()}

    # -- salience track ------------------------------------------------------------------------
    def _salience(
        self, trace: dict[str, Any], scope_id: str, now: datetime, when: When
    ) -> dict[str, tuple[float, dict[str, float], list[str]]]:
        residual: str = trace["residual"] or trace["text"]
        vector = self.embedder.embed_query(residual)
        sig: dict[str, dict[str, float]] = {}
        why: dict[str, list[str]] = {}
        for r in self._vector_rows(scope_id, vector, when):
            cos = max(float(r["session_cos"] or -1), float(r["turn_cos"] or -1))
            sig.setdefault(r["id"], {})["semantic"] = scale_cos(self.embedder.similarity(cos))
        lucene = lucene_query(" ".join(trace["content_words"]))
        if lucene:
            rows = self.db.read(
                "recall/keyword",
                scope_id=scope_id,
                lucene=fulltext.in_scope(lucene, scope_id, "session_text"),
                lucene_turns=fulltext.in_scope(lucene, scope_id),
                k=VECTOR_K,
                **when,
            )
            best = max((float(r["score"]) for r in rows), default=0.0)
            for r in rows:
                if best > 0:
                    sig.setdefault(r["id"], {})["keyword"] = float(r["score"]) / best
        mark_ids = [node_id("marker", scope_id, m.kind, m.value) for m in trace["markers"]]
        mark_ids += [node_id("marker", scope_id, "term", t) for t in trace["terms"]]
        if mark_ids:
            for r in self.db.read(
                "recall/markers",
                scope_id=scope_id,
                ids=mark_ids,
                candidates=list(sig),
                max_sessions=MARKER_FANOUT,
            ):
                sessions = r["sessions"]
                if r["kind"] == "term":
                    total = int(r["total"])
                    for s in sessions:
                        n = int(s["count"])
                        p = cues.coinage_precision(n, total - n)
                        if n >= cues.COINAGE_MIN_USES and p >= cues.COINAGE_THRESHOLD:
                            d = sig.setdefault(s["id"], {})
                            d["coinage"] = min(1.0, d.get("coinage", 0.0) + min(1.0, p))
                            why.setdefault(s["id"], []).append(f"coinage '{r['value']}'")
                    continue
                weight = 1.0 / math.sqrt(max(1, int(r["degree"])))
                for s in sessions:
                    d = sig.setdefault(s["id"], {})
                    d["markers_raw"] = d.get("markers_raw", 0.0) + weight
                    why.setdefault(s["id"], []).append(f"{r['kind']} '{r['value']}'")
        windows: list[cues.TimeWindow] = trace["windows"]
        times = self._start_times(list(sig), scope_id) if windows else {}
        out: dict[str, tuple[float, dict[str, float], list[str]]] = {}
        total_w = sum(WEIGHTS.values())
        for sid, d in sig.items():
            d["markers"] = 1.0 - math.exp(-d.pop("markers_raw", 0.0))
            if windows:
                d["time"] = cues.proximity(times[sid], windows) if sid in times else 0.0
        best_factor = (
            max((time_factor(d["time"]) for d in sig.values()), default=1.0) if windows else 1.0
        )
        for sid, d in sig.items():
            score = sum(w * d.get(k, 0.0) for k, w in WEIGHTS.items()) / total_w
            if windows:
                score *= time_factor(d["time"]) / best_factor
                if d["time"] >= 1.0:
                    why.setdefault(sid, []).append("started in the time you named")
            out[sid] = (score, {k: round(v, 3) for k, v in d.items()}, why.get(sid, []))
        return out

    def _start_times(self, ids: list[str], scope_id: str) -> dict[str, datetime]:
        out: dict[str, datetime] = {}
        for r in self.db.read("recall/start_times", scope_id=scope_id, ids=ids):
            at = native(r["started_at"])
            if isinstance(at, datetime):
                out[r["id"]] = at
        return out

    # -- candidates and probes -----------------------------------------------------------------
    def _candidates(
        self,
        ranked: list[tuple[str, float, dict[str, float], list[str]]],
        scope_id: str,
        *,
        fork_cue: bool,
        limit: int,
        when: When,
    ) -> list[RecallCandidate]:
        """Fetch, adjust (a recall that names a sub-agent prefers forks), cut and build."""
        if not ranked:
            return []
        rows = {
            r["session"]["id"]: r
            for r in self.db.read(
                "recall/candidates", scope_id=scope_id, ids=[r[0] for r in ranked], **when
            )
        }
        if fork_cue:
            adjusted = []
            for sid, score, signals, evidence in ranked:
                if sid in rows and rows[sid]["session"].get("fork_marker"):
                    score += FORK_CUE_BONUS
                    evidence = [*evidence, "you named a sub-agent; this is a fork"]
                adjusted.append((sid, score, signals, evidence))
            ranked = sorted(adjusted, key=lambda t: (-t[1], t[0]))
        ranked = [r for r in ranked if r[1] >= SCORE_FLOOR and r[0] in rows][:limit]
        if ranked:
            top = ranked[0][1]
            ranked = [r for r in ranked if r[1] >= 0.6 * top]
        out: list[RecallCandidate] = []
        for i, (sid, score, signals, evidence) in enumerate(ranked):
            r = rows[sid]
            s = {k: native(v) for k, v in r["session"].items()}
            fork = resolve_chain([{k: native(v) for k, v in n.items()} for n in r["chain"]])
            second = ranked[i + 1][1] if i + 1 < len(ranked) else 0.0
            conf = confidence(
                score, score - second if i == 0 else 0.0, bool(signals.get("entropy"))
            )
            refs = [ref(x) for x in r["refs"]]
            out.append(
                RecallCandidate(
                    session_id=sid,
                    confidence=conf,
                    score=round(score, 4),
                    signals={k: round(v, 3) for k, v in signals.items()},
                    cwd=s.get("cwd"),
                    title=s.get("title"),
                    topic=(s.get("topics") or [None])[0] or s.get("title"),
                    keywords=list(s.get("keywords") or [])[:8],
                    fingerprint=str(s.get("summary") or s.get("initial_request") or ""),
                    cross_refs=refs,
                    evidence=evidence[:8],
                    started_at=s.get("started_at"),
                    last_turn_at=s.get("last_turn_at"),
                    origin=s.get("origin"),
                    fork_marker=fork.fork_marker,
                    parent_pointer=fork.parent_pointer,
                    parent_cwd=fork.parent_cwd,
                    resumption_hint=fork.resume,
                    missing_parent=fork.missing_parent,
                    handoff=s.get("handoff"),
                )
            )
        return out

    def _vector_rows(self, scope_id: str, vector: list[float], when: When) -> list[dict[str, Any]]:
        """Semantic candidates of the scope.

        Neo4j 2026+ filters the index by scope, so one read finds the scope's nearest; older
        servers filter afterwards, so this over-fetches while other scopes crowd the index.
        """
        k = VECTOR_K
        while True:
            rows = self.db.read("recall/vector", scope_id=scope_id, vector=vector, k=k, **when)
            if self.db.filtered_vectors or len(rows) >= VECTOR_K // 4 or k >= VECTOR_K_MAX:
                return rows
            k *= 8

    def probes(
        self,
        text: str,
        *,
        scope_id: str,
        near: dict[str, tuple[float, dict[str, float], list[str]]] | None = None,
    ) -> list[RecallProbe]:
        """Socratic probes: concrete adjacent choices along time, association and context."""
        ov = self.db.read("recall/overview", scope_id=scope_id)
        if not ov:
            return []
        months, places, topics = ov[0]["months"], ov[0]["places"], ov[0]["topics"]
        nearest: list[str] = []
        if near:
            best = sorted(near.items(), key=lambda kv: -kv[1][0])[:4]
            for r in self.db.read(
                "recall/candidates",
                scope_id=scope_id,
                ids=[sid for sid, _ in best],
                as_of=None,
                valid_at=None,
            ):
                t = (r["session"].get("topics") or [None])[0] or r["session"].get("title")
                if t and t not in nearest:
                    nearest.append(str(t))
        assoc = nearest + [t["topic"] for t in topics if t["topic"] not in nearest]
        return [
            RecallProbe(
                dimension="temporal",
                question="Roughly when was it? These months have sessions:",
                options=[
                    f"{m['month']}: {m['n']} session(s), e.g. {', '.join(map(str, m['titles']))}"
                    for m in months[:6]
                ],
            ),
            RecallProbe(
                dimension="associative",
                question="Was it near one of these topics?",
                options=assoc[:8],
            ),
            RecallProbe(
                dimension="contextual",
                question="Which project or folder were you working in?",
                options=[f"{p['cwd']} ({p['n']} sessions)" for p in places[:6]],
            ),
        ]
