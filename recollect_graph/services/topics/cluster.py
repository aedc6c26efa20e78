"""The pure parts of topics: similarity graph, communities, c-TF-IDF, fingerprints, digests.

Nothing here touches the database or a model, so each step can be tested on synthetic data.

The method (``METHOD``), in order:

1. **Similarity graph.** Member vectors are L2-normalised; each member is joined to its ``k``
   nearest neighbours (cosine, exact, computed in blocks with numpy) whose similarity is at least
   ``sim_threshold``. The edge weight is the cosine.
2. **Shared entities.** Two members that mention the same entity get ``entity_weight x Jaccard``
   of their entity sets added to their edge (entities mentioned by more than ``max_entity_df``
   members are ignored: they are too common to say anything).
3. **Communities.** Louvain (``networkx.community.louvain_communities``) with a fixed seed, run on
   each connected component separately, so a change in one part of the graph cannot reshuffle
   topics elsewhere. Modularity over-splits a large uniform cluster, so communities whose
   centroids are at least ``merge_threshold`` alike are then merged (mutual best pairs, in
   rounds). Communities smaller than ``min_size`` are not topics.
4. **Keywords.** Class-based TF-IDF (c-TF-IDF, as in BERTopic): the members' text of each topic is
   one class, the members in no topic are one background class, and a term's weight in a class is
   ``tf(t, c) * log(1 + A / f(t))`` with ``A`` the mean number of terms per class and ``f(t)`` the
   term's frequency over all classes. Unigrams and bigrams; a term must occur in at least two
   members of a topic when the topic has that many. The label is the best three terms that do not
   repeat a word already in it.
5. **Digest.** Extractive: sentences of the most central members, scored by the topic's keyword
   weights they contain (length-normalised) times the member's confidence, near-duplicates dropped.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from recollect_graph.nlp.cues import STOP as _CUE_STOP
from recollect_graph.nlp.cues import sentences

METHOD = "knn-louvain-ctfidf/v1"


@dataclass(frozen=True)
class TopicParams:
    """Every threshold of the topic build, in one place (defaults chosen on MiniLM vectors).

    Attributes:
        k: Nearest neighbours per member in the similarity graph.
        sim_threshold: Least cosine for a similarity edge (MiniLM: unrelated texts score < 0.2,
            texts on one theme usually 0.3-0.7).
        entity_weight: Weight of a full entity overlap (Jaccard 1.0) added to an edge.
        max_entity_df: Entities mentioned by more members than this are ignored.
        resolution: Louvain resolution (higher: more, smaller topics).
        seed: Louvain's random seed (fixed: the same graph gives the same topics).
        merge_threshold: Communities whose centroids are this alike are merged (MiniLM: halves
            of one theme score about 0.75-0.85, distinct themes below 0.3).
        min_size: Smallest community that is a topic.
        keywords: Keywords stored per topic.
        label_terms: Terms in a label.
        digest_sentences: Sentences in a digest.
        digest_members: How many of the most central members the digest reads.
        block: Rows per block of the similarity matrix (bounds memory: block x n floats).
    """

    k: int = 10
    sim_threshold: float = 0.3
    entity_weight: float = 0.3
    max_entity_df: int = 50
    resolution: float = 1.0
    seed: int = 42
    merge_threshold: float = 0.75
    min_size: int = 3
    keywords: int = 8
    label_terms: int = 3
    digest_sentences: int = 5
    digest_members: int = 12
    block: int = 1024


# -- identity and staleness -------------------------------------------------------------------
def fingerprint(pairs: Iterable[tuple[str, str | None]]) -> str:
    """sha256 over the sorted ``(member id, member content hash)`` pairs.

    Content, not only the id set: the same members with one edited text give another fingerprint.
    """
    h = hashlib.sha256()
    for mid, chash in sorted((str(m), c or "") for m, c in pairs):
        h.update(f"{mid}\x1f{chash}\x1e".encode())
    return h.hexdigest()


# -- the similarity graph and its communities -------------------------------------------------
def normalise(vectors: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (float32); zero rows stay zero."""
    x = np.asarray(vectors, dtype=np.float32)
    if x.ndim != 2:
        return np.zeros((0, 0), dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.asarray(x / norms, dtype=np.float32)


def knn_edges(x: np.ndarray, params: TopicParams) -> dict[tuple[int, int], float]:
    """Edges ``(i, j), i < j`` to each row's ``k`` most similar rows above the threshold."""
    n = x.shape[0]
    edges: dict[tuple[int, int], float] = {}
    if n < 2:
        return edges
    k = min(params.k, n - 1)
    for start in range(0, n, params.block):
        sims = x[start : start + params.block] @ x.T
        rows = np.arange(sims.shape[0])
        sims[rows, rows + start] = -np.inf
        idx = np.argpartition(sims, n - k, axis=1)[:, n - k :]
        top = np.take_along_axis(sims, idx, axis=1)
        for r, c in zip(*np.nonzero(top >= params.sim_threshold), strict=True):
            i, j = start + int(r), int(idx[r, c])
            key = (i, j) if i < j else (j, i)
            edges[key] = max(edges.get(key, 0.0), float(top[r, c]))
    return edges


def entity_edges(
    entities: Sequence[Sequence[str]], params: TopicParams
) -> dict[tuple[int, int], float]:
    """``entity_weight x Jaccard(entity sets)`` for member pairs that share an entity."""
    sets = [frozenset(e) for e in entities]
    holders: dict[str, list[int]] = {}
    for i, s in enumerate(sets):
        for ent in s:
            holders.setdefault(ent, []).append(i)
    pairs: set[tuple[int, int]] = set()
    for members in holders.values():
        if 2 <= len(members) <= params.max_entity_df:
            pairs.update((a, b) for ai, a in enumerate(members) for b in members[ai + 1 :])
    return {
        (a, b): params.entity_weight * len(sets[a] & sets[b]) / len(sets[a] | sets[b])
        for a, b in pairs
    }


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def communities(
    n: int, edges: Mapping[tuple[int, int], float], params: TopicParams
) -> list[list[int]]:
    """Louvain communities of each connected component (components of one member skipped).

    Returns:
        Sorted member-index lists, in order of their first member; small ones included.
    """
    parent = list(range(n))
    live = sorted((a, b, w) for (a, b), w in edges.items() if w > 0)
    for a, b, _w in live:
        ra, rb = _find(parent, a), _find(parent, b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    comp_edges: dict[int, list[tuple[int, int, float]]] = {}
    for a, b, w in live:
        comp_edges.setdefault(_find(parent, a), []).append((a, b, w))
    out: list[list[int]] = []
    for root in sorted(comp_edges):
        g = nx.Graph()
        g.add_weighted_edges_from(comp_edges[root])
        if g.number_of_nodes() <= 2:
            out.append(sorted(g.nodes))
            continue
        parts = nx.community.louvain_communities(
            g, weight="weight", resolution=params.resolution, seed=params.seed
        )
        out.extend(sorted(p) for p in parts)
    return sorted(out, key=lambda c: c[0])


def merge_similar(
    groups: Sequence[Sequence[int]], x: np.ndarray, params: TopicParams
) -> list[list[int]]:
    """Merge communities whose centroids are at least ``merge_threshold`` alike.

    Modularity splits a large uniform cluster of a kNN graph into pieces; their centroids are
    nearly parallel. In rounds, each pair of communities that are each other's most similar and
    above the threshold is merged (centroids recomputed), until no pair is left.
    """
    cur = [sorted(g) for g in groups]
    while len(cur) > 1:
        c = np.vstack([centroid(x[g]) for g in cur])
        sims = c @ c.T
        np.fill_diagonal(sims, -np.inf)
        best = np.argmax(sims, axis=1)
        merged: set[int] = set()
        nxt: list[list[int]] = []
        for i, j in enumerate(int(b) for b in best):
            if i < j and int(best[j]) == i and sims[i, j] >= params.merge_threshold:
                nxt.append(sorted(cur[i] + cur[j]))
                merged.update((i, j))
        if not merged:
            break
        nxt.extend(g for i, g in enumerate(cur) if i not in merged)
        cur = sorted(nxt, key=lambda g: g[0])
    return cur


def graph_edges(
    x: np.ndarray, entities: Sequence[Sequence[str]], params: TopicParams
) -> dict[tuple[int, int], float]:
    """The similarity graph: kNN cosine edges plus shared-entity weight."""
    edges = knn_edges(x, params)
    for key, w in entity_edges(entities, params).items():
        edges[key] = edges.get(key, 0.0) + w
    return edges


def groups_of(
    edges: Mapping[tuple[int, int], float], x: np.ndarray, params: TopicParams
) -> list[list[int]]:
    """Louvain communities, merged by centroid, of at least ``min_size`` members.

    Returns:
        Member-index lists, largest first (ties: smallest first index).
    """
    groups = merge_similar(communities(x.shape[0], edges, params), x, params)
    return sorted((g for g in groups if len(g) >= params.min_size), key=lambda g: (-len(g), g[0]))


def cluster(
    x: np.ndarray, entities: Sequence[Sequence[str]], params: TopicParams
) -> list[list[int]]:
    """The whole grouping: :func:`graph_edges` then :func:`groups_of`."""
    if x.shape[0] < params.min_size:
        return []
    return groups_of(graph_edges(x, entities, params), x, params)


def centroid(x: np.ndarray) -> np.ndarray:
    """The normalised mean of (normalised) rows."""
    c = x.mean(axis=0)
    norm = float(np.linalg.norm(c))
    return np.asarray(c / norm if norm else c, dtype=np.float32)


def confidences(x: np.ndarray, c: np.ndarray) -> list[float]:
    """Membership confidence: each row's cosine to the centroid, clipped to [0, 1]."""
    return [round(float(v), 4) for v in np.clip(x @ c, 0.0, 1.0)]


# -- keywords (c-TF-IDF) ----------------------------------------------------------------------
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9+#_-]*[A-Za-z0-9+#]")
STOP = _CUE_STOP | frozenset(
    """
    and are but can did for get got has had how its not one our out per the two via was who
    why may new any all his her him she they them its it's i'm we've don't doesn't isn't
    also into onto than then just when what which while with from this that these those
    been being have having will would shall should could might must does doing done
    instead actually basically usually often sometimes simply probably certainly currently
    recently finally later soon already again almost around anyway besides hence whereas
    today tomorrow yesterday etc e.g i.e lot lots kind sort way ways bit use used uses using
    let lets see saw say says said tell told try tried put took take makes making work works
    """.split()  # noqa: SIM905
)
#: Lines that are no text of the member: commit trailers ("Signed-off-by: ...", "Change-Id:"),
#: a fenced code block's language tag, and addresses (e-mail, URLs).
_NOISE = re.compile(
    r"^[ \t]*(?:[A-Za-z]+(?:-[A-Za-z]+)*-by|Change-Id|Cc|Refs?|Fixes|Closes|Bug)[ \t]*:.*$"
    r"|^[ \t]*(?:```|~~~)[^\n]*$"
    r"|\S+@\S+\.\w+|https?://\S+",
    re.MULTILINE | re.IGNORECASE,
)
#: Between two words, only these keep them one bigram (a comma, a full stop, a line break or a
#: bracket ends the phrase).
_JOINS = re.compile(r"[ \t-]*")


def terms(text: str) -> list[str]:
    """Unigrams and bigrams of content words (lower case).

    Stop words, punctuation and line breaks break bigrams; a word twice in a row is no bigram;
    commit trailers, code-fence tags, e-mail addresses and URLs are no terms.
    """
    text = _NOISE.sub(" . ", text)
    out: list[str] = []
    prev: str | None = None
    end = 0
    for m in _TOKEN.finditer(text):
        t = m.group(0).lower().strip("-_")
        if prev is not None and not _JOINS.fullmatch(text, end, m.start()):
            prev = None
        end = m.end()
        if len(t) < 3 or t in STOP or t.isdigit():
            prev = None
            continue
        out.append(t)
        if prev is not None and prev != t:
            out.append(f"{prev} {t}")
        prev = t
    return out


def ctfidf(
    class_docs: Sequence[Sequence[str]], *, background: Sequence[str] = (), top: int = 8
) -> list[list[tuple[str, float]]]:
    """The ``top`` c-TF-IDF terms of each class.

    Args:
        class_docs: Per class (topic), its members' texts.
        background: Texts in no class; they count in the term frequencies (so words common to the
            whole scope weigh less) but get no keywords.
        top: Terms per class.

    Returns:
        Per class, ``(term, weight)`` pairs, best first (ties by term).
    """
    counts: list[Counter[str]] = []
    member_df: list[Counter[str]] = []
    for docs in class_docs:
        c: Counter[str] = Counter()
        df: Counter[str] = Counter()
        for d in docs:
            ts = terms(d)
            c.update(ts)
            df.update(set(ts))
        counts.append(c)
        member_df.append(df)
    bg: Counter[str] = Counter()
    for d in background:
        bg.update(terms(d))
    freq: Counter[str] = Counter(bg)
    for c in counts:
        freq.update(c)
    classes = len(counts) + (1 if bg else 0)
    avg = sum(freq.values()) / max(1, classes)
    out: list[list[tuple[str, float]]] = []
    for c, df, docs in zip(counts, member_df, class_docs, strict=True):
        need = 2 if len(docs) >= 2 else 1
        scored = [
            (t, tf * math.log(1 + avg / freq[t]) * (1.15 if " " in t else 1.0))
            for t, tf in c.items()
            if df[t] >= need
        ] or [(t, tf * math.log(1 + avg / freq[t])) for t, tf in c.items()]
        scored.sort(key=lambda tw: (-tw[1], tw[0]))
        out.append([(t, round(w, 4)) for t, w in scored[:top]])
    return out


def label(keywords: Sequence[str], n: int = 3) -> str:
    """A label from the best keywords, skipping terms that repeat a word already in it.

    ``sourdough, sourdough starter, bread`` gives ``sourdough, bread``; a plural counts as its
    singular (``pod`` after ``pods`` is skipped).
    """
    chosen: list[str] = []
    words: set[str] = set()
    for k in keywords:
        stems = {_stem(p) for p in k.split()}
        if stems & words:
            continue
        chosen.append(k)
        words |= stems
        if len(chosen) >= n:
            break
    return ", ".join(chosen) if chosen else "(untitled)"


def _stem(word: str) -> str:
    """Crude singular: ``pods`` -> ``pod`` (not ``ss``: ``class`` stays)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


# -- the digest -------------------------------------------------------------------------------
def digest(
    members: Sequence[Mapping[str, Any]],
    weights: Mapping[str, float],
    params: TopicParams,
) -> list[dict[str, Any]]:
    """A few representative sentences, each citing its source.

    Args:
        members: ``{confidence, passages: [{text, source: {...}}]}`` per member; ``source`` is
            copied into the result (entry id/title, or document id/title and chunk).
        weights: The topic's keyword weights.
        params: ``digest_sentences`` and ``digest_members``.

    Returns:
        ``[{text, score, source}]``, best first.
    """
    top_w = max(weights.values(), default=1.0) or 1.0
    ranked = sorted(members, key=lambda m: (-float(m["confidence"]), str(m["id"])))
    cands: list[tuple[float, str, dict[str, Any], frozenset[str]]] = []
    for m in ranked[: params.digest_members]:
        for p in m["passages"]:
            for s in whole_sentences(p["text"]) or sentences(p["text"]):
                if len(s) < 20:
                    continue
                ts = set(terms(s))
                uni = {t for t in ts if " " not in t}
                hit = sum(weights.get(t, 0.0) for t in ts) / top_w
                score = float(m["confidence"]) * (0.1 + hit) / math.sqrt(1 + len(uni))
                text = s if len(s) <= 300 else s[:297] + "..."
                cands.append((score, text, dict(p["source"]), frozenset(uni)))
    cands.sort(key=lambda c: (-c[0], c[1]))
    out: list[dict[str, Any]] = []
    per_source: Counter[str] = Counter()
    picked: list[frozenset[str]] = []
    for score, text, source, words in cands:
        key = str(source.get("id"))
        if per_source[key] >= 2 or any(_jaccard(words, p) > 0.5 for p in picked):
            continue
        out.append({"text": text, "score": round(score, 4), "source": source})
        per_source[key] += 1
        picked.append(words)
        if len(out) >= params.digest_sentences:
            break
    return out


_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.MULTILINE | re.DOTALL)
_BULLET = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9`\"(])")
_WORD = re.compile(r"[A-Za-z0-9]+")


def whole_sentences(text: str) -> list[str]:
    """The complete sentences of a passage, for a digest.

    Lines wrapped inside a paragraph are joined first (Markdown wraps a sentence over lines);
    headings, table rows, quotes, code blocks and commit trailers are left out; a list item is
    its own unit. A sentence counts when it has at least five words and ends with ``.``, ``!``
    or ``?``.
    """
    text = _NOISE.sub("", _FENCE.sub("\n\n", text))
    units: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            units.append(" ".join(buf))
            buf.clear()

    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "|", ">", "<!--")) or set(line) <= set("-=*_ "):
            flush()
            continue
        if _BULLET.match(line):
            flush()
            line = _BULLET.sub("", line)
        buf.append(line)
    flush()
    out: list[str] = []
    for unit in units:
        for sent in _SENTENCE_END.split(unit):
            sent = sent.strip()
            if (
                sent[-1:] in ".!?"
                and len(_WORD.findall(sent)) >= 5
                and (sent[:1].isalnum() or sent[:1] in '`"(')
            ):
                out.append(sent)
    return out


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0
