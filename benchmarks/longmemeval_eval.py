"""LongMemEval parsing, the fixed split and session-level scoring (no database).

LongMemEval (Wu et al., ICLR 2025, MIT licence): each question comes with its own haystack of
~50 chat sessions (~500 turns); the evidence turns carry ``has_answer`` and the evidence sessions
are ``answer_session_ids``. A turn is named ``"<session id>:<index>"`` (its position in its
session), unique within one question's haystack.

Turn-level metrics (Recall@k, NDCG@10) are :mod:`recollect_graph.analysis.locomo_eval`'s; this
module adds the session-level ones of the paper's retrieval evaluation: a ranked list of turns is
read as a ranked list of their sessions (first occurrence), and Hit@k is ``recall_any`` (some
evidence session in the top k), All@k ``recall_all`` (every evidence session in the top k).

The split is fixed by the question id alone (SHA-1, so it never depends on the file's order or
size): half ``A`` and half ``B``; a sample (``--per-type``) takes the first questions of each type
and half in SHA-1 order, so a larger sample contains every smaller one.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.stats import paired_difference

#: The question types of the file (abstention questions are left out of the dev half).
TYPES = (
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "multi-session",
    "knowledge-update",
    "temporal-reasoning",
)
SESSION_KS = (5, 10)


def parse_date(text: str) -> datetime:
    """``"2023/05/21 (Sun) 19:50"`` -> that moment in UTC (the weekday is dropped)."""
    day, _, rest = text.strip().partition(" ")
    clock = rest.rpartition(")")[2].strip() or "00:00"
    try:
        return datetime.strptime(f"{day} {clock}", "%Y/%m/%d %H:%M").replace(tzinfo=UTC)
    except ValueError as e:
        raise ValueError(f"not a LongMemEval date: {text!r}") from e


def half(question_id: str) -> str:
    """The fixed split: ``"A"`` or ``"B"`` from the SHA-1 of the question id."""
    return "A" if hashlib.sha1(question_id.encode()).digest()[0] < 128 else "B"


def _order_key(question_id: str) -> str:
    return hashlib.sha1(f"order:{question_id}".encode()).hexdigest()


@dataclass(frozen=True)
class Turn:
    """One turn of a haystack session."""

    tid: str
    role: str
    text: str
    has_answer: bool


@dataclass(frozen=True)
class Session:
    """One haystack session: its id, date and turns."""

    sid: str
    at: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    """One LongMemEval question with its haystack."""

    qid: str
    qtype: str
    question: str
    answer: str
    date: datetime
    sessions: tuple[Session, ...]
    answer_sessions: tuple[str, ...]
    half: str = field(default="A")

    @property
    def gold_turns(self) -> list[str]:
        """The evidence turns (``has_answer``), in haystack order."""
        return [t.tid for s in self.sessions for t in s.turns if t.has_answer]

    @property
    def asked_at(self) -> datetime:
        """When the question is asked: its date, or its last session's last turn when later.

        36 of the 231 dev questions have sessions dated after the question (22 of them evidence
        sessions, often the same day): the question is about them, so it comes after them.
        Turns are a minute apart (as the benchmark stores them).
        """
        ends = [s.at + timedelta(minutes=len(s.turns)) for s in self.sessions]
        return max([self.date, *ends])

    @property
    def turns(self) -> list[tuple[Session, Turn]]:
        """Every turn with its session, in haystack order."""
        return [(s, t) for s in self.sessions for t in s.turns]


def parse_question(raw: Mapping[str, Any]) -> Question:
    """One question of the file; a session id seen twice in a haystack keeps its first copy."""
    qid = str(raw["question_id"])
    sessions: list[Session] = []
    seen: set[str] = set()
    for sid, date, turns in zip(
        raw["haystack_session_ids"], raw["haystack_dates"], raw["haystack_sessions"], strict=True
    ):
        sid = str(sid)
        if sid in seen:
            continue
        seen.add(sid)
        sessions.append(
            Session(
                sid=sid,
                at=parse_date(str(date)),
                turns=tuple(
                    Turn(
                        tid=f"{sid}:{i}",
                        role=str(t["role"]),
                        text=str(t["content"]),
                        has_answer=bool(t.get("has_answer", False)),
                    )
                    for i, t in enumerate(turns)
                ),
            )
        )
    present = {s.sid for s in sessions}
    return Question(
        qid=qid,
        qtype=str(raw["question_type"]),
        question=str(raw["question"]),
        answer=str(raw.get("answer", "")),
        date=parse_date(str(raw["question_date"])),
        sessions=tuple(sessions),
        answer_sessions=tuple(str(s) for s in raw["answer_session_ids"] if str(s) in present),
        half=half(qid),
    )


def load(path: str | Path) -> list[Question]:
    """Every question of a LongMemEval JSON file (``.gz`` read with gzip)."""
    p = Path(path)
    opener = gzip.open if p.suffix == ".gz" else open
    with opener(p, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    if not isinstance(data, list):
        raise ValueError(f"{p}: expected a JSON list of questions")
    return [parse_question(q) for q in data]


def sample(
    questions: Sequence[Question],
    *,
    per_type: int | None = None,
    halves: Iterable[str] = ("A", "B"),
    types: Iterable[str] | None = None,
) -> list[Question]:
    """The first ``per_type`` questions of each type and half in the fixed SHA-1 order."""
    want_halves = set(halves)
    want_types = set(types) if types else None
    groups: dict[tuple[str, str], list[Question]] = {}
    for q in sorted(questions, key=lambda q: _order_key(q.qid)):
        if q.half not in want_halves or (want_types and q.qtype not in want_types):
            continue
        groups.setdefault((q.qtype, q.half), []).append(q)
    out = [q for g in groups.values() for q in (g if per_type is None else g[:per_type])]
    return sorted(out, key=lambda q: _order_key(q.qid))


def session_of(tid: str) -> str:
    """The session id of a turn id ``"<sid>:<i>"``."""
    return tid.rpartition(":")[0]


def session_ranking(ranked_turns: Iterable[str | None]) -> list[str]:
    """Sessions in the order their first turn appears in a turn ranking."""
    out: list[str] = []
    seen: set[str] = set()
    for tid in ranked_turns:
        if not tid:
            continue
        sid = session_of(tid)
        if sid not in seen:
            seen.add(sid)
            out.append(sid)
    return out


def score_sessions(ranked_turns: Sequence[str | None], gold: Sequence[str]) -> dict[str, float]:
    """Hit@k (any evidence session in the top k sessions) and All@k (every one), k = 5, 10."""
    return score_session_order(session_ranking(ranked_turns), gold)


def score_session_order(sessions: Sequence[str], gold: Sequence[str]) -> dict[str, float]:
    """Hit@k and All@k of a ranking of sessions (best first)."""
    want = set(gold)
    out: dict[str, float] = {}
    for k in SESSION_KS:
        top = set(sessions[:k])
        out[f"hit@{k}"] = float(bool(want & top)) if want else 0.0
        out[f"all@{k}"] = float(want <= top) if want else 0.0
    return out


def newest_first(ranked_turns: Sequence[str | None], q: Question) -> float | None:
    """1.0 when the first evidence turn of a ranking is from the newest evidence session.

    For a question whose evidence sessions have at least two dates (a fact stated, then
    updated: the knowledge-update questions): the turn an agent reads first should hold the
    current value. 0.0 when no evidence turn is ranked; ``None`` when the question's evidence
    has one date only.
    """
    evidence = set(q.answer_sessions)
    dates = {s.sid: s.at for s in q.sessions if s.sid in evidence}
    if len(set(dates.values())) < 2:
        return None
    gold = set(q.gold_turns)
    newest = max(dates.values())
    for tid in ranked_turns:
        if tid and tid in gold:
            return float(dates.get(session_of(tid)) == newest)
    return 0.0


#: The figures issue 21 asks ours to lead the best baseline by (0.05): turn R@10, session All@5.
MARGIN_FIGURES = ("r@10", "all@5")


def margins(
    rows: Mapping[str, Sequence[tuple[Question, Mapping[str, float]]]],
    baselines: Sequence[str],
    first: str = "ours",
) -> dict[str, list[dict[str, Any]]]:
    """``first``'s lead over the best baseline, per figure, overall and in each half.

    The best baseline is chosen per part and figure (by its mean); the lead is a paired
    bootstrap over the part's questions (:func:`benchmarks.stats.paired_difference`).

    Args:
        rows: ``{system: [(question, metrics), ...]}``, every system's rows in the same
            question order.
        baselines: The systems to lead.
        first: The system leading.

    Returns:
        ``{"overall": [...], "half A": [...], "half B": [...]}``, each a list of
        ``{"figure", "best", "diff", "lo", "hi", "p_not_better", "n"}``; parts without questions
        and a run without baselines give nothing.
    """
    out: dict[str, list[dict[str, Any]]] = {}
    present = [b for b in baselines if rows.get(b)]
    if first not in rows or not present:
        return out
    for part in ("overall", "half A", "half B"):
        keep = [part == "overall" or f"half {q.half}" == part for q, _ in rows[first]]
        if not any(keep):
            continue

        def values(system: str, figure: str, keep: list[bool] = keep) -> list[float]:
            return [m[figure] for (_, m), k in zip(rows[system], keep, strict=True) if k]

        out[part] = []
        for figure in MARGIN_FIGURES:
            best = max(present, key=lambda b: sum(values(b, figure)))
            diff = paired_difference(values(first, figure), values(best, figure))
            out[part].append({"figure": figure, "best": best, **diff})
    return out
