"""The relevance floor (issue 19 item 1, issue 21 item 3).

Before: with nothing relevant, search still returned ``limit`` hits whose semantic and keyword
scores were 0.00, and strength, quality and usage ranked them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from recollect_graph import Recollect, Settings
from tests.helpers import data

CORPUS = [
    "The response cache is disabled in production until the eviction bug is fixed",
    "We moved the frontend build from webpack to vite",
    "Error code ZQX-7731 means the payment gateway rejected the merchant key",
    "Daily standup moved to 9:30 for the platform team",
    "Ana is on call for the billing service this week",
    "Postmortem: eviction storm after cache config change on Friday",
    "The staging database is restored from the nightly snapshot",
    "Pull requests need two approvals before merging to main",
    "Sam made a fair point in the retro about the release checklist",
]
OFF_TOPIC = [
    "What is the boiling point of tungsten?",
    "Which river flows through Ulaanbaatar?",
    "How long do you poach an egg?",
]


@pytest.fixture
def corpus(rg: Recollect, scope_id: str) -> list[str]:
    es = rg.remember_many(
        [{"content": c, "pinned": True, "score": 10} for c in CORPUS],
        scope_id=scope_id,
        owner_id="kai",
    )
    ids = [e.id for e in es]
    for _ in range(3):  # usage: every entry is well used
        rg.knowledge.touch(ids)
    return ids


@pytest.mark.parametrize("query", OFF_TOPIC)
def test_nothing_relevant_returns_no_hits_however_strong_the_entries(
    rg: Recollect, scope_id: str, corpus: list[str], query: str
) -> None:
    assert rg.search(query, scope_id=scope_id, limit=10) == []


def test_relevant_hits_still_come_and_are_above_the_floor(
    rg: Recollect, scope_id: str, corpus: list[str]
) -> None:
    hits = rg.search("which bundler builds the web frontend", scope_id=scope_id)
    assert hits[0].entry.id == corpus[1]
    assert len(hits) < len(CORPUS)  # not filled up to the limit
    floor = rg.settings
    semantic_floor = floor.search_floor
    if hits[0].signals.semantic >= floor.search_floor_confident:
        semantic_floor = min(semantic_floor, floor.search_floor_relaxed)
    for h in hits:
        s = h.signals
        assert (
            s.semantic >= semantic_floor or s.keyword >= floor.search_floor_keyword or s.graph > 0
        ), h


def _with(rg: Recollect, **changes: float) -> Recollect:
    settings = Settings.model_validate({**rg.settings.model_dump(), **changes})
    return Recollect(rg.db, settings, embedder=rg.embedder, spacy=rg.spacy)


def test_a_confident_hit_lowers_the_floor_for_the_rest(
    rg: Recollect, scope_id: str, corpus: list[str]
) -> None:
    # "Ana is on call for the billing service this week" answers it plainly (cosine ~0.68); the
    # standup entry shares no keyword and is ~0.29 from the question: under a floor of 0.35, over
    # a relaxed floor of 0.25
    query = "who is on call for billing this week"
    floors = {"search_floor": 0.35, "search_floor_relaxed": 0.25}
    strict = _with(rg, search_floor_confident=1.0, **floors)
    relaxed = _with(rg, search_floor_confident=0.6, **floors)
    strict_ids = [h.entry.id for h in strict.search(query, scope_id=scope_id, hops=0)]
    relaxed_hits = relaxed.search(query, scope_id=scope_id, hops=0)
    relaxed_ids = [h.entry.id for h in relaxed_hits]
    assert strict_ids[0] == relaxed_ids[0] == corpus[4]
    assert corpus[3] not in strict_ids
    assert corpus[3] in relaxed_ids
    assert relaxed_hits[relaxed_ids.index(corpus[3])].signals.keyword == 0
    # a question the scope never talks about has no confident hit: the full floor holds
    assert relaxed.search(OFF_TOPIC[0], scope_id=scope_id) == []


def test_a_question_that_shares_one_word_with_the_scope_gets_no_hit(
    rg: Recollect, scope_id: str, corpus: list[str]
) -> None:
    # "point" is the only word of the question the scope holds: the retro entry matches it and
    # nothing else about it is relevant (its keyword score, normalised by the best, is 1.0)
    query = OFF_TOPIC[0]
    assert rg.search(query, scope_id=scope_id) == []
    lenient = _with(rg, search_floor_known=0)
    hits = lenient.search(query, scope_id=scope_id)
    assert [h.entry.id for h in hits][:1] == [corpus[8]]
    assert hits[0].signals.keyword == 1.0
    assert hits[0].signals.semantic < rg.settings.search_floor


def test_how_a_question_points_at_the_conversation_is_not_what_it_asks_about(
    rg: Recollect, scope_id: str, corpus: list[str]
) -> None:
    # the scope holds "find out", "boiling" and "point": three of the four words of the
    # question as it was split before, enough for its keyword matches to pass on their own
    rg.remember_many(
        [
            {"content": "We need to find out why the nightly snapshot failed"},
            {"content": "We keep boiling the ocean: scope the migration smaller"},
        ],
        scope_id=scope_id,
        owner_id="kai",
    )
    asked = "What did I find out about the boiling point of tungsten?"
    assert rg.search(asked, scope_id=scope_id) == []
    # its subject, asked plainly, is found where the scope has it
    hits = rg.search("why did the nightly snapshot fail?", scope_id=scope_id)
    assert "find out why the nightly snapshot failed" in hits[0].entry.content


def test_a_question_whose_words_the_scope_holds_keeps_its_keyword_match(
    rg: Recollect, scope_id: str, corpus: list[str]
) -> None:
    # a semantic floor high enough that the gateway entry passes on its keyword alone
    strict = _with(rg, search_floor=0.45, search_floor_confident=1.0)
    hits = strict.search("merchant", scope_id=scope_id, hops=0)
    assert [h.entry.id for h in hits] == [corpus[2]]
    assert hits[0].signals.semantic < 0.45 and hits[0].signals.keyword == 1.0
    # one word of the two is one the scope never used: the same match no longer passes alone
    assert strict.search("merchant tungsten", scope_id=scope_id, hops=0) == []


def test_a_time_in_the_question_does_not_let_everything_said_then_through(
    rg: Recollect, scope_id: str
) -> None:
    # one chat session of six turns, ten days before the question is asked: "in the past month"
    # names their time, so each is context for the question, but none is about tungsten
    said = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
    turns = [
        {"id": f"t{i}", "role": "user", "speaker": "kai", "text": text,
         "at": (said + timedelta(minutes=i)).isoformat()}
        for i, text in enumerate(CORPUS[:6])
    ]  # fmt: skip
    rg.sessions.add_turns("s-march", turns, scope_id=scope_id, owner_id="kai")
    asked = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
    query = "What did we find out about the boiling point of tungsten in the past month?"
    every = _with(rg, search_floor_time=0).search(query, scope_id=scope_id, valid_at=asked)
    assert len(every) == 6  # the time alone used to pass every turn said then
    assert rg.search(query, scope_id=scope_id, valid_at=asked, touch=False) == []
    # a question about nothing but that time: everything said then answers it
    talk = "What did we talk about in the past month?"
    assert len(rg.search(talk, scope_id=scope_id, valid_at=asked, touch=False)) == 6
    # a question about something said then still finds it first, with the time
    hits = rg.search(
        "what did we move the frontend build to in the past month",
        scope_id=scope_id,
        valid_at=asked,
        touch=False,
    )
    assert hits[0].entry.source_id == "t1"
    # a question plainly about the scope (a confident hit): the time alone still lets every
    # turn said then through, however high the time floor
    plain = "did we move the frontend build from webpack to vite in the past month"
    strict = _with(rg, search_floor_time=1.0)
    gathered = strict.search(plain, scope_id=scope_id, valid_at=asked, touch=False)
    assert gathered[0].signals.semantic >= rg.settings.search_floor_confident
    assert len(gathered) == 6


CHATS = [  # chat questions about other things, each 0.2-0.25 from the question below (MiniLM)
    "Can you tell me more about the estimated delivery times and fees of each service?",
    "Can you provide information on any environmental practices or conservation efforts?",
    "Can you tell me more about the Yamaha MusicCast system and how it works with the soundbar?",
    "Do you think the weather will be okay for camping in late August?",
    "We moved the frontend build from webpack to vite",
    "Daily standup moved to 9:30 for the platform team",
]


def test_a_time_that_holds_every_turn_lets_none_through_on_its_own(
    rg: Recollect, scope_id: str
) -> None:
    # six chats over the last week, all of them "this year": the time says nothing of which
    # turn is meant, so it lets none through that does not pass on its own
    asked = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
    for day, text in enumerate(CHATS, start=2):  # a chat a day, each of one turn
        turn = {"id": f"d{day}", "role": "user", "speaker": "kai", "text": text}
        turn["at"] = (asked - timedelta(days=day)).isoformat()
        rg.sessions.add_turns(f"s-{day}", [turn], scope_id=scope_id, owner_id="kai")
    query = "Did we talk about configuring a Kubernetes ingress controller this year?"
    # a semantic floor that none of the chats reaches on its own, so only the time can let one
    # in; and a search for 3 hits, fewer than the six turns said then
    own = {"search_floor": 0.4, "search_floor_relaxed": 0.4}
    asked_for = {"valid_at": asked, "touch": False, "limit": 3}
    # counted as a time like any other, the year let the chats at 0.2 or more through
    selective = _with(rg, search_time_unselective=1.0, **own)
    passed = selective.search(query, scope_id=scope_id, **asked_for)
    assert len(passed) == 3
    assert {h.entry.source_id for h in passed} <= {"d2", "d3", "d4", "d5"}
    assert _with(rg, **own).search(query, scope_id=scope_id, **asked_for) == []
    # with no more turns said then than it returns, the search gives them all (its list is
    # theirs either way)
    every = _with(rg, **own).search(query, scope_id=scope_id, valid_at=asked, touch=False)
    assert {h.entry.source_id for h in every} >= {"d2", "d3", "d4", "d5"}
    # a question about nothing but that time still gets everything said then
    talk = rg.search("What did we talk about this year?", scope_id=scope_id, valid_at=asked)
    assert len(talk) == len(CHATS)


HANDBOOK = """# Release handbook

## Cut-off

The release manager picks the cut-off point each Thursday; changes merged after it wait for the
next train.
"""


def test_a_document_chunk_that_shares_one_word_gets_no_hit_either(
    rg: Recollect, scope_id: str
) -> None:
    rg.documents.ingest("Release handbook", HANDBOOK, owner_id="kai", scope_id=scope_id)
    query = OFF_TOPIC[0]  # "point" is the handbook's, "boiling" and "tungsten" are not
    assert rg.search(query, scope_id=scope_id) == []
    hits = _with(rg, search_floor_known=0).search(query, scope_id=scope_id)
    assert [h.kind for h in hits] == ["chunk"]
    assert "cut-off point" in hits[0].entry.content


def test_the_floor_is_a_setting(rg: Recollect, scope_id: str, corpus: list[str]) -> None:
    off = Settings.model_validate(
        {**rg.settings.model_dump(), "search_floor": 0, "search_floor_keyword": 0}
    )
    unfloored = Recollect(rg.db, off, embedder=rg.embedder, spacy=rg.spacy)
    assert len(unfloored.search(OFF_TOPIC[0], scope_id=scope_id, limit=5)) == 5


def test_cli_search_with_nothing_relevant(run: Any, scope_id: str, corpus: list[str]) -> None:
    assert data(run("search", OFF_TOPIC[1], "--scope", scope_id, "--json")) == []
    assert "(0 hits)" in run("search", OFF_TOPIC[1], "--scope", scope_id).stdout
