"""Adapters for agent frameworks: LangChain (:mod:`.langchain`) and LlamaIndex (:mod:`.llamaindex`).

Each module imports its framework, which comes with an optional extra:
``pip install 'recollect-graph[langchain]'`` or ``'recollect-graph[llamaindex]'``. Both build on
the facade's public verbs only (``rg.search``, ``rg.sessions``), so what they return is what the
CLI and the MCP server return.
"""

from __future__ import annotations

from typing import Any

from recollect_graph.models import Hit


def hit_metadata(hit: Hit) -> dict[str, Any]:
    """A search hit's metadata for a framework's document: ids, score and its breakdown.

    Example:
        >>> sorted(hit_metadata(hit))  # doctest: +SKIP
        ['id', 'rank', 'scope_id', 'score', 'signals', 'source', 'tags', 'title', 'type', 'via']
    """
    e = hit.entry
    return {
        "id": e.id,
        "scope_id": e.scope_id,
        "title": e.title,
        "type": e.entry_type,
        "tags": list(e.tags),
        "source": e.source,
        "score": hit.score,
        "rank": hit.rank,
        "signals": hit.signals.model_dump(),
        "via": hit.via,
    }


def missing(extra: str, package: str) -> ImportError:
    """The error raised when an adapter's framework is not installed."""
    return ImportError(
        f"this adapter needs {package}: pip install 'recollect-graph[{extra}]' (or {package})"
    )
