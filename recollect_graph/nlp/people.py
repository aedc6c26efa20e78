"""Which names are people: the sentence around a name, when the NER typed it otherwise.

The small English pipeline types a name it has never seen by its shape, so "Marta", "Wojciech"
or "Thandiwe Dlamini" come out as places or organisations. The rules here read what the sentence
says of the name instead (a family role before it, a verb only people do, "her" in its clause, a
coordinated person) and retype every mention of that name. :func:`employers` does the same for
the organisations someone works for that the NER read as places ("works for Shopify").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar, Protocol, TypeVar

from recollect_graph.nlp.gazetteer import HUMAN_VERBS, KIN_WORDS


class _Named(Protocol):
    """A frozen dataclass span of a name (the extractor's ``_Span``)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def key(self) -> str: ...
    @property
    def entity_type(self) -> str: ...


S = TypeVar("S", bound=_Named)


def people(doc: Any, spans: list[S], known: frozenset[str]) -> list[S]:
    """Names the NER typed as organisations or places that their sentence shows are people.

    A written name (capitalised words, no known technology) after a family or social role ("my
    aunt Nkechi Obi-Adeyemi"), before ", who" ("Oisín, who has worked at Monzo"), or as the
    subject of a verb only people do ("Adebayo ported it", "Oisín grew up in Galway"), as the
    agent of such a verb ("suggested by Marguerite Okonkwo-Blanc"), as the subject of a clause
    that calls it "her" or "his" ("Marta hosted at her flat"), or coordinated with a person
    ("Priya Raman, Dumisani and Zanele") is a person, and so is every other mention of that name
    in the text. ``known`` names are technologies, never people.
    """
    found = {s.key for s in spans if s.entity_type == "person"}
    named = []
    for s in spans:
        if s.entity_type == "person" or s.key in known:
            continue
        toks = doc[s.start : s.end]
        if not all(t.text[:1].isupper() for t in toks if t.is_alpha):
            continue
        named.append(s)
        last = toks[-1]
        after = [t.lower_ for t in doc[s.end : s.end + 2]]
        if (
            (s.start > 0 and doc[s.start - 1].lower_ in KIN_WORDS)
            or after in ([",", "who"], [",", "whose"])
            or (last.dep_ == "nsubj" and last.head.lemma_.lower() in HUMAN_VERBS)
            or _human_agent(last)
            or (s.entity_type != "organization" and _gendered_clause(last))
        ):
            found.add(s.key)
    by_token = {i: s for s in spans for i in range(s.start, s.end)}
    grew = True
    while grew:  # "Ana and Ben pair on it": a name coordinated with a person is a person
        grew = False
        for s in named:
            if s.key not in found and any(
                by_token[o.i].key in found for o in _conjuncts(doc[s.end - 1]) if o.i in by_token
            ):
                found.add(s.key)
                grew = True
    return [replace(s, entity_type="person") if s.key in found else s for s in spans]


def _conjuncts(tok: Any) -> list[Any]:
    """The heads of the names coordinated with ``tok`` ("Amara and Lucas Ferreira")."""
    return list(tok.conjuncts)


def _human_agent(tok: Any) -> bool:
    """``tok`` is the agent of a passive verb only people do ("suggested by Marguerite")."""
    by = tok.head
    return (
        tok.dep_ == "pobj"
        and by.lower_ == "by"
        and by.dep_ == "agent"
        and by.head.lemma_.lower() in HUMAN_VERBS
    )


def _gendered_clause(tok: Any) -> bool:
    """``tok`` is the subject of a clause that speaks of the subject as "her" or "his".

    "Marta hosted at her flat": an organisation is "its" or "their", never "her". The pronoun
    must be a possessive or reflexive inside the same clause, not in a clause of its own; a name
    the NER reads as an organisation keeps its type ("Google bought her company").
    """
    if tok.dep_ != "nsubj":
        return False
    verb = tok.head
    for t in verb.subtree:
        if t.lower_ in ("her", "his", "herself", "himself") and t.dep_ in ("poss", "dobj", "pobj"):
            if t.dep_ != "poss" and not t.lower_.endswith("self"):
                continue
            clause = t.head
            while (
                clause.dep_ not in ("ROOT", "ccomp", "advcl", "relcl", "xcomp") and clause != verb
            ):
                clause = clause.head
            if clause == verb:
                return True
    return False


def name_parts(spans: Sequence[_Named]) -> set[str]:
    """The words of the full names of people among ``spans`` ("priya", "raman")."""
    return {w for s in spans if s.entity_type == "person" and " " in s.key for w in s.key.split()}


def same_person(spans: list[S], parts: set[str]) -> list[S]:
    """A first or last name alone is the person its full name in the same text is ("Priya")."""
    return [
        replace(s, entity_type="person")
        if s.key in parts and " " not in s.key and s.entity_type in ("place", "organization")
        else s
        for s in spans
    ]


#: Verbs whose "for" / "at" / "by" object is an employer ("works at Nubank", "hired by Monzo").
_EMPLOY_VERBS = frozenset({"work", "intern", "volunteer", "teach", "employ", "hire", "contract"})


def employers(doc: Any, spans: list[S], known: frozenset[str]) -> list[S]:
    """Names the NER mistyped that the sentence shows are someone's employer.

    The object of "work / intern / volunteer / teach for or at" and of "employed / hired by"
    is an organisation ("Priyanka works for Shopify in Toronto": Shopify, not Toronto), whatever
    the NER read (a place, a work, a group, a product) unless it is a person or a known
    technology; a place keeps its type after "in" ("works in Toronto"). Every mention of the
    name is retyped.
    """
    found = set()
    for s in spans:
        if s.entity_type in ("person", "organization") or s.key in known:
            continue
        last = doc[s.end - 1]
        prep = last.head
        if (
            last.dep_ == "pobj"
            and prep.lower_ in ("for", "at", "by")
            and prep.head.lemma_.lower() in _EMPLOY_VERBS
        ):
            found.add(s.key)
    return [replace(s, entity_type="organization") if s.key in found else s for s in spans]
