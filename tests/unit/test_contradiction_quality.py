"""The contradiction rules on labelled statement pairs.

Four files (461 pairs; see docs/claims.md) split by a hash of the pair id into a dev half (rules
are tuned on it; the bar is the issue's target: precision >= 0.95, recall >= 0.90, conflict type
right >= 0.9) and a held-out half (never tuned on; the bar guards against regressions at the
level first measured: precision 0.929, recall 0.901).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect_graph.nlp.claims import CLAIM_EXCLUDE, ClaimExtractor
from recollect_graph.nlp.spacy_loader import SpacyLoader
from tests.contradiction_eval import evaluate, load_pairs, load_split, predict

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def extractor() -> ClaimExtractor:
    return ClaimExtractor(SpacyLoader(exclude=CLAIM_EXCLUDE))


@pytest.mark.parametrize(
    ("half", "precision", "recall"), [("dev", 0.95, 0.90), ("heldout", 0.92, 0.88)]
)
def test_precision_and_recall_meet_the_bar(
    extractor: ClaimExtractor, half: str, precision: float, recall: float
) -> None:
    pairs = load_split(half)
    assert len(pairs) >= 200
    report = evaluate(extractor, pairs)
    overall = report["overall"]
    detail = "\n".join(f"{e['id']}: want {e['want']} got {e['got']}" for e in report["errors"])
    assert overall["precision"] >= precision, detail
    assert overall["recall"] >= recall, detail
    assert report["type_accuracy"] >= 0.9, detail
    for kind, stats in report["types"].items():
        assert stats["precision"] >= 0.8, (kind, stats)


def test_corpus_shape() -> None:
    """>= 400 pairs, >= 40% hard negatives, every file split over both halves."""
    names = ("contradiction_pairs.jsonl", "contradiction_pairs_holdout.jsonl",
             "contradiction_pairs_general.jsonl", "contradiction_pairs_longmemeval.jsonl")  # fmt: skip
    pairs = [p for n in names for p in load_pairs(DATA / n)]
    assert len(pairs) >= 400 and len({p["id"] for p in pairs}) == len(pairs)
    assert sum(p["label"] == "none" for p in pairs) / len(pairs) >= 0.4
    assert len(load_split("dev")) + len(load_split("heldout")) == len(pairs)


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        (
            "The frontend build uses webpack.",
            "We moved the build from webpack to vite.",
            "value_conflict",
        ),
        ("Kai owns billing.", "Kai no longer owns billing.", "polarity_conflict"),
        ("The cache is enabled in prod.", "The cache is disabled in prod.", "polarity_conflict"),
        ("The cache is disabled in prod.", "The search index is disabled in prod.", None),
        ("Kai owns billing.", "Ana owns auth.", None),
        (
            "Kai is working on the billing migration.",
            "Ana is working on the billing migration.",
            "attribution_conflict",
        ),
        (
            "The billing migration is done.",
            "Kai is working on the billing migration.",
            "status_conflict",
        ),
        ("We use Postgres.", "We use Redis for caching.", None),
        # issue 18's misses, one per kind
        (
            "The docs site is built with Hugo.",
            "The docs site is built with Jekyll.",
            "value_conflict",
        ),
        (
            "The platform team has 12 engineers.",
            "The platform team has 9 engineers.",
            "value_conflict",
        ),
        ("We use PostgreSQL 14.", "We use PostgreSQL 15.", "value_conflict"),
        ("We use PostgreSQL.", "We use PostgreSQL 14.", None),
        ("Standup is on Mondays.", "Standup is on Tuesdays now.", "value_conflict"),
        ("Leo lives in Berlin.", "Leo lives in Lisbon now.", "value_conflict"),
        ("Maya worked at Stripe before joining Shopify.", "Maya works at Shopify.", None),
        ("The v1 API is deprecated.", "The v1 API is supported.", "status_conflict"),
        (
            "The auth service is stateless.",
            "The auth service is not stateless.",
            "polarity_conflict",
        ),
        (
            "The events bucket is versioned.",
            "The events bucket is unversioned.",
            "polarity_conflict",
        ),
        ("The cache TTL is 5 minutes.", "The cache TTL is 300 seconds.", None),
        ("The cache TTL is 5 minutes.", "The cache TTL is 10 minutes.", "value_conflict"),
        (
            "We decided to use Postgres 16 for the billing service.",
            "The billing service uses MySQL.",
            "value_conflict",
        ),
        # a number that names the thing ("service 0", "build 1234") is no amount
        ("Service 0 queues jobs in Postgres.", "Service 1 queues jobs in Postgres.", None),
        ("Build 1234 failed on main.", "Build 1240 failed on main.", None),
        ("The worker pool has 8 nodes.", "The worker pool has 12 nodes.", "value_conflict"),
        (
            "Max retries 3 for the export job.",
            "Max retries 5 for the export job.",
            "value_conflict",
        ),
    ],
)
def test_ordinary_phrasing(extractor: ClaimExtractor, a: str, b: str, want: str | None) -> None:
    assert predict(extractor, a, b) == want


def test_extracted_claim_fields(extractor: ClaimExtractor) -> None:
    claims = extractor.extract("We moved the build from webpack to vite last week.")
    new = next(c for c in claims if c.polarity > 0)
    assert (new.subject_key, new.predicate, new.object_key, new.category) == (
        "build",
        "uses",
        "vite",
        "bundler",
    )
    assert new.time == "last week"
    old = next(c for c in claims if c.polarity < 0)
    assert old.object_key == "webpack" and old.modality == "replaced"
    assert extractor.extract("The deploy script lives at scripts/deploy.sh") == [] or all(
        c.predicate.startswith("act:")
        for c in extractor.extract("The deploy script lives at scripts/deploy.sh")
    )


def test_a_leading_time_is_no_part_of_the_subject(extractor: ClaimExtractor) -> None:
    """ "Last week we replaced RabbitMQ with Kafka": the subject is "we", not "last week we"."""
    claims = extractor.extract("Last week we replaced RabbitMQ with Kafka.")
    assert claims and {c.subject_key for c in claims} == {"we"}
    assert {c.object_key for c in claims} == {"rabbitmq", "kafka"}
