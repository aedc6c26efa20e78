"""Context packs never exceed their token budget (the packer alone, with real tokenizers)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from recollect_graph.errors import InvalidInput
from recollect_graph.nlp.embedder import resolve_model_path
from recollect_graph.services.context.budget import (
    MARKER,
    Item,
    Packer,
    TokenCounter,
)
from recollect_graph.services.context.builder import (
    ContextPack,
    _chunk_prefix,
    _entity_item,
    _entry_prefix,
    _merge,
    _related_item,
    _relation_item,
)

BUDGETS = [1, 2, 3, 5, 8, 13, 20, 21, 30, 34, 50, 55, 89, 100, 144, 200, 233, 377, 500, 610]
BUDGETS += [987, 1000, 1597, 2000, 4000, 10_000]
TEXT = (
    "the cache is disabled in production because invalidation broke twice; we chose Vite over "
    "webpack for faster builds, Postgres holds the events, naïve café déjà-vu 東京 tokenizer "
    "supercalifragilistic ids like 6f1c3a52-3d0e-4c1b and paths /srv/app/config.yaml #212"
)
WORDS = TEXT.split()


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    from transformers import AutoTokenizer

    path = resolve_model_path("all-MiniLM-L6-v2")
    return TokenCounter(AutoTokenizer.from_pretrained(path), "all-MiniLM-L6-v2")


class MergingTokenizer:
    """A tokenizer whose counts are not additive: runs of 3 characters, newlines included."""

    is_fast = False
    name_or_path = "merging"

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        return list(range((len(text) + 2) // 3))


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _candidates(seed: int) -> tuple[list[Item], dict[str, list[Item]]]:
    rng = random.Random(seed)
    entries = [
        Item(
            "entries",
            f"e{i}",
            1.0 - i / 20,
            _entry_prefix(rng.choice([None, _text(rng, 4)]), f"e{i}-{rng.random():.6f}"),
            _text(rng, rng.randint(3, 300)),
        )
        for i in range(12)
    ]
    chunks = []
    for i in range(12):
        row = {
            "id": f"c{i}",
            "document_id": "d1",
            "document_title": _text(rng, 3),
            "seq": i,
            "heading": rng.choice([None, _text(rng, 2)]),
        }
        chunks.append(Item("chunks", f"c{i}", 0.95 - i / 20, _chunk_prefix(row), _text(rng, 120)))
    chosen_ids = [f"e{i}" for i in range(6)] + [f"c{i}" for i in range(6)]
    ents = [
        _entity_item(
            {
                "id": f"n{i}",
                "name": _text(rng, 2),
                "entity_type": "ORG",
                "mentioned_in": rng.sample(chosen_ids, 3),
            },
            12,
        )
        for i in range(15)
    ]
    rels = [
        _relation_item(
            {
                "id": f"l{i}",
                "predicate": "uses",
                "weight": 1.0,
                "subject": _text(rng, 2),
                "object": _text(rng, 2),
                "evidence_in": rng.sample(chosen_ids, 2),
                "evidence": 2,
            }
        )
        for i in range(10)
    ]
    related = [
        _related_item(
            {
                "id": f"r{i}",
                "title": _text(rng, 3),
                "content": _text(rng, 60),
                "score": 0.5,
                "rel_type": "SUPPORTS",
                "via_id": "e0",
                "outgoing": bool(i % 2),
            }
        )
        for i in range(8)
    ]
    return _merge(entries, chunks), {"entities": ents, "relations": rels, "related": related}


def _fill(counter: TokenCounter, budget: int, seed: int = 0, ids: bool = True) -> Any:
    primary, secondary = _candidates(seed)
    return Packer(counter, ids=ids).fill(primary, lambda _picked: secondary, budget)


@pytest.mark.parametrize("budget", BUDGETS)
def test_never_over_budget_with_the_model_tokenizer(counter: TokenCounter, budget: int) -> None:
    for seed in range(3):
        for ids in (True, False):
            _chosen, md, tokens = _fill(counter, budget, seed, ids)
            assert tokens == counter.count(md)
            assert tokens <= budget, (budget, seed, tokens)


@pytest.mark.parametrize("budget", BUDGETS)
def test_never_over_budget_with_a_non_additive_tokenizer(budget: int) -> None:
    counter = TokenCounter(MergingTokenizer())
    for seed in range(3):
        _chosen, md, tokens = _fill(counter, budget, seed)
        assert tokens == counter.count(md) <= budget


def test_big_budget_takes_everything_in_section_order(counter: TokenCounter) -> None:
    chosen, md, tokens = _fill(counter, 1_000_000)
    assert len(chosen) == 24 + 15 + 10 + 8
    heads = [line for line in md.splitlines() if line.startswith("## ")]
    assert heads == ["## Entries", "## Chunks", "## Entities", "## Relations", "## Related"]
    assert "[E12]" in md and "[C12]" in md and "[N15]" in md and "[L10]" in md and "[R8]" in md
    assert MARKER not in md
    assert tokens == counter.count(md)


def test_small_budget_truncates_the_best_item_with_a_marker(counter: TokenCounter) -> None:
    long = Item("entries", "e1", 1.0, _entry_prefix("Long", "e1"), " ".join(WORDS * 20))
    chosen, md, tokens = Packer(counter).fill([long], lambda _p: {}, 120)
    assert len(chosen) == 1 and chosen[0].truncated
    assert md.endswith(MARKER) and md.startswith("## Entries\n- [E1] Long (entry e1): ")
    assert tokens <= 120 and tokens > 120 - 20  # most of the budget is used


def test_relevance_order_decides_what_is_kept(counter: TokenCounter) -> None:
    chosen, md, _ = _fill(counter, 300)
    primary, _sec = _candidates(0)
    kept = [it.id for it in chosen if it.section in ("entries", "chunks")]
    assert kept, md
    # the most relevant candidate that fits whole is always taken first
    assert kept[0] == next(it.id for it in primary if counter.count(it.body) < 150)


def test_secondary_items_cite_chosen_keys(counter: TokenCounter) -> None:
    _chosen, md, _ = _fill(counter, 4000)
    ent_lines = [line for line in md.splitlines() if line.startswith("- [N")]
    assert ent_lines and all(": in " in line for line in ent_lines[:3])
    assert any(" SUPPORTS " in line for line in md.splitlines() if line.startswith("- [R"))


@pytest.mark.parametrize("n", [1, 2, 5, 17, 64])
def test_truncate_cuts_at_a_token_boundary(counter: TokenCounter, n: int) -> None:
    text = " ".join(WORDS * 3)
    cut = counter.truncate(text, n)
    assert text.startswith(cut) and 0 < counter.count(cut) <= n
    slow = TokenCounter(MergingTokenizer())
    cut2 = slow.truncate(text, n)
    assert text.startswith(cut2) and slow.count(cut2) <= n


def test_budget_and_query_are_validated() -> None:
    pack = ContextPack(None, None, None)  # type: ignore[arg-type]  # validation comes first
    for bad in (0, -5, 2_000_000, 1.5e9):
        with pytest.raises(InvalidInput, match="budget_tokens"):
            pack.build("q", scope_id="s", budget_tokens=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="query"):
        pack.build("  ", scope_id="s", budget_tokens=100)
