"""Questions that gather every instance of something, and how search widens for them.

"How many weddings did I attend this year?", "What is the total I spent on gym classes?",
"Which airline did I fly with the most?": the evidence is spread over several conversations,
each worded its own way, and the question resembles one or two of them more than the rest.
Such a question (:func:`gathers`) gets three things (``docs/search.md``, "Pseudo-relevance
feedback"):

* :func:`feedback_hits`: pseudo-relevance feedback, each candidate's cosine to the centroid of
  the candidates nearest the query (``w_feedback``);
* :func:`weights`: a lighter keyword weight (``search_gathering_keyword`` x ``w_keyword``), so
  the few conversations that repeat the question's words do not hold the top;
* :func:`query_vectors`: the question embedded as asked and without its counting or scale words,
  searched by the sum of the two vectors (``search_gathering_frame``).
"""

from __future__ import annotations

import re

from recollect_graph.nlp.embedder import Embedder
from recollect_graph.settings import Settings

#: Words of a question that gathers every instance of something: a count, a sum, a list
#: ("total" covers "in total").
_GATHERS = re.compile(
    r"\b(how many|how much|total|altogether|combined|sum of|average|all the|each of|every)\b",
    re.IGNORECASE,
)
#: Words of a question that ranks every instance of something on one scale ("which airline did
#: I fly with the most", "which streaming service did I start using most recently", "the order
#: of the concerts I went to"): to say which comes first, the search must find them all.
_COMPARES = re.compile(
    r"\b(most recently|most often|most frequently|the most|the least|the fewest|the order of|"
    r"in (?:what|which) order|from (?:the )?(?:earliest|first|oldest))\b",
    re.IGNORECASE,
)
#: A question that asks which or what ...
_WHICH = re.compile(r"^\W*(?:in\s+)?(?:which|what)\b", re.IGNORECASE)
#: ... of two or more things it names itself ("which did I buy first, the lens or the bag?").
_OR = re.compile(r"\bor\b", re.IGNORECASE)
#: What :func:`without_gathering_words` takes out: the gathering words, "in total" whole.
_FRAME = re.compile(r"\bin total\b|" + _GATHERS.pattern + "|" + _COMPARES.pattern, re.IGNORECASE)


def asks_for_all(text: str) -> bool:
    """Whether a question gathers every instance of something (a count, a sum, a list).

    >>> asks_for_all("How many weddings did I attend this year?")
    True
    >>> asks_for_all("What did Caroline paint last week?")
    False
    """
    return _GATHERS.search(text) is not None


def compares_instances(text: str) -> bool:
    """Whether a question ranks every instance of something on one scale, naming none of them.

    "Which airline did I fly with the most?", "Which streaming service did I start using most
    recently?", "What is the order of the concerts I attended?": its evidence is each
    instance, said in its own conversation, like a count's. A question that names its
    candidates ("which came first, the lens or the bag?") does not gather.

    >>> compares_instances("Which streaming service did I start using most recently?")
    True
    >>> compares_instances("Which did I buy first, the lens or the bag?")
    False
    >>> compares_instances("What did Caroline paint most recently?")
    True
    """
    return (
        _WHICH.search(text) is not None
        and _COMPARES.search(text) is not None
        and _OR.search(text) is None
    )


def without_gathering_words(text: str) -> str:
    """A question without the words that make it gather: its count or its scale.

    The count's words ("how many", "in total", "all the") and the scale's ("the most", "most
    recently", "the order of") are taken out.

    >>> without_gathering_words("How many weddings did I attend this year?")
    'weddings did I attend this year?'
    >>> without_gathering_words("Which airline did I fly with the most?")
    'Which airline did I fly with ?'
    """
    return " ".join(_FRAME.sub(" ", text).split())


#: A question that asks which or what things of a kind: "what" / "which", then "kinds of" (or
#: "types of", "sorts of"), or a noun phrase of at most three words ending in a plural (-s, not
#: -ss, -is or -us) and followed by its verb ("what books has Melanie read", "which classical
#: musicians does she enjoy", "what LGBTQ+ events has Caroline attended"). "What kind of X
#: did ..." asks for one X unless X is plural.
_KINDS = re.compile(
    r"^\W*(?:what|which)\s+(?:(?:kinds|types|sorts)\s+of\b|(?:(?:kind|type|sort)\s+of\s+)?"
    r"(?:[\w'+/-]+\s+){0,2}[\w'+/-]*[^siu\W]s\s+(?:do|does|did|has|have|had|is|are|was|were)\b)",
    re.IGNORECASE,
)


def asks_for_kinds(text: str) -> bool:
    """Whether a question asks for the things of one kind, naming none of them.

    "What books has Melanie read?", "What activities does Melanie partake in?", "What types
    of yoga has Maria practiced?": the answer is a list, each item said in its own session in
    its own words, like a count's. The noun is plural (at most three words before the verb);
    "what kind of painting did she share?" asks for one.

    >>> asks_for_kinds("What books has Melanie read?")
    True
    >>> asks_for_kinds("What types of yoga has Maria practiced?")
    True
    >>> asks_for_kinds("What kind of painting did Caroline share?")
    False
    >>> asks_for_kinds("What does Melanie do to destress?")
    False
    """
    return _KINDS.search(text) is not None


def gathers(query: str, settings: Settings) -> bool:
    """Whether a search for ``query`` gathers every instance of something.

    A count, sum or list (:func:`asks_for_all`) does; so, with ``search_gather_comparisons``,
    does a ranking of every instance on one scale (:func:`compares_instances`), and, with
    ``search_gather_kinds``, a question for the things of one kind (:func:`asks_for_kinds`).
    """
    return (
        asks_for_all(query)
        or (settings.search_gather_comparisons and compares_instances(query))
        or (settings.search_gather_kinds and asks_for_kinds(query))
    )


def query_vectors(
    embedder: Embedder, settings: Settings, query: str, unnamed: str | None, gathers: bool
) -> tuple[list[float], list[float] | None]:
    """The query's vector and, when it names people, its vector with the names replaced.

    A question that gathers ("How many projects have I led?") is embedded twice, as asked
    and without its counting words ("projects have I led?"), and searched by the sum of
    the two (``search_gathering_frame``): "how many" is no part of what its evidence talks
    about, and alone the frame pulls the vector towards turns that count anything. One batch
    of at most four texts.
    """
    texts = [query] + ([unnamed] if unnamed else [])
    n = len(texts)
    if settings.search_gathering_frame and gathers:
        plain = [without_gathering_words(t) or t for t in texts]
        if plain != texts:
            texts += plain
    if len(texts) == 1:  # the usual case: one text, from the embedder's recent queries
        return embedder.embed_query(query), None
    vecs = embedder.embed_queries(texts)
    if len(vecs) > n:  # the sum of each text's two vectors (cosine ignores the length)
        vecs = [[a + b for a, b in zip(vecs[i], vecs[n + i], strict=True)] for i in range(n)]
    return vecs[0], (vecs[1] if unnamed else None)


def weights(settings: Settings, gathers: bool) -> Settings:
    """The fusion settings of one search: a question that gathers weighs keywords less.

    "How many projects have I led?" is answered by every session where a project comes up,
    most of them in other words than the question's; the keyword side would rank the few
    that say "projects" above the rest. Such a question keeps ``search_gathering_keyword``
    of ``w_keyword`` (0.6: 0.15 of 0.25): on LongMemEval (all 231 dev questions) session
    All@5 rose 0.935 -> 0.944 with turn ranking unchanged (docs/search.md).
    """
    if settings.search_gathering_keyword == 1.0 or not gathers:
        return settings
    share = settings.w_keyword * settings.search_gathering_keyword
    return settings.model_copy(update={"w_keyword": share})


def feedback_hits(settings: Settings, gathers: bool) -> int:
    """How many nearest candidates make the feedback centroid of a search (0: none).

    Only a question that gathers every instance of something ("how many", "in total",
    "all the", "which ... the most") gets pseudo-relevance feedback: its evidence is spread
    over several sessions worded apart from each other. On LongMemEval it found more of a
    multi-session question's sessions; applied to every question it cost LoCoMo R@1 and
    NDCG@10 (docs/search.md, "Pseudo-relevance feedback").
    """
    if settings.w_feedback <= 0 or settings.search_feedback_hits <= 0 or not gathers:
        return 0
    return settings.search_feedback_hits
