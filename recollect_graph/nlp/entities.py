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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from recollect_graph.nlp.claim_lexicon import ALIASES, CATEGORY_OF
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
_LEADING = {"the", "a", "an", "this", "that", "these", "those", "our", "their", "its", "my", "your"}
_SUBJ = {"nsubj", "nsubjpass"}
_OBJ = {"dobj", "attr", "oprd"}
MAX_WORDS = 5
SNIPPET_CHARS = 200
#: Technology names (the claim lexicon's tools and their spellings): matched by rule ahead of the
#: statistical NER, which types Grafana, Kafka or Redis as people.
TECHNOLOGIES = frozenset(CATEGORY_OF) | frozenset(ALIASES) - {"production", "development",
                                                                "tab", "space"}  # fmt: skip
#: Never entities: pronouns, units and format or size abbreviations the tagger takes for names.
NOT_ENTITIES = frozenset({
    "we", "i", "you", "they", "he", "she", "it", "us", "them", "me", "our", "everyone", "someone",
    "gb", "mb", "kb", "tb", "ms", "sec", "min", "hour", "hours", "day", "days", "json", "yaml",
    "csv", "xml", "html", "url", "api", "id", "ids", "todo", "fyi", "btw", "ok", "eta", "tl;dr",
})  # fmt: skip


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
        block_end = i + 1 == len(lines) or not lines[i + 1].strip()
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


@dataclass(frozen=True)
class _Span:
    start: int  # token index
    end: int
    key: str
    name: str
    entity_type: str


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

    def add(start: int, end: int, name: str, etype: str) -> None:
        if "\n" in name or any(i in taken for i in range(start, end)):
            return
        key = normalize(name)
        if len(key) < 2 or not any(c.isalpha() for c in key) or len(key.split()) > MAX_WORDS:
            return
        if key in NOT_ENTITIES or key.startswith("-") or name.strip().startswith("-"):
            return  # pronouns, units, formats and CLI flags are not entities
        taken.update(range(start, end))
        spans.append(_Span(start, end, key, name.strip(_STRIP), etype))

    for i in range(len(doc)):  # rules first: technology names, whatever the NER says
        for n in (3, 2, 1):
            span = doc[i : i + n]
            if i + n <= len(doc) and span.text.lower() in TECHNOLOGIES:
                if n == 1 and not _named(span[0]):
                    continue  # "alerts go to", "a rust belt": only a written name counts
                add(i, i + n, span.text, "tool")
                break
    for ent in doc.ents:
        etype = NER_TYPES.get(ent.label_)
        if etype:
            start, end = ent.start, ent.end
            if etype == "person":
                if not all(t.text[:1].isupper() for t in ent):
                    continue  # a person's name is capitalised
                while (
                    start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].text.istitle()
                ):
                    start -= 1  # full names stay whole: "Ana Souza", not "Souza"
                while end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].text.istitle():
                    end += 1
            add(start, end, doc[start:end].text, etype)
    for m in _CODE.finditer(doc.text):
        sp = doc.char_span(m.start(1), m.end(1), alignment_mode="expand")
        if sp is not None:
            add(sp.start, sp.end, m.group(1), "tool")
    for tok in doc:  # names the tagger missed: PostgreSQL, pgBackRest, Neo4j, Grafana
        if _looks_like_name(tok):
            add(tok.i, tok.i + 1, tok.text, "concept")
    singles: dict[str, int] = {}
    chunks = list(doc.noun_chunks)
    for nc in chunks:
        if nc.root.pos_ == "NOUN" and _core(nc)[1] - _core(nc)[0] == 1:
            lemma = nc.root.lemma_.lower()
            singles[lemma] = singles.get(lemma, 0) + 1
    for nc in chunks:
        if nc.root.pos_ not in ("NOUN", "PROPN"):
            continue
        a, z = _core(nc)
        if z <= a:
            continue
        toks = doc[a:z]
        if all(t.is_stop for t in toks):
            continue
        if z - a == 1 and toks[0].pos_ == "NOUN" and singles.get(toks[0].lemma_.lower(), 0) < 2:
            continue
        if any(t.pos_ in ("PUNCT", "SYM", "X") and t.text not in "-'" for t in toks):
            continue
        last = toks[-1]
        head = doc.text[toks.start_char : last.idx]
        add(a, z, head + (last.lemma_ if last.pos_ == "NOUN" else last.text), "concept")
    spans.sort(key=lambda s: s.start)
    return spans


def _named(tok: Any) -> bool:
    """A token written as a name: capitalised, mixed case, or with digits or dots inside."""
    t = tok.text
    return t[:1].isupper() or any(c.isupper() or c.isdigit() or c == "." for c in t[1:])


def _looks_like_name(tok: Any) -> bool:
    """Mixed case or digits inside a word, or a capitalised word not starting a sentence."""
    text = tok.text
    if not _NAME.match(text) or tok.is_stop:
        return False
    if tok.is_sent_start:  # a capital says nothing here; the tagger has to
        return bool(tok.pos_ == "PROPN" and tok.ent_type_ == "" and text[0].isupper())
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


def _svo(doc: Any, by_token: dict[int, _Span]) -> Iterable[tuple[_Span, str, _Span, str]]:
    for tok in doc:
        if tok.pos_ not in ("VERB", "AUX") or tok.dep_ in ("aux", "auxpass"):
            continue
        subjects = [s for c in tok.children if c.dep_ in _SUBJ for s in _with_conj(c)]
        if not subjects and tok.dep_ == "conj":  # "X writes to A and depends on B"
            subjects = [s for c in tok.head.children if c.dep_ in _SUBJ for s in _with_conj(c)]
        replaced = _replacement(tok, by_token)
        if replaced is not None:
            yield replaced
            continue
        if not subjects:
            continue
        negated = any(c.dep_ == "neg" for c in tok.children)
        lemma = ("not " if negated else "") + tok.lemma_.lower()
        objects: list[tuple[str, Any]] = []
        for c in tok.children:
            if c.dep_ in _OBJ:
                objects.extend((lemma, o) for o in _with_conj(c))
            elif c.dep_ == "prep":
                for p in c.children:
                    if p.dep_ == "pobj":
                        objects.extend((f"{lemma} {c.lower_}", o) for o in _with_conj(p))
        for s in subjects:
            ss = _span_of(s, by_token)
            if ss is None:
                continue
            for pred, o in objects:
                os_ = _span_of(o, by_token)
                if os_ is not None:
                    yield ss, pred, os_, tok.sent.text


def _replacement(tok: Any, by_token: dict[int, _Span]) -> tuple[_Span, str, _Span, str] | None:
    """A replacement ("replaced X with Y", "swapped X for Y"): Y --replace--> X."""
    if tok.lemma_.lower() not in ("replace", "swap", "substitute"):
        return None
    old = next((c for c in tok.children if c.dep_ == "dobj"), None)
    if old is None:  # the sm parser tags an unknown name as punctuation: take the mention
        old = next((c for c in tok.rights if c.i in by_token and c.dep_ != "prep"), None)
    if old is None:
        return None
    new = next(
        (p for h in (tok, old) for c in h.children
         if c.dep_ == "prep" and c.lower_ in ("with", "by", "for")
         for p in c.children if p.dep_ == "pobj"),
        None,
    )  # fmt: skip
    if new is None:
        return None
    so, sn = _span_of(old, by_token), _span_of(new, by_token)
    if so is None or sn is None:
        return None
    return sn, "replace", so, tok.sent.text


def _span_of(tok: Any, by_token: dict[int, _Span]) -> _Span | None:
    """The mention a token is part of, else the one its compound modifier names."""
    if tok.i in by_token:
        return by_token[tok.i]
    for c in tok.children:
        if c.dep_ in ("compound", "nmod", "amod") and c.i in by_token:
            return by_token[c.i]
    return None


def _with_conj(tok: Any) -> list[Any]:
    return [tok, *(c for c in tok.children if c.dep_ == "conj")]
