"""What kind of answer a question asks for, and whether a turn holds one (no database).

A question that asks *who* ("Who supports Caroline ...?", "What are the names of John's
children?") or *where* ("Where has Maria made friends?", "What European countries has Maria
been to?") is answered by a turn that names someone or somewhere: "at the event I talked with
someone named David", "that trip to England". Such a name is a capitalised word inside a
sentence, which a turn's other words rarely are. Over the tuning conversations (LoCoMo
conv-26/30/41) 59% of the evidence turns of place questions and 70% of person questions hold
one, against 13-18% of the other turns search ranks in their top 10 (and 8% of all turns).

* :func:`asks_for_name`: whether a question asks for a person or a place.
* :func:`names_someone`: whether a text names a person or a place other than the given names
  (the speakers, who are addressed by name, and the names the question itself mentions).
* :func:`mark_names`: ``named`` on each candidate of such a question (:mod:`.hybrid`; the
  fusion lifts a named turn's relevance by ``w_name`` of itself, :mod:`.fusion`).
* :func:`question_seeds`: the questions asked in the conversation that are most like the
  query: the reply right after each answers it (the graph signal's "answers", :mod:`.hybrid`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from recollect_graph.services.search.query_text import CALENDAR

#: Nouns that a "what" / "which" question asks the name of: places ...
_PLACE_NOUNS = (
    "city|cities|country|countries|state|states|place|places|town|towns|area|areas|"
    "location|locations|region|regions|island|islands|park|parks|restaurant|restaurants"
)
#: ... and people.
_PERSON_NOUNS = (
    "people|person|persons|name|names|friend|friends|artist|artists|band|bands|author|"
    "authors|musician|musicians|singer|singers|player|players|team|teams"
)
_ASKS_FOR_NAME = re.compile(
    r"^\s*(?:who|whom|whose|where)\b"
    r"|\b(?:what|which)\s+(?:[\w-]+\s+)?(?:" + _PLACE_NOUNS + "|" + _PERSON_NOUNS + r")\b"
    r"|\bthe names? of\b",
    re.IGNORECASE,
)
#: A word and the character before the space in front of it (any script: "Zoë", "Łukasz").
_WORD_AFTER = re.compile(r"(?<=(\S)) (\w{2,21})\b")


def asks_for_name(question: str) -> bool:
    """Whether a question asks for a person or a place.

    >>> asks_for_name("Who did John go to yoga with?")
    True
    >>> asks_for_name("What European countries has Maria been to?")
    True
    >>> asks_for_name("What did Melanie paint recently?")
    False
    """
    return _ASKS_FOR_NAME.search(question) is not None


def names_someone(text: str, known: Collection[str]) -> bool:
    """Whether ``text`` names a person or a place: a capitalised word inside a sentence.

    Inside a sentence means after a lower-case word, or a comma, colon or semicolon, and a
    space; the word is capitalised and otherwise lower case, in any script.

    Calendar words (months, weekdays, seasons) are no names, nor is anything in ``known``
    (lower-case: the speakers, whom a turn addresses by name, and the names the question
    mentions, which the turn that answers need not repeat).

    >>> names_someone("I met someone named David at the shelter.", {"maria"})
    True
    >>> names_someone("Thanks, Maria! We went there in May.", {"maria"})
    False
    """
    for m in _WORD_AFTER.finditer(text):
        before, word = m.group(1), m.group(2)
        if not (before.islower() or before in ",;:"):
            continue  # a sentence's first word, or after a quote or a digit
        if word[0].isupper() and word[1:].islower():
            lower = word.lower()
            if lower not in known and lower not in CALENDAR:
                return True
    return False


def mark_names(scored: dict[str, dict[str, Any]], query_names: Collection[str]) -> None:
    """Set ``named`` (1.0 or 0.0) on each candidate whose text came back with it.

    The candidates' statement returns a person's turn's text (``text``) only for a question
    that :func:`asks_for_name`; the names that do not count are the speakers among the
    candidates and the question's own names (lower-case).
    """
    known = {str(c["entry"].get("speaker") or "").lower() for c in scored.values()}
    known |= set(query_names)
    for c in scored.values():
        text = c["entry"].get("text")
        c["named"] = 1.0 if text and names_someone(text, known) else 0.0


def question_seeds(
    relevant: Sequence[dict[str, Any]], seeds: Sequence[dict[str, Any]], n: int
) -> list[dict[str, Any]]:
    """The ``n`` questions people asked in the conversation that are nearest the query.

    ``relevant`` are the candidates above the floor (their ``entry`` row carries ``asks``: a
    person's turn holding "?"), ``seeds`` the graph seeds already taken. A question asked in
    the conversation is often worded much like the one asked of it ("How often do you all
    work out together?" for "How often does John work out with his family?"), and the turn
    after it answers it ("Three times a week; it keeps us on track.") in words of its own; a
    question with no word in common with the query ranks below the seeds, so it is taken by
    its meaning. Ties by id, so the choice does not depend on the candidates' order.
    """
    if n <= 0:
        return []
    taken = {c["entry"]["id"] for c in seeds}
    asks = [c for c in relevant if c["entry"].get("asks") and c["entry"]["id"] not in taken]
    asks.sort(key=lambda c: (-float(c["semantic"]), c["entry"]["id"]))
    return asks[:n]
