"""The entity a claim is about, with the real spaCy pipeline (no database)."""

from __future__ import annotations

import pytest

from recollect_graph.nlp.claims import CLAIM_EXCLUDE, ClaimExtractor
from recollect_graph.nlp.entities import EntityExtractor, normalize
from recollect_graph.nlp.spacy_loader import SpacyLoader


@pytest.fixture(scope="module")
def claims() -> ClaimExtractor:
    return ClaimExtractor(SpacyLoader(exclude=CLAIM_EXCLUDE))


@pytest.fixture(scope="module")
def entities() -> EntityExtractor:
    return EntityExtractor(SpacyLoader())


def test_a_long_subject_is_about_the_noun_phrase_it_starts_with(claims: ClaimExtractor) -> None:
    found = claims.extract("The billing service writes to PostgreSQL 15 and depends on Redis")
    assert found, "the sentence has claims"
    # a slot claim's subject is most of the sentence; its entity is the service, not that text
    assert any(len(c.subject.split()) > 4 for c in found)
    assert {c.about for c in found} == {"billing service"}
    assert {c.about_type for c in found} == {"concept"}


def test_qualifiers_and_determiners_are_not_part_of_the_name(claims: ClaimExtractor) -> None:
    found = claims.extract("The new frontend build tool is webpack.")
    assert found
    assert {c.about for c in found} == {"frontend build tool"}


def test_a_pronoun_subject_is_about_no_entity(claims: ClaimExtractor) -> None:
    found = claims.extract("Last week we replaced RabbitMQ with Kafka")
    assert found, "the replacement is a claim"
    assert all(c.about is None and c.about_type is None for c in found)


def test_a_person_is_about_that_person(claims: ClaimExtractor) -> None:
    found = claims.extract("Kai no longer owns billing.")
    assert found
    assert {(c.about, c.about_type) for c in found} == {("Kai", "person")}


def test_claims_and_the_entity_extractor_share_the_key(
    claims: ClaimExtractor, entities: EntityExtractor
) -> None:
    text = "The billing service depends on Redis."
    keys = {normalize(c.about) for c in claims.extract(text) if c.about}
    assert keys == {"billing service"}
    assert keys <= set(entities.extract([text])[0].mentions)


def test_a_tool_choice_run_over_a_clause_is_the_subjects_and_meets_its_conflict(
    claims: ClaimExtractor,
) -> None:
    from recollect_graph.nlp.conflicts import judge

    old = claims.extract("The billing service writes to PostgreSQL 15 and depends on Redis.")
    new = claims.extract("The billing service uses Memcached for caching.")
    old_cache = [c for c in old if c.predicate == "uses" and c.object_key == "redis"]
    assert [c.subject for c in old_cache] == ["billing service"]
    verdicts = [judge(n, o) for n in new for o in old_cache]
    assert any(v is not None for v in verdicts), (new, old_cache)
