"""The query-vector cache of ``Embedder.embed_one`` (the model itself is tested in integration)."""

from __future__ import annotations

from collections.abc import Sequence

from recollect_graph.nlp.embedder import Embedder


class Counting(Embedder):
    """Counts the texts it is asked to embed; vectors are derived from the text length."""

    def __init__(self) -> None:
        super().__init__("counting")
        self.calls: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.extend(texts)
        return [[float(len(t)), 1.0] for t in texts]


def test_a_repeated_query_is_embedded_once_and_callers_get_their_own_list() -> None:
    e = Counting()
    first = e.embed_one("why did billing fail?")
    first.append(99.0)
    again = e.embed_one("why did billing fail?")
    assert again == [21.0, 1.0]
    assert e.calls == ["why did billing fail?"]


def test_the_cache_is_bounded_and_can_be_cleared_or_switched_off() -> None:
    e = Counting()
    e.cache_size = 2
    for t in ("a", "bb", "ccc", "a"):
        e.embed_one(t)
    assert e.calls == ["a", "bb", "ccc", "a"]  # "a" was evicted by "ccc"
    e.embed_one("ccc")
    assert e.calls.count("ccc") == 1
    e.clear_cache()
    e.embed_one("ccc")
    assert e.calls.count("ccc") == 2
    e.cache_size = 0
    e.embed_one("ccc")
    assert e.calls.count("ccc") == 3
