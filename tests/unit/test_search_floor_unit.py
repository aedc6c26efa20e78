"""One search's semantic floor: full, or relaxed once a hit is confident (docs/search.md)."""

from __future__ import annotations

import pytest

from recollect_graph.services.search.hybrid import Search
from recollect_graph.settings import Settings


def _search(**changes: float) -> Search:
    return Search(None, None, Settings(**changes))  # type: ignore[arg-type]  # no statement runs


@pytest.mark.parametrize(
    ("semantics", "floor"),
    [
        ([0.62, 0.3, 0.21], 0.2),  # a confident best hit: the others pass from 0.2
        ([0.45, 0.1], 0.2),  # exactly confident
        ([0.44, 0.3], 0.25),  # not confident: the full floor
        ([0.3, 0.29], 0.25),  # an off-topic question's best hit
        ([], 0.25),  # no candidate at all
    ],
)
def test_the_floor_of_one_search(semantics: list[float], floor: float) -> None:
    assert _search().semantic_floor(semantics) == floor


def test_a_candidate_passes_by_the_floor_given_or_by_keyword() -> None:
    s = _search()
    assert not s.above_floor(0.22, 0.0)  # the default floor is the full one
    assert s.above_floor(0.22, 0.0, floor=0.2)
    assert not s.above_floor(0.19, 0.0, floor=0.2)
    assert s.above_floor(0.0, 0.3, floor=0.2)  # a keyword match passes whatever the floor


def test_confident_one_turns_the_rule_off_and_relaxed_never_raises_the_floor() -> None:
    assert _search(search_floor_confident=1.0).semantic_floor([0.99]) == 0.25
    assert _search(search_floor_relaxed=0.4).semantic_floor([0.9]) == 0.25
    assert _search(search_floor=0.3, search_floor_relaxed=0.1).semantic_floor([0.5]) == 0.1


def test_the_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOLLECT_SEARCH_FLOOR_CONFIDENT", "0.6")
    monkeypatch.setenv("RECOLLECT_SEARCH_FLOOR_RELAXED", "0.15")
    s = Settings.from_env()
    assert (s.search_floor_confident, s.search_floor_relaxed) == (0.6, 0.15)
    with pytest.raises(ValueError):
        Settings(search_floor_relaxed=1.5)
