"""Validation every write shares: text, choices, numbers, tags, JSON maps and page bounds.

Each check returns the clean value or raises :class:`~recollect_graph.errors.InvalidInput` with a
message that names the field, before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from recollect_graph.errors import InvalidInput

#: The largest ``offset`` a paged list takes (the list services share it).
MAX_OFFSET = 1_000_000_000


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
