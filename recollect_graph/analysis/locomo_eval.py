"""LoCoMo parsing and scoring, with no database: for the notebooks, benchmarks/locomo.py, tests.

LoCoMo (Maharana et al., ACL 2024) is a list of samples, each a long two-person conversation
(``conversation``: ``speaker_a``, ``speaker_b``, ``session_<n>`` lists of turns
``{speaker, dia_id, text[, blip_caption]}`` and ``session_<n>_date_time``) and questions
(``qa``: ``{question, answer, evidence: [dia_id...], category}``).

The evidence ids have quirks that this module normalises (and counts):

* several ids in one string: ``"D8:6; D9:17"`` -> ``D8:6``, ``D9:17``;
* malformed ids: ``"D:11:26"`` -> ``D11:26``, ``"D30:05"`` -> ``D30:5``;
* ids that match no turn of the conversation (dropped, counted);
* questions with no usable evidence (skipped, counted).

Scoring is turn level: Recall@k = |gold ∩ top-k| / |gold|, NDCG@10 with binary relevance and
MRR (reciprocal rank of the first relevant hit, 0 when none is returned).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: Categories of LoCoMo questions (5 is adversarial: kept out of the main figures).
CATEGORIES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
#: The categories the main figures average over.
MAIN_CATEGORIES = (1, 2, 3, 4)
#: The cut-offs of Recall@k.
RECALL_KS = (1, 5, 10)
NDCG_K = 10

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        (
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        )
    )
}
_DATE = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
_SESSION = re.compile(r"^session_(\d+)$")
_EVIDENCE = re.compile(r"^D:?(\d+):(\d+)$")
_WORDS = re.compile(r"\w+")


def parse_session_datetime(text: str) -> datetime:
    """A LoCoMo session date (``"1:56 pm on 8 May, 2023"``) as an aware UTC datetime.

    Raises:
        ValueError: The text is not in that form.
    """
    m = _DATE.match(text)
    if not m:
        raise ValueError(f"not a LoCoMo session date: {text!r}")
    hour, minute, ampm, day, month_name, year = m.groups()
    month = _MONTHS.get(month_name.lower())
    if month is None:
        raise ValueError(f"unknown month in {text!r}")
    h = int(hour) % 12 + (12 if ampm.lower() == "p" else 0)
    return datetime(int(year), month, int(day), h, int(minute), tzinfo=UTC)


def normalise_evidence_id(raw: str) -> str | None:
    """One evidence id in canonical ``D<session>:<turn>`` form, or ``None`` if it is not one."""
    m = _EVIDENCE.match(raw.strip())
    if not m:
        return None
    return f"D{int(m.group(1))}:{int(m.group(2))}"


def split_evidence(evidence: Iterable[str]) -> list[str]:
    """Evidence strings split into single ids (``"D8:6; D9:17"`` holds two), in order."""
    out: list[str] = []
    for item in evidence:
        out.extend(p.strip() for p in re.split(r"[;,]", str(item)) if p.strip())
    return out


@dataclass(frozen=True)
class Turn:
    """One turn of a conversation."""

    dia_id: str
    speaker: str
    text: str
    session: int
    at: datetime
    session_date: str

    def indexed_text(self) -> str:
        """The baselines' document: ``"(session date) speaker: text"``."""
        return f"({self.session_date}) {self.speaker}: {self.text}"


@dataclass(frozen=True)
class Session:
    """One LoCoMo session: its number, start time and ordered turns."""

    n: int
    date_time: str
    at: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    """One question with its normalised gold turn ids."""

    index: int
    question: str
    category: int
    gold: tuple[str, ...]
    answer: str | None = None


@dataclass
class EvidenceStats:
    """What normalisation did to a conversation's evidence."""

    split: int = 0
    fixed: int = 0
    dropped: list[str] = field(default_factory=list)
    no_gold: int = 0

    def add(self, other: EvidenceStats) -> None:
        """Accumulate another conversation's counts."""
        self.split += other.split
        self.fixed += other.fixed
        self.dropped.extend(other.dropped)
        self.no_gold += other.no_gold

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready counts."""
        return {
            "ids_split_from_lists": self.split,
            "ids_fixed": self.fixed,
            "ids_dropped": len(self.dropped),
            "dropped": list(self.dropped),
            "questions_without_gold": self.no_gold,
        }


@dataclass(frozen=True)
class Conversation:
    """One LoCoMo sample, parsed."""

    sample_id: str
    speakers: tuple[str, str]
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]
    stats: EvidenceStats

    @property
    def turns(self) -> list[Turn]:
        """Every turn, in conversation order."""
        return [t for s in self.sessions for t in s.turns]


def turn_text(turn: Mapping[str, Any]) -> str:
    """A turn's text, with ``" [image: <caption>]"`` appended when it shares an image."""
    text = str(turn.get("text") or "").strip()
    caption = str(turn.get("blip_caption") or "").strip()
    return f"{text} [image: {caption}]" if caption else text


def gold_ids(
    evidence: Iterable[str], known: set[str], stats: EvidenceStats, where: str = ""
) -> tuple[str, ...]:
    """Normalised, deduplicated evidence ids that name a turn of the conversation."""
    raw = [str(e) for e in evidence]
    parts = split_evidence(raw)
    stats.split += max(0, len(parts) - len(raw))
    out: list[str] = []
    for p in parts:
        norm = normalise_evidence_id(p)
        if norm is not None and norm != p:
            stats.fixed += 1
        if norm is None or norm not in known:
            stats.dropped.append(f"{where}{p}")
            continue
        if norm not in out:
            out.append(norm)
    return tuple(out)


def parse_sample(sample: Mapping[str, Any]) -> Conversation:
    """One LoCoMo sample as a :class:`Conversation` (sessions in number order)."""
    sample_id = str(sample["sample_id"])
    conv = sample["conversation"]
    numbers = sorted(int(m.group(1)) for k in conv if (m := _SESSION.match(k)))
    sessions: list[Session] = []
    for n in numbers:
        raw_date = str(conv.get(f"session_{n}_date_time") or "")
        at = parse_session_datetime(raw_date)
        turns = tuple(
            Turn(
                dia_id=str(t["dia_id"]),
                speaker=str(t["speaker"]),
                text=turn_text(t),
                session=n,
                at=at,
                session_date=raw_date,
            )
            for t in conv[f"session_{n}"]
        )
        if turns:
            sessions.append(Session(n=n, date_time=raw_date, at=at, turns=turns))
    known = {t.dia_id for s in sessions for t in s.turns}
    stats = EvidenceStats()
    questions: list[Question] = []
    for i, qa in enumerate(sample.get("qa") or []):
        gold = gold_ids(qa.get("evidence") or [], known, stats, where=f"{sample_id} q{i}: ")
        if not gold:
            stats.no_gold += 1
            continue
        answer = qa.get("answer", qa.get("adversarial_answer"))
        questions.append(
            Question(
                index=i,
                question=str(qa["question"]),
                category=int(qa["category"]),
                gold=gold,
                answer=None if answer is None else str(answer),
            )
        )
    speakers = (str(conv.get("speaker_a", "")), str(conv.get("speaker_b", "")))
    return Conversation(sample_id, speakers, tuple(sessions), tuple(questions), stats)


def load(path: str | Path, samples: Sequence[str] | None = None) -> list[Conversation]:
    """Parse a LoCoMo-format JSON file, keeping only ``samples`` when given (in file order).

    Raises:
        ValueError: A requested sample is not in the file.
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of samples")
    convs = [parse_sample(s) for s in data if not samples or str(s["sample_id"]) in samples]
    missing = set(samples or ()) - {c.sample_id for c in convs}
    if missing:
        raise ValueError(f"samples not in {path}: {sorted(missing)}")
    return convs


def tokenize(text: str, stop_words: bool = False) -> list[str]:
    """Lowercase word tokens (the BM25 baseline's tokenisation), optionally without stop words.

    The stop words are spaCy's English list (spaCy is a dependency of the library).
    """
    words = _WORDS.findall(text.lower())
    if stop_words:
        from spacy.lang.en.stop_words import STOP_WORDS

        words = [w for w in words if w not in STOP_WORDS]
    return words


# -- metrics ----------------------------------------------------------------------------------


def dedupe(ranked: Iterable[str | None]) -> list[str | None]:
    """A ranking with repeated ids removed (first place kept); ``None`` (no id) always kept."""
    seen: set[str] = set()
    out: list[str | None] = []
    for r in ranked:
        if r is not None:
            if r in seen:
                continue
            seen.add(r)
        out.append(r)
    return out


def recall_at(ranked: Sequence[str | None], gold: Sequence[str], k: int) -> float:
    """|gold ∩ top-k| / |gold|."""
    g = set(gold)
    if not g:
        raise ValueError("no gold ids")
    return len(g.intersection(r for r in ranked[:k] if r is not None)) / len(g)


def ndcg_at(ranked: Sequence[str | None], gold: Sequence[str], k: int = NDCG_K) -> float:
    """NDCG@k with binary relevance (ideal: every gold id at the top)."""
    g = set(gold)
    if not g:
        raise ValueError("no gold ids")
    dcg = sum(1.0 / math.log2(i + 2) for i, r in enumerate(ranked[:k]) if r in g)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(len(g), k)))
    return dcg / idcg


def reciprocal_rank(ranked: Sequence[str | None], gold: Sequence[str]) -> float:
    """1 / rank of the first gold id in the ranking (0 if none is there)."""
    g = set(gold)
    for i, r in enumerate(ranked):
        if r in g:
            return 1.0 / (i + 1)
    return 0.0


def score_ranking(ranked: Sequence[str | None], gold: Sequence[str]) -> dict[str, float]:
    """Every metric of one question: ``r@1``, ``r@5``, ``r@10``, ``ndcg@10``, ``mrr``."""
    r = dedupe(ranked)
    out = {f"r@{k}": recall_at(r, gold, k) for k in RECALL_KS}
    out[f"ndcg@{NDCG_K}"] = ndcg_at(r, gold, NDCG_K)
    out["mrr"] = reciprocal_rank(r, gold)
    return out


METRICS = (*(f"r@{k}" for k in RECALL_KS), f"ndcg@{NDCG_K}", "mrr")


def summarize(rows: Iterable[tuple[int, Mapping[str, float]]]) -> dict[str, dict[str, float]]:
    """Mean metrics per category and ``overall`` (categories 1-4 only, question-weighted).

    Args:
        rows: ``(category, metrics)`` per question.

    Returns:
        ``{"1": {...,"n": 32}, ..., "overall": {...}}``; category 5 appears under ``"5"`` when
        present but never counts in ``overall``.
    """
    groups: dict[str, list[Mapping[str, float]]] = {}
    for cat, m in rows:
        groups.setdefault(str(cat), []).append(m)
        if cat in MAIN_CATEGORIES:
            groups.setdefault("overall", []).append(m)
    out: dict[str, dict[str, float]] = {}
    for key in sorted(groups, key=lambda k: (k == "overall", k)):
        ms = groups[key]
        out[key] = {name: round(sum(m[name] for m in ms) / len(ms), 4) for name in METRICS}
        out[key]["n"] = len(ms)
    return out


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile of ``values`` (0 for none)."""
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(p / 100 * len(s)) - 1))]


# -- in-process baselines (no database) -------------------------------------------------------


def rrf(rankings: Sequence[Sequence[str]], k: int = 60, limit: int = 10) -> list[str]:
    """Equal-weight reciprocal rank fusion: ``sum 1 / (k + rank)`` (rank from 1), ties by id."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for i, doc in enumerate(ranking):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + i + 1)
    return [d for d, _ in sorted(scores.items(), key=lambda t: (-t[1], t[0]))[:limit]]
