"""Questions about the current state of something: the newest of the turns that answer first.

A fact stated again later updates the earlier statement: "I have 500 followers" in March, "I'm
at 1,300 followers now" in June. A question about the present ("How many followers do I have
now?", "What book am I currently reading?", "Which streaming service did I start using most
recently?") is answered by the newest of the turns that answer it, and an agent reading the top
hit should see that one, not the older value.

* :func:`asks_for_latest`: whether a question asks about the current or most recent state, and
  not about an earlier one ("previous", "before", "used to", "at first", "earliest").
* :func:`latest_positions`: each strong candidate turn's place in time among the strong
  candidate turns (newest 1, oldest 0); the fusion lifts a turn's relevance by ``w_latest`` x
  that place (:mod:`.fusion`), so an irrelevant turn gains nothing, however new.

A question that names a time ("in March", "last week") is left to the time signals: "currently"
there means then, not now (:mod:`.hybrid`).
"""

from __future__ import annotations

import re
from typing import Any

from recollect_graph.services.search.signals import other_role, said_at

#: Words of a question about the current or most recent state of something: adverbs of the
#: present and superlatives of time. Not the adjective "current" ("How long has she had her
#: current group of friends?" asks how long, which an older turn may say) nor "still" ("Would
#: she still want to...?").
_LATEST = re.compile(
    r"\b(currently|now|nowadays|these days|at the moment|at present|"
    r"most recent|most recently|latest|newest)\b",
    re.IGNORECASE,
)
#: Words of a question about an earlier state, or an order in time: no newest-first lift.
_EARLIER = re.compile(
    r"\b(previous|previously|before|used to|originally|initially|at first|first|earliest|"
    r"oldest|former|formerly|earlier|order)\b",
    re.IGNORECASE,
)
#: The share of the best relevance a candidate turn needs to take part in the time order: the
#: turns that answer the question, not every turn about its topic.
STRONG_AT = 0.6


def asks_for_latest(text: str) -> bool:
    """Whether a question asks about the current or most recent state of something.

    >>> asks_for_latest("How many followers do I have on Instagram now?")
    True
    >>> asks_for_latest("Which streaming service did I start using most recently?")
    True
    >>> asks_for_latest("What was my previous personal best time?")
    False
    >>> asks_for_latest("How long had I worked before I started my current job?")
    False
    """
    return _LATEST.search(text) is not None and _EARLIER.search(text) is None


def latest_positions(
    scored: dict[str, dict[str, Any]],
    wanted_role: str | None = None,
    strong_at: float = STRONG_AT,
) -> dict[str, float]:
    """Each strong candidate turn's place in time among the strong ones: newest 1, oldest 0.

    Strong: above the relevance floor, with at least ``strong_at`` of the best relevance among
    the candidates, a time (chunks and timeless entries have none), and of the role the
    question asks about (:func:`~.signals.other_role`). The turns of one session share its
    place (the first moment among them): an update is a later conversation, not the next line
    of the same one. Fewer than two distinct moments: no order, an empty map.
    """
    best = max(
        (float(c.get("relevance", 0.0)) for c in scored.values() if c.get("relevant", True)),
        default=0.0,
    )
    if best <= 0:
        return {}
    timed: list[tuple[str, str]] = []
    began: dict[str, Any] = {}  # a session's (or a lone turn's) first strong moment
    for eid, c in scored.items():
        if not c.get("relevant", True) or float(c.get("relevance", 0.0)) < strong_at * best:
            continue
        at = said_at(c)
        if at is None or other_role(c["entry"], wanted_role):
            continue
        key = str(c["entry"].get("session_id") or eid)
        began[key] = min(at, began.get(key, at))
        timed.append((key, eid))
    moments = sorted(set(began.values()))
    if len(moments) < 2:
        return {}
    place = {at: i / (len(moments) - 1) for i, at in enumerate(moments)}
    return {eid: place[began[key]] for key, eid in timed}
