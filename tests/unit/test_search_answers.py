"""Which questions ask who or where, and which turns name someone or somewhere (no database)."""

from __future__ import annotations

from typing import Any

import pytest

from recollect_graph.services.search.answers import (
    asks_for_name,
    mark_names,
    names_someone,
    question_seeds,
)


@pytest.mark.parametrize(
    "question",
    [
        "Who did Priya go sailing with?",
        "Whom did Ravi thank at the dinner?",
        "Where did Priya buy her new kayak?",
        "where do I take pottery classes?",
        "What countries has Ravi lived in?",
        "Which city did Priya move to last year?",
        "What are the names of Ravi's cats?",
        "Which authors does Priya read?",
        "What bands has Ravi seen live?",
    ],
)
def test_a_question_asking_who_or_where_asks_for_a_name(question: str) -> None:
    assert asks_for_name(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Priya cook for the party?",
        "When did Ravi start running?",
        "How many kayaks does Priya own?",
        "Why did Ravi leave his job?",
        "What does Priya think about the new stadium?",
        "Did Ravi go anywhere nice?",
    ],
)
def test_other_questions_do_not(question: str) -> None:
    assert not asks_for_name(question)


@pytest.mark.parametrize(
    "text",
    [
        "Last week I went sailing with Marcus and his sister.",
        "We ended up in Lisbon for the weekend.",
        "I talked with someone named Odile at the fair.",
        "Yes, it was Aurelio, he was amazing!",
        "We had dinner with Zoë and Łukasz.",
    ],
)
def test_a_turn_naming_someone_or_somewhere_inside_a_sentence_counts(text: str) -> None:
    assert names_someone(text, {"priya", "ravi"})


@pytest.mark.parametrize(
    "text",
    [
        "I went sailing with my brother last week.",
        "Thanks, Priya! That means a lot.",  # a speaker addressed by name
        "Hey Ravi, we moved in September, on a Sunday.",  # a speaker, a month, a weekday
        "Marcus is great.",  # a name that opens the sentence is not told from any first word
        "We saw it on TV.",  # an acronym
        'Lovely: "Sunrise" was the title.',
    ],
)
def test_speakers_calendar_words_and_first_words_do_not(text: str) -> None:
    assert not names_someone(text, {"priya", "ravi"})


def test_the_question_s_own_names_do_not_count() -> None:
    text = "The party was at the harbour, with Gustavo's band playing."
    assert names_someone(text, {"priya"})
    assert not names_someone(text, {"priya", "gustavo"})


def test_marking_names_skips_the_speakers_and_candidates_without_text() -> None:
    def cand(speaker: str, text: str | None) -> dict[str, Any]:
        return {"entry": {"speaker": speaker, "text": text}}

    scored = {
        "a": cand("Priya", "Thanks, Ravi! I went there with Marcus."),
        "b": cand("Ravi", "Good one, Priya!"),
        "c": cand("Priya", None),  # the statement sends no text: not a who/where question
    }
    mark_names(scored, [])
    assert {k: c["named"] for k, c in scored.items()} == {"a": 1.0, "b": 0.0, "c": 0.0}
    mark_names(scored, ["marcus"])  # the question names Marcus: the answer is someone else
    assert scored["a"]["named"] == 0.0


def test_question_seeds_are_the_nearest_questions_not_already_seeds() -> None:
    def cand(eid: str, semantic: float, asks: bool) -> dict[str, Any]:
        return {"entry": {"id": eid, "asks": asks}, "semantic": semantic}

    relevant = [
        cand("statement", 0.9, False),  # no question: its reply answers nothing
        cand("seeded", 0.8, True),  # a seed already: its neighbours are read anyway
        cand("near", 0.6, True),
        cand("tie-b", 0.4, True),
        cand("tie-a", 0.4, True),
        cand("far", 0.1, True),
    ]
    seeds = [relevant[0], relevant[1]]
    picked = question_seeds(relevant, seeds, 3)
    assert [c["entry"]["id"] for c in picked] == ["near", "tie-a", "tie-b"]  # ties by id
    assert question_seeds(relevant, seeds, 0) == []
    assert question_seeds(list(reversed(relevant)), seeds, 3) == picked  # order-independent
