"""Recall cues without an LLM: identifiers, coinage terms, markers and time expressions.

These are the deterministic extractors behind the Anamnesis index (``Identifier`` and ``Marker``
nodes) and behind the classification of a vague recall:

* **Identifiers** (the entropy track): URLs, file-system paths, ``PR #N``, issue ``#N``, commit
  SHAs and session UUIDs, each with its *namespace*. A literal can anchor a recall only when its
  namespace authorises the kind of claim the recall makes (:func:`compatible_anchor`).
* **Terms** (coinage candidates): ``[a-zA-Z_][a-zA-Z_0-9-]{3,29}`` tokens minus stop words.
* **Markers** (the salience track): actors, temporal expressions, emotional and cognitive words
  and singular events, each normalised to a canonical value so that a paraphrase
  ("fed up" / "frustrated") meets the word the session used.
* **Time windows**: "last week", "in March", "back in spring", "2026-03-14" resolved against a
  reference moment, for temporal proximity.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from recollect_graph.nlp.marker_lexicon import LEXICON
from recollect_graph.nlp.when import (
    MON_ABBR,
    MONTHS,
    SEASONS,
    WEEKDAYS,
    TimeWindow,
    absolute_dates,
    date_match,
    proximity,
    time_windows,
)

__all__ = [
    "TimeWindow",
    "absolute_dates",
    "date_match",
    "proximity",
    "time_windows",
]

# -- identifiers --------------------------------------------------------------------------------
NAMESPACES = ("url", "fs_path", "github_pr", "github_issue", "git_commit", "session")
#: Which claim kind each namespace may anchor (Anamnesis' registry).
AUTHORISED = {
    "url": "url_reference",
    "fs_path": "path_reference",
    "github_pr": "pull_request",
    "github_issue": "issue",
    "git_commit": "commit",
    "session": "session_citation",
}

_URL = re.compile(r"https?://[^\s<>\"'`)\]]+", re.I)
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
_PR = re.compile(r"\b(?:PR|pull request|pull)\s*#?\s*(\d{1,5})\b", re.I)
_GH_PULL_URL = re.compile(r"github\.com/[\w.-]+/[\w.-]+/pull/(\d{1,6})", re.I)
_GH_ISSUE_URL = re.compile(r"github\.com/[\w.-]+/[\w.-]+/issues/(\d{1,6})", re.I)
_ISSUE = re.compile(r"(?:\bissue\s*#?\s*|(?<![\w&/])#)(\d{1,5})\b", re.I)
_SHA = re.compile(r"\b[0-9a-f]{7,40}\b")
_PATH = re.compile(
    r"(?<![\w/.:-])(?:~?/)?[\w.-]+/[\w./-]*\.\w{1,6}\b|(?<![\w/.-])[\w-]+\.(?:py|ts|tsx|js|jsx|rs|go|md|toml|yaml|yml|json|sql|tf|sh|cfg|ini|lock|txt|html|css)\b"
)
_AGENT_ID = re.compile(r"\bagent[-_ ]?(?:id)?[:= ]+([0-9a-f]{8,16})\b", re.I)


@dataclass(frozen=True)
class Identifier:
    """One identifier literal: its namespace, its canonical value and the text it came from."""

    namespace: str
    value: str
    literal: str


def _sha_like(token: str) -> bool:
    # A run of hex digits is a commit only when it mixes letters and digits (not "deadbeef",
    # not "2026").
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


def identifiers(text: str) -> list[Identifier]:
    """Every identifier literal in ``text``, in order of appearance, de-duplicated.

    Example:
        >>> [(i.namespace, i.value) for i in identifiers("see PR #212 and src/app.py")]
        [('github_pr', '212'), ('fs_path', 'src/app.py')]
    """
    found: list[tuple[int, Identifier]] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, ns: str, value: str) -> None:
        if any(a < end and start < b for a, b in taken):
            return
        taken.append((start, end))
        found.append((start, Identifier(ns, value, text[start:end])))

    for m in _GH_PULL_URL.finditer(text):
        add(m.start(), m.end(), "github_pr", m.group(1))
    for m in _GH_ISSUE_URL.finditer(text):
        add(m.start(), m.end(), "github_issue", m.group(1))
    for m in _URL.finditer(text):
        add(m.start(), m.end(), "url", m.group(0).rstrip(".,;:").lower())
    for m in _UUID.finditer(text):
        add(m.start(), m.end(), "session", m.group(0).lower())
    for m in _AGENT_ID.finditer(text):
        add(m.start(1), m.end(1), "session", m.group(1).lower())
    for m in _PR.finditer(text):
        add(m.start(), m.end(), "github_pr", m.group(1))
    for m in _ISSUE.finditer(text):
        add(m.start(), m.end(), "github_issue", m.group(1))
    for m in _PATH.finditer(text):
        value = m.group(0).rstrip(".")
        if "://" in value or (value.count(".") > 3 and "/" not in value):
            continue
        add(m.start(), m.end(), "fs_path", value)
    for m in _SHA.finditer(text):
        if _sha_like(m.group(0)):
            add(m.start(), m.end(), "git_commit", m.group(0).lower()[:12])
    found.sort(key=lambda t: t[0])
    out: list[Identifier] = []
    seen: set[tuple[str, str]] = set()
    for _, ident in found:
        if (ident.namespace, ident.value) not in seen:
            seen.add((ident.namespace, ident.value))
            out.append(ident)
    return out


def path_keys(value: str) -> list[str]:
    """Match keys for a path: the path and its file name (``src/app.py`` -> ``app.py``)."""
    name = value.rsplit("/", 1)[-1]
    return [value] if name == value else [value, name]


_CLAIM_WORDS = (
    ("pull_request", re.compile(r"\b(PR|pull request|pull|merge request|MR)\b", re.I)),
    ("issue", re.compile(r"\b(issue|ticket|bug report)\b", re.I)),
    ("commit", re.compile(r"\b(commit|sha|revision)\b", re.I)),
)


def claim_kind(text: str, ident: Identifier) -> str:
    """The kind of claim the recall makes about ``ident``.

    The literal's own form decides first ("PR #212"), then the two words right before it
    ("the issue #87" claims an issue; "ticket 87" too); without either, the literal's namespace.
    """
    for kind, pattern in _CLAIM_WORDS:
        if ident.namespace in ("github_pr", "github_issue") and pattern.search(ident.literal):
            return kind
    idx = text.find(ident.literal)
    before = " ".join(text[: max(0, idx)].split()[-2:]) if idx > 0 else ""
    for kind, pattern in _CLAIM_WORDS:
        if pattern.search(before):
            return kind
    return AUTHORISED[ident.namespace]


def compatible_anchor(namespace: str, kind: str) -> bool:
    """Whether a literal from ``namespace`` may anchor a recall that claims ``kind``."""
    return AUTHORISED.get(namespace) == kind


# -- terms and coinage --------------------------------------------------------------------------
TOKEN = re.compile(r"[a-zA-Z_][a-zA-Z_0-9-]{3,29}")
STOP = frozenset(
    """
    about above after again against all also although always among another anything anyway
    around because been before being below between both cannot could does doing done down
    during each either else even ever every few first from further getting going gonna have
    having here hers herself himself however into itself just know last least less like make
    made many maybe might more most much must myself need needs never next none nothing now
    off once only other otherwise ought ours ourselves over own perhaps please quite rather
    really right same seem seems should since some something still such sure than that thats
    the their theirs them themselves then there these they thing things think this those
    though through thus till together too under until upon very want wants was were what
    whatever when where whether which while who whom whose why will with within without
    would yeah yes yet you your yours yourself okay cool thanks thank great good nice well
    let lets look looks looking seems see seen session today work works working fine also
    again sounds sound ahead could should would file files code line lines change changes
    changed update updated use used using run running ran test tests want wanted check
    checked try tried added adding remove removed fix fixed
    """.split()  # noqa: SIM905
)


def terms(text: str) -> Counter[str]:
    """Lower-cased content tokens (coinage candidates) with their counts."""
    c: Counter[str] = Counter()
    text = _UUID.sub(" ", _URL.sub(" ", text))
    for m in TOKEN.finditer(text):
        t = m.group(0).lower().strip("-_")
        if len(t) >= 4 and t not in STOP and not t.isdigit() and not _sha_like(t):
            c[t] += 1
    return c


def coinage_precision(occ_in_session: int, occ_elsewhere: int) -> float:
    """Anamnesis' coinage score: ``occ_s / (1 + occ_elsewhere)``."""
    return occ_in_session / (1 + occ_elsewhere)


COINAGE_THRESHOLD = 0.5
COINAGE_MIN_USES = 2


def keywords(counts: Counter[str], *, limit: int = 12) -> list[str]:
    """The most used content terms (longer words first among equals)."""
    return [t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))][
        :limit
    ]


# -- markers ------------------------------------------------------------------------------------
_TEMPORAL = re.compile(
    r"\b(yesterday|today|tonight|this morning|last (?:night|week|month|year|friday|monday|"
    r"tuesday|wednesday|thursday|saturday|sunday|sprint|quarter)|"
    r"(?:a|one|two|three|four|five|six|a few|a couple of|couple of|few)\s+(?:days?|weeks?|"
    r"months?)\s+ago|(?:early|mid|late)\s+(?:this|last)?\s*(?:year|month|"
    + "|".join(MONTHS)
    + r")|before the (?:\w+ )?(?:release|launch|demo|holidays?|deadline)|"
    r"end of (?:the )?(?:year|quarter|month|sprint)|(?:in|back in|around|during|last) (?:"
    + "|".join(MONTHS + list(SEASONS))
    + r")|(?:"
    + "|".join(MONTHS)
    + r")\b|\d{4}-\d{2}-\d{2}|q[1-4]\b|"
    + "|".join(WEEKDAYS)
    + r")",
    re.I,
)
_ACTOR = re.compile(
    r"(?:@([\w-]{2,30}))|\b(?:with|from|told|asked|ping(?:ed)?|thanks?|per|cc|and|like|said)\s+"
    r"([A-Z][a-z]{2,15})\b|\b([A-Z][a-z]{2,15})\s+(?:from|said|says|mentioned|suggested|asked|"
    r"told|wants|thinks|reported|noticed)\b"
)
_NOT_ACTOR = frozenset(
    [
        "The",
        "This",
        "That",
        "Then",
        "There",
        "What",
        "When",
        "Where",
        "Which",
        "While",
        "Why",
        "How",
        "Yes",
        "Okay",
        "Sure",
        "Thanks",
        "Also",
        "Claude",
        "Python",
        "Rust",
        "Docker",
        "Postgres",
        "Redis",
        "Kafka",
        "GitHub",
        "Github",
        "Linux",
        "Mac",
        "Windows",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ]
    + [m.capitalize() for m in MONTHS]
)


@dataclass(frozen=True)
class Marker:
    """One salience marker: its kind (actor, temporal, emotional, ...) and canonical value."""

    kind: str
    value: str


def markers(text: str) -> list[Marker]:
    """The salience markers of ``text`` (canonical values, de-duplicated, sorted)."""
    low = " " + text.lower() + " "
    out: set[Marker] = set()
    for kind, classes in LEXICON.items():
        for value, cues in classes.items():
            if any(cue in low for cue in cues):
                out.add(Marker(kind, value))
    for m in _TEMPORAL.finditer(text):
        out.add(Marker("temporal", _canonical_time(m.group(0))))
    for m in _ACTOR.finditer(text):
        name = m.group(1) or m.group(2) or m.group(3)
        if name and name not in _NOT_ACTOR:
            out.add(Marker("actor", name.lower()))
    return sorted(out, key=lambda mk: (mk.kind, mk.value))


def _canonical_time(expr: str) -> str:
    e = " ".join(expr.lower().split())
    for i, m in enumerate(MONTHS):
        if re.search(rf"\b{m}\b", e):
            return MON_ABBR[i]
    for s in SEASONS:
        if s in e:
            return "fall" if s == "autumn" else s
    for d in WEEKDAYS:
        if d in e:
            return d
    return e


_DECISION = re.compile(
    r"\b(decided|decide to|let'?s go with|we'?ll (?:use|go with|keep|switch)|going with|"
    r"settled on|chose|went with|instead of|rather than|rejected)\b",
    re.I,
)
_SENT = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    """Rough sentence split (punctuation and line breaks)."""
    return [s.strip() for s in _SENT.split(text) if s and s.strip()]


def decisions(texts: Iterable[str], *, limit: int = 5) -> list[str]:
    """Sentences that state a decision (with the alternative rejected, when said)."""
    out: list[str] = []
    for t in texts:
        for s in sentences(t):
            if _DECISION.search(s) and 12 <= len(s) <= 400 and s not in out:
                out.append(s)
                if len(out) >= limit:
                    return out
    return out
