"""General slot frames: what a clause is about (its slot), its subject and its typed value.

These frames sit beside the clause frames of :mod:`recollect_graph.nlp.frames` and cover what
those do not say: a tool for a purpose under any of many verbs (written in, hosted on, stores X
in, deploys with, goes to...), an employer or a place of residence, the location of a thing, and
any typed value (a quantity with its unit, a count, a date, a weekday, a frequency, a clock time,
a version) of a statement whose other words stay the same.

Every claim here has predicate ``slot:<name>``; its ``subject_key`` is the subject (and, for the
``value`` slot, every content word except the value: "the platform team has 12 engineers" is
about ``engin has platform team``), its ``object_key`` the normal form of the value
(:mod:`recollect_graph.nlp.values`) and ``category`` the value's kind. Slots are single-valued:
another value of the same slot and subject is a conflict unless the newer statement is additive
("also", "too", "as well", "another"). Past statements ("lived in Berlin until 2020", "worked
at X before joining Y") are not current claims and yield nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Set

from recollect_graph.nlp.claim_lexicon import (
    GENERIC_SUBJECTS,
    STATE,
    STATUS,
    bag_key,
    canonical,
    category,
)
from recollect_graph.nlp.frames import Claim
from recollect_graph.nlp.values import normalise, version_split

__all__ = ["SLOTS", "slot_frames"]

#: Slot name -> (what it is about, the value type it holds). Every slot is single-valued.
SLOTS: dict[str, tuple[str, str]] = {
    "language": ("the programming language something is written in", "technology"),
    "host": ("where something is hosted or deployed", "technology"),
    "build_tool": ("what builds or bundles something", "technology"),
    "deploy_tool": ("what deploys something", "technology"),
    "storage": ("where some data is stored or tracked", "technology"),
    "destination": ("where something is sent or posted", "technology/channel"),
    "employer": ("where a person works", "organisation"),
    "residence": ("where a person lives", "place"),
    "location": ("where a thing is (region, city, room)", "place"),
    "value": ("any typed value: quantity, count, date, weekday, frequency, time, version",
              "number with unit/date/weekday/frequency/time/version"),
}  # fmt: skip

_AUX = r"(?:(?:is|are|was|am|has been|have been|will be|gets|get|got|'s|'re|'m)\s+)?"
_ADV = r"(?:(?:now|still|currently|mostly|primarily|all|also|actually|usually|only)\s+)*"
#: verb phrase -> slot, for "<subject> <verb phrase> <value>"
_PASSIVE_VERBS: tuple[tuple[str, str], ...] = (
    (r"written in|implemented in|coded in|developed in|programmed in", "language"),
    (r"hosted on|hosted at|hosted by|hosted in|deployed (?:to|on|onto)|served from|served by",
     "host"),
    (r"built with|built using|bundled with|bundled by|bundled using|compiled with|built by",
     "build_tool"),
    (r"deployed with|deployed via|deployed using|deploys? with|deploys? via|deploys? using|"
     r"shipped with|released with|rolled out with", "deploy_tool"),
    (r"stored in|kept in|tracked in|managed in|persisted in|cached in|saved in|logged (?:in|to)",
     "storage"),
    (r"sent to|posted to|posts to|post to|goes? to|reported to|forwarded to|routed to|"
     r"pushed to|published to", "destination"),
)  # fmt: skip
_ACTIVE_VERBS: tuple[tuple[str, str], ...] = (
    (r"stores?|keeps?|tracks?|manages?|persists?|caches?|saves?|logs?", "storage"),
    (r"bundles?|builds?|compiles?", "build_tool"),
    (r"deploys?|ships?", "deploy_tool"),
    (r"sends?|posts?|reports?|forwards?|routes?|pushes?|publishes?", "destination"),
    (r"switched|moved|changed|migrated", "uses"),
)
_END = (
    r"(?:\s+(?:now|anymore|any more|instead|again|these days|from now on|going forward|"
    r"at the moment|right now|for now|fyi|btw|nowadays|today))*$"
)
_ADDITIVE = re.compile(r"\b(?:also|too|as well|another|in addition|additionally|plus)\b")
_PAST = re.compile(
    r"\b(?:used to|before|until|previously|formerly|back in|in the past|last year|years ago|"
    r"originally|at first|initially)\b"
)


def _passive_re() -> re.Pattern[str]:
    alts = "|".join(f"(?P<s{i}>{v})" for i, (v, _) in enumerate(_PASSIVE_VERBS))
    return re.compile(
        r"^(?P<subj>.+?)\s+" + _AUX + _ADV + r"(?P<neg>not\s+|no longer\s+)?" + _ADV
        + r"(?:" + alts + r")\s+(?P<val>.+?)" + _END
    )  # fmt: skip


def _active_re() -> re.Pattern[str]:
    alts = "|".join(f"(?P<s{i}>{v})" for i, (v, _) in enumerate(_ACTIVE_VERBS))
    return re.compile(
        r"^(?P<who>we|i|they|the team|our team|you|[a-z]+)\s+" + _ADV
        + r"(?:(?:have|has|had)\s+)?(?P<neg>do not\s+|don't\s+|does not\s+|no longer\s+)?"
        + r"(?:" + alts + r")\s+(?P<subj>.+?)\s+(?:in|into|with|to|on|via|using|onto|over to)\s+"
        + r"(?P<val>.+?)" + _END
    )  # fmt: skip


_PASSIVE = _passive_re()
_ACTIVE = _active_re()
_EMPLOYER = re.compile(
    r"^(?P<who>.+?)\s+" + _AUX + _ADV + r"(?:works?|working|is employed|am employed|"
    r"are employed|is working|am working)\s+(?:at|for|by)\s+(?P<val>.+?)" + _END
)
_JOINED = re.compile(r"^(?P<who>.+?)\s+(?:has |have |just )*(?:joined|started at)\s+(?P<val>.+?)"
                     r"(?:\s+(?:last|this|in|on)\s+\w+(?:\s+\d{4})?)?" + _END)  # fmt: skip
_RESIDENCE = re.compile(
    r"^(?P<who>.+?)\s+" + _AUX + _ADV + r"(?:lives?|living|resides?|is based|am based|"
    r"are based|moved|has moved|have moved|relocated)\s+(?:in|to|at)\s+(?P<val>.+?)" + _END
)
_LOCATION = re.compile(
    r"^(?P<subj>.+?)\s+" + _AUX + _ADV + r"(?:runs?|running|lives?|sits?|located|is located|"
    r"hangs?|hanging|is|are|deployed|hosted)\s+(?:in|at)\s+(?P<val>.+?)" + _END
)
_REGION = re.compile(r"^(?:[a-z]{2}-[a-z]+-\d|[a-z]{2,4}\d?-[a-z]+\d?)$")
_PLACE_HEADS = frozenset({"bedroom", "kitchen", "living room", "office", "garage", "hallway",
                          "basement", "attic", "studio", "lobby", "dining room"})  # fmt: skip


def _value_text(raw: str) -> str:
    v = re.split(r"\s+(?:because|since|so that|after|until|when|while|which|who|where|due to|"
                 r"for the|for our|for my|as part of)\b", raw)[0]  # fmt: skip
    return v.strip(" .,;:!?\"'")


def _subject_key(raw: str) -> str | None:
    key = canonical(raw)
    if not key:
        return None
    if key in GENERIC_SUBJECTS:
        return "we"
    words = key.split()
    if len(words) > 6:
        return None
    return bag_key(key)


def _tech(value: str, proper: set[str]) -> str | None:
    """A technology-like value (one to three words; a known tool, a proper name or a channel)."""
    v = canonical(value)
    name, _ = version_split(v)
    if not name or len(name.split()) > 3 or name in GENERIC_SUBJECTS:
        return None
    if category(canonical(name)) or name.startswith("#"):
        return canonical(name)
    words = name.split()
    if all(w in proper for w in words if w not in ("the", "a")):
        return canonical(name)
    return None


def _claim(subject: str, skey: str, slot: str, val: str, vkey: str, kind: str,
           pol: int = 1, modality: str | None = None) -> Claim:  # fmt: skip
    return Claim(subject=subject, subject_key=skey, predicate=f"slot:{slot}", object=val,
                 object_key=vkey, polarity=pol, category=kind, modality=modality)  # fmt: skip


def slot_frames(
    c: str, people: set[str], proper: set[str], labels: Set[str] = frozenset()
) -> Iterator[Claim]:
    """The slot claims of one lower-cased clause.

    Args:
        c: The clause, lower-cased.
        people: Lower-cased names of people the sentence mentions.
        proper: Lower-cased words written with a capital (names of things and places).
        labels: Lower-cased "noun number" pairs where the number names the thing ("service 0",
            "build 1234"): no amount, so no value claim.
    """
    if _PAST.search(c):
        return
    additive = "also" if _ADDITIVE.search(c) else None
    found = False
    for cl in _tool_slots(c, proper, additive):
        found = True
        yield cl
    if not found:
        for cl in _person_slots(c, people, proper, additive):
            found = True
            yield cl
    if not found:
        yield from _location(c, proper, additive)
    yield from _property(c)
    yield from _still_working(c)
    yield from _typed_value(c, proper, additive, labels)


def _tool_slots(c: str, proper: set[str], additive: str | None) -> Iterator[Claim]:
    m = _PASSIVE.match(c)
    slots = _PASSIVE_VERBS
    if m is None:
        m, slots = _ACTIVE.match(c), _ACTIVE_VERBS
    if m is None:
        return
    slot = next(s for i, (_, s) in enumerate(slots) if m.group(f"s{i}"))
    val = _value_text(m.group("val"))
    tech = _tech(val, proper)
    skey = _subject_key(m.group("subj"))
    if not tech or not skey or skey == "we":
        return
    if re.search(r"\bfrom\b", m.group("subj"), re.I):  # "the build from webpack [to vite]":
        return  # a migration's source, read by the clause frames, not a subject of its own
    pol = -1 if m.group("neg") else 1
    if slot == "uses":  # "we switched CI to X": a tool choice of CI
        if category(tech):
            yield Claim(subject=m.group("subj"), subject_key=skey, predicate="uses", object=val,
                        object_key=tech, polarity=pol, category=category(tech))  # fmt: skip
        return
    yield _claim(m.group("subj"), skey, slot, val, tech, "technology", pol, additive)
    if category(tech):  # also a tool choice, so that "uses"/"switched to" phrasings meet it
        yield Claim(subject=m.group("subj"), subject_key=skey, predicate="uses", object=val,
                    object_key=tech, polarity=pol, category=category(tech),
                    modality=additive)  # fmt: skip


def _person_slots(
    c: str, people: set[str], proper: set[str], additive: str | None
) -> Iterator[Claim]:
    for rx, slot in ((_EMPLOYER, "employer"), (_JOINED, "employer"), (_RESIDENCE, "residence")):
        m = rx.match(c)
        if not m:
            continue
        who = canonical(m.group("who"))
        person = who in people or who in ("i", "we") or who.split()[0] in ("my", "our")
        if not person and not who.startswith(("i ", "my ")):
            person = bool(who.split()) and all(w in people for w in who.split())
        val = _value_text(m.group("val"))
        v = canonical(val)
        if not person or not v or len(v.split()) > 4 or (slot != "employer" and category(v)):
            continue
        if slot == "employer" and not all(w in proper for w in v.split()[:1]):
            continue
        yield _claim(m.group("who"), bag_key(who) if who not in ("i", "we") else who, slot,
                     val, v, "organisation" if slot == "employer" else "place",
                     modality=additive)  # fmt: skip
        return


def _location(c: str, proper: set[str], additive: str | None) -> Iterator[Claim]:
    m = _LOCATION.match(c)
    if not m:
        return
    val = _value_text(m.group("val"))
    v = canonical(re.sub(r"^(?:my|our|the)\s+", "", val))
    words = v.split()
    if not words or len(words) > 3:
        return
    if not (_REGION.match(v) or v in _PLACE_HEADS or all(w in proper for w in words)):
        return
    if category(v):
        return
    skey = _subject_key(m.group("subj"))
    if not skey or skey == "we" or canonical(m.group("subj")) in STATUS:
        return
    yield _claim(m.group("subj"), skey, "location", val, v, "place", modality=additive)


#: Adjectives whose opposite is another word (the ``un``/``non``/``in``/``im`` prefixes are
#: handled by rule).
ANTONYMS = {
    "stateful": "stateless",
    "private": "public",
    "asynchronous": "synchronous",
    "async": "sync",
    "closed": "open",
    "offline": "online",
    "manual": "automatic",
    "unsafe": "safe",
    "insecure": "secure",
    "broken": "working",
    "down": "up",
    "outdated": "current",
    "stale": "fresh",
    "dynamic": "static",
    "centralized": "decentralized",
    "internal": "external",
    "mutable": "immutable",
}
_NEGATED_PREFIX = re.compile(r"^(?:un|non-?|in|im)(?=[a-z]{4,})")
_PROPERTY = re.compile(
    r"^(?P<subj>.+?)\s+(?:is|are|was|were|stays|remains|must be|should be|has to be|"
    r"needs to be)\s+(?P<neg>not\s+|no longer\s+|never\s+)?(?:now\s+|still\s+|always\s+|"
    r"fully\s+|completely\s+)?(?P<adj>[a-z][a-z-]{3,})" + _END
)
_KNOWN_POSITIVE = frozenset({"versioned", "stateless", "idempotent", "encrypted", "cached",
                             "public", "synchronous", "sync", "secure", "safe", "mutable",
                             "thread-safe", "backwards-compatible", "compatible", "available",
                             "supported", "deterministic", "paginated", "authenticated",
                             "indexed", "sharded", "replicated", "open-source", "online",
                             "automatic", "static", "working", "up", "current", "fresh",
                             "internal", "centralized"})  # fmt: skip


_STILL_WORKING = re.compile(
    r"^(?:we|i|they|the team|our team|you)\s+(?:are|am|is|'re|'m)\s+(?:still\s+|now\s+|"
    r"currently\s+)*(?:working on|busy with|in the middle of|halfway through)\s+(?P<item>.+?)"
    + _END
)


def _still_working(c: str) -> Iterator[Claim]:
    """A team still working on X: X is in progress (the status clause frames need a person)."""
    m = _STILL_WORKING.match(c.replace("we're", "we are").replace("i'm", "i am"))
    if not m:
        return
    item = _value_text(m.group("item"))
    key = bag_key(item)
    if key and len(key.split()) <= 5:
        yield Claim(subject=item, subject_key=key, predicate="status", object="in progress",
                    object_key="in_progress")  # fmt: skip


def _property(c: str) -> Iterator[Claim]:
    """A predicate adjective and its negation: "the auth service is (not) stateless"."""
    m = _PROPERTY.match(c)
    if not m:
        return
    adj = m.group("adj")
    if adj in STATUS or adj in STATE or (adj.endswith("ing") and adj != "working"):
        return
    pol = -1 if m.group("neg") else 1
    base = ANTONYMS.get(adj)
    if base:
        adj, pol = base, -pol
    else:
        stripped = _NEGATED_PREFIX.sub("", adj).lstrip("-")
        known = stripped in _KNOWN_POSITIVE | set(ANTONYMS.values())
        participle = stripped.endswith("ed") and not adj.startswith(("in", "im"))
        if stripped != adj and (known or participle):
            adj, pol = stripped, -pol
    skey = _subject_key(m.group("subj"))
    if not skey or skey == "we":
        return
    yield _claim(m.group("subj"), skey, "property", adj, adj, "property", pol)


_FILLER = frozenset({
    "is", "are", "was", "were", "be", "been", "being", "am", "now", "currently", "still",
    "actually", "about", "around", "roughly", "approximately", "close", "nearly", "almost",
    "over", "just", "usually", "normally", "typically", "moved", "changed", "set", "updated",
    "raised", "lowered", "increased", "decreased", "bumped", "reduced", "scheduled", "planned",
    "fyi", "btw", "so", "far", "these", "days", "moment", "right", "total", "already", "some",
    "of", "at", "on", "to", "for", "in", "a", "an", "the", "has", "have", "had", "got", "ve",
    "'ve", "i've", "we've", "managed", "up", "upto",
})  # fmt: skip
_NUMBERISH = re.compile(
    r"\b\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
    r"forty|fifty|hundred|dozen|half|once|twice|a month|a week|an hour|a day|a year|every|daily|"
    r"weekly|monthly|nightly|hourly|yearly|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|january|february|"
    r"march|april|june|july|august|september|october|november|december)\b"
)
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b"
)
_VALUE_SPAN = re.compile(
    r"(?:(?:about|around|roughly|approximately|close to|nearly|almost|over|up to|just|only|"
    r"at|on|for|every|to|by|until)\s+)*"
    r"(?:"
    r"\d{4}-\d{2}-\d{2}"
    r"|(?:" + _MONTH + r"\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?)"
    r"|(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"(?:,?\s+\d{4})?)"
    r"|(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.))|(?:\d{1,2}:\d{2})"
    r"|(?:every\s+(?:other\s+)?(?:\w+\s+)?(?:day|week|month|year|hour|night|morning|fortnight|"
    r"quarter)s?)"
    r"|(?:(?:\S+)\s+times?\s+(?:a|an|per|each|every)\s+(?:day|week|month|year|hour))"
    r"|(?:(?:once|twice)\s+(?:a|an|per|each|every)\s+(?:day|week|month|year|hour))"
    r"|(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*(?:(?:,\s*|\s+and\s+|\s*&\s*)(?:mon|tue|wed|thu|"
    r"fri|sat|sun)[a-z]*)*)"
    r"|(?:\$?(?:\d[\d,]*(?:\.\d+)?|[a-z]+)(?:\s*(?:k|m|bn)\b)?(?:\s+dozen)?"
    r"(?:\s*(?:ms|milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|"
    r"years?|mb|gb|kb|tb|gib|mib|kib|bytes?|megabytes?|gigabytes?|kilobytes?|%|percent)\b"
    r"(?:\s+and\s+(?:\d+|[a-z]+)\s+(?:seconds?|minutes?|hours?|days?))?)?)"
    r"|(?:daily|weekly|monthly|nightly|hourly|yearly|annually)"
    r")"
)


def _typed_value(
    c: str, proper: set[str], additive: str | None, labels: Set[str]
) -> Iterator[Claim]:
    """Typed values in an otherwise fixed statement: "<the rest>" has value V, once per value."""
    if not _NUMBERISH.search(c) or _TICKET.search(c):
        return
    if len(c.split()) > 20:
        return
    v, span = _version(c, proper)
    found = [(v, span)] if v is not None and span is not None else _find_values(c, labels)
    for v, (start, end) in found:
        rest = (c[:start] + " " + c[end:]).strip()
        rest = re.split(r"\s+(?:because|so that|which|who|due to)\b", rest)[0]
        content = [w for w in re.findall(r"[\w#+.'-]+", rest) if w not in _FILLER]
        if not content or len(content) > 12:
            continue
        key = bag_key(" ".join(content))
        if key:
            yield _claim(rest, key, "value", c[start:end], v, v.split(":")[0], modality=additive)


_TICKET = re.compile(r"\b(?!(?:pre|post|mid|late|early|non|sub|over|under)-)[a-z]+-\d+\b|#\d+")


def _version(c: str, proper: set[str]) -> tuple[str | None, tuple[int, int] | None]:
    """A version after a technology name ("postgres 14", "react 18.2", "version 1.27")."""
    for m in _VERSION.finditer(c):
        name = canonical(m.group("n"))
        if name != "version" and name not in proper and not category(name):
            continue
        start = m.start("v")
        if name == "version":
            before = c[: m.start()].split()
            name, start = (canonical(before[-1]) if before else "version"), m.start()
        return f"v:{name}@{m.group('v')}", (start, m.end())
    return None, None


_VERSION = re.compile(
    r"\b(?P<n>[a-z][\w.+#-]*)\s+(?:v(?=\d))?(?P<v>\d+(?:\.\d+)*(?:\.x)?)\b(?!\s*(?:ms|s|"
    r"seconds?|minutes?|hours?|days?|weeks?|months?|years?|gb|mb|kb|%|times?|engineers?|people|"
    r"nodes?|replicas?|dozen|[a-z]+s\b))"
)


def _find_values(c: str, labels: Set[str]) -> list[tuple[str, tuple[int, int]]]:
    out: list[tuple[str, tuple[int, int]]] = []
    for m in _VALUE_SPAN.finditer(c):
        text = m.group(0).strip()
        if not text or not _NUMBERISH.search(text):
            continue
        val = normalise(text, "any")
        if val is None:
            continue
        bare = val.key.startswith("q:count:") and not re.search(r"\d|dozen", text)
        if bare and text.split()[-1] in ("a", "an", "half", "once", "every", "at", "on", "for"):
            continue
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        before = c[:start].split()
        if text.isdigit() and before and f"{before[-1]} {text}" in labels:
            continue  # "service 0", "job 3": the number names the thing, it is no amount
        out.append((val.key, (start, m.end())))
    return out
