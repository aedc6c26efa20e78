"""Validation every write shares: text, choices, numbers, tags, JSON maps, file text, page bounds.

Each check returns the clean value or raises :class:`~recollect_graph.errors.InvalidInput` with a
message that names the field (and the limit, for a size), before anything is written. The size
limits of every stored field are the ``MAX_*`` constants below (the table in
``docs/reliability.md`` lists them).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from recollect_graph.errors import InvalidInput

#: The largest ``offset`` a paged list takes (the list services share it).
MAX_OFFSET = 1_000_000_000

# -- size limits of stored fields (characters unless named otherwise) ---------------------------
#: An entry's content (and a contradiction check's text, a captured thought).
MAX_CONTENT_CHARS = 200_000
#: An entry's or a session's title.
MAX_TITLE_CHARS = 300
#: An entry's description and its summary, each.
MAX_DESCRIPTION_CHARS = 20_000
#: Tags on one entry (after duplicates are dropped).
MAX_TAGS = 100
#: One tag.
MAX_TAG_CHARS = 500
#: A metadata (or context hints) map, as JSON text.
MAX_METADATA_CHARS = 100_000
#: A ``source_id`` (the range index on it holds at most ~8 KB).
MAX_SOURCE_ID_CHARS = 2000
#: A scope or owner id.
MAX_SCOPE_CHARS = 200
#: A session id, a turn id.
MAX_ID_CHARS = 200
#: A turn's speaker.
MAX_SPEAKER_CHARS = 100
#: A turn's text.
MAX_TURN_CHARS = 100_000
#: A document's title.
MAX_DOCUMENT_TITLE_CHARS = 500
#: A collection name.
MAX_COLLECTION_CHARS = 200
#: A document's text (characters).
MAX_DOCUMENT_CHARS = 5_000_000
#: A file read for ingest (bytes).
MAX_FILE_BYTES = 5_000_000
#: A file is text when it holds no NUL byte and at most this share of its bytes is not UTF-8
#: (replaced by U+FFFD); a binary file named ``.md`` is refused, a stray Latin-1 byte is not.
MAX_INVALID_UTF8_SHARE = 0.01


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


def require_scope(scope_id: Any) -> str:
    """The scope an id-taking call resolves its ids in; :class:`InvalidInput` when none is given.

    An id is looked up within one scope, never across all of them: another scope's id behaves as
    not found, and a call with no scope is refused (it never falls back to every scope).
    """
    if scope_id is None or (isinstance(scope_id, str) and not scope_id.strip()):
        raise InvalidInput("scope_id is required: ids are looked up within one scope")
    return require_text(scope_id, "scope_id")


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


def tag_list(tags: Any, name: str = "tags") -> list[str]:
    """Tags as a list of distinct non-empty strings, in order.

    At most :data:`MAX_TAGS` distinct tags of at most :data:`MAX_TAG_CHARS` characters each.
    """
    if tags is None:
        return []
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise InvalidInput(f"{name} must be a list of strings")
    out: list[str] = []
    seen: set[str] = set()
    for t in tags:
        if not isinstance(t, str) or not t.strip():
            raise InvalidInput(f"every tag must be a non-empty string (got {str(t)[:50]!r})")
        tag = require_text(t, f"{name}: a tag", max_len=MAX_TAG_CHARS)
        if tag not in seen:
            if len(out) == MAX_TAGS:
                raise InvalidInput(f"{name}: more than {MAX_TAGS} tags")
            seen.add(tag)
            out.append(tag)
    return out


def json_map(value: Any, name: str, *, max_chars: int = MAX_METADATA_CHARS) -> str:
    """A JSON-serialisable mapping as JSON text of at most ``max_chars`` characters."""
    if value is None:
        return "{}"
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{name} must be a mapping")
    try:
        text = json.dumps(dict(value), sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError) as e:
        raise InvalidInput(f"{name} is not JSON-serialisable: {e}") from e
    if len(text) > max_chars:
        raise InvalidInput(f"{name} is larger than {max_chars} characters as JSON")
    return text


#: The longest each text property of a node may be, per key label (what an import checks).
STORED_LIMITS: dict[str, dict[str, int]] = {
    "Entry": {
        "content": MAX_CONTENT_CHARS,
        "title": MAX_TITLE_CHARS,
        "description": MAX_DESCRIPTION_CHARS,
        "summary": MAX_DESCRIPTION_CHARS,
        "source_id": MAX_SOURCE_ID_CHARS,
        "metadata": MAX_METADATA_CHARS,
        "context_hints": MAX_METADATA_CHARS,
        "owner_id": MAX_SCOPE_CHARS,
    },
    "Session": {"id": MAX_ID_CHARS, "title": MAX_TITLE_CHARS, "owner_id": MAX_SCOPE_CHARS},
    "Document": {
        "title": MAX_DOCUMENT_TITLE_CHARS,
        "collection": MAX_COLLECTION_CHARS,
        "source_id": MAX_SOURCE_ID_CHARS,
        "owner_id": MAX_SCOPE_CHARS,
    },
}


def stored_limits(label: str, props: Mapping[str, Any], name: str) -> None:
    """Refuse a node's properties (an imported node) over the limits a write would enforce.

    Text properties are checked against :data:`STORED_LIMITS` and an entry's tags like
    :func:`tag_list` checks them.
    """
    for key, most in STORED_LIMITS.get(label, {}).items():
        value = props.get(key)
        if isinstance(value, str) and len(value) > most:
            raise InvalidInput(f"{name}: {label} {key} is longer than {most} characters")
    if label == "Entry" and props.get("tags") is not None:
        tag_list(props["tags"], f"{name}: tags")


def file_text(data: bytes, name: str, *, strict: bool = False) -> str:
    """The text of a file's bytes (UTF-8), refusing what is not text.

    A file with a NUL byte, or with more than :data:`MAX_INVALID_UTF8_SHARE` of its bytes not
    UTF-8, is binary (or in another encoding) and refused; below that, invalid bytes become
    U+FFFD. With ``strict``, any invalid byte is refused.

    Raises:
        InvalidInput: Naming ``name`` and the first offending byte.
    """
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InvalidInput(f"{name} is not a text file (a NUL byte at byte {nul}): is it binary?")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        if strict:
            raise InvalidInput(
                f"{name} is not UTF-8 text (byte {e.start}: {e.reason}); "
                "is it a binary file or in another encoding?"
            ) from e
        text = data.decode("utf-8", errors="replace")
        bad = text.count("\ufffd") - data.count("\ufffd".encode())
        if bad > MAX_INVALID_UTF8_SHARE * len(data):
            raise InvalidInput(
                f"{name} is not UTF-8 text ({bad} of {len(data)} bytes are not UTF-8, the first "
                f"at byte {e.start}): is it a binary file or in another encoding?"
            ) from e
        return text
