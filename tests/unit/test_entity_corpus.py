"""The labelled entity/relation paragraphs are well-formed (no extractor quality assertion here).

The corpus and its guideline: tests/data/entity_paragraphs.jsonl and entity_paragraphs.md; the
measurement: benchmarks/entity_quality.py.
"""

from __future__ import annotations

from collections import Counter

from benchmarks.entity_quality import (
    CORPUS,
    REGISTERS,
    TYPES,
    gold_entities,
    gold_relations,
    load_corpus,
    split,
)
from recollect_graph.nlp.entities import normalize

ROWS = load_corpus(CORPUS)


def test_enough_paragraphs_with_unique_ids() -> None:
    ids = [r["id"] for r in ROWS]
    assert len(ROWS) >= 40
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]


def test_fields_registers_and_types() -> None:
    for r in ROWS:
        assert set(r) == {"id", "register", "text", "entities", "relations"}, r["id"]
        assert r["register"] in REGISTERS, r["id"]
        assert r["text"].strip() and r["entities"], r["id"]
        for e in r["entities"]:
            assert set(e) == {"name", "type"}, r["id"]
            assert e["type"] in TYPES, (r["id"], e)
            assert normalize(e["name"]), (r["id"], e)
        for rel in r["relations"]:
            assert set(rel) == {"subject", "verb", "object"}, r["id"]
            assert rel["verb"].strip(), (r["id"], rel)


def test_entity_names_unique_after_normalisation() -> None:
    for r in ROWS:
        keys = [normalize(e["name"]) for e in r["entities"]]
        assert len(set(keys)) == len(keys), (r["id"], keys)


def test_relations_link_labelled_entities() -> None:
    for r in ROWS:
        names = gold_entities(r)
        for s, _, o in gold_relations(r):
            assert s in names, (r["id"], s)
            assert o in names, (r["id"], o)
            assert s != o, r["id"]


def test_every_register_used_and_both_halves_non_empty() -> None:
    assert {r["register"] for r in ROWS} == set(REGISTERS)
    dev, heldout = split(ROWS, "dev"), split(ROWS, "heldout")
    assert dev and heldout
    assert len(dev) + len(heldout) == len(ROWS)
