"""The relevance floor's question-level test: does the scope hold the question's words at all.

A candidate passes the floor on its semantic similarity or on its keyword score, normalised by
the best candidate's (``Search.above_floor``). Normalised, a lone match is always the best
one: "What is the boiling point of tungsten?", asked of a conversation that never mentions
tungsten, matches its turns about boiling water or a point someone made, and each of them
scores 1.0 on keywords. What sets such a question apart is that the scope has never used some
of its words, usually the very thing asked about. So when no candidate is semantically
confident (``search_floor_confident``) and some would pass on keywords alone, the search asks
once which of the question's words the scope holds anywhere
(``cypher/search/terms_known.cypher``: one lookup of at most one node per word and full-text
index), and keyword matches pass alone only when it holds at least ``search_floor_known`` of
them (0.7: every word of a question of three, three of four, four of five; the scope's
speakers are not counted, they say who and not what). Measured in ``docs/benchmarks.md``
("Questions about what the scope never mentions").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from recollect_graph.services.kernel import fulltext
from recollect_graph.settings import Settings

#: Reads a named statement's rows (``Db.read``).
Reader = Callable[..., list[dict[str, Any]]]


def keyword_passes(keyword: float, s: Settings) -> bool:
    """Whether a keyword score (normalised by the best) reaches the floor on its own."""
    return keyword > 0 and keyword >= s.search_floor_keyword


def confident(cands: Iterable[dict[str, Any]], s: Settings) -> bool:
    """Whether a candidate reaches ``search_floor_confident``: the question is about this scope."""
    return any(float(c.get("semantic") or 0.0) >= s.search_floor_confident for c in cands)


def time_floor(
    cands: Iterable[dict[str, Any]],
    s: Settings,
    time_only: bool,
    said_then: tuple[int, int] = (0, 0),
    limit: int = 10,
) -> float:
    """The similarity a turn said in the time the query names needs to pass on that time.

    0 with a confident hit (the question is plainly about this scope), for a query about
    nothing but its time (``time_only``) or with ``search_floor_time`` 0 (the floor off). Out
    of reach (``inf``) when the time singles nothing out: it holds more than
    ``search_time_unselective`` of the candidate turns (``said_then``: turns said then, turns
    with a time) and more of them than the search returns (``limit``), as "this year" in a
    chat of the last ten days. Else ``search_floor_time`` (docs/search.md).
    """
    if time_only or s.search_floor_time <= 0 or confident(cands, s):
        return 0.0
    then, dated = said_then
    if then > limit and then > s.search_time_unselective * dated:
        return math.inf
    return s.search_floor_time


def known_share(rows: Iterable[dict[str, Any]]) -> float:
    """The share of the checked words the scope holds (1.0 when there were none to check)."""
    flags = [bool(r["known"]) for r in rows]
    return sum(flags) / len(flags) if flags else 1.0


class KnownWords:
    """Whether one search's keyword matches may pass the floor on their own.

    Args:
        read: Runs a named statement (``Db.read``).
        settings: The search's settings (``search_floor_known`` and the floors).
        terms: The query's full-text terms (lower-cased, escaped; ``keyword_terms``).
        scope_id: The scope searched.
    """

    def __init__(self, read: Reader, settings: Settings, terms: list[str], scope_id: str) -> None:
        self._read = read
        self._s = settings
        self._terms = terms
        self._scope_id = scope_id
        self._share: float | None = None

    @property
    def share(self) -> float | None:
        """The share of the question's words the scope holds, once asked (else ``None``)."""
        return self._share

    def allow(self, cands: Iterable[dict[str, Any]], floor: float) -> bool:
        """Whether candidates may pass on keywords alone (asks the scope at most once).

        Args:
            cands: Scored candidates (``semantic``, normalised ``keyword``, their ``entry``).
            floor: The search's semantic floor (``Search.semantic_floor``).
        """
        s = self._s
        if s.search_floor_known <= 0 or not self._terms:
            return True
        rows = list(cands)
        if confident(rows, s):
            return True  # the question is plainly about this scope
        if not any(c["semantic"] < floor and keyword_passes(c["keyword"], s) for c in rows):
            return True  # nothing would pass on keywords alone: nothing to ask
        if self._share is None:
            speakers = {
                str(c["entry"].get("speaker") or "").lower() for c in rows if c.get("entry")
            }
            words = [t for t in self._terms if t not in speakers]
            queries = [
                {
                    "term": w,
                    "entries": fulltext.in_scope(w, self._scope_id, "entry_text"),
                    "chunks": fulltext.in_scope(w, self._scope_id, "chunk_text"),
                }
                for w in words
            ]
            self._share = (
                known_share(self._read("search/terms_known", queries=queries)) if queries else 1.0
            )
        return self._share >= s.search_floor_known
