"""Time: the clock, driver temporal values as datetimes, and datetime input."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import neo4j.time

from recollect_graph.errors import InvalidInput


def now_utc() -> datetime:
    """The current time, timezone-aware."""
    return datetime.now(UTC)


def native(v: Any) -> Any:
    """Driver temporal values as Python datetimes."""
    if isinstance(v, neo4j.time.DateTime):
        return v.to_native()
    return v


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
