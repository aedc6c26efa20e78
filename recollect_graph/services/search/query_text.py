"""Query-side text processing for search: the full-text terms and the substance of a turn.

* :func:`keyword_terms`: the words of a query minus function words (spaCy's English stop words:
  question words, auxiliaries, pronouns, prepositions; Neo4j's full-text analyser keeps stop
  words, so "what did she do" would otherwise match most of a conversation) and verbs of saying
  ("mention", "talk about", "find out": how a question points at the conversation), escaped
  for Lucene, and the names it mentions: search leaves out the names that are speakers in the
  scope (a participant's name says who, not what, and the context signal already covers it).
* :func:`without_names`: the query with those names replaced by "they", embedded as well: when
  every name it mentions is a speaker in the scope, search takes its vector hits and semantic
  similarity from that vector.
* :func:`substance`: how much a conversation turn can carry, from its length: short turns
  ("Thanks!", "Go get 'em, Jon!") rarely hold a fact; from ``FULL_TURN`` characters a turn has
  its full substance.
"""

from __future__ import annotations

import math
import re

from recollect_graph.nlp.stopwords import english_stop_words
from recollect_graph.nlp.when import MONTHS, SEASONS, WEEKDAYS

#: A word of a query (kept whole across dots and hyphens: "v1.2", "on-call").
WORD = re.compile(r"[\w][\w.\-]*[\w]|\w", re.UNICODE)
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
#: A capitalised word: a name, unless it is a calendar name.
NAME = re.compile(r"\b[A-Z][a-z]{1,20}\b")
_NAME_POSSESSIVE = re.compile(r"\b([A-Z][a-z]{1,20})\b(?:'s\b)?")
#: Capitalised words that are dates, not names (months, weekdays, seasons; lower case).
CALENDAR = frozenset([*MONTHS, *WEEKDAYS, *SEASONS])

#: Function words dropped from the full-text query: spaCy's English stop words (question words,
#: auxiliaries, pronouns, prepositions, vague verbs and quantifiers; read without importing
#: spaCy, :mod:`recollect_graph.nlp.stopwords`) and contraction fragments.
QUERY_STOP = english_stop_words() | frozenset(
    [
        "s",
        "t",
        "d",
        "ll",
        "m",
        "re",
        "ve",
        "don",
        "didn",
        "doesn",
        "isn",
        "aren",
        "wasn",
        "weren",
        "hasn",
        "haven",
        "hadn",
        "won",
        "couldn",
    ]
)
#: Verbs of saying: how a question points at the conversation ("which TV series does Tim
#: mention", "did we talk about", "can you remind me", "what did I find out about"), not what it
#: asks about. Left out of the full-text query like function words: as keywords they match every
#: turn that talks about talking, and they count as words the scope holds when the floor asks
#: whether it holds the question's words at all (:mod:`recollect_graph.services.search.floors`).
SAYING = frozenset(
    {
        *("mention", "mentions", "mentioned", "mentioning", "discuss", "discusses", "discussed"),
        *("discussing", "talk", "talks", "talked", "talking", "tell", "tells", "told", "telling"),
        *("remind", "reminds", "reminded", "chat", "chats", "chatted", "chatting"),
    }
)
#: "find out" (and its forms): a verb of learning about, not a thing asked about.
_FIND_OUT = re.compile(r"\b(?:find|finds|found|finding)\s+out\b", re.IGNORECASE)
#: Substance of a turn: 0 at or below this many characters ...
SHORT_TURN = 20
#: ... 1 at or above this many (log-scaled in between; the ``search_full_turn`` setting). 200: a
#: fact fits in two sentences; at 500, a chat assistant's long replies outranked the user's own
#: statements of fact (LongMemEval NDCG@10 0.626 -> 0.701, LoCoMo held out unchanged).
FULL_TURN = 200


def keyword_terms(text: str) -> tuple[list[str], list[str]]:
    """The full-text terms of a search query and the names it mentions.

    Returns:
        ``(terms, names)``: the query's words, lower-cased, escaped for Lucene and de-duplicated,
        minus function words and verbs of saying (:data:`SAYING`; every word when nothing else
        is left; empty if the text has no words), and the capitalised names among them,
        lower-cased. Search OR-s the terms, leaving out the names that are speakers in the
        scope.
    """
    words = [w.lower() for w in WORD.findall(_FIND_OUT.sub(" ", text))]
    content = [w for w in words if w not in QUERY_STOP and w not in SAYING]
    if not content:
        words = [w.lower() for w in WORD.findall(text)]
        content = [w for w in words if w not in ("and", "or", "not", "to")]
    terms = [_LUCENE_SPECIAL.sub(r"\\\1", w) for w in dict.fromkeys(content)]
    names = sorted({n.lower() for n in NAME.findall(text)} & set(terms) - CALENDAR)
    return terms, names


def without_names(text: str, names: list[str]) -> str | None:
    """The text with each of ``names`` replaced by "they" (its possessive by "their").

    Embedding a question about a participant without the name matches what the participant
    said rather than every turn that greets them by name. ``None`` when there is nothing to
    replace.
    """
    if not names:
        return None
    wanted = set(names)

    def pronoun(m: re.Match[str]) -> str:
        if m.group(1).lower() not in wanted:
            return m.group(0)
        return "their" if m.group(0) != m.group(1) else "they"

    out = _NAME_POSSESSIVE.sub(pronoun, text)
    return out if out != text else None


def substance(length: int | None, full: int = FULL_TURN) -> float:
    """A turn's substance in [0, 1]: log-scaled length, 0 up to 20 characters, 1 from ``full``."""
    if not length or length <= SHORT_TURN:
        return 0.0
    full = max(full, SHORT_TURN + 1)
    return min(1.0, math.log(length / SHORT_TURN) / math.log(full / SHORT_TURN))
