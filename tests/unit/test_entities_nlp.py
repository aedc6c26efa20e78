"""Entity and relation extraction with the real spaCy pipeline (no database)."""

from __future__ import annotations

import pytest

from recollect_graph.nlp.entities import EntityExtractor, normalize, plain_text
from recollect_graph.nlp.spacy_loader import SpacyLoader


@pytest.fixture(scope="module")
def extractor() -> EntityExtractor:
    return EntityExtractor(SpacyLoader())


def test_normalize_drops_determiners_case_and_punctuation() -> None:
    assert normalize("The Billing Service.") == "billing service"
    assert normalize("  `Neo4j`  ") == "neo4j"


def test_markup_and_code_are_not_prose() -> None:
    text = "# Title\n\n- item one\n- item two\n\n```\nUsage: secret --flag\n```\n\nEnd"
    out = plain_text(text)
    assert "Usage" not in out and "#" not in out
    assert "Title." in out and "item one." in out and out.endswith("End.")


def test_entities_and_svo_relations(extractor: EntityExtractor) -> None:
    ex = extractor.extract(
        [
            "Alice maintains the billing service. The billing service depends on PostgreSQL. "
            "Bob does not use MySQL."
        ]
    )[0]
    assert {"alice", "billing service", "postgresql", "bob", "mysql"} <= set(ex.mentions)
    assert ex.mentions["billing service"].count == 2
    rels = {(s, p, o) for s, p, o, _ in ex.relations}
    assert ("alice", "maintain", "billing service") in rels
    assert ("billing service", "depend on", "postgresql") in rels
    assert ("bob", "not use", "mysql") in rels
    assert all(snippet for *_, snippet in ex.relations)


def test_pronouns_and_code_blocks_give_nothing(extractor: EntityExtractor) -> None:
    ex = extractor.extract(["It uses them.\n\n```\nAlice depends on PostgreSQL\n```\n"])[0]
    assert ex.mentions == {} and ex.relations == []


ISSUE_18 = (
    "Ana Souza owns the billing service. The billing service writes to PostgreSQL 15 and "
    "depends on Redis. Last week we replaced RabbitMQ with Kafka for the event bus. "
    "Dashboards live in Grafana and alerts go to PagerDuty. Exports are JSON files of about "
    "2 GB. Run the import with --dry-run first."
)


def test_issue_18_paragraph(extractor: EntityExtractor) -> None:
    """Technologies are tools (not persons), full names stay whole, no junk entities."""
    (ex,) = extractor.extract([ISSUE_18])
    types = {k: m.entity_type for k, m in ex.mentions.items()}
    assert types["ana souza"] == "person" and "souza" not in types and "ana" not in types
    for tech in ("postgresql", "redis", "rabbitmq", "kafka", "grafana", "pagerduty"):
        assert types[tech] == "tool", tech
    for junk in ("we", "json", "gb", "go", "--dry-run", "dry-run"):
        assert junk not in types, junk
    triples = {r[:3] for r in ex.relations}
    assert ("ana souza", "own", "billing service") in triples
    assert ("billing service", "depend on", "redis") in triples
    assert ("kafka", "replace", "rabbitmq") in triples
