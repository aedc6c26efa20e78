"""Full-text queries limited to one scope inside the index.

The indexes: ``entry_text``, ``chunk_text``, ``session_text``.

Neo4j's full-text procedures cannot filter: the top ``k`` Lucene matches of a store with many
scopes can all belong to other scopes, so a scope's own matches are lost before the Cypher filter
sees them. These indexes therefore index ``scope_id`` too, and every query on them is
:func:`in_scope`: a required phrase on the scope id (boost 0, so it adds nothing to the score)
and the words themselves restricted to the text fields (so a word never matches a scope id).
The Cypher filter on ``scope_id`` stays: the phrase only narrows what Lucene ranks (a scope id
whose words are a run of another's, "team" in "team-a", lets the other's matches through).
"""

from __future__ import annotations

import re

#: The text properties of each scoped full-text index (``scope_id`` is indexed as well, for the
#: filter only; ``db.schema.SCOPED_FULLTEXT`` names the indexes).
TEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "entry_text": ("title", "content", "summary", "description", "tags"),
    "chunk_text": ("text", "heading"),
    "session_text": ("title", "initial_request", "summary", "keywords", "topics", "handoff"),
}
_WORDISH = re.compile(r"\w")


def scope_clause(scope_id: str) -> str:
    """The required-scope prefix of a query (``""`` for an id without a word character).

    Example:
        >>> scope_clause("team-a")
        '+scope_id:"team-a"^0 +'
    """
    if not _WORDISH.search(scope_id):
        return ""
    phrase = scope_id.replace("\\", "\\\\").replace('"', '\\"')
    return f'+scope_id:"{phrase}"^0 +'


def in_scope(query: str | None, scope_id: str, index: str = "entry_text") -> str | None:
    """A Lucene query (escaped words, OR-ed) matched in the text fields of one scope's nodes."""
    if not query:
        return None
    fields = " ".join(f"{f}:({query})" for f in TEXT_FIELDS[index])
    return f"{scope_clause(scope_id)}({fields})"
