"""LLM-free claim extraction: (subject, predicate, object, polarity) from ordinary sentences.

spaCy splits sentences, finds people (PERSON entities and proper nouns), dates and lemmas; a set of
clause frames maps ordinary phrasing onto a small set of normalised predicates:

- ``works_on``  person -> work item (owns, works on, assigned to, on call for, leads, took over)
- ``created``   person -> thing (created, built, wrote)
- ``status``    work item -> done / in_progress / blocked / cancelled / todo
- ``uses``      subject -> tool (uses, runs on, built with, decided to use, moved from X to Y)
- ``prefers``   person -> option (prefers X over Y, likes, hates)
- ``enabled``   thing -> on/off, with an environment qualifier (is disabled in prod)
- ``habit:<verb>`` subject -> object with always/never (we always squash merges)
- ``attribute`` subject -> value (the rate limit is 500 requests per minute; defaults to main)

Polarity is -1 for negation ("no longer", "not", "stopped", "never", "disabled").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import asdict, replace
from typing import Any

from recollect_graph.nlp.about import claim_about
from recollect_graph.nlp.claim_lexicon import GENERIC_SUBJECTS, bag_key
from recollect_graph.nlp.frames import Claim, frames
from recollect_graph.nlp.slots import slot_frames
from recollect_graph.nlp.spacy_loader import SpacyLoader

__all__ = ["CLAIM_EXCLUDE", "Claim", "ClaimExtractor"]

CLAIM_EXCLUDE = ("parser", "lemmatizer")


_PREFIX = re.compile(
    r"^(?:(?:(?:fix|feat|chore|build|docs|refactor|perf|test|ci|style)(?:\([\w-]+\))?!?:|"
    r"so|now|also|currently|today|yesterday|then|update|note|fyi|btw|heads up|as of \w+|"
    r"(?:last|this|next) (?:week|month|quarter|year|sprint|night|\w+day)|"
    r"from now on|going forward|since \w+(?: \w+)?|after \w+(?: \w+)?|ok|okay)[:,]?\s+)+"
)
_CLAUSE_SPLIT = re.compile(r";\s+|,\s+(?:and|but|so|while|whereas)\s+|\s+but\s+|\s+whereas\s+")


class ClaimExtractor:
    """Extracts claims from text with spaCy and clause frames.

    Args:
        spacy: The pipeline loader (loaded lazily on first use).
    """

    def __init__(self, spacy: SpacyLoader) -> None:
        self.spacy = spacy

    def extract(self, text: str) -> list[Claim]:
        """Claims of one text (deduplicated, in order)."""
        return self.extract_many([text])[0]

    def extract_many(self, texts: list[str]) -> list[list[Claim]]:
        """Claims of many texts (spaCy runs batched)."""
        nlp = self.spacy.load()
        out = []
        for doc in nlp.pipe(texts, batch_size=64):
            people = {e.text.lower() for e in doc.ents if e.label_ == "PERSON"}
            people |= {
                t.text.lower()
                for t in doc
                if t.pos_ in ("PROPN", "NOUN")
                and t.text[:1].isupper()
                and t.text.isalpha()
                and t.text.lower() not in GENERIC_SUBJECTS
                and len(t.text) > 1
                and not (t.is_sent_start and t.pos_ == "NOUN" and t.text.lower() in _COMMON)
            }
            verbs = {t.text.lower() for t in doc if t.pos_ in ("VERB", "AUX")}
            proper = {
                t.text.lower()
                for t in doc
                if (t.text[:1].isupper() and not t.is_sent_start)
                or t.pos_ == "PROPN"
                or t.ent_type_ in ("ORG", "GPE", "PRODUCT", "LOC", "FAC", "NORP")
            }
            labels = number_labels(doc)
            found: list[Claim] = []
            for sent in doc.sents:
                dates = [e.text for e in sent.ents if e.label_ == "DATE"]
                for clause in _clauses(sent.text):
                    for c in [
                        *frames(clause, people, verbs),
                        *slot_frames(clause, people, proper, labels),
                    ]:
                        c2 = (
                            c
                            if not dates or c.predicate.startswith("slot:")
                            else _with_time(c, dates[0])
                        )
                        c2 = _with_about(c2, sent, verbs)
                        if c2 not in found:
                            found.append(c2)
            out.append(found)
        return out


def number_labels(doc: Any) -> set[str]:
    """Pairs "noun number" (lower-cased) where the number names the thing before it.

    "Service 0", "Build 1234", "Room 101": a plain number right after a singular noun labels it.
    A count stands before its noun ("12 engineers") or after a verb ("is 500", "has 12"); after a
    plural ("retries 3") or a measure ("timeout 30", "port 5432", "pool size 20") it is an amount.
    """
    out = set()
    for t in doc:
        if not (t.text.isdigit() and t.i):
            continue
        prev = doc[t.i - 1]
        if prev.tag_ in ("NN", "NNP") and prev.text.lower() not in _MEASURES:
            out.add(f"{prev.text.lower()} {t.text}")
    return out


_MEASURES = frozenset({
    "size", "limit", "timeout", "ttl", "budget", "cap", "count", "total", "max", "min", "maximum",
    "minimum", "capacity", "quota", "threshold", "rate", "score", "age", "price", "cost", "salary",
    "rent", "weight", "height", "length", "width", "number", "amount", "level", "priority", "port",
    "retries", "retry", "workers", "concurrency", "interval", "delay", "deadline", "version",
})  # fmt: skip


_COMMON = frozenset({"billing", "checkout", "auth", "search", "deploy", "release", "build",
                     "frontend", "backend", "staging", "prod", "cache", "ci", "the"})  # fmt: skip


def _with_time(c: Claim, when: str) -> Claim:
    return Claim(**{**asdict(c), "time": when})


def _with_about(c: Claim, sent: Any, verbs: set[str]) -> Claim:
    found = claim_about(sent, c.subject, c.subject_type)
    if found is None:
        return c
    c = replace(c, about=found[0], about_type=found[1])
    words = c.subject.split()
    longer = len(words) >= len(found[0].split()) + 3  # a run-over, not "issue tracking"
    if (
        c.predicate == "uses"
        and c.subject_key != "we"  # "we migrated X from A to B": the team's choice, kept as is
        and ("and" in words or (longer and any(w in verbs for w in words)))
    ):
        # "the billing service writes to postgresql 15 and | uses redis": the frame ran over a
        # clause; the tool choice is the service's, so it meets "the billing service uses X"
        name = found[0].lower()
        c = replace(c, subject=name, subject_key=bag_key(name))
    return c


def _clauses(sentence: str) -> Iterator[str]:
    text = re.sub(r"\s+", " ", sentence).strip().rstrip(".!?")
    for part in _CLAUSE_SPLIT.split(text):
        part = _PREFIX.sub("", part.strip().lower()).strip(" ,")
        part = re.sub(
            r"\b(?:is|are|was|do|does|has|have)n't\b", lambda m: m.group(0)[:-3] + " not", part
        )
        part = part.replace("won't", "will not").replace("can't", "cannot")
        part = re.sub(r",\s*not\s+[\w\s]+?,\s*", " ", part)
        part = re.sub(r"\b(has|have|had) not been\b", r"\1 been not", part)
        part = re.sub(r"\b(is|are|was|were) not yet\b", r"\1 not", part)
        part = re.sub(r"\s+yet$", "", part)
        if part:
            yield part
