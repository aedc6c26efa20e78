"""The pure parts of topics: fingerprints, ids, c-TF-IDF, labels, clustering, digests."""

from __future__ import annotations

import numpy as np
import pytest

from recollect_graph.ids import topic_id
from recollect_graph.services.topics import cluster as tc

P = tc.TopicParams()


# -- identity and staleness -------------------------------------------------------------------
def test_fingerprint_is_order_free_and_content_sensitive() -> None:
    a = tc.fingerprint([("e1", "h1"), ("e2", "h2")])
    assert a == tc.fingerprint([("e2", "h2"), ("e1", "h1")])
    assert len(a) == 64
    # same ids, one content changed: another fingerprint (not an id-set check)
    assert a != tc.fingerprint([("e1", "h1"), ("e2", "h2-edited")])
    assert a != tc.fingerprint([("e1", "h1")])
    assert tc.fingerprint([("e1", None)]) == tc.fingerprint([("e1", "")])
    # no ambiguity between id and hash boundaries
    assert tc.fingerprint([("ab", "c")]) != tc.fingerprint([("a", "bc")])


def test_topic_id_is_stable_per_scope_and_member_set() -> None:
    a = topic_id("s", ["b", "a", "c"])
    assert a == topic_id("s", ["a", "b", "c"])
    assert a != topic_id("other", ["a", "b", "c"])
    assert a != topic_id("s", ["a", "b"])


# -- keywords ---------------------------------------------------------------------------------
def test_terms_drop_stop_words_and_make_bigrams() -> None:
    ts = tc.terms("The Kubernetes cluster and the pod autoscaler, 2024")
    assert "the" not in ts and "2024" not in ts
    assert "kubernetes cluster" in ts and "pod autoscaler" in ts
    assert "cluster pod" not in ts  # "and the" breaks the bigram


def test_terms_leave_out_trailers_addresses_function_words_and_echoes() -> None:
    ts = tc.terms(
        "fix: retry the webhook instead of failing (#41)\n\n"
        "Signed-off-by: Kai Lee <kai@example.org>\nCo-authored-by: Ana Souza\n"
        "```cypher\ncypher cypher MATCH (n)\n```\nsee https://example.org/runbook-page"
    )
    assert "instead" not in ts and "signed-off-by" not in ts and "co-authored-by" not in ts
    assert not {"kai", "lee", "ana", "souza", "example", "runbook-page"} & set(ts)
    assert "cypher cypher" not in ts and "retry webhook" not in ts  # "the" breaks it
    assert "cypher match" in ts


def test_punctuation_and_line_breaks_end_a_bigram() -> None:
    ts = tc.terms("Redis, Memcached\nKafka consumers. Billing worker")
    assert "redis memcached" not in ts and "memcached kafka" not in ts
    assert "consumers billing" not in ts
    assert "kafka consumers" in ts and "billing worker" in ts


def test_whole_sentences_join_wrapped_lines_and_skip_markup() -> None:
    text = (
        "# Storage\n\nThe billing service keeps invoices in\nPostgreSQL, partitioned by month."
        " It\nretries failed payments nightly.\n\n- The export worker drains the queue nightly."
        "\n- short item\n\n| a | b |\n```python\nx = 1. Code that reads like a sentence.\n```\n"
        "Signed-off-by: Kai Lee <kai@example.org>\n"
    )
    assert tc.whole_sentences(text) == [
        "The billing service keeps invoices in PostgreSQL, partitioned by month.",
        "It retries failed payments nightly.",
        "The export worker drains the queue nightly.",
    ]


def test_ctfidf_prefers_terms_distinctive_to_a_class() -> None:
    classes = [
        [
            "Postgres index tuning for slow queries",
            "The postgres index on orders",
            "postgres vacuum schedule for the project",
        ],
        [
            "Kubernetes pod eviction in the project",
            "kubernetes pod limits",
            "pod autoscaler for kubernetes",
        ],
    ]
    kws = tc.ctfidf(classes, background=["project notes project plan"], top=5)
    first = [t for t, _ in kws[0]]
    second = [t for t, _ in kws[1]]
    assert first[0] in ("postgres", "postgres index") and "kubernetes" not in first
    assert "kubernetes" in second[:3] and "postgres" not in second
    assert "project" not in first[:2]
    assert all(w > 0 for _, w in kws[0])


def test_ctfidf_needs_two_members_for_a_keyword_when_it_can() -> None:
    kws = tc.ctfidf([["alpha zebra", "alpha yak", "alpha gnu"]], top=5)
    assert [t for t, _ in kws[0]] == ["alpha"]


def test_label_skips_terms_that_repeat_a_word() -> None:
    assert tc.label(["sourdough", "bread", "sourdough starter", "baking"]) == (
        "sourdough, bread, baking"
    )
    assert tc.label(["kubernetes pod", "pods", "kubernetes", "autoscaler", "helm"]) == (
        "kubernetes pod, autoscaler, helm"
    )
    assert tc.label(["class", "clas", "glass"]) == "class, clas, glass"  # "ss" is not a plural
    assert tc.label(["a1", "b2", "c3", "d4"], 2) == "a1, b2"
    assert tc.label([]) == "(untitled)"


# -- the graph --------------------------------------------------------------------------------
def _blobs(seed: int, sizes: list[int], dim: int = 64, noise: float = 0.15) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(len(sizes), dim))
    rows = [c + noise * rng.normal(size=(n, dim)) for c, n in zip(centres, sizes, strict=True)]
    return tc.normalise(np.vstack(rows))


def _cluster(x: np.ndarray, entities: list[list[str]] | None = None) -> list[list[int]]:
    return tc.cluster(x, entities or [[] for _ in range(len(x))], P)


def test_separate_blobs_become_separate_topics_and_noise_does_not() -> None:
    x = _blobs(1, [8, 6, 5])
    rng = np.random.default_rng(9)
    x = np.vstack([x, tc.normalise(rng.normal(size=(4, 64)))])  # 4 unrelated points
    groups = _cluster(x)
    assert [sorted(g) for g in groups] == [list(range(8)), list(range(8, 14)), list(range(14, 19))]
    assert _cluster(x) == groups  # deterministic


def test_min_size_drops_small_communities() -> None:
    x = _blobs(2, [6, 2])
    assert _cluster(x) == [list(range(6))]


def test_a_new_far_cluster_leaves_existing_topics_alone() -> None:
    x = _blobs(3, [7, 7])
    before = _cluster(x)
    extra = _blobs(4, [5])
    after = _cluster(np.vstack([x, extra]))
    assert before[0] in after and before[1] in after
    assert len(after) == 3


def test_entity_edges_use_jaccard_and_ignore_common_entities() -> None:
    ents = [["a", "b"], ["a"], ["c"], ["c"]]
    e = tc.entity_edges(ents, P)
    assert e[(0, 1)] == pytest.approx(P.entity_weight * 0.5)
    assert e[(2, 3)] == pytest.approx(P.entity_weight)
    assert (0, 2) not in e
    common = tc.entity_edges([["x"]] * 5, tc.TopicParams(max_entity_df=3))
    assert common == {}


def test_shared_entities_join_members_the_vectors_alone_do_not() -> None:
    rng = np.random.default_rng(5)
    x = tc.normalise(rng.normal(size=(4, 256)))  # unrelated vectors: no similarity edges
    assert _cluster(x) == []
    assert _cluster(x, [["acme"], ["acme"], ["acme"], []]) == [[0, 1, 2]]


def test_a_large_uniform_cluster_is_one_topic_not_modularity_pieces() -> None:
    x = _blobs(8, [300, 200], dim=128, noise=1.0)  # cosine within a blob about 0.5
    pieces = tc.communities(len(x), tc.graph_edges(x, [[] for _ in range(len(x))], P), P)
    assert len(pieces) > 2  # Louvain alone over-splits a uniform kNN blob
    assert _cluster(x) == [list(range(300)), list(range(300, 500))]


def test_merge_similar_merges_only_close_centroids() -> None:
    x = _blobs(9, [4, 4, 4])
    # split the first blob in two: its halves merge back; distinct blobs stay apart
    merged = tc.merge_similar([[0, 1], [2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], x, P)
    assert merged == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_centroid_and_confidence() -> None:
    x = _blobs(6, [5])
    c = tc.centroid(x)
    assert np.linalg.norm(c) == pytest.approx(1.0, abs=1e-5)
    conf = tc.confidences(x, c)
    assert all(0.8 < v <= 1.0 for v in conf)
    assert tc.confidences(tc.normalise([[1.0, 0.0]]), np.array([-1.0, 0.0]))[0] == 0.0


# -- digest -----------------------------------------------------------------------------------
def test_digest_cites_sources_and_prefers_keyword_sentences() -> None:
    members = [
        {
            "id": "e1",
            "confidence": 0.9,
            "passages": [
                {
                    "text": "Postgres index tuning cut query time. Lunch was fine in the canteen today.",
                    "source": {"kind": "entry", "id": "e1", "title": "Tuning"},
                }
            ],
        },
        {
            "id": "d1",
            "confidence": 0.8,
            "passages": [
                {
                    "text": "Vacuum keeps the postgres index small.",
                    "source": {"kind": "document", "id": "d1", "chunk_id": "c1", "chunk_seq": 0},
                },
                {
                    "text": "Vacuum keeps the postgres index small.",
                    "source": {"kind": "document", "id": "d1", "chunk_id": "c2", "chunk_seq": 1},
                },
            ],
        },
    ]
    out = tc.digest(members, {"postgres": 1.0, "index": 0.8, "vacuum": 0.5}, P)
    texts = [d["text"] for d in out]
    assert {texts[0], texts[1]} == {
        "Postgres index tuning cut query time.",
        "Vacuum keeps the postgres index small.",
    }
    assert "Vacuum keeps the postgres index small." in texts
    assert texts.count("Vacuum keeps the postgres index small.") == 1  # near-duplicate dropped
    assert texts.index("Lunch was fine in the canteen today.") > texts.index(
        "Vacuum keeps the postgres index small."
    )
    doc = next(d for d in out if d["source"]["kind"] == "document")
    assert doc["source"]["chunk_id"] == "c1"
