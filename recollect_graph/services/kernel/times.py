"""Time: the clock, driver temporal values as datetimes, and datetime input."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import neo4j.time

from recollect_graph.errors import InvalidInput


def now_utc() -> datetime:
    """The current time, timezone-aware."""
    return datetime.now(UTC)


def from_epoch_ms(v: Any) -> Any:
    """A datetime a statement returned as ``x.epochMillis`` (an int), back as an aware UTC datetime.

    Hot statements that return hundreds of rows send their times this way: the driver builds a
    ``neo4j.time.DateTime`` in ~57 us, ``datetime.fromtimestamp`` in under 1 us.
    """
    if isinstance(v, int):
        return datetime.fromtimestamp(v / 1000, UTC)
    return v


def epoch_fields(
    rows: list[dict[str, Any]], *keys: str, micro: bool = False
) -> list[dict[str, Any]]:
    """``rows`` with each of ``keys`` turned from epoch times into datetimes, in place.

    Milliseconds (:func:`from_epoch_ms`), or microseconds with ``micro`` (:func:`from_epoch_us`).
    """
    convert = from_epoch_us if micro else from_epoch_ms
    for row in rows:
        for k in keys:
            v = row.get(k)
            if v is not None:
                row[k] = convert(v)
    return rows


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: An Entry's time properties (what ``cypher/search/hits.cypher`` sends as epoch microseconds).
ENTRY_TIMES = (
    "created_at",
    "updated_at",
    "last_accessed_at",
    "valid_from",
    "valid_to",
    "retired_at",
    "soft_deleted_at",
)


def from_epoch_us(v: Any) -> Any:
    """A datetime a statement returned as epoch microseconds (an int), as an exact UTC datetime."""
    if isinstance(v, int):
        return _EPOCH + timedelta(microseconds=v)
    return v


def native(v: Any) -> Any:
    """Driver temporal values as Python datetimes."""
    if isinstance(v, neo4j.time.DateTime):
        return v.to_native()
    return v


def native_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A node's properties with Python datetimes, without its vector (``embedding``)."""
    return {k: native(v) for k, v in row.items() if k != "embedding"}


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
