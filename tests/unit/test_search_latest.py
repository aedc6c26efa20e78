"""Questions about the current state of something, and the newest turns that answer them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from recollect_graph.services.search.latest import asks_for_latest, latest_positions


@pytest.mark.parametrize(
    "question",
    [
        "How many followers do I have on Instagram now?",
        "What book am I currently reading?",
        "Which streaming service did I start using most recently?",
        "Where did I go on my most recent family trip?",
        "What is the latest version of the deploy script?",
        "What do I do for exercise these days?",
        "Which phone do I use at the moment?",
    ],
)
def test_a_question_about_the_present_asks_for_the_latest(question: str) -> None:
    assert asks_for_latest(question)


@pytest.mark.parametrize(
    "question",
    [
        "What was my previous personal best time for the 5K?",
        "How long had I worked before I started my current job?",
        "What did I use to drink in the morning?",
        "Which car did I own at first, and which do I drive now?",
        "What is the order of the concerts I went to, from earliest to latest?",
        "How long has Caroline had her current group of friends for?",  # current: an adjective
        "Would Caroline still want to pursue counseling?",  # still: no time
        "What did Melanie paint?",
    ],
)
def test_other_questions_do_not(question: str) -> None:
    assert not asks_for_latest(question)


T0 = datetime(2024, 3, 1, tzinfo=UTC)


def _cand(
    relevance: float, days: int | None, *, relevant: bool = True, role: str = "user"
) -> dict[str, Any]:
    entry: dict[str, Any] = {"role": role, "speaker": role}
    if days is not None:
        entry["valid_from"] = T0 + timedelta(days=days)
    return {"entry": entry, "relevance": relevance, "relevant": relevant}


def test_the_newest_strong_turn_comes_first_and_the_oldest_gets_nothing() -> None:
    scored = {"old": _cand(0.9, 0), "mid": _cand(0.8, 10), "new": _cand(0.7, 30)}
    assert latest_positions(scored) == {"old": 0.0, "mid": 0.5, "new": 1.0}


def test_weak_irrelevant_and_timeless_turns_take_no_part() -> None:
    scored = {
        "old": _cand(0.9, 0),
        "new": _cand(0.8, 30),
        "weak_newest": _cand(0.3, 60),  # below 0.6 of the best relevance
        "below_floor": _cand(0.85, 90, relevant=False),
        "timeless": _cand(0.9, None),
    }
    assert latest_positions(scored) == {"old": 0.0, "new": 1.0}


def test_turns_of_the_role_not_asked_about_take_no_part() -> None:
    scored = {
        "old": _cand(0.9, 0),
        "new": _cand(0.8, 30),
        "reply": _cand(0.9, 31, role="assistant"),
    }
    assert latest_positions(scored, wanted_role="user") == {"old": 0.0, "new": 1.0}


def test_one_moment_gives_no_order() -> None:
    assert latest_positions({"a": _cand(0.9, 5), "b": _cand(0.8, 5)}) == {}
    assert latest_positions({"a": _cand(0.9, 5)}) == {}
    assert latest_positions({}) == {}


def test_the_turns_of_one_session_share_its_place() -> None:
    """Later lines of one conversation are no update of its earlier ones."""
    scored = {
        "march:0": _cand(0.9, 0),
        "june:0": _cand(0.9, 90),
        "june:5": _cand(0.8, 90),
    }
    for eid, c in scored.items():
        c["entry"]["session_id"] = eid.split(":")[0]
    scored["june:5"]["entry"]["valid_from"] += timedelta(minutes=5)
    assert latest_positions(scored) == {"march:0": 0.0, "june:0": 1.0, "june:5": 1.0}
