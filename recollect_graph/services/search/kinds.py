"""What one search returns besides entries: the kinds of hit, and document chunks as hits.

One search ranks entries, conversation turns and document chunks in one list
(:data:`~recollect_graph.vocabulary.SEARCH_KINDS`). Turns are entries (``entry_type``
``conversation_turn``) and go through the entry path; chunks come from the ``chunk_embedding``
and ``chunk_text`` indexes (``cypher/search/chunks.cypher``), their keyword score normalised
among chunks (Lucene scores of two indexes are not comparable). A chunk has no lifecycle of its
own: it ranks with :data:`CHUNK_STRENGTH`, :data:`CHUNK_QUALITY` and no usage, no graph or
conversation signal, and passes the same relevance floor as entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from recollect_graph.errors import InvalidInput
from recollect_graph.models import Entry
from recollect_graph.services.kernel.times import native
from recollect_graph.vocabulary import SEARCH_KINDS

#: A document does not decay: a chunk ranks as a fresh entry would.
CHUNK_STRENGTH = 1.0
#: A chunk's quality: the default quality of an entry (5 of 10).
CHUNK_QUALITY = 0.5
#: The entry type of a chunk's read-only entry view.
CHUNK_ENTRY_TYPE = "chunk"
#: The entry type that makes an entry a conversation turn.
TURN_ENTRY_TYPE = "conversation_turn"


def check_kinds(kinds: Sequence[str] | str | None) -> list[str] | None:
    """The kinds asked for (``None``: every kind); unknown kinds are :class:`InvalidInput`."""
    if kinds is None:
        return None
    if isinstance(kinds, str):
        kinds = [kinds]
    wanted = list(dict.fromkeys(str(k).strip().lower() for k in kinds))
    bad = [k for k in wanted if k not in SEARCH_KINDS]
    if bad or not wanted:
        raise InvalidInput(f"kinds must be some of {', '.join(SEARCH_KINDS)} (got {bad or '[]'})")
    return None if set(wanted) == set(SEARCH_KINDS) else wanted


def entry_kind(row: dict[str, Any]) -> str:
    """``turn`` for a conversation turn's row, else ``entry``."""
    return "turn" if row.get("entry_type") == TURN_ENTRY_TYPE else "entry"


def entry_origin(row: dict[str, Any]) -> dict[str, Any]:
    """Where a turn came from (its session, speaker and index); empty for other entries."""
    if entry_kind(row) != "turn":
        return {}
    return {
        "session_id": row.get("session_id"),
        "speaker": row.get("speaker"),
        "turn": row.get("seq"),
    }


def chunk_origin(row: dict[str, Any]) -> dict[str, Any]:
    """Where a chunk came from: its document, heading path and index."""
    return {
        "document_id": row["document_id"],
        "document_title": row.get("document_title"),
        "document_path": row.get("document_path"),
        "heading": row.get("heading"),
        "chunk": row.get("seq"),
    }


def chunk_entry(row: dict[str, Any], scope_id: str, now: datetime) -> Entry:
    """A chunk row as a read-only entry view (see :class:`~recollect_graph.models.Hit`)."""
    created = native(row.get("created_at"))
    return Entry(
        id=row["id"],
        scope_id=scope_id,
        owner_id=str(row.get("owner_id") or ""),
        content=str(row.get("text") or ""),
        title=row.get("document_title"),
        entry_type=CHUNK_ENTRY_TYPE,
        source_id=row["document_id"],
        created_at=created if isinstance(created, datetime) else now,
    )
