"""Entities and relations without an LLM: spaCy NER, noun phrases and subject-verb-object.

For each text (a chunk or an entry) the extractor returns its entity mentions, normalised
(lower case, determiners and surrounding punctuation dropped, the head noun lemmatised) with a
count and a context snippet, and the relations the dependency parse states between two of them:
``subject --verb[ preposition]--> object`` (``"Alice depends on PostgreSQL"`` gives
``alice --depend on--> postgresql``), negated verbs prefixed ``not``. Pronoun subjects and
objects are skipped (no coreference without a model for it).

Mention sources, in priority order when spans overlap: named entities (types mapped from spaCy's
labels), inline code spans (type ``tool``), and noun phrases (type ``concept``; a bare
single-word common noun counts only when it occurs twice in the text, so ordinary words do not
all become entities).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from recollect_graph.nlp.claim_lexicon import ALIASES, CATEGORY_OF
from recollect_graph.nlp.entity_relations import Span as _Span
from recollect_graph.nlp.entity_relations import svo as _svo
from recollect_graph.nlp.gazetteer import (
    COMPONENT_HEADS,
    EVERYDAY_TOOL_WORDS,
    GENERIC_ACRONYMS,
    GROUP_HEADS,
    KIN_WORDS,
    TIME_WORDS,
    TOOL_NAMES,
)
from recollect_graph.nlp.people import employers, name_parts, people, same_person
from recollect_graph.nlp.spacy_loader import SpacyLoader

#: spaCy NER label -> entity type. Labels not listed (dates, numbers, money...) are not entities.
NER_TYPES: dict[str, str] = {
    "PERSON": "person",
    "ORG": "organization",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
    "PRODUCT": "tool",
    "EVENT": "event",
    "WORK_OF_ART": "work",
    "LAW": "concept",
    "NORP": "group",
    "LANGUAGE": "concept",
}
_CODE = re.compile(r"`([^`\n]{2,60})`")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.+-]*[A-Za-z0-9]$")
_STRIP = " \t\n\"'`.,;:!?()[]{}<>*_#|"
_LEADING = {"the", "a", "an", "this", "that", "these", "those", "our", "their", "its", "my", "your",
            "dr", "dr.", "mr", "mr.", "mrs", "mrs.", "ms.", "prof", "prof."}  # fmt: skip
#: Leading words a named component is the same without ("the new billing service").
_QUALIFIERS = {"new", "old", "current", "previous", "same", "other", "whole", "entire", "first",
               "last", "next", "existing", "only", "own", "single"}  # fmt: skip
#: Modifiers that say what kind of thing it is, not which one: "the main database" and "a mock
#: server" name no component of a system; "the billing service" does (what it does names it).
_GENERIC = {"main", "primary", "secondary", "local", "remote", "mock", "fake", "dummy", "shared",
            "default", "central", "global", "big", "small", "large", "tiny", "temporary", "spare",
            "standby", "underlying", "separate", "dedicated", "real", "actual"}  # fmt: skip
#: Lower-case words inside a name ("Rua das Flores", "Ludwig van Beethoven").
_CONNECTORS = {"da", "das", "de", "do", "dos", "del", "della", "di", "du", "van", "von", "der",
               "den", "la", "le", "y", "e"}  # fmt: skip
#: Size and time units: never entities, and dropped where they lead a noun phrase after its
#: number ("40 GB main database").
_UNIT_WORDS = frozenset({"gb", "mb", "kb", "tb", "ms", "sec", "min", "hour", "hours", "day",
                         "days"})  # fmt: skip
_UNITS = _UNIT_WORDS | {"secs", "mins", "x", "%", "percent"}
#: Heads that make a noun phrase an entity: a named part of a system, or a group of people.
_NAMED_HEADS = COMPONENT_HEADS | GROUP_HEADS
_NOT_IN_NAMES = ("PUNCT", "SYM", "X", "NUM", "VERB", "PART")
#: The on-call duty, unless it names a part of a system ("the on-call rotation": a noun phrase).
_DUTY = re.compile(rf"\bon[- ]call\b(?!\s+(?:{'|'.join(sorted(COMPONENT_HEADS))})\b)", re.I)
#: A cloud region ("us-east-1", "eu-central"): a place.
_REGION = re.compile(
    r"\b(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:gov-)?(?:east|west|north|south|central|northeast|"
    r"southeast|northwest|southwest)(?:-\d)?\b"
)
#: Ticket, severity and instance numbers ("sev-2", "INC-2291", "replica-2"): no entities.
_NUMBERED = re.compile(r"^[A-Za-z]+-\d+$")
#: A number with a short suffix ("502s", "3x", "10k").
_COUNT = re.compile(r"^\d[\d.,]*[a-z]{0,2}$")
MAX_WORDS = 5
SNIPPET_CHARS = 200
#: Technology names (the claim lexicon's tools and their spellings, and the gazetteer's): matched
#: by rule ahead of the statistical NER, which types Grafana, Kafka or Redis as people. The
#: lexicon's branch names, preferences and environments are values of claims, not products.
TECHNOLOGIES = (frozenset(CATEGORY_OF) | frozenset(ALIASES) | TOOL_NAMES) - frozenset({
    "production", "development", "tab", "space", "tabs", "spaces", "develop", "main", "master",
    "trunk", "rebase", "rebasing", "squash", "squashing", "merge commits", "prod environment",
    "staging environment", "the production environment",
})  # fmt: skip
#: Never entities: pronouns, units and format or size abbreviations the tagger takes for names.
NOT_ENTITIES = frozenset({
    "we", "i", "you", "they", "he", "she", "it", "us", "them", "me", "our", "everyone", "someone",
    "json", "yaml", "csv", "xml", "html", "url", "api", "id", "ids", "todo", "fyi", "btw", "ok",
    "eta", "tl;dr",
}) | _UNIT_WORDS | GENERIC_ACRONYMS | TIME_WORDS | KIN_WORDS  # fmt: skip
#: A code span that can name a product: one word, no path, assignment, key or variable syntax.
_CODE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9+-]*[A-Za-z0-9+]$")


_SPEAKER = re.compile(r"^\s*[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)?:\s")
_MARKUP = re.compile(r"^\s*(?:[-+*]|\d+[.)])\s+|^\s*>+|[#|*]+|\[\^?\d+\]", re.MULTILINE)


def plain_text(text: str) -> str:
    """Markdown markup (headings, tables, emphasis, list bullets) blanked out for parsing.

    A heading, a list item or the last line of a paragraph that does not end a sentence gets a
    full stop, so the parser does not run it into the next sentence. Fenced code is dropped.
    """
    lines = text.split("\n")
    out = []
    fenced = False
    for i, line in enumerate(lines):
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            out.append("")
            continue
        if fenced:  # code is not prose: no entities or relations from it
            out.append("")
            continue
        block_end = (
            i + 1 == len(lines) or not lines[i + 1].strip() or bool(_SPEAKER.match(lines[i + 1]))
        )  # a chat line ends where the next speaker starts
        marked = bool(re.match(r"^\s*(?:#{1,6}\s|[-+*]\s|\d+[.)]\s)", line))
        plain = _MARKUP.sub(lambda m: " " * len(m.group(0)), line).rstrip()
        if plain.strip() and (block_end or marked) and plain[-1] not in ".!?:;,":
            plain += "."
        out.append(plain)
    return "\n".join(out)


def normalize(name: str) -> str:
    """The key an entity is de-duplicated on (exact match within a scope)."""
    words = name.strip(_STRIP).lower().split()
    while words and words[0] in _LEADING:
        words = words[1:]
    return " ".join(w.strip(_STRIP) or w for w in words)


@dataclass
class Mention:
    """An entity as one text mentions it."""

    name: str
    key: str
    entity_type: str
    count: int = 1
    snippet: str = ""


@dataclass
class Extraction:
    """What one text yields: mentions by key and (subject key, predicate, object key, snippet)."""

    mentions: dict[str, Mention] = field(default_factory=dict)
    relations: list[tuple[str, str, str, str]] = field(default_factory=list)


class EntityExtractor:
    """Extracts entity mentions and SVO relations with the configured spaCy pipeline.

    Args:
        spacy: Loader of a pipeline with a parser and NER (``en_core_web_sm`` by default).
    """

    def __init__(self, spacy: SpacyLoader) -> None:
        self.spacy = spacy

    def extract(self, texts: Sequence[str], *, batch_size: int = 32) -> list[Extraction]:
        """One :class:`Extraction` per text, in order."""
        nlp = self.spacy.load()
        plain = [plain_text(t) for t in texts]
        return [self._one(doc) for doc in nlp.pipe(plain, batch_size=batch_size)]

    def _one(self, doc: Any) -> Extraction:
        spans = _spans(doc)
        out = Extraction()
        by_token: dict[int, _Span] = {}
        for sp in spans:
            for i in range(sp.start, sp.end):
                by_token[i] = sp
            sent = doc[sp.start].sent
            m = out.mentions.get(sp.key)
            if m is None:
                out.mentions[sp.key] = Mention(
                    sp.name, sp.key, sp.entity_type, 1, _snippet(sent.text)
                )
            else:
                m.count += 1
        seen: set[tuple[str, str, str]] = set()
        for subj, pred, obj, sent in _svo(doc, by_token):
            if subj.key == obj.key or (subj.key, pred, obj.key) in seen:
                continue
            seen.add((subj.key, pred, obj.key))
            out.relations.append((subj.key, pred, obj.key, _snippet(sent)))
        return out


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…"


def _spans(doc: Any) -> list[_Span]:
    taken: set[int] = set()
    spans: list[_Span] = []

    def add(start: int, end: int, name: str, etype: str, speaker: bool = False) -> None:
        if "\n" in name or any(i in taken for i in range(start, end)):
            return
        key = normalize(name)
        if len(key) < 2 or not any(c.isalpha() for c in key) or len(key.split()) > MAX_WORDS:
            return
        if key in NOT_ENTITIES or key.startswith("-") or name.strip().startswith("-"):
            return  # pronouns, units, formats and CLI flags are not entities
        if _NUMBERED.match(key) or _COUNT.match(key):
            return  # "SEV-3", "INC-2291", "502s": numbers, not names
        taken.update(range(start, end))
        spans.append(_Span(start, end, key, name.strip(_STRIP), etype, speaker))

    for m in _REGION.finditer(doc.text):
        sp = doc.char_span(m.start(), m.end(), alignment_mode="expand")
        if sp is not None:
            add(sp.start, sp.end, m.group(0), "place")
    for m in _DUTY.finditer(doc.text):  # "Carla owns on-call": a duty someone holds
        sp = doc.char_span(m.start(), m.end(), alignment_mode="expand")
        if sp is not None:
            add(sp.start, sp.end, "on-call", "concept")
    for i in range(len(doc)):  # rules first: technology names, whatever the NER says
        for n in (3, 2, 1):
            span = doc[i : i + n]
            if i + n <= len(doc) and span.text.lower() in TECHNOLOGIES:
                if n == 1 and not _named(span[0]) and not _tool_word(span[0]):
                    continue  # "alerts go to", "a rust belt": only a written name counts
                end = _name_end(doc, i + n, acronyms=True, most=2)  # "Claude Desktop"
                add(i, end, doc[i:end].text, "tool")
                break
    for tok in doc:  # a chat line's speaker: "Ana: the deploy is green"
        if (
            (tok.i == 0 or "\n" in doc[tok.i - 1].text_with_ws)
            and tok.i + 1 < len(doc)
            and doc[tok.i + 1].text == ":"
            and tok.text.istitle()
            and (tok.pos_ == "PROPN" or tok.ent_type_ == "PERSON")  # "Summary:" is a heading
        ):
            add(tok.i, tok.i + 1, tok.text, "person", speaker=True)
    chunks = list(doc.noun_chunks)
    for nc in chunks:  # named parts of a system ("billing service") and teams; no other nouns
        if nc.root.pos_ != "NOUN":
            continue
        a, z = _core(nc)
        while a < z and (doc[a].lower_ in _QUALIFIERS or doc[a].lower_ in _UNITS):
            a += 1
        head_lemma = doc[z - 1].lemma_.lower() if z > a else ""
        if z - a < 2 or head_lemma not in _NAMED_HEADS:
            continue
        if all(t.lower_ in _GENERIC for t in doc[a : z - 1]):
            continue  # "the main database", "a mock OAuth server" is still named by OAuth
        toks = doc[a:z]
        if any(t.pos_ in _NOT_IN_NAMES and t.text != "-" for t in toks):
            continue
        if toks[0].lower_ in TIME_WORDS or toks[0].is_stop:
            continue
        last = toks[-1]
        head = doc.text[toks.start_char : last.idx]
        add(a, z, head + last.lemma_, "organization" if head_lemma in GROUP_HEADS else "concept")
    for ent in doc.ents:
        etype = NER_TYPES.get(ent.label_)
        if etype and not any(c in ent.text for c in "_/=\\"):
            start, end = ent.start, ent.end
            if etype == "person":
                if not all(t.text[:1].isupper() for t in ent if not t.is_punct):
                    continue  # a person's name is capitalised ("Bankole-Smith" too)
                while start > 0 and _name_part(doc[start - 1]):
                    start -= 1  # full names stay whole: "Ana Souza", not "Souza"
                while start < end and doc[start].lower_ in KIN_WORDS:
                    start += 1  # "Grandpa Arjun": the role is no part of the name
                if start == end:
                    continue
                end = _name_end(doc, end)
                if end - start == 1 and len([t for t in ent.sent if not t.is_space]) <= 3:
                    continue  # a one-word heading or label ("Summary."), not a person
            add(start, end, doc[start:end].text, etype)
    parts = name_parts(spans)
    for tok in doc:  # "Priya" alone, after "Priya Raman": the same person
        if tok.pos_ == "PROPN" and tok.text.istitle() and tok.lower_ in parts:
            add(tok.i, tok.i + 1, tok.text, "person")
    for m in _CODE.finditer(doc.text):
        code = m.group(1)
        if not _CODE_NAME.match(code) or code.isupper() or code.islower():
            continue  # a command line, path, config key, value or variable names no product
        sp = doc.char_span(m.start(1), m.end(1), alignment_mode="expand")
        if sp is not None:
            add(sp.start, sp.end, code, "tool")
    for tok in doc:  # names the tagger missed: PostgreSQL, pgBackRest, Neo4j, Backblaze B2
        if _looks_like_name(tok):
            end = _name_end(doc, tok.i + 1, acronyms=True, most=3)
            if end == tok.i + 1 and _first_name_before(tok, taken):
                add(tok.i - 1, end, doc[tok.i - 1 : end].text, "person")  # "Kwame Asante owns"
                continue
            inner = tok.text[1:]
            mixed = any(c.isupper() or c.isdigit() for c in inner) or end > tok.i + 1
            add(tok.i, end, doc[tok.i : end].text, "tool" if mixed else "concept")
    spans.sort(key=lambda s: s.start)
    spans = employers(doc, people(doc, spans, TECHNOLOGIES), TECHNOLOGIES)
    return same_person(spans, name_parts(spans))


def _tool_word(tok: Any) -> bool:
    """A lower-case technology name that is no everyday word, used as a noun ("dbt", "npm")."""
    return tok.lower_ not in EVERYDAY_TOOL_WORDS and tok.pos_ in ("NOUN", "PROPN", "X")


def _first_name_before(tok: Any, taken: set[int]) -> bool:
    """``tok`` is a surname whose first name starts the sentence ("Kwame Asante owns ...").

    The capital of a sentence's first word says nothing, so the name-shape rules skip it; a
    capitalised proper noun there, right before a capitalised word, is a first name.
    """
    if not tok.i or not (tok.text.istitle() and tok.is_alpha):
        return False
    prev = tok.doc[tok.i - 1]
    return (
        prev.i not in taken
        and _starts_sentence(prev)
        and prev.pos_ == "PROPN"
        and prev.text.istitle()
        and prev.is_alpha
        and not {prev.lower_, tok.lower_} & (TECHNOLOGIES | NOT_ENTITIES | _LEADING)
    )


def _name_part(tok: Any, *, acronyms: bool = False) -> bool:
    """A capitalised proper noun that continues a name ("Souza" after "Ana"; not "Feb")."""
    low = tok.lower_
    if low in TIME_WORDS or low in _LEADING or low in KIN_WORDS:
        return False
    if not acronyms and low in GENERIC_ACRONYMS:
        return False
    text = tok.text
    if not text[:1].isupper():
        return False
    if acronyms and text.isalnum() and any(c.isdigit() for c in text):
        return True  # "Backblaze B2", "Route 53" is no name part, "EC2" is
    if tok.pos_ != "PROPN":
        return False
    return text.istitle() or (acronyms and text.isalnum())


def _name_end(doc: Any, end: int, *, acronyms: bool = False, most: int = 4) -> int:
    """Where a name that ends at ``end`` really ends, at most ``most`` tokens on.

    Over further name parts and the connectors inside names ("Rua das Flores", "Ana de Souza").
    """
    start = end
    while end < len(doc) and end - start < most:
        if _name_part(doc[end], acronyms=acronyms):
            end += 1
        elif (
            doc[end].lower_ in _CONNECTORS
            and end + 1 < len(doc)
            and _name_part(doc[end + 1], acronyms=acronyms)
        ) or (  # a double-barrelled name: "Bankole-Smith", "Obi-Adeyemi"
            doc[end].text == "-"
            and not doc[end - 1].whitespace_
            and not doc[end].whitespace_
            and end + 1 < len(doc)
            and _name_part(doc[end + 1])
        ):
            end += 2
        else:
            break
    return end


def _starts_sentence(tok: Any) -> bool:
    """First word of its sentence (blanked-out markup before it does not count)."""
    return bool(tok.is_sent_start) or all(t.is_space for t in tok.doc[tok.sent.start : tok.i])


def _named(tok: Any) -> bool:
    """A token written as a name: capitalised, mixed case, or with digits or dots inside."""
    t = tok.text
    return t[:1].isupper() or any(c.isupper() or c.isdigit() or c == "." for c in t[1:])


def _looks_like_name(tok: Any) -> bool:
    """Mixed case or digits inside a word, or a capitalised word not starting a sentence."""
    text = tok.text
    if not _NAME.match(text) or tok.is_stop or "_" in text or _NUMBERED.match(text):
        return False
    if text.islower():  # "arm64", "v2": digits alone do not make a lower-case word a name
        return False
    if _starts_sentence(tok):  # a capital says nothing here (headings too): only an inner one
        return any(c.isupper() or c.isdigit() for c in text[1:]) and tok.ent_type_ == ""
    return (
        any(c.isupper() for c in text[1:])
        or any(c.isdigit() for c in text)
        or (text[0].isupper() and tok.pos_ in ("PROPN", "NOUN", "ADV", "ADJ", "X"))
    )


def _core(nc: Any) -> tuple[int, int]:
    """The noun phrase without leading determiners, pronouns, numbers and punctuation."""
    a, z = nc.start, nc.end
    doc = nc.doc
    while a < z and (
        doc[a].pos_ in ("DET", "PRON", "NUM", "PUNCT", "SYM", "CCONJ", "ADV", "ADP", "X")
        or doc[a].lower_ in _LEADING
    ):
        a += 1
    while z > a and doc[z - 1].pos_ in ("PUNCT", "SYM"):
        z -= 1
    return a, z
