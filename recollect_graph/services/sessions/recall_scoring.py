"""The pure side of vague recall: reading a recall text, its track, fusing and judging scores.

:func:`read_trace` reads what a recall text carries (identifiers, content words, markers,
terms, time windows), :func:`classify` picks the track, :func:`fuse` merges the entropy and
salience rankings and :func:`confidence` names how sure the winner is. No database here:
:mod:`recollect_graph.services.sessions.recall` runs the tracks.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from recollect_graph.nlp import cues

#: Words that say "I am recalling" rather than what is recalled.
RECALL_WORDS = frozenset(
    """
    session sessions remember recall time talked discussed touched mentioned conversation chat
    thing stuff worked where which what find again agent back earlier previous before once
    were that there this those with about when whatever something someone somewhere
    """.split()  # noqa: SIM905
)
#: With a time clue, a session's salience is multiplied by ``TIME_FLOOR + (1 - TIME_FLOOR) x
#: time`` (``time``: 1 when it started in the named window, decaying with the distance), relative
#: to the best such factor among the candidates: the sessions of the named time rank first, the
#: others keep at least this share, and when none is in the window the nearest keep their score.
TIME_FLOOR = 0.25
#: A recall that names a sub-agent ("the helper that...", "the sub-agent").
FORK_CUE = re.compile(
    r"\b(sub-?agents?|helper agents?|the helper|agent that|sidechain|fork(?:ed)?|spawned|"
    r"delegated|side task)\b",
    re.I,
)
HIGH_SCORE, HIGH_MARGIN = 0.55, 0.10
MEDIUM_SCORE = 0.42


def read_trace(text: str, now: datetime) -> dict[str, Any]:
    """What a recall text carries: identifiers, content words, markers, terms, time windows."""
    idents = cues.identifiers(text)
    residual = text
    for i in idents:
        residual = residual.replace(i.literal, " ")
    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9_-]+", residual)]
    content = [w for w in words if len(w) > 2 and w not in cues.STOP and w not in RECALL_WORDS]
    return {
        "text": text,
        "residual": " ".join(residual.split()),
        "identifiers": idents,
        "content_words": content,
        "terms": [t for t in cues.terms(residual) if t not in RECALL_WORDS],
        "markers": cues.markers(residual),
        "windows": cues.time_windows(residual, now),
        "fork_cue": bool(FORK_CUE.search(text)),
    }


def classify(trace: dict[str, Any]) -> tuple[str, str]:
    """Input type and track: identifiers only -> entropy, none -> salience, both -> hybrid."""
    has_ids = bool(trace["identifiers"])
    natural = len(set(trace["content_words"])) >= 3 or (
        len(set(trace["content_words"])) >= 1 and bool(trace["markers"] or trace["windows"])
    )
    if has_ids and natural:
        return "Mixed", "hybrid"
    if has_ids:
        return "StructuredIdentifier", "entropy"
    return "NaturalRecall", "salience"


def time_factor(time: float) -> float:
    """What a session keeps of its salience for its distance to the named time (``TIME_FLOOR``)."""
    return TIME_FLOOR + (1.0 - TIME_FLOOR) * time


def fuse(
    entropy: dict[str, tuple[float, list[str]]],
    salience: dict[str, tuple[float, dict[str, float], list[str]]],
) -> list[tuple[str, float, dict[str, float], list[str]]]:
    """One ranking: an anchored identifier dominates; salience orders the rest and breaks ties."""
    out = []
    for sid in set(entropy) | set(salience):
        e, ev = entropy.get(sid, (0.0, []))
        s, sig, why = salience.get(sid, (0.0, {}, []))
        score = (0.65 * e + 0.35 * max(s, 0.5 if not salience else s)) if e > 0 else s
        if e > 0 and not salience:
            score = 0.65 * e + 0.35
        signals = dict(sig)
        if e > 0:
            signals["entropy"] = e
        out.append((sid, score, signals, ev + why))
    out.sort(key=lambda t: (-t[1], t[0]))
    return out


def confidence(score: float, margin: float, anchored: bool) -> str:
    """``high`` for a strong, clear winner; ``medium`` for a plausible one; else ``low``."""
    if score >= HIGH_SCORE and (margin >= HIGH_MARGIN or (anchored and margin > 0)):
        return "high"
    if score >= MEDIUM_SCORE:
        return "medium"
    return "low"


def scale_cos(cos: float) -> float:
    """MiniLM cosines of related texts sit around 0.3-0.7: map 0.15..0.75 onto 0..1."""
    return max(0.0, min(1.0, (cos - 0.15) / 0.6))
