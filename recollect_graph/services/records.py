"""Mapping between graph rows and records, and the validation every write shares."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

import neo4j.time

from recollect_graph.errors import InvalidInput
from recollect_graph.models import Entry
from recollect_graph.services import lifecycle

_NS = uuid.UUID("6f1c3a52-3d0e-4c1b-9a8e-2b7d5f0c9e11")
_ENTRY_FIELDS = set(Entry.model_fields)
_JSON_FIELDS = ("metadata", "context_hints")


def now_utc() -> datetime:
    """The current time, timezone-aware."""
    return datetime.now(UTC)


def native(v: Any) -> Any:
    """Driver temporal values as Python datetimes."""
    if isinstance(v, neo4j.time.DateTime):
        return v.to_native()
    return v


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


def normalize_text(text: str) -> str:
    """Whitespace-collapsed text, for hashing."""
    return re.sub(r"\s+", " ", text).strip()


def content_hash(text: str) -> str:
    """Stable hash of an entry's content."""
    return hashlib.sha256(normalize_text(text).encode()).hexdigest()


def entry_id(scope_id: str, *, content_sha: str, source_id: str | None, force: bool) -> str:
    """Deterministic id: the same content (or source id) in a scope is the same entry."""
    if force:
        return str(uuid.uuid4())
    key = f"{scope_id}\x1fsrc\x1f{source_id}" if source_id else f"{scope_id}\x1f{content_sha}"
    return str(uuid.uuid5(_NS, key))


def require_text(value: Any, name: str, *, max_len: int | None = None) -> str:
    """A non-empty string, stripped; else :class:`InvalidInput`."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{name} must be a non-empty string")
    text = str(value).strip()
    if max_len and len(text) > max_len:
        raise InvalidInput(f"{name} is longer than {max_len} characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidInput(
            f"{name} is not valid Unicode text (a lone surrogate at character {e.start}: was it "
            "decoded from bytes that are not UTF-8?)"
        ) from e
    return text


def optional_text(value: Any, name: str, *, max_len: int | None = None) -> str | None:
    """``None`` or a non-empty string."""
    if value is None:
        return None
    return require_text(value, name, max_len=max_len)


def one_of(value: Any, name: str, allowed: Iterable[str]) -> str:
    """``value`` if it is one of ``allowed``; else a clear error listing them."""
    allowed = tuple(allowed)
    if value not in allowed:
        raise InvalidInput(f"{name} must be one of {', '.join(allowed)} (got {value!r})")
    return str(value)


def in_range(value: Any, name: str, lo: float, hi: float) -> float:
    """A number in [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{name} must be a number (got {value!r})")
    if not lo <= float(value) <= hi:
        raise InvalidInput(f"{name} must be between {lo} and {hi} (got {value})")
    return float(value)


def tag_list(tags: Any) -> list[str]:
    """Tags as a list of distinct non-empty strings, in order."""
    if tags is None:
        return []
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise InvalidInput("tags must be a list of strings")
    out: list[str] = []
    for t in tags:
        if not isinstance(t, str) or not t.strip():
            raise InvalidInput(f"every tag must be a non-empty string (got {t!r})")
        if t.strip() not in out:
            out.append(t.strip())
    return out


def json_map(value: Any, name: str) -> str:
    """A JSON-serialisable mapping as JSON text."""
    if value is None:
        return "{}"
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{name} must be a mapping")
    try:
        return json.dumps(dict(value), sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError) as e:
        raise InvalidInput(f"{name} is not JSON-serialisable: {e}") from e


def aware(value: Any, name: str) -> datetime | None:
    """A timezone-aware datetime (naive means UTC), an ISO string, or ``None``."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError as e:
            raise InvalidInput(f"{name} is not an ISO date-time: {value!r}") from e
    if not isinstance(value, datetime):
        raise InvalidInput(f"{name} must be a datetime")
    return value if value.tzinfo else value.replace(tzinfo=UTC)
