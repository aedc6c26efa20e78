"""Clause frames: ordinary phrasing mapped onto normalised claim predicates.

Each frame is a regular expression over one lower-cased clause plus the normalisation of its
parts (aliases, ticket ids, order-free stems); :func:`frames` runs them all. The spaCy side
(sentences, people, verbs, dates) lives in :mod:`recollect_graph.nlp.claims`. The frames stay in
one module, past the usual size, so that their precedence and shared pieces read side by side.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from recollect_graph.nlp.claim_lexicon import (
    ATTRIBUTE_NOUNS,
    GENERIC_SUBJECTS,
    STATE,
    STATUS,
    bag_key,
    canonical,
    category,
    stem,
)
from recollect_graph.nlp.values import version_split


@dataclass(frozen=True)
class Claim:
    """One extracted claim."""

    subject: str
    subject_key: str
    predicate: str
    object: str
    object_key: str
    polarity: int = 1
    category: str | None = None
    qualifier: str | None = None
    modality: str | None = None
    time: str | None = None
    subject_type: str = "thing"
    #: The entity the claim is about: the name-like noun phrase that heads its subject in the
    #: sentence ("billing service" for "the billing service writes to ..."), None when the subject
    #: is a pronoun or no noun phrase (then the claim is about no entity).
    about: str | None = None
    #: That entity's type, in the entity extractor's vocabulary (person, tool, concept, ...).
    about_type: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """As a plain dict (for the graph)."""
        return asdict(self)


_WHO = (
    r"(?P<who>(?:team )?[^\W\d_]+(?: (?!(?:is|was|are|were|has|have|had|no|not|will|does|did|"
    r"do|never|still|now|just|also|always)\b)[a-z]+)?)"
)
_NEG = (
    r"(?P<neg>(?:is |are |was |does |do |did |has |have )?(?:no longer|not|n't|never|stopped|"
    r"won't|will not|no more)\s+)?"
)
_END = (
    r"(?:\s+(?:anymore|any more|now|again|too|as well|instead|from now on|going forward|"
    r"these days|for now|yet|yesterday|today|tonight|(?:since|as of|until|starting|from|after) "
    r"(?:the )?\w+(?: \w+)?|(?:last|this|next|every) \w+|in \w+ \d{4}|on \w+day))*$"
)
_BOUNDARY = re.compile(
    r"\s+(?:because|since|as|so that|after|before|until|when|while|which|who|this|last|next|"
    r"due to|per|starting|from|instead|by)\b.*$"
)


def _trim(value: str) -> str:
    return _BOUNDARY.sub("", value).strip(" .,;:!?\"'")


def _split_objects(value: str) -> list[str]:
    parts = re.split(r",\s*|\s+and\s+|\s*/\s*|\s+plus\s+", value)
    return [p for p in (x.strip() for x in parts) if p]


def _is_person(name: str, people: set[str]) -> bool:
    return name in people


def _subj(raw: str) -> str:
    key = canonical(raw)
    return "we" if key in GENERIC_SUBJECTS else key


def frames(c: str, people: set[str], verbs: set[str]) -> Iterator[Claim]:
    """Every claim the clause frames find in one lower-cased clause."""
    yield from _migration(c)
    yield from _uses(c)
    yield from _attribution(c, people)
    yield from _status(c, people)
    yield from _enabled(c)
    yield from _habit(c, verbs)
    yield from _prefers(c, people)
    yield from _attribute(c)
    yield from _numeric(c)


def _tool_claim(
    subject: str, obj: str, pol: int, qual: str | None = None, modality: str | None = None
) -> Claim | None:
    m = re.match(r"^(?P<o>.+?)\s+(?:for|as)\s+(?P<q>.+)$", obj.strip())
    if m and category(canonical(m.group("o"))):
        obj, qual = m.group("o"), qual or m.group("q")
    if obj.strip().startswith("not "):
        obj, pol = obj.strip()[4:], -pol
    o = canonical(_trim(obj))
    if not o or len(o.split()) > 4:
        return None
    name, version = version_split(o)
    if version and category(canonical(name)):
        o = canonical(name)  # "postgres 16": the tool, its version compared apart
    if not category(o):
        o = bag_key(o)
    s = _subj(subject)
    if qual and s == "we":
        q = bag_key(_trim(qual))
        if q and len(q.split()) <= 3:
            s = q
    elif s != "we":
        s = bag_key(s)
    return Claim(subject=subject.strip(), subject_key=s, predicate="uses", object=obj.strip(),
                 object_key=o, polarity=pol, category=category(o), modality=modality)  # fmt: skip


_MIGRATE = re.compile(
    r"^(?P<subj>.+?)\s+(?:have |has |had )?(?:moved|migrated|switched|changed|went|transitioned|"
    r"ported|are moving|is moving|are migrating)\s+(?:(?P<thing>(?!from\b).+?)\s+)?from\s+"
    r"(?P<old>.+?)\s+(?:to|onto|over to)\s+(?P<new>.+?)" + _END
)
_REPLACE = re.compile(
    r"^(?P<subj>.+?)\s+(?:have |has )?(?:replaced|swapped|swapped out|dropped)\s+(?P<old>.+?)\s+"
    r"(?:with|for|in favou?r of)\s+(?P<new>.+?)" + _END
)
_REPLACED_BY = re.compile(
    r"^(?P<old>.+?)\s+(?:was|has been|got|is being|is)\s+replaced\s+(?:with|by)\s+(?P<new>.+?)"
    + _END
)


def _migration(c: str) -> Iterator[Claim]:
    m = _MIGRATE.match(c) or _REPLACE.match(c)
    if m:
        subject = m.groupdict().get("thing") or m.group("subj")
        qual = None
        qm = re.match(r"^(?P<n>.+?)\s+(?:for|as)\s+(?P<q>.+)$", m.group("new"))
        new = m.group("new")
        if qm:
            new, qual = qm.group("n"), qm.group("q")
        for obj, pol in ((new, 1), (m.group("old"), -1)):
            cl = _tool_claim(subject, obj, pol, qual, None if pol > 0 else "replaced")
            if cl:
                yield cl
        return
    m = _REPLACED_BY.match(c)
    if m:
        for obj, pol in ((m.group("new"), 1), (m.group("old"), -1)):
            cl = _tool_claim("we", obj, pol, None, None if pol > 0 else "replaced")
            if cl:
                yield cl


_USES = re.compile(
    r"^(?P<subj>.+?)\s+" + _NEG + r"(?:(?:is |are |was |were |will be |still )?(?:using|uses?|"
    r"relies on|rely on|depends? on|depending on|runs? on|running on|"
    r"(?:is |are )?(?:built|written|powered|backed|hosted) (?:with|on|in|by)|chose|choose|picked|"
    r"went with|go with|adopted|standardi[sz]ed on|(?:decided|agreed|chose|plan) to "
    r"(?:use|go with|adopt|keep|stick with)|switched to|moved to|migrated to|sticks? with|"
    r"stuck with|kept|(?:is |are )?(?:done|handled|managed|tracked|run|runs|served) "
    r"(?:with|by|in|on|through)|"
    r"runs? with|run with|(?:is |are )?run (?:with|on|by)|(?:is |are )?(?:reported|sent|shipped|"
    r"pushed|logged|written) (?:to|into)|(?:is |are )?(?:stored|kept|tracked|cached|managed|hosted|"
    r"deployed|bundled|tested|compiled|built) (?:in|on|with|by|to)|track \w+ (?:in|with)|"
    r"tracks \w+ (?:in|with)))\s+(?P<obj>.+?)(?:\s+(?:for|in|on|as)\s+(?P<qual>.+?))?" + _END
)


def _uses(c: str) -> Iterator[Claim]:
    if _MIGRATE.match(c) or _REPLACE.match(c):
        return
    m = _USES.match(c)
    if not m:
        return
    subj = m.group("subj")
    if subj.endswith(" no longer") or subj.endswith(" not"):
        return
    pol = -1 if m.group("neg") else 1
    for obj in _split_objects(m.group("obj")):
        cl = _tool_claim(subj, obj, pol, m.group("qual"))
        if cl:
            yield cl


_ATTR_ACTIVE = re.compile(
    r"^" + _WHO + r"\s+" + _NEG + r"(?:is |was |will be |has been |still )?"
    r"(?P<verb>owns?|owned|owning|works? on|working on|worked on|leads?|leading|maintains?|"
    r"maintaining|(?:is )?responsible for|handles|handling|(?:is |was )?assigned to|"
    r"(?:is )?on call for|on-call for|runs|running|took over|takes over|has taken over|"
    r"(?:is )?in charge of|(?:the |a )?(?:owner|assignee|maintainer|lead|tech lead|team lead|"
    r"point person|dri|point of contact|contact|manager|responsible engineer) (?:of|for|on)|"
    r"driving|drives|"
    r"created|built|wrote|designed|authored|implemented)\s+(?P<item>.+?)" + _END
)
_ATTR_PASSIVE = re.compile(
    r"^(?P<item>.+?)\s+(?:is|was|has been|will be|are|were)\s+"
    + _NEG
    + r"(?:now\s+)?(?P<verb>owned|maintained|led|handled|run|driven|created|built|written|"
    r"designed|implemented|(?:re)?assigned to|taken over)\s+(?:by\s+)?"
    r"(?P<who>(?:the )?(?:team )?[^\W\d_]+(?: [^\W\d_]+){0,2}?(?: team)?)" + _END
)
_BELONGS = re.compile(
    r"^(?P<item>.+?)\s+" + _NEG + r"(?:now\s+)?(?P<verb>belongs to|is owned by|sits with|"
    r"(?:is |are )?(?:now )?(?:handed|given|passed) (?:over )?to|(?:is |are )?(?:re)?assigned to|"
    r"is the responsibility of|(?:is|are) (?:now )?with)\s+"
    r"(?P<who>(?:the )?(?:team )?[^\W\d_]+(?: [^\W\d_]+){0,2}?(?: team)?)" + _END
)
_ON_CALL = re.compile(
    r"^" + _WHO + r"\s+(?:is|was|will be)\s+(?P<neg>not\s+)?(?:the\s+)?(?:on call|on-call)"
    r"(?:\s+(?:engineer|person))?(?P<rest>\s+.*)?$"
)
_CREATE_VERBS = ("created", "built", "wrote", "designed", "authored", "implemented", "written")


def _agent(who: str, people: set[str]) -> str | None:
    w = canonical(who)
    if w in people:
        return w
    words = w.split()
    if (words and words[-1] == "team" and 2 <= len(words) <= 4) or (
        len(words) == 2 and words[0] == "team"
    ):
        return " ".join(x for x in words if x != "team") + " team"
    return None
    return None


def _attribution(c: str, people: set[str]) -> Iterator[Claim]:
    oc = _ON_CALL.match(c)
    if oc and _agent(oc.group("who"), people) and not re.match(r"\s+for\b", oc.group("rest") or ""):
        who = canonical(oc.group("who"))
        yield Claim(subject=who, subject_key=who, predicate="works_on", object="on call",
                    object_key="on call", polarity=-1 if oc.group("neg") else 1,
                    subject_type="person")  # fmt: skip
        return
    m = _ATTR_ACTIVE.match(c)
    passive = False
    if not m or not _agent(m.group("who"), people):
        m = _ATTR_PASSIVE.match(c) or _BELONGS.match(c)
        passive = True
        if not m or not _agent(m.group("who"), people):
            return
    who = _agent(m.group("who"), people) or m.group("who")
    verb, item = m.group("verb"), _trim(m.group("item"))
    key = bag_key(item)
    if not key or len(key.split()) > 5:
        return
    pol = -1 if m.group("neg") else 1
    pred = "created" if any(verb.startswith(v) for v in _CREATE_VERBS) else "works_on"
    yield Claim(subject=who, subject_key=who, predicate=pred, object=item, object_key=key,
                polarity=pol, subject_type="person")  # fmt: skip
    if not passive and verb in ("working on", "works on") and pol == 1 and "is" in c.split()[:3]:
        yield Claim(subject=item, subject_key=key, predicate="status", object="in progress",
                    object_key="in_progress")  # fmt: skip


_STATUS_WORDS = "|".join(sorted((re.escape(w) for w in STATUS), key=len, reverse=True))
_STATUS = re.compile(
    r"^(?P<item>.+?)\s+(?:is|was|are|were|has been|have been|had been|got|is now|are now|"
    r"is still|are still|remains|stays|has|have)\s+(?P<neg>not(?: yet)?\s+)?(?:now\s+|fully\s+|"
    r"finally\s+|still\s+|officially\s+|already\s+|actively\s+|"
    r"(?P<almost>almost|nearly|mostly|partially|partly|half)\s+)*(?P<st>"
    + _STATUS_WORDS
    + r"|begun)\b(?!\s+with\b)(?:\s+.*)?$"
)
_STATUS_INTRANSITIVE = re.compile(
    r"^(?P<item>.+?)\s+(?:has |have |had |just )*(?P<st>finished|completed|shipped|started|stalled|"
    r"launched|began|stopped)(?:\s+(?:yesterday|today|last \w+|this \w+|on \w+|in \w+|"
    r"early|late|on time))?$"
)
_STATUS_COLON = re.compile(r"^(?P<item>.+?):\s*(?P<st>" + _STATUS_WORDS + r")$")
_STATUS_ACTIVE = re.compile(
    r"^(?P<who>.+?)\s+(?:have |has |had |just )*(?P<verb>finished|completed|shipped|wrapped up|"
    r"closed out|released|started|began|kicked off|paused|cancelled|canceled|abandoned|"
    r"put on hold)\s+(?P<item>.+?)" + _END
)


def _status(c: str, people: set[str]) -> Iterator[Claim]:
    m = _STATUS.match(c) or _STATUS_COLON.match(c)
    if m:
        item = _trim(m.group("item"))
        key = bag_key(item)
        if not key or canonical(item) in people or key in GENERIC_SUBJECTS or len(key.split()) > 5:
            return
        st = STATUS.get(m.group("st"), "in_progress")
        if m.groupdict().get("almost"):
            st = "in_progress" if st == "done" else st
        if m.groupdict().get("neg"):
            if st not in ("done", "in_progress"):
                return  # "is not blocked" says little about what it is
            st = {"done": "in_progress", "in_progress": "todo"}[st]
        yield Claim(subject=item, subject_key=key, predicate="status", object=m.group("st"),
                    object_key=st)  # fmt: skip
        return
    m = _STATUS_INTRANSITIVE.match(c)
    if m and canonical(m.group("item")) not in people and _subj(m.group("item")) != "we":
        item = _trim(m.group("item"))
        st = {"started": "in_progress", "began": "in_progress", "stalled": "blocked",
              "stopped": "blocked"}.get(m.group("st"), "done")  # fmt: skip
        yield Claim(subject=item, subject_key=bag_key(item), predicate="status",
                    object=m.group("st"), object_key=st)  # fmt: skip
        return
    m = _STATUS_ACTIVE.match(c)
    if m:
        item = _trim(m.group("item"))
        key = bag_key(item)
        if not key or len(key.split()) > 5 or canonical(item) in people:
            return
        verb = m.group("verb")
        st = {"started": "in_progress", "began": "in_progress", "kicked off": "in_progress",
              "paused": "blocked", "put on hold": "blocked", "cancelled": "cancelled",
              "canceled": "cancelled", "abandoned": "cancelled"}.get(verb, "done")  # fmt: skip
        yield Claim(subject=item, subject_key=key, predicate="status", object=verb, object_key=st)


_STATE_WORDS = "|".join(sorted((re.escape(w) for w in STATE), key=len, reverse=True))
_ENABLED = re.compile(
    r"^(?P<subj>.+?)\s+(?:is|are|was|were|has been|have been|stays|remains|got|will be|is now|"
    r"are now|is still|are still|should be|must be|must stay)\s+(?P<neg>not\s+)?(?:now\s+|"
    r"currently\s+|still\s+|always\s+|permanently\s+|temporarily\s+)*(?P<st>"
    + _STATE_WORDS
    + r")(?:\s+(?:in|on|for|across)\s+(?P<qual>[\w\-]+(?: [\w\-]+){0,3}))?"
    + _END
)
_ENABLE_ACTIVE = re.compile(
    r"^(?P<who>.+?)\s+(?:have |has |had |just )*(?P<st>enabled|disabled|turned on|turned off|"
    r"switched on|switched off|activated|deactivated)\s+(?P<subj>.+?)(?:\s+(?:in|on|for|across)\s+"
    r"(?P<qual>[\w\-]+(?: [\w\-]+){0,3}))?" + _END
)
_TURN = re.compile(
    r"^(?:we |i |they )?(?:have |has )?(?:turned|switched|turn|switch)\s+(?P<subj>.+?)\s+"
    r"(?P<st>on|off)(?:\s+(?:in|on|for)\s+(?P<qual>[\w\-]+(?: [\w\-]+){0,3}))?" + _END
)


def _enabled(c: str) -> Iterator[Claim]:
    m = _ENABLED.match(c) or _ENABLE_ACTIVE.match(c) or _TURN.match(c)
    if not m:
        return
    st = m.group("st")
    pol = STATE.get(st, STATE.get(f"turned {st}", 1))
    if m.groupdict().get("neg"):
        pol = -pol
    subj = _trim(m.group("subj"))
    key = bag_key(subj)
    if not key or key == "we" or len(key.split()) > 5:
        return
    qual = bag_key(m.group("qual")) if m.group("qual") else None
    yield Claim(subject=subj, subject_key=key, predicate="enabled", object=st,
                object_key="on" if pol > 0 else "off", polarity=pol, qualifier=qual)  # fmt: skip


_HABIT = re.compile(
    r"^(?:(?P<subj>.+?)\s+)?(?:should |must |will |do |please )?(?P<mod>always|never|"
    r"(?:must|should|do|does|did|will) not)\s+(?:ever\s+)?(?P<verb>[a-z]+)(?:\s+(?P<obj>.+?))?"
    + _END
)
_ACT_PASSIVE = re.compile(
    r"^(?P<subj>.+?)\s+(?:is|are|gets|get|was|were)\s+(?P<neg>not\s+|never\s+)?"
    r"(?P<verb>reset|run|set|built|kept|shut|cut|[a-z]+ed)(?:\s+(?P<rest>.*))?$"
)
_NOT_ACT_VERBS = frozenset({
    "is", "are", "was", "were", "be", "been", "has", "have", "had", "use", "uses", "used",
    "using", "prefers", "prefer", "likes", "like", "owns", "own", "works", "work", "leads",
    "maintains", "handles", "runs", "run", "depends", "relies", "chose", "picked", "moved",
    "migrated", "switched", "replaced", "decided", "agreed", "will", "can", "should", "must",
    "may", "might", "would", "could", "need", "needs", "want", "wants", "hates", "loves",
    "finished", "completed", "started", "shipped", "enabled", "disabled", "turned", "belongs",
    "took", "takes", "created", "built", "wrote", "defaults", "equals", "expire", "expires",
})  # fmt: skip


def _verb_lemma(verb: str) -> str:
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def _habit(c: str, verbs: set[str]) -> Iterator[Claim]:
    """always/never, present-simple actions and their negations: "we (never) deploy on fridays"."""
    m = _HABIT.match(c)
    if m:
        verb = m.group("verb")
        if verb in ("use", "using", "uses", "be", "is", "are", "have", "get", "like", "prefer"):
            return
        subj = m.group("subj") or "we"
        pol = 1 if m.group("mod") == "always" else -1
        yield _act(subj, verb, m.group("obj") or "", pol, "always" if pol > 0 else "never")
        return
    m = _ACT_PASSIVE.match(c)
    if m and not re.match(r"\s*(?:to|from|by|with|in favou?r)\b", m.group("rest") or ""):
        subj = m.group("subj")
        if subj.split()[-1] not in ("been", "being"):
            pol = -1 if m.group("neg") else 1
            yield _act(
                subj,
                m.group("verb"),
                "",
                pol,
                "never" if "never" in (m.group("neg") or "") else None,
            )
        return
    act = _split_act(c, verbs)
    if act:
        yield _act(*act)


def _split_act(c: str, verbs: set[str]) -> tuple[str, str, str, int, str | None] | None:
    """Subject, verb, object and polarity of a plain present-tense clause, by the first verb."""
    words = c.split()
    for i, w in enumerate(words[:6]):
        if i == 0:
            continue
        neg = False
        j = i
        if (w in ("does", "do", "did", "will") and words[i + 1 : i + 2] == ["not"]) or (
            w == "no" and words[i + 1 : i + 2] == ["longer"]
        ):
            neg, j = True, i + 2
        elif w == "never":
            neg, j = True, i + 1
        elif w not in verbs:
            continue
        if j >= len(words) - 1:
            return None
        verb = words[j]
        if (
            verb in _NOT_ACT_VERBS
            or verb.endswith(("ed", "ing"))
            or (not neg and verb not in verbs)
        ):
            return None
        subj = " ".join(words[:i])
        if subj.split()[-1] in ("is", "are", "was", "not", "always") or len(subj.split()) > 5:
            return None
        return subj, verb, " ".join(words[j + 1 :]), -1 if neg else 1, None
    return None


def _act(subj: str, verb: str, obj: str, pol: int, modality: str | None) -> Claim:
    obj = re.sub(r"\s+(?:when|on|before|after|during|while)\s+\w+$", "", obj)
    lemma = stem(_verb_lemma(verb))
    okey = bag_key(_trim(obj)) if obj else ""
    return Claim(subject=subj, subject_key=bag_key(subj) if _subj(subj) != "we" else "we",
                 predicate=f"act:{lemma}", object=obj, object_key=okey, polarity=pol,
                 modality=modality)  # fmt: skip


_PREFERS = re.compile(
    r"^" + _WHO + r"\s+" + _NEG + r"(?P<verb>prefers?|preferring|likes?|loves?|"
    r"favou?rs?|wants?|hates?|dislikes?|avoids?|can't stand|cannot stand|enjoys?)\s+"
    r"(?:to use\s+|using\s+|working with\s+|to work with\s+|working in\s+|writing\s+)?"
    r"(?P<obj>[\w.+#\- ]+?)(?:\s+(?:over|to|instead of|rather than)\s+(?P<other>[\w.+#\- ]+?))?"
    r"(?:\s+(?:for|in|when)\s+(?P<qual>.+?))?" + _END
)
_PREFERENCE_IS = re.compile(
    r"^(?P<who>[a-z]+)(?:'s| s)\s+(?:preference|preferred \w+|favou?rite \w+|\w+ of choice)\s+"
    r"is\s+(?P<obj>.+?)" + _END
)


def _prefers(c: str, people: set[str]) -> Iterator[Claim]:
    m = _PREFERS.match(c)
    other: str | None = None
    if m:
        who, obj = m.group("who"), m.group("obj")
        neg = bool(m.group("neg")) or m.group("verb").startswith(
            ("hate", "dislike", "avoid", "can't", "cannot")
        )
        other = m.group("other")
    else:
        m = _PREFERENCE_IS.match(c)
        if not m:
            return
        who, obj, neg = m.group("who"), m.group("obj"), False
    if not (_is_person(who, people) or who in ("i", "we")):
        return
    pol = -1 if neg else 1
    key = canonical(_trim(obj))
    if not key:
        return
    yield Claim(subject=who, subject_key=_subj(who), predicate="prefers", object=obj,
                object_key=_pref_key(key), polarity=pol, category=_pref_category(key),
                subject_type="person")  # fmt: skip
    if other:
        okey = canonical(_trim(other))
        if okey:
            yield Claim(subject=who, subject_key=_subj(who), predicate="prefers", object=other,
                        object_key=_pref_key(okey), polarity=-pol, category=_pref_category(okey),
                        subject_type="person", modality="over")  # fmt: skip


def _pref_key(key: str) -> str:
    return key if category(key) else bag_key(key)


def _pref_category(key: str) -> str | None:
    if category(key):
        return category(key)
    words = key.split()
    return category(words[0]) if words else None


_ATTRIBUTE = re.compile(
    r"^(?P<subj>.+?)\s+(?P<verb>is set to|was set to|are set to|has been set to|is now set to|"
    r"(?:was |has been |is |got )?(?:raised|lowered|increased|decreased|changed|bumped|reduced|"
    r"updated|moved) to|defaults to|default to|equals|should be|must be|will be|has been|is now|"
    r"is|are|was)\s+(?P<val>.+?)" + _END
)
_EXCLUDED_VALUES = frozenset(STATUS) | frozenset(STATE)


def _attribute(c: str) -> Iterator[Claim]:
    m = _ATTRIBUTE.match(c)
    if not m:
        return
    subj, verb, val = m.group("subj"), m.group("verb"), m.group("val")
    qual = None
    qm = re.match(r"^(?P<v>.+?)\s+(?:in|on|for)\s+(?P<q>prod|production|staging|dev|development|"
                  r"test|qa|ci|local|the \w+ environment)$", val)  # fmt: skip
    if qm:
        val, qual = qm.group("v"), canonical(qm.group("q"))
    val = _trim(val)
    if not val or val.split()[0] in ("not", "no", "now", "still", "being", "going", "a", "an"):
        return
    first = val.split()[0]
    if first.endswith("ed") or first in ("reset", "run", "set", "built", "kept"):
        return  # a passive action, not a value
    words = canonical(subj).split()
    if not words or len(words) > 6 or words[0] in GENERIC_SUBJECTS:
        return
    v = canonical(val)
    role = re.match(r"^(?P<role>.+?)\s+(?:for|of)\s+(?P<x>.+)$", " ".join(words))
    if category(v):  # "the package manager for the frontend is npm" -> frontend uses npm
        subject = role.group("x") if role else " ".join(words)
        cl = _tool_claim(subject, val, 1)
        if cl:
            yield cl
        return
    numeric = bool(re.search(r"\d", val))
    explicit = verb.endswith(" to") or "default" in verb or "equals" in verb
    head = words[-1]
    if not (numeric or explicit or head in ATTRIBUTE_NOUNS or head.rstrip("s") in ATTRIBUTE_NOUNS):
        return
    if v in _EXCLUDED_VALUES or not v or len(v.split()) > 6:
        return
    if not numeric and not explicit and len(v.split()) > 3:
        return
    yield Claim(subject=subj, subject_key=bag_key(" ".join(words)), predicate="attribute",
                object=val, object_key=v, qualifier=qual)  # fmt: skip


_NUMERIC = re.compile(
    r"^(?P<subj>.+?)\s+(?:is |are )?(?P<verb>expires?|times? out|runs?|retains?|keeps?|"
    r"retained|kept|lasts?|listens|serves|binds|is served|is exposed|are retained|is retained|"
    r"are kept|is kept|are stored|is stored)\s+(?:after|for|every|at|with|up to|on|to|in)?\s*"
    r"(?P<port>port\s+)?(?P<val>\d[\w.,:/%\- ]*)$"
)


def _numeric(c: str) -> Iterator[Claim]:
    """Numeric settings said with a verb: "tokens expire after 24 hours", "listens on port 80"."""
    m = _NUMERIC.match(c)
    if not m:
        return
    subj = canonical(m.group("subj"))
    if not subj or subj in GENERIC_SUBJECTS:
        return
    verb = (
        "port"
        if m.group("port") or m.group("verb") in ("listens", "serves", "binds")
        else (stem(_verb_lemma(m.group("verb").split()[-1])))
    )
    val, qual = m.group("val"), None
    qm = re.match(
        r"^(?P<v>.+?)\s+(?:in|on|for)\s+(?P<q>prod|production|staging|dev|test|qa|ci)$", val
    )
    if qm:
        val, qual = qm.group("v"), canonical(qm.group("q"))
    yield Claim(subject=m.group("subj"), subject_key=bag_key(f"{subj} {verb}"),
                predicate="attribute", object=val, object_key=canonical(val),
                qualifier=qual)  # fmt: skip
