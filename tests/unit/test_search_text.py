"""Query-side text processing of search: full-text terms, names, the unnamed query, substance."""

from __future__ import annotations

import pytest

from recollect_graph.services.search.gathering import (
    asks_for_all,
    asks_for_kinds,
    compares_instances,
    without_gathering_words,
)
from recollect_graph.services.search.hybrid import content_query
from recollect_graph.services.search.query_text import (
    keyword_terms,
    substance,
    without_names,
)


def test_function_words_are_dropped_and_names_found() -> None:
    terms, names = keyword_terms("What do Jon and Gina both have in common?")
    assert terms == ["jon", "gina", "common"]
    assert names == ["gina", "jon"]


def test_terms_are_escaped_and_deduplicated() -> None:
    terms, names = keyword_terms("ZQX-7731 (billing) billing")
    assert terms == ["zqx\\-7731", "billing"]
    assert names == []


def test_a_query_of_function_words_keeps_them_and_no_words_gives_nothing() -> None:
    assert keyword_terms("what is it")[0] == ["what", "is", "it"]
    assert keyword_terms("AND OR NOT")[0] == []
    assert keyword_terms("?!") == ([], [])


def test_verbs_of_saying_are_not_what_a_question_asks_about() -> None:
    assert keyword_terms("Which TV series does Tim mention watching?")[0] == [
        "tv",
        "series",
        "tim",
        "watching",
    ]
    assert keyword_terms("What did I find out about the boiling point of tungsten?")[0] == [
        "boiling",
        "point",
        "tungsten",
    ]
    assert keyword_terms("Can you remind me what we talked about?")[0] == [
        "can",
        "you",
        "remind",
        "me",
        "what",
        "we",
        "talked",
        "about",
    ]  # nothing else left: every word stays, as for a question of function words
    assert keyword_terms("Where did I find the keys?")[0] == ["find", "keys"]


def test_calendar_words_are_not_names() -> None:
    _, names = keyword_terms("Did Caroline paint on Monday in June?")
    assert names == ["caroline"]


def test_without_names_replaces_names_and_possessives() -> None:
    q = "What do Melanie's kids like?"
    assert without_names(q, ["melanie"]) == "What do their kids like?"
    assert without_names("Did Melanie paint?", ["melanie"]) == "Did they paint?"
    assert without_names(q, []) is None
    assert without_names(q, ["gina"]) is None


@pytest.mark.parametrize(
    ("length", "expected"),
    [(None, 0.0), (0, 0.0), (20, 0.0), (100, 0.5), (500, 1.0), (5000, 1.0)],
)
def test_substance_is_log_scaled_length(length: int | None, expected: float) -> None:
    assert substance(length, full=500) == pytest.approx(expected, abs=0.01)


def test_substance_is_full_from_200_characters_by_default() -> None:
    assert substance(200) == 1.0
    assert substance(100) == pytest.approx(0.699, abs=0.01)
    assert substance(20) == 0.0


def test_a_memory_used_as_a_query_keeps_its_first_content_words_escaped() -> None:
    text = "We moved from Sentry to Kubernetes because builds were too slow (peak-traffic)."
    q = content_query(text, 4)
    assert q == r"moved sentry kubernetes builds"  # stop words and "to" out, first four kept
    assert content_query(text, 50) == r"moved sentry kubernetes builds slow peak\-traffic"
    assert content_query("and or not to the", 8) is None


@pytest.mark.parametrize(
    "question",
    [
        "How many weddings did I attend this year?",
        "How much did I spend on gym classes in total?",
        "What is the total distance I ran?",
        "Tell me all the books I read last month",
    ],
)
def test_questions_that_gather_every_instance_get_feedback(question: str) -> None:
    assert asks_for_all(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Caroline paint last week?",
        "What is the status of the billing migration?",
        "Where did I go on Saturday?",
        "What was the name of the hotel you recommended?",
        "Which bundler does the web app use?",
        "What business did I start?",
        "What books has Melanie read?",  # a list of one kind: asks_for_kinds, below
    ],
)
def test_questions_about_one_fact_do_not(question: str) -> None:
    assert not asks_for_all(question)


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("What books has Melanie read?", True),
        ("What activities does Melanie partake in?", True),
        ("Which  classical musicians does Melanie enjoy listening to?", True),
        ("What LGBTQ+ events has Caroline participated in?", True),
        ("What types of yoga has Maria practiced?", True),
        ("What kind of books does Caroline keep in her library?", True),
        ("What kind of painting did Caroline share?", False),  # one painting
        ("What does Melanie do to destress?", False),  # no noun
        ("What is the status of the billing migration?", False),
        ("What bus does she take?", False),  # "bus" is no plural
        ("What are the two hobbies that got me into online groups?", False),  # no noun before
    ],
)
def test_a_question_for_the_things_of_one_kind_gathers(question: str, kinds: bool) -> None:
    assert asks_for_kinds(question) is kinds


@pytest.mark.parametrize(
    ("question", "compares"),
    [
        ("Which streaming service did I start using most recently?", True),
        ("Which airline did I fly with the most in March and April?", True),
        ("What is the order of the three sports events I took part in?", True),
        ("Which country has Tim visited most frequently?", True),
        ("In what order did I read the three books?", True),
        ("When did I go there most recently?", False),  # asks when, not which
        ("Which did I buy first, the lens or the camera bag?", False),  # names its candidates
        ("What was the discount on my first purchase?", False),  # one instance, not a scale
        ("Which camera did I like?", False),
    ],
)
def test_a_question_ranking_every_instance_on_one_scale_gathers(
    question: str, compares: bool
) -> None:
    assert compares_instances(question) is compares
    # its scale words leave the vector without its frame, as a count's do
    if compares:
        plain = without_gathering_words(question).lower()
        assert not any(w in plain for w in ("most", "order of"))
