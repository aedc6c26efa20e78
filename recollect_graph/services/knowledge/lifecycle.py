"""Lifecycle formulas: valence, strength, confidence state, schema fit, outcome deltas.

Pure functions (no database), Recollect's intended semantics:

- ``strength = 0.5^(days/half_life) * (1 + 0.1*log2(access_count+1)) * valence_multiplier *
  confidence``, clamped to [0, 1]; pinned entries have strength 1; days count from the last access
  or creation.
- ``confidence_state``: stored ``active``/``verified``/``observed``; computed ``stale`` when unused
  for 30 days (a stale entry that is retrieved becomes ``observed``).
- ``schema_fit = 0.6*tag_score + 0.4*content_score`` and it scales the half-life (>0.7: x1.5,
  <0.3: x0.5).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

VALENCE_MULTIPLIER = {"neutral": 1.0, "positive": 1.3, "negative": 1.5, "critical": 2.0}
STALE_AFTER_DAYS = 30.0
GOOD_HALF_LIFE_DELTA = 5.0
BAD_HALF_LIFE_DELTA = 3.0
MIN_HALF_LIFE = 1.0


def _truthy(metadata: Mapping[str, Any], key: str) -> bool | None:
    v = metadata.get(key)
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.lower() in ("true", "false"):
        return v.lower() == "true"
    return None


def infer_valence(entry_type: str, metadata: Mapping[str, Any], given: str | None = None) -> str:
    """The emotional valence: as given, else from outcome success/failure, error or critical."""
    if given:
        return given
    success = _truthy(metadata, "success")
    if entry_type == "outcome" and success is True:
        return "positive"
    if entry_type == "outcome" and success is False:
        return "negative"
    if _truthy(metadata, "critical"):
        return "critical"
    if _truthy(metadata, "error"):
        return "negative"
    return "neutral"


def _days_since(t: datetime | None, now: datetime) -> float:
    if t is None:
        return 0.0
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    return max(0.0, (now - t).total_seconds() / 86400.0)


def strength(
    *,
    created_at: datetime,
    last_accessed_at: datetime | None,
    half_life_days: float,
    access_count: int,
    emotional_valence: str,
    confidence: float,
    pinned: bool,
    now: datetime | None = None,
) -> float:
    """Memory strength in [0, 1] (pinned entries: 1)."""
    if pinned:
        return 1.0
    now = now or datetime.now(UTC)
    days = _days_since(last_accessed_at or created_at, now)
    decay: float = 0.5 ** (days / max(half_life_days, 1e-6))
    usage = 1.0 + 0.1 * math.log2(max(access_count, 0) + 1)
    mult = VALENCE_MULTIPLIER.get(emotional_valence, 1.0)
    return max(0.0, min(1.0, decay * usage * mult * confidence))


def effective_state(
    stored: str,
    *,
    created_at: datetime,
    last_accessed_at: datetime | None,
    now: datetime | None = None,
) -> str:
    """The confidence state a reader sees: ``stale`` when unused for 30 days, unless verified."""
    if stored == "verified":
        return stored
    idle = _days_since(last_accessed_at or created_at, now or datetime.now(UTC))
    return "stale" if idle > STALE_AFTER_DAYS else stored


def tag_score(tags: Sequence[str], tag_freq: Mapping[str, int], n: int) -> float:
    """How familiar the tags are in the scope (0.5 when there are no tags)."""
    if not tags:
        return 0.5
    if n <= 0:
        return 0.5
    total = sum(math.log(n / f) + 1 for t in tags if (f := tag_freq.get(t, 0)) > 0)
    return min(1.0, 2 * total / (len(tags) * (math.log(n + 1) + 1)))


def content_score(neighbour_similarities: Sequence[float], *, threshold: float = 0.5) -> float:
    """How familiar the content is: near neighbours in the scope above ``threshold``, out of 5."""
    matches = sum(1 for s in neighbour_similarities if s > threshold)
    return min(1.0, matches / 5.0)


def schema_fit(
    tags: Sequence[str],
    tag_freq: Mapping[str, int],
    n: int,
    neighbour_similarities: Sequence[float],
) -> float:
    """``0.6*tag_score + 0.4*content_score``; 0.5 for an empty scope."""
    if n <= 0:
        return 0.5
    return round(
        0.6 * tag_score(tags, tag_freq, n) + 0.4 * content_score(neighbour_similarities), 4
    )


def adjust_half_life(half_life_days: float, fit: float) -> float:
    """Familiar knowledge lasts longer (x1.5 above 0.7), unfamiliar shorter (x0.5 below 0.3)."""
    if fit > 0.7:
        return half_life_days * 1.5
    if fit < 0.3:
        return half_life_days * 0.5
    return half_life_days
