"""The conversation signals of search, from the query and the candidates (no database).

* :func:`conversation_cues`: the names a query mentions and the times it points at (calendar
  dates, and relative time words resolved against the moment asked).
* :func:`who_speaks`: of several people a question names, the one whose words answer it ("what
  did Jon say about Gina's store": Jon).
* :func:`context_parts`: a turn's context (its speaker named, the answer to a matching
  question; its time named, which :func:`date_gate` scales by relevance).
* :func:`without_time_words` and :func:`time_windows`: relative times leave the full-text query
  and, when short, bring in the turns said then (:mod:`.hybrid`, step 1).
* :func:`session_support`: how much a turn's session keeps coming back to the query.
* :func:`asked_of`: whose turns a question about a chat with an assistant is answered by.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from recollect_graph.nlp import cues
from recollect_graph.services.kernel.times import native
from recollect_graph.services.search.query_text import CALENDAR, NAME, SAYING, WORD

#: A conversation turn whose context signal reaches this (the query names its speaker or its
#: date) passes the relevance floor: the question is about it.
FLOOR_CONTEXT = 0.5
#: The share of the best relevance among the turns said in the time a query names from which
#: such a turn gets the whole date part of its context signal (:func:`date_gate`).
DATE_FULL_AT = 0.5
#: A time the query names is a source of candidates when no longer than this ("in 2023" is not).
MAX_TIME_WINDOW_DAYS = 62

#: Words that make a time relative to the moment asked ("four weeks ago", "last weekend").
_RELATIVE = frozenset(
    [
        "ago",
        "last",
        "past",
        "previous",
        "recent",
        "recently",
        "yesterday",
        "today",
        "tonight",
        "earlier",
        "this",
    ]
)
#: A turn that reports something that happened to its speaker: "I just signed my first client",
#: "last weekend we went camping", "two days ago". Written to mean the same in Python's ``re``
#: and Java's regular expressions (the search statements match it in Cypher).
EVENT_REPORT = (
    r"\bI(?:['\u2019]ve| have| had)? (?:just|recently|finally|already)\b"
    r"|\blast (?:week|month|weekend|year|night|time)\b"
    r"|\blast (?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b"
    r"|\b(?:this|the) past (?:week|weekend|month|year|few (?:days|weeks|months))\b"
    r"|\bthe other (?:day|night|week)\b"
    r"|\bover the weekend\b"
    r"|\b(?:yesterday|today|tonight)\b"
    r"|\bthis (?:morning|weekend|week|month|year)\b"
    r"|\bago\b"
)
#: :data:`EVENT_REPORT` as the search statements take it: any line of a whole text, any case.
EVENT_PATTERN = "(?is).*(?:" + EVENT_REPORT + ").*"
#: The names a query mentions and the time windows it names (with their granularity).
Cues = tuple[set[str], list[tuple[cues.TimeWindow, str]]]
#: The first auxiliary of a question, before its subject ("what *did* Jon say", "how *does*
#: Gina describe ...", "*has* Maria ever ...").
_AUXILIARY = re.compile(
    r"\b(?i:did|does|do|has|have|had|is|was|were|are|will|would|can|could|should|might|may|"
    r"must)\b"
)
#: A name right after that auxiliary, whole: not a possessive ("did Jon's team") nor the first
#: of several joined ("did Jon and Gina").
_SUBJECT = re.compile(r"\s+([A-Z][a-z]{1,20})\b(?!['\u2019]s\b|\s+(?:and|or|&)\b|\s*,)")
#: "According to Gina, ...": whose account the question asks for.
_ACCORDING = re.compile(r"\b(?i:according to)\s+([A-Z][a-z]{1,20})\b")


def who_speaks(query: str, names: set[str]) -> str | None:
    """Of the ``names`` (lower case) a question mentions, the one whose own words answer it.

    A question naming two people usually asks what one of them said or did to or about the
    other: "What did Jon say about Gina's progress?", "What does Melanie think about Caroline's
    decision?", "According to Gina, what makes Jon a good mentor?". English puts that person
    right after the question's first auxiliary ("did", "does", "has", ...) or after "according
    to". None when the question names fewer than two, its subject is several people ("did Jon
    and Gina both ...", "what do Melanie and Caroline ..."), or it has no such form.
    """
    if len(names) < 2:
        return None
    said = _ACCORDING.search(query)
    if said is None:
        aux = _AUXILIARY.search(query)
        said = _SUBJECT.match(query, aux.end()) if aux else None
    if said is not None and said.group(1).lower() in names:
        return said.group(1).lower()
    return None


def to_speaker(cues_: Cues, speaker: str | None, scored: dict[str, dict[str, Any]]) -> Cues:
    """``cues_`` narrowed to ``speaker`` (:func:`who_speaks`) when they speak in ``scored``.

    The context signal then lifts that person's turns, not the other's. A name that speaks in
    none of them (someone the two talk about: "what did Jean go through before meeting
    Maria?") leaves every name.
    """
    if speaker is None:
        return cues_
    for c in scored.values():
        said_by = c["entry"].get("speaker")
        if said_by and str(said_by).lower() == speaker:
            return {speaker}, cues_[1]
    return cues_


def conversation_cues(query: str, moment: datetime) -> Cues:
    """Names (capitalised words) and the times a query points at.

    The times are the calendar dates it names and its relative time words ("four weeks ago",
    "last Saturday", "in March") resolved against ``moment`` (the search's ``valid_at`` or
    ``as_of``, else now), each a window of time.
    """
    names = {n.lower() for n in NAME.findall(query)} - cues.STOP
    dates = list(cues.absolute_dates(query))
    dates += [(w, "window") for w in cues.time_windows(query, moment)]
    return names, dates


def without_time_words(terms: list[str], cues_: Cues) -> list[str]:
    """The full-text terms less the words of the relative times the query names.

    "four weeks ago", "10 days ago", "last weekend" are resolved into time windows (the context
    signal and the candidates said then); as keywords they would match every turn that says "a
    few weeks ago". Only a time counted from the moment asked (with "ago", "last", "past"...)
    loses its words, and never a calendar name: "in June", "October 13, 2023" stay keywords (a
    turn's description carries the day it was said, and a turn may name the month).
    """
    said: set[str] = set()
    for w, granularity in cues_[1]:
        words = [x.lower() for x in WORD.findall(w.expression)]
        if granularity == "window" and _RELATIVE & set(words):
            said.update(x for x in words if x not in CALENDAR)
    return [t for t in terms if t not in said]


#: Verbs that ask what happened or was said, not about what: "what happened on 8 May", "what did
#: we talk about last week", "what was I up to yesterday". The verbs of saying (``SAYING``) are
#: among them (``keyword_terms`` leaves them out unless nothing else is left).
_OCCURRENCE = SAYING | frozenset(
    {
        *("happen", "happened", "happens", "happening", "say", "said", "speak", "spoke"),
        *("go", "went", "going", "do", "did", "done", "doing", "up"),
    }
)


def asks_only_about_time(terms: list[str], cues_: Cues) -> bool:
    """Whether a query names a time and asks about nothing else ("what happened last week").

    Its full-text ``terms`` less the words of its times, numbers, the names it mentions and the
    verbs of happening or saying leave nothing: every turn said then answers it, so the time
    alone lets them through the relevance floor (``search_floor_time`` does not apply).
    """
    if not cues_[1]:
        return False
    said = {x.lower() for w, _ in cues_[1] for x in WORD.findall(w.expression)}
    rest = [
        t
        for t in terms
        if t not in said and t not in cues_[0] and t not in _OCCURRENCE and not t.isdigit()
    ]
    return not rest


def time_windows(cues_: Cues, k: int) -> list[dict[str, datetime]]:
    """The windows of at most ``MAX_TIME_WINDOW_DAYS`` a query names (none when ``k`` is 0)."""
    if k <= 0:
        return []
    return [
        {"start": w.start, "end": w.end}
        for w, _ in cues_[1]
        if (w.end - w.start).days <= MAX_TIME_WINDOW_DAYS
    ]


def context_parts(
    row: dict[str, Any], via: str | None, graph: float, cues_: Cues
) -> tuple[float, float]:
    """The two parts of a turn's conversation signal, uncapped.

    The signal is their sum, capped at 1, once the second is scaled by :func:`date_gate`.
    ``(cued, said_then)``: 0.5 when the query names the speaker plus 1.5 x ``graph`` for the
    answer to a matching question; the turn's match to a time the query names (``date_match``).
    """
    names, dates = cues_
    cued = 0.0
    speaker = row.get("speaker")
    if speaker and names and str(speaker).lower() in names:
        cued += 0.5
    if via and via.startswith("answers "):
        cued += 1.5 * graph
    at = native(row.get("valid_from"))
    said_then = cues.date_match(at, dates) if dates and isinstance(at, datetime) else 0.0
    return cued, said_then


def said_at(c: dict[str, Any]) -> datetime | None:
    """When a candidate turn was said (its ``valid_from``); ``None`` for a chunk or no time."""
    at = native(c["entry"].get("valid_from"))
    return None if c.get("kind") == "chunk" or not isinstance(at, datetime) else at


def best_said_then(
    scored: dict[str, dict[str, Any]], cues_: Cues, wanted_role: str | None = None
) -> float:
    """The best relevance among the candidate turns said in a time the query names (0: none).

    The turns of the role the question does not ask about (:func:`other_role`) are left out.
    """
    dates = cues_[1]
    best = 0.0
    if not dates:
        return best
    for c in scored.values():
        at = said_at(c)
        if at is None or other_role(c["entry"], wanted_role):
            continue
        if cues.date_match(at, dates):
            best = max(best, c.get("relevance", 0.0))
    return best


def said_then_counts(scored: dict[str, dict[str, Any]], cues_: Cues) -> tuple[int, int]:
    """How many candidate turns were said in a time the query names, of how many with a time.

    ``(said then, dated)``; ``(0, 0)`` when the query names no time. When the first is nearly
    the second, the time singles nothing out: "this year" in a chat of the last ten days.
    """
    dates = cues_[1]
    if not dates:
        return 0, 0
    times = [at for at in map(said_at, scored.values()) if at is not None]
    return sum(bool(cues.date_match(at, dates)) for at in times), len(times)


def date_gate(relevance: float, best_then: float) -> float:
    """How much of the named-time part of the context signal a turn keeps, in [0, 1].

    The turns said in the time a question names ("a month ago") are lifted in proportion to
    their relevance, in full from :data:`DATE_FULL_AT` of the best of them (``best_then``,
    :func:`best_said_then`): among the charity events the one of a month ago comes first, and
    the music festival chat of the same day does not rise above the older charity events. A
    turn alone in that time, however worded, keeps it all; the time always lets a turn pass the
    relevance floor. (:func:`~recollect_graph.services.search.fusion.fuse` also gives none of
    it to a turn of the role the question does not ask about: the assistant's reply of that
    day says nothing of what "I bought 10 days ago".)
    """
    if best_then <= 0:
        return 1.0
    return min(1.0, max(relevance, 0.0) / (DATE_FULL_AT * best_then))


def session_support(scored: dict[str, dict[str, Any]]) -> dict[str, float]:
    """Each conversation turn's session support in [0, 1].

    The relevance of the best *other* turn of the same session among the candidates above the
    relevance floor, divided by the best relevance of all of them: a turn whose conversation
    keeps coming back to the query's subject outranks an isolated turn that only shares a word
    with it. A turn alone in its session among the candidates gets 0.
    """
    per: dict[str, list[tuple[float, str]]] = {}
    best = 0.0
    for eid, c in scored.items():
        sid = c["entry"].get("session_id")
        if not c.get("relevant") or c.get("kind") == "chunk":
            continue
        best = max(best, c["relevance"])
        if sid:
            per.setdefault(sid, []).append((c["relevance"], eid))
    if best <= 0:
        return {}
    tops = {sid: sorted(lst, reverse=True)[:2] for sid, lst in per.items()}
    out: dict[str, float] = {}
    for eid, c in scored.items():
        top = tops.get(c["entry"].get("session_id") or "")
        if not top or c.get("kind") == "chunk":
            continue
        other = next((rel for rel, tid in top if tid != eid), 0.0)
        out[eid] = max(0.0, other) / best
    return out


#: The asker speaks of themself: "my bike", "I've been", "for me".
_SELF = re.compile(r"\b(?:i|me|my|mine|myself)\b", re.I)
#: The asker points at what the assistant said: "you recommended", "your list", "remind me",
#: "our previous conversation".
_TOLD = re.compile(
    r"\byou\s+(?:\w+\s+)?(?:said|told|mentioned|recommended|suggested|provided|gave|listed|shared|"
    r"described|explained|wrote|proposed|named|showed|sent|noted|came up with)\b"
    r"|\byour\s+(?:suggestion|recommendation|advice|answer|list|response|reply|explanation)s?\b"
    r"|\bdid you (?:say|tell|mention|recommend|suggest|give|list|name|call)\b"
    r"|\bremind me\b|\bour (?:previous|last|earlier) (?:conversation|chat|discussion)\b",
    re.I,
)
#: ... unless it is what the asker said: "remind me what I told you about my car".
_I_SAID = re.compile(r"\bi\s+(?:said|told you|mentioned|shared|wrote)\b", re.I)


def asked_of(query: str) -> str | None:
    """The speaker role whose turns answer ``query``, when the question says so, else None.

    In a chat between a user and an assistant, a question about what the assistant said ("the
    hotel you recommended", "remind me of your list") is answered by the assistant's turns; one
    where the asker speaks of themself ("my photography setup", "I've been feeling") by the
    user's own turns, where they said it (the assistant's replies only echo it). Search lowers
    the turns of the other role by ``w_role``; a question that says neither ("how did we fix
    the flaky test?") leaves every turn as it is, and so does a conversation between people.
    """
    if _TOLD.search(query) and not _I_SAID.search(query):
        return "assistant"
    if _SELF.search(query):
        return "user"
    return None


def other_role(row: dict[str, Any], wanted: str | None) -> float:
    """1.0 when ``row`` is a user's or assistant's turn and the question wants the other role."""
    role = row.get("role")
    if wanted is None or role not in ("user", "assistant"):
        return 0.0
    return 1.0 if role != wanted else 0.0
