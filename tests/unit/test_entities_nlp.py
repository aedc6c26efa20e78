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
