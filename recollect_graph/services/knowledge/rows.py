"""Graph rows as :class:`~recollect_graph.models.Entry` records (strength and state computed)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from recollect_graph.models import Entry
from recollect_graph.services.kernel.times import native, now_utc
from recollect_graph.services.knowledge import lifecycle

_ENTRY_FIELDS = set(Entry.model_fields)
_JSON_FIELDS = ("metadata", "context_hints")


def live_entries(rows: Iterable[Mapping[str, Any]], *, now: datetime) -> list[Entry]:
    """The entries of ``entries/get_many`` rows (``{"entry": map}``) that still exist.

    An entry a concurrent forget deletes after the match reads back as a map of nulls (read
    committed): it is gone, so it is skipped like an unknown id.
    """
    return [entry_from_row(r["entry"], now=now) for r in rows if r["entry"].get("id") is not None]


def entry_from_row(row: Mapping[str, Any], *, now: datetime | None = None) -> Entry:
    """Build an :class:`Entry` from a node's property map, computing strength and state."""
    data: dict[str, Any] = {}
    for k, v in row.items():
        if k not in _ENTRY_FIELDS:
            continue
        if k in _JSON_FIELDS:
            v = json.loads(v) if isinstance(v, str) and v else {}
        data[k] = native(v)
    if data.get("tags") is None:
        data["tags"] = []
    data = {k: v for k, v in data.items() if v is not None}
    if "created_at" not in data:
        data["created_at"] = now_utc()
    e = Entry(**data)
    t = now or now_utc()
    return e.model_copy(
        update={
            "strength": round(
                lifecycle.strength(
                    created_at=e.created_at,
                    last_accessed_at=e.last_accessed_at,
                    half_life_days=e.half_life_days,
                    access_count=e.access_count,
                    emotional_valence=e.emotional_valence,
                    confidence=e.confidence,
                    pinned=e.pinned,
                    now=t,
                ),
                4,
            ),
            "confidence_state": lifecycle.effective_state(
                e.confidence_state,
                created_at=e.created_at,
                last_accessed_at=e.last_accessed_at,
                now=t,
            ),
        }
    )
