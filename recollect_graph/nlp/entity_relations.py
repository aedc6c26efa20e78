"""Relations between entity mentions: subject-verb-object over spaCy's dependency parse.

``"Alice depends on PostgreSQL"`` gives ``alice --depend on--> postgresql``: the verb's lemma,
its particle and preposition; negated verbs prefixed ``not``; "replaced X with Y" read as
``Y --replace--> X``. Used by :mod:`recollect_graph.nlp.entities`, which finds the mentions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

_SUBJ = {"nsubj", "nsubjpass"}
_RELATIVE = {"who", "which", "that"}
_OBJ = {"dobj", "attr", "oprd"}


@dataclass(frozen=True)
class Span:
    """A mention in a parsed text: its token range, normalised key, name and type."""

    start: int  # token index
    end: int
    key: str
    name: str
    entity_type: str
    speaker: bool = False  # a chat line's speaker: the sentence after it is not about them


def svo(doc: Any, by_token: dict[int, Span]) -> Iterable[tuple[Span, str, Span, str]]:
    """Every (subject, predicate, object, sentence) the parse states between two mentions.

    ``by_token`` maps a token index to the mention it is part of. A replacement ("replaced X
    with Y") gives ``Y --replace--> X``; a negated verb is prefixed ``not``; a chat line's
    speaker is never a subject or an object.
    """
    for tok in doc:
        if tok.pos_ not in ("VERB", "AUX") or tok.dep_ in ("aux", "auxpass"):
            continue
        subjects = [s for c in tok.children if c.dep_ in _SUBJ for s in _with_conj(c)]
        if tok.dep_ == "relcl" and any(s.lower_ in _RELATIVE for s in subjects):
            subjects = _with_conj(tok.head)  # "Aleksandra, who works at Allegro": Aleksandra
        if not subjects and tok.dep_ == "conj":  # "X writes to A and depends on B"
            subjects = [s for c in tok.head.children if c.dep_ in _SUBJ for s in _with_conj(c)]
        replaced = _replacement(tok, by_token)
        if replaced is not None:
            yield replaced
            continue
        if not subjects:
            continue
        negated = any(c.dep_ == "neg" for c in tok.children)
        particle = "".join(f" {c.lower_}" for c in tok.children if c.dep_ == "prt")
        lemma = ("not " if negated else "") + tok.lemma_.lower() + particle  # "grow up"
        objects: list[tuple[str, Any]] = []
        # "Marco manages that account in Okta": with an object that is no entity, a
        # prepositional phrase says where or how the act was done, not a relation to it
        adjunct = any(c.dep_ == "dobj" and _span_of(c, by_token) is None for c in tok.children)
        for c in tok.children:
            if c.dep_ in _OBJ:
                objects.extend((lemma, o) for o in _with_conj(c))
            elif c.dep_ in ("prep", "agent") and not adjunct and not _after_coordinator(tok, c):
                for p in c.children:
                    if p.dep_ == "pobj":
                        # a preposition inside the mention ("owns on-call") is no relation word
                        pred = lemma if c.i in by_token else f"{lemma} {c.lower_}"
                        objects.extend((pred, o) for o in _with_conj(p))
        for s in subjects:
            ss = _span_of(s, by_token)
            if ss is None or ss.speaker:
                continue
            for pred, o in objects:
                os_ = _span_of(o, by_token)
                if os_ is not None and not os_.speaker:  # a next chat line's speaker
                    yield ss, pred, os_, tok.sent.text


def _after_coordinator(verb: Any, prep: Any) -> bool:
    """A prepositional phrase after "and"/"but" that follows the verb belongs to a later clause.

    The sm parser reads "is written in Go and stores data in PostgreSQL" with "stores" as a noun
    and hangs "in PostgreSQL" on "written"; a coordinator between the verb and its preposition
    says the phrase is not the verb's.
    """
    doc = verb.doc
    return prep.i > verb.i and any(doc[k].dep_ == "cc" for k in range(verb.i + 1, prep.i))


def _replacement(tok: Any, by_token: dict[int, Span]) -> tuple[Span, str, Span, str] | None:
    """A replacement ("replaced X with Y", "swapped X for Y"): Y --replace--> X."""
    if tok.lemma_.lower() not in ("replace", "swap", "substitute"):
        return None
    # "replaced X with Y"; passive: "X was replaced by Y"
    old = next((c for c in tok.children if c.dep_ in ("dobj", "nsubjpass")), None)
    if old is None:  # the sm parser tags an unknown name as punctuation: take the mention
        old = next((c for c in tok.rights if c.i in by_token and c.dep_ != "prep"), None)
    if old is None:
        return None
    new = next(
        (p for h in (tok, old) for c in h.children
         if c.dep_ in ("prep", "agent") and c.lower_ in ("with", "by", "for")
         for p in c.children if p.dep_ == "pobj"),
        None,
    )  # fmt: skip
    if new is None:
        return None
    so, sn = _span_of(old, by_token), _span_of(new, by_token)
    if so is None or sn is None:
        return None
    return sn, "replace", so, tok.sent.text


def _span_of(tok: Any, by_token: dict[int, Span]) -> Span | None:
    """The mention a token is part of, else the one its compound modifier names."""
    if tok.i in by_token:
        return by_token[tok.i]
    for c in tok.children:
        if c.dep_ in ("compound", "nmod", "amod") and c.i in by_token:
            return by_token[c.i]
    return None


def _with_conj(tok: Any) -> list[Any]:
    return [tok, *(c for c in tok.children if c.dep_ == "conj")]
