"""The entity a claim is about: the name-like noun phrase that heads the claim's subject.

A claim's subject is text from its clause, and for a ``slot:`` claim it is the whole statement
less the value ("the billing service uses postgresql" for the version 15). Neither is a name to
make an entity of. :func:`claim_about` finds where the subject starts in the parsed sentence and
takes the run of nouns and adjectives there, after determiners, possessives and qualifiers ("the
new billing service writes to ..." -> "billing service"). A pronoun ("we", "I"), a subject that
starts with a verb, or a run longer than an entity name gives None: such a claim is about no
entity, rather than about a sentence fragment.

The entity's key is the entity extractor's :func:`~recollect_graph.nlp.entities.normalize`, so an
entry's claims and a document's mentions of "billing service" meet on one entity.
"""

from __future__ import annotations

import re
from typing import Any

from recollect_graph.nlp.entities import MAX_WORDS, NER_TYPES, NOT_ENTITIES, TECHNOLOGIES, normalize

__all__ = ["claim_about"]

#: Parts of speech inside an entity name (a number is a version or a count, not part of a name).
_NAME_POS = frozenset({"NOUN", "PROPN", "ADJ"})
#: Parts of speech a name ends with.
_HEAD_POS = frozenset({"NOUN", "PROPN"})
#: Words before a name that are not part of it.
_BEFORE = frozenset({"the", "a", "an", "this", "that", "these", "those", "our", "their", "its",
                     "my", "your", "his", "her", "new", "old", "current", "previous", "whole",
                     "entire", "existing", "main", "same", "other"})  # fmt: skip


def claim_about(sent: Any, subject: str, subject_type: str) -> tuple[str, str] | None:
    """``(name, entity type)`` of the entity a claim with ``subject`` in ``sent`` is about.

    Args:
        sent: The spaCy sentence span the claim came from (tagged; no parse needed).
        subject: The claim's subject as extracted (lower case, clause text).
        subject_type: The claim's own subject type (``person`` or ``thing``).

    Returns:
        The name as written in the sentence and its type, or None when the subject holds no
        name-like noun phrase at its start.
    """
    start = _locate(sent.text.lower(), subject)
    if start is None:
        return None
    toks = [t for t in sent if t.idx >= sent.start_char + start]
    i = 0
    while i < len(toks) and (toks[i].lower_ in _BEFORE or toks[i].tag_ in ("DT", "PRP$")):
        i += 1
    run: list[Any] = []
    for t in toks[i:]:
        if t.pos_ in _NAME_POS or (t.text == "-" and run and not t.whitespace_):
            run.append(t)
        else:
            break
    while run and run[-1].pos_ not in _HEAD_POS:
        run.pop()
    if not run or len(run) > MAX_WORDS:
        return None
    doc = sent.doc
    span = doc[run[0].i : run[-1].i + 1]
    name = span.text
    key = normalize(name)
    if len(key) < 2 or not any(c.isalpha() for c in key) or key in NOT_ENTITIES:
        return None
    if key not in subject and not all(w in subject for w in key.split()):
        return None  # the run left the subject (it was found elsewhere in the sentence)
    return name, _type(span, key, subject_type)


def _locate(text: str, subject: str) -> int | None:
    """Where the subject's first words stand as whole words in ``text`` (lower case)."""
    words = subject.split()
    for k in (3, 2, 1):
        if len(words) < k:
            continue
        pat = r"(?<!\w)" + r"\W+".join(re.escape(w) for w in words[:k]) + r"(?!\w)"
        m = re.search(pat, text)
        if m:
            return m.start()
    return None


def _type(span: Any, key: str, subject_type: str) -> str:
    """The entity type of ``span``: a known technology's, the NER's, a person's, else concept.

    The NER's label counts only for a written name: every word capitalised, and not a common noun
    that is capitalised because it starts the sentence ("Max upload size", "Cache TTL").
    """
    if key in TECHNOLOGIES or key.split()[0] in TECHNOLOGIES:
        return "tool"
    first = span[0]
    named = all(t.text[:1].isupper() for t in span) and not (
        first.is_sent_start and first.pos_ != "PROPN"
    )
    if named:
        for ent in span.doc.ents:
            if ent.start <= span.start < ent.end or span.start <= ent.start < span.end:
                etype = NER_TYPES.get(ent.label_)
                if etype:
                    return etype
    return "person" if subject_type == "person" else "concept"
