"""The floor's question-level test asks the scope only when its answer can change a hit."""

from __future__ import annotations

from typing import Any

import pytest

from recollect_graph.services.search.floors import KnownWords, known_share
from recollect_graph.settings import Settings


def _cand(semantic: float, keyword: float, speaker: str | None = None) -> dict[str, Any]:
    return {"semantic": semantic, "keyword": keyword, "entry": {"speaker": speaker}}


class _Scope:
    """A scope that holds some words, and counts how often it is asked."""

    def __init__(self, words: set[str]) -> None:
        self.words = words
        self.asked: list[list[str]] = []

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        assert name == "search/terms_known"
        terms = [q["term"] for q in params["queries"]]
        self.asked.append(terms)
        return [{"term": t, "known": t in self.words} for t in terms]


S = Settings()
FLOOR = S.search_floor


def test_known_share() -> None:
    assert known_share([{"known": True}, {"known": False}, {"known": True}]) == 2 / 3
    assert known_share([]) == 1.0


def test_a_scope_that_lacks_a_word_of_three_holds_back_keyword_matches() -> None:
    scope = _Scope({"boiling", "point"})
    known = KnownWords(scope.read, S, ["boiling", "point", "tungsten"], "s")
    assert known.allow([_cand(0.05, 1.0)], FLOOR) is False
    assert known.share == pytest.approx(2 / 3)


def test_a_scope_that_holds_every_word_lets_them_pass() -> None:
    scope = _Scope({"merchant", "key"})
    known = KnownWords(scope.read, S, ["merchant", "key"], "s")
    assert known.allow([_cand(0.1, 1.0)], FLOOR) is True


def test_it_asks_once_per_search() -> None:
    scope = _Scope(set())
    known = KnownWords(scope.read, S, ["tungsten"], "s")
    assert not known.allow([_cand(0.1, 1.0)], FLOOR)
    assert not known.allow([_cand(0.1, 1.0), _cand(0.0, 0.8)], FLOOR)
    assert len(scope.asked) == 1


def test_speakers_are_not_counted() -> None:
    # "Did Melanie go camping?": Melanie is who, not what
    scope = _Scope({"camping"})
    known = KnownWords(scope.read, S, ["melanie", "camping"], "s")
    assert known.allow([_cand(0.1, 1.0, speaker="Melanie")], FLOOR)
    assert scope.asked == [["camping"]]


@pytest.mark.parametrize(
    ("cands", "why"),
    [
        ([_cand(0.6, 1.0), _cand(0.1, 0.9)], "a confident candidate: the question is on topic"),
        ([_cand(0.3, 1.0), _cand(0.1, 0.2)], "nothing passes on keywords alone"),
        ([_cand(0.1, 0.0)], "no keyword match at all"),
    ],
)
def test_it_does_not_ask_when_the_answer_changes_nothing(
    cands: list[dict[str, Any]], why: str
) -> None:
    scope = _Scope(set())
    assert KnownWords(scope.read, S, ["tungsten"], "s").allow(cands, FLOOR), why
    assert scope.asked == [], why


def test_off_means_never_asking() -> None:
    scope = _Scope(set())
    off = S.model_copy(update={"search_floor_known": 0.0})
    assert KnownWords(scope.read, off, ["tungsten"], "s").allow([_cand(0.1, 1.0)], FLOOR)
    assert scope.asked == []
