"""Search signals and query handling that need no database: session support, time words."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from recollect_graph.services.search.gathering import without_gathering_words
from recollect_graph.services.search.signals import (
    EVENT_PATTERN,
    EVENT_REPORT,
    asked_of,
    context_parts,
    conversation_cues,
    other_role,
    session_support,
    to_speaker,
    who_speaks,
)


def _cand(session: str | None, relevance: float, *, relevant: bool = True) -> dict[str, Any]:
    return {"entry": {"session_id": session}, "relevance": relevance, "relevant": relevant}


def test_a_turn_is_supported_by_the_best_other_turn_of_its_session() -> None:
    scored = {
        "a1": _cand("a", 0.6),
        "a2": _cand("a", 0.3),
        "a3": _cand("a", 0.1),
        "b1": _cand("b", 0.5),
        "e": _cand(None, 0.4),
    }
    got = session_support(scored)
    assert got["a1"] == 0.5  # a2's 0.3 relative to the best candidate (0.6)
    assert got["a2"] == 1.0  # a1 is the best of all
    assert got["a3"] == 1.0
    assert got["b1"] == 0.0  # alone in its session
    assert "e" not in got  # not a turn


def test_turns_below_the_floor_and_chunks_give_no_support() -> None:
    scored = {
        "a1": _cand("a", 0.6),
        "a2": _cand("a", 0.59, relevant=False),
        "c": {**_cand("a", 0.7), "kind": "chunk"},
    }
    got = session_support(scored)
    assert got["a1"] == 0.0
    assert got["a2"] == 1.0  # it is supported by a1, though it lends nothing itself
    assert "c" not in got
    assert session_support({"x": _cand("a", 0.2, relevant=False)}) == {}


def test_relative_time_words_are_no_keywords_and_short_times_are_windows() -> None:
    from datetime import UTC, datetime

    from recollect_graph.services.search.query_text import keyword_terms
    from recollect_graph.services.search.signals import (
        conversation_cues,
        time_windows,
        without_time_words,
    )

    asked = datetime(2023, 3, 28, 20, 0, tzinfo=UTC)
    q = "What kitchen appliance did I buy 10 days ago?"
    cues_ = conversation_cues(q, asked)
    terms, _ = keyword_terms(q)
    assert "days" in terms
    assert without_time_words(terms, cues_) == ["kitchen", "appliance", "buy"]
    (window,) = time_windows(cues_, 50)
    assert window["start"] <= datetime(2023, 3, 15, tzinfo=UTC) < window["end"]
    assert time_windows(cues_, 0) == []  # search_time_candidates=0: off
    # a calendar date stays a keyword (a turn's description names its day); a year is too long
    dated = conversation_cues("What did Caroline say in 2023 about May 8, 2023?", asked)
    terms, _ = keyword_terms("What did Caroline say in 2023 about May 8, 2023?")
    assert "2023" in without_time_words(terms, dated)
    assert all((w["end"] - w["start"]).days <= 62 for w in time_windows(dated, 50))


def test_whose_turns_a_question_asks_about() -> None:
    # the asker speaks of themself: their own turns say it
    assert asked_of("Can you suggest accessories for my current photography setup?") == "user"
    assert asked_of("I've been feeling nostalgic lately. Any tips?") == "user"
    # the asker points at what the assistant said
    assert asked_of("What was the hotel you recommended in Rome?") == "assistant"
    assert asked_of("Can you remind me of the third item on your list?") == "assistant"
    assert asked_of("Back to our previous conversation about tea: which brand?") == "assistant"
    assert asked_of("Which lens did you say I should buy?") == "assistant"
    assert asked_of("Can you recommend a lens for me?") == "user"  # a request, not a source
    # ... unless it is what the asker said
    assert asked_of("Remind me what I told you about my car") == "user"
    # neither: every turn as it is
    assert asked_of("How did we fix the flaky test?") is None
    assert asked_of("What does Jon do to relax?") is None


def test_only_a_turn_of_the_other_role_is_lowered() -> None:
    assert other_role({"role": "assistant"}, "user") == 1.0
    assert other_role({"role": "user"}, "assistant") == 1.0
    assert other_role({"role": "user"}, "user") == 0.0
    assert other_role({"role": "assistant"}, None) == 0.0
    assert other_role({"role": None}, "user") == 0.0  # an entry, not a turn
    assert other_role({"role": "system"}, "user") == 0.0


@pytest.mark.parametrize(
    "text",
    [
        "I just signed a contract with my first client today.",
        "Last weekend we went camping by the lake.",
        "I\u2019ve finally finished the quilt!",
        "We moved to Lisbon two years ago.",
        "This morning the tomatoes were ripe.",
        "Yesterday my sister called.",
        "Last Tuesday I ran my first 10k.",
        "last sat we repainted the shed",
        "This past weekend we hosted a barbecue.",
        "The other day a neighbour brought us soup.",
        "We cleared out the garage over the weekend.",
    ],
)
def test_a_turn_that_reports_what_happened_is_an_event(text: str) -> None:
    assert re.search(EVENT_REPORT, text, re.IGNORECASE)
    assert re.fullmatch(EVENT_PATTERN, text)  # the form the search statements match


@pytest.mark.parametrize(
    "text",
    [
        "Can you suggest a good sourdough recipe?",
        "Beagles need long walks and patience.",
        "I have a Samsung phone and a power bank.",
        "The agora of Athens was a public square.",  # 'ago' only as a whole word
        "Just be patient with yourself.",
        "Her last wedding photo hangs in the hall.",  # a weekday's short form only as a word
        "The last sunset of the trip was orange.",
    ],
)
def test_a_turn_that_reports_nothing_is_no_event(text: str) -> None:
    assert not re.search(EVENT_REPORT, text, re.IGNORECASE)


def test_the_counting_words_leave_a_gathering_question() -> None:
    assert without_gathering_words("How many projects have I led?") == "projects have I led?"
    assert without_gathering_words("What did I spend in total on bikes?") == (
        "What did I spend on bikes?"
    )
    assert without_gathering_words("What is the name of my dog?") == "What is the name of my dog?"


def test_a_named_time_lifts_a_turn_by_its_relevance_among_those_said_then() -> None:
    from datetime import UTC, datetime, timedelta

    from recollect_graph.services.search.signals import (
        best_said_then,
        conversation_cues,
        date_gate,
    )

    asked = datetime(2023, 4, 18, 18, 0, tzinfo=UTC)
    cues_ = conversation_cues("What charity event did I do a month ago?", asked)

    def cand(days: int, relevance: float) -> dict[str, Any]:
        return {"entry": {"valid_from": asked - timedelta(days=days)}, "relevance": relevance}

    scored = {"walk": cand(30, 0.46), "festival": cand(30, 0.1), "books": cand(60, 0.9)}
    best = best_said_then(scored, cues_)
    assert best == 0.46  # the books drive is more relevant, but said two months ago
    assert date_gate(0.46, best) == 1.0
    assert date_gate(0.23, best) == 1.0  # from half the best said then: the whole lift
    assert 0.4 < date_gate(0.1, best) < 0.5
    assert date_gate(0.1, best_said_then({"f": cand(30, 0.1)}, cues_)) == 1.0  # alone then
    assert best_said_then(scored, conversation_cues("What charity event did I do?", asked)) == 0
    # a question about the user's own doings: the assistant's reply of that day is left out
    scored["tips"] = cand(30, 0.8)
    scored["tips"]["entry"]["role"] = "assistant"
    scored["walk"]["entry"]["role"] = "user"
    assert best_said_then(scored, cues_) == 0.8
    assert best_said_then(scored, cues_, wanted_role="user") == 0.46


def test_of_two_equal_turns_the_one_whose_session_keeps_to_the_subject_goes_first() -> None:
    from datetime import UTC, datetime

    from recollect_graph.services.search.fusion import fuse
    from recollect_graph.settings import Settings

    now = datetime(2026, 1, 1, tzinfo=UTC)

    def turn(session: str, relevance: float) -> dict[str, Any]:
        row = {"id": session, "session_id": session, "created_at": now, "speaker": "user"}
        row |= {"length": 300, "scope_id": "scope", "owner_id": "kai", "content": "a turn"}
        return {"entry": row, "relevance": relevance, "relevant": True, "semantic": relevance}

    scored = {
        "a-alone": turn("a", 0.4),  # sorts first: without the session signal it leads the tie
        "b-supported": turn("b", 0.4),
        "b-more": turn("b", 0.3),  # its session comes back to the question
    }
    for c in scored.values():
        c["keyword"] = 0.0

    def order(w_session: float) -> list[str]:
        s = Settings.from_env(environ={}, w_session=w_session)
        rows = {eid: {**c["entry"], "id": eid} for eid, c in scored.items()}
        hits = fuse(s, scored, {}, now, 0.0, 10, "scope", full_records=lambda *_: rows)
        return [h.entry.id for h in hits]

    assert order(0.0)[:2] == ["a-alone", "b-supported"]  # a tie, by id
    assert order(Settings().w_session)[:2] == ["b-supported", "a-alone"]  # the default weighs it


@pytest.mark.parametrize(
    ("question", "speaks"),
    [
        ("What did Priya say about Tomas's new bakery?", {"priya"}),
        ("How does Tomas describe the flat that Priya rented?", {"tomas"}),
        ("Why might Priya worry about Tomas's knee?", {"priya"}),
        ("According to Tomas, what makes Priya a good climber?", {"tomas"}),
        # several people are the subject, or the form is not there: every name stays
        ("Did Priya and Tomas both take up rowing?", {"priya", "tomas"}),
        ("What hobbies do Tomas and Priya share?", {"priya", "tomas"}),
        ("What prompted Priya and Tomas to move?", {"priya", "tomas"}),
        ("What did Priya's brother tell Tomas?", {"priya", "tomas"}),
        # one name: nothing to choose
        ("What did Priya bake last week?", {"priya"}),
    ],
)
def test_of_two_people_named_the_one_whose_words_answer_is_chosen(
    question: str, speaks: set[str]
) -> None:
    names, dates = conversation_cues(question, datetime(2024, 5, 1, tzinfo=UTC))
    turns = {who: {"entry": {"speaker": who.title()}} for who in ("priya", "tomas")}
    cues_ = to_speaker((names, dates), who_speaks(question, names), turns)
    # the context signal lifts that person's turns only
    cued = {who: context_parts(turns[who]["entry"], None, 0.0, cues_)[0] for who in turns}
    assert {who for who, c in cued.items() if c > 0} == speaks


def test_a_named_subject_who_does_not_speak_leaves_every_name() -> None:
    question = "What did Jonas go through before meeting Priya?"
    names, dates = conversation_cues(question, datetime(2024, 5, 1, tzinfo=UTC))
    assert who_speaks(question, names) == "jonas"
    speakers = {w: {"entry": {"speaker": w}} for w in ("Priya", "Tomas")}
    assert to_speaker((names, dates), "jonas", speakers)[0] == names


def test_a_named_time_lets_turns_below_the_floor_through_only_with_some_relevance() -> None:
    from datetime import UTC, datetime, timedelta

    from recollect_graph.services.search.floors import time_floor
    from recollect_graph.services.search.fusion import fuse
    from recollect_graph.services.search.signals import conversation_cues
    from recollect_graph.settings import Settings

    asked = datetime(2023, 4, 18, 18, 0, tzinfo=UTC)
    said = asked - timedelta(days=30)

    def turn(semantic: float) -> dict[str, Any]:
        row = {"session_id": "s", "created_at": said, "valid_from": said, "speaker": "user"}
        row |= {"length": 300, "scope_id": "scope", "owner_id": "kai", "content": "a turn"}
        relevant = semantic >= 0.25
        c = {"entry": row, "relevance": semantic, "relevant": relevant, "semantic": semantic}
        return c | {"keyword": 0.0}

    def found(question: str, semantics: dict[str, float]) -> list[str]:
        scored = {eid: turn(v) for eid, v in semantics.items()}
        rows = {eid: {**c["entry"], "id": eid} for eid, c in scored.items()}
        cues_ = conversation_cues(question, asked)
        s = Settings()
        floor = time_floor(scored.values(), s, time_only=False)  # as Search decides it
        hits = fuse(
            s, scored, {}, asked, 0.0, 10, "scope", cues_, full_records=lambda *_: rows,
            time_floor=floor,
        )  # fmt: skip
        return sorted(h.entry.id for h in hits)

    weak = {"chat": 0.1, "near": 0.22}
    # nothing confident: a turn said then needs search_floor_time (0.2) of similarity
    assert found("What did I read about tungsten a month ago?", weak) == ["near"]
    assert found("What did I read about tungsten?", weak) == []  # no time: the plain floor
    # a confident hit: the question is about this scope, and the time alone lets them through
    assert found("What did I read about tungsten a month ago?", weak | {"sure": 0.6}) == [
        "chat",
        "near",
        "sure",
    ]


@pytest.mark.parametrize(
    ("question", "only"),
    [
        ("what happened on 8 May 2023", True),
        ("What did we talk about last week?", True),
        ("what was I up to in the past two weeks", True),
        ("What did Nate do for Joanna on 25 May, 2022?", True),  # names say who, not what
        ("What did I find out about tungsten in the past month?", False),
        ("What is the total weight of the feed I bought in the past two months?", False),
        ("What happened to the staging database?", False),  # no time named
    ],
)
def test_a_question_about_nothing_but_its_time(question: str, only: bool) -> None:
    from datetime import UTC, datetime

    from recollect_graph.services.search.query_text import keyword_terms
    from recollect_graph.services.search.signals import (
        asks_only_about_time,
        conversation_cues,
        without_time_words,
    )

    cues_ = conversation_cues(question, datetime(2023, 6, 1, tzinfo=UTC))
    terms = without_time_words(keyword_terms(question)[0], cues_)
    assert asks_only_about_time(terms, cues_) is only


def test_a_hit_whose_penalties_cancel_its_relevance_is_not_returned() -> None:
    from datetime import UTC, datetime

    from recollect_graph.services.search.fusion import fuse
    from recollect_graph.settings import Settings

    now = datetime(2026, 1, 1, tzinfo=UTC)

    def turn(length: int, keyword: float) -> dict[str, Any]:
        row = {"session_id": f"s{length}-{keyword}", "created_at": now, "speaker": "user"}
        row |= {"length": length}
        row |= {"scope_id": "scope", "owner_id": "kai", "content": "a turn"}
        c = {"entry": row, "relevance": 0.25 * keyword, "relevant": True, "semantic": 0.0}
        return c | {"keyword": keyword}

    # a long turn that matches the keywords, and a "Thanks!" that matches them as weakly as the
    # floor allows: its brevity penalty (w_length) takes all its relevance
    scored = {"long": turn(300, 0.9), "thanks": turn(8, 0.3)}
    # a short turn of no relevance that the search let in some other way (the floor set to 0)
    # has nothing for the penalty to take: it stays, last
    scored["floor-off"] = turn(8, 0.0)
    rows = {eid: {**c["entry"], "id": eid} for eid, c in scored.items()}
    s = Settings.from_env(environ={})
    hits = fuse(s, scored, {}, now, 0.0, 10, "scope", full_records=lambda *_: rows)
    assert [h.entry.id for h in hits] == ["long", "floor-off"]
    assert hits[1].score == 0.0


def test_a_time_that_holds_nearly_every_candidate_lets_none_through_on_its_own() -> None:
    import math
    from datetime import UTC, datetime, timedelta

    from recollect_graph.services.search.floors import time_floor
    from recollect_graph.services.search.signals import conversation_cues, said_then_counts
    from recollect_graph.settings import Settings

    asked = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
    days = [2, 5, 9, 40]
    scored = {
        f"t{d}": {"entry": {"valid_from": asked - timedelta(days=d)}, "semantic": 0.1} for d in days
    }
    this_year = conversation_cues("Did we talk about tungsten this year?", asked)
    last_week = conversation_cues("Did we talk about tungsten in the past week?", asked)
    assert said_then_counts(scored, this_year) == (4, 4)
    assert said_then_counts(scored, last_week) == (2, 4)
    assert said_then_counts(scored, conversation_cues("Did we talk about tungsten?", asked)) == (
        0,
        0,
    )
    s = Settings.from_env(environ={})
    cands = list(scored.values())
    assert time_floor(cands, s, False, (40, 40), limit=10) == math.inf  # nothing singled out
    assert time_floor(cands, s, False, (20, 40), limit=10) == s.search_floor_time
    # every turn said then, but no more of them than the search returns: the list is theirs
    assert time_floor(cands, s, False, (4, 4), limit=10) == s.search_floor_time
    assert time_floor(cands, s, True, (40, 40), limit=10) == 0.0  # about nothing but its time
    off = Settings.from_env(environ={}, search_time_unselective=1.0)
    assert time_floor(cands, off, False, (40, 40), limit=10) == s.search_floor_time
