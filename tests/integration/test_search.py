"""Hybrid search as a user notices it: meaning, rare tokens, graph neighbours, currency, filters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from neo4j import RoutingControl

from recollect_graph import Recollect
from recollect_graph.db.queries import cypher
from recollect_graph.errors import InvalidInput
from recollect_graph.services.search.hybrid import Search, lucene_query
from recollect_graph.settings import Settings
from tests.helpers import candidate_params


def _ids(hits: list[Any]) -> list[str]:
    return [h.entry.id for h in hits]


def _add_chat(
    rg: Recollect, scope_id: str, session: str, prefix: str, lines: list[tuple[str, str]]
) -> None:
    """Store ``(speaker, text)`` lines as one session, turn ids ``<prefix>0``, ``<prefix>1``..."""
    turns = [
        {"id": f"{prefix}{i}", "speaker": who, "text": text} for i, (who, text) in enumerate(lines)
    ]
    rg.sessions.add_turns(session, turns, scope_id=scope_id, owner_id="kai")


def test_paraphrase_is_found_by_meaning(
    rg: Recollect, scope_id: str, corpus: dict[str, str]
) -> None:
    hits = rg.search("which bundler does the web app use?", scope_id=scope_id, hops=0)
    assert hits[0].entry.id == corpus["bundler"]
    assert hits[0].signals.semantic > 0.25
    assert hits[0].rank == 1 and all(h.score <= hits[0].score for h in hits)


def test_exact_rare_token_is_found_by_keyword(
    rg: Recollect, scope_id: str, corpus: dict[str, str]
) -> None:
    hits = rg.search("ZQX-7731", scope_id=scope_id, hops=0)
    assert hits[0].entry.id == corpus["token"]
    assert hits[0].signals.keyword == 1.0
    assert all(h.signals.keyword == 0.0 for h in hits[1:])


def test_connected_entry_comes_with_a_hit(
    rg: Recollect, scope_id: str, corpus: dict[str, str]
) -> None:
    hidden = rg.remember("Quarterly OKR: reduce p99 latency", scope_id=scope_id, owner_id="kai")
    rg.connect(
        corpus["token"],
        hidden.id,
        "leads_to",
        weight=0.9,
        reason="gateway errors hurt latency",
        scope_id=scope_id,
    )
    hits = rg.search("ZQX-7731", scope_id=scope_id, limit=10)
    by_id = {h.entry.id: h for h in hits}
    assert hidden.id in by_id
    assert by_id[hidden.id].signals.graph > 0 and by_id[hidden.id].signals.keyword == 0.0
    assert by_id[hidden.id].via == f"leads_to {corpus['token']}"
    assert by_id[hidden.id].rank == 2  # right after the hit it hangs off
    flat = {h.entry.id: h for h in rg.search("ZQX-7731", scope_id=scope_id, limit=10, hops=0)}
    assert hidden.id not in flat or (
        flat[hidden.id].signals.graph == 0 and flat[hidden.id].rank > 2
    )


def test_superseded_and_deleted_are_hidden_unless_asked(
    rg: Recollect, scope_id: str, corpus: dict[str, str]
) -> None:
    rg.query(
        "MATCH (e:Entry {id: $id}) SET e.retired_at = datetime()",
        {"id": corpus["bundler"]},
        write=True,
    )
    rg.memories.in_scope(scope_id).delete([corpus["token"]], reason="outdated")
    assert corpus["bundler"] not in _ids(rg.search("webpack vite build", scope_id=scope_id))
    assert corpus["token"] not in _ids(rg.search("ZQX-7731", scope_id=scope_id))
    assert corpus["bundler"] in _ids(
        rg.search("webpack vite build", scope_id=scope_id, include_superseded=True)
    )
    assert corpus["token"] in _ids(rg.search("ZQX-7731", scope_id=scope_id, include_deleted=True))
    rg.memories.in_scope(scope_id).restore([corpus["token"]])
    assert _ids(rg.search("ZQX-7731", scope_id=scope_id))[0] == corpus["token"]


def test_as_of_answers_for_a_past_moment(rg: Recollect, scope_id: str) -> None:
    now = datetime.now(UTC)
    old = rg.remember(
        "The API rate limit is 100 requests per minute", scope_id=scope_id, owner_id="kai"
    )
    new = rg.remember(
        "The API rate limit is 500 requests per minute", scope_id=scope_id, owner_id="kai"
    )
    rg.query(
        "MATCH (o:Entry {id: $o}), (n:Entry {id: $n}) "
        "SET o.created_at = $t0, o.retired_at = $t1, n.created_at = $t1",
        {"o": old.id, "n": new.id, "t0": now - timedelta(days=10), "t1": now - timedelta(days=2)},
        write=True,
    )
    current = _ids(rg.search("API rate limit", scope_id=scope_id))
    assert new.id in current and old.id not in current
    past = _ids(rg.search("API rate limit", scope_id=scope_id, as_of=now - timedelta(days=5)))
    assert old.id in past and new.id not in past


def test_filters(rg: Recollect, scope_id: str, corpus: dict[str, str]) -> None:
    rg.remember(
        "We decided to keep the cache off",
        scope_id=scope_id,
        owner_id="kai",
        entry_type="decision",
        source_type="user_stated",
    )
    assert {
        h.entry.entry_type for h in rg.search("cache", scope_id=scope_id, entry_types=["decision"])
    } == {"decision"}
    assert _ids(rg.search("cache", scope_id=scope_id, tags=["postmortem"], hops=0)) == [
        corpus["postmortem"]
    ]
    only_user = rg.search("cache", scope_id=scope_id, source_types=["user_stated"], hops=0)
    assert [h.entry.source_type for h in only_user] == ["user_stated"]
    assert (
        rg.search("cache", scope_id=scope_id, created_after=datetime.now(UTC) + timedelta(days=1))
        == []
    )
    top = rg.search("cache", scope_id=scope_id, min_score=0.5)
    assert top and all(h.score >= 0.5 for h in top)
    assert len(rg.search("cache", scope_id=scope_id, limit=2)) == 2


def test_other_scopes_are_never_returned(
    rg: Recollect, scope_id: str, corpus: dict[str, str]
) -> None:
    rg.remember("ZQX-7731 in another tenant", scope_id=scope_id + "-b", owner_id="eve")
    for q in ("ZQX-7731", "payment gateway", "cache"):
        assert {h.entry.scope_id for h in rg.search(q, scope_id=scope_id)} == {scope_id}


def test_search_records_access_exactly_once_per_hit(
    rg: Recollect, scope_id: str, corpus: dict[str, str]
) -> None:
    hits = rg.search("ZQX-7731", scope_id=scope_id, limit=2, hops=0)
    rg.search("ZQX-7731", scope_id=scope_id, limit=2, hops=0)
    after = {e.id: e for e in rg.get_many(_ids(hits), scope_id=scope_id)}
    for h in hits:
        assert after[h.entry.id].access_count == 2
        assert after[h.entry.id].last_accessed_at is not None
    rg.search("ZQX-7731", scope_id=scope_id, limit=2, touch=False)
    assert rg.get(hits[0].entry.id, scope_id=scope_id).access_count == 2


def test_bad_queries(rg: Recollect, scope_id: str) -> None:
    for kwargs in ({"limit": 0}, {"hops": 7}, {"min_score": -1}):
        with pytest.raises(InvalidInput):
            rg.search("x", scope_id=scope_id, **kwargs)
    with pytest.raises(InvalidInput):
        rg.search("   ", scope_id=scope_id)
    assert rg.search('"unbalanced (quote [ OR AND ~', scope_id=scope_id) == []


def test_lucene_query_is_escaped() -> None:
    assert lucene_query("ZQX-7731 (billing)") == "zqx\\-7731 billing"
    assert lucene_query("AND OR NOT") is None
    assert lucene_query("?!") is None


def test_rrf_fusion_setting(rg: Recollect, scope_id: str, corpus: dict[str, str]) -> None:
    rrf = Search(rg.db, rg.embedder, rg.settings.model_copy(update={"fusion": "rrf"}))
    hits = rrf.search("ZQX-7731 payment gateway", scope_id=scope_id, touch=False)
    assert hits[0].entry.id == corpus["token"]


def test_search_uses_the_native_indexes(
    rg: Recollect, scope_id: str, corpus: dict[str, str]
) -> None:
    q = cypher("search/candidates")
    params = candidate_params(
        rg.embedder.embed_one("cache"), scope_id, lucene="cache", terms=["cache"]
    )
    summary = rg.db.driver.execute_query(
        "PROFILE " + q.text, params, routing_=RoutingControl.READ
    ).summary
    ops: list[str] = []

    def walk(plan: Any) -> None:
        ops.append(f"{plan['operatorType']} {plan.get('args', {}).get('Details', '')}")
        for child in plan.get("children", []):
            walk(child)

    walk(summary.profile)
    text = "\n".join(ops)
    assert "db.index.vector.queryNodes" in text and "db.index.fulltext.queryNodes" in text
    assert "AllNodesScan" not in text and "NodeByLabelScan" not in text


def test_a_question_about_a_speaker_finds_what_they_said(rg: Recollect, scope_id: str) -> None:
    turns = [
        {"id": "t1", "speaker": "Gina", "text": "Go get 'em, Jon!"},
        {"id": "t2", "speaker": "Jon", "text": "Hey Gina, how's it going?"},
        {
            "id": "t3",
            "speaker": "Jon",
            "text": "Lately I unwind by running along the river every evening; it clears my "
            "head after a long day at the studio.",
        },
        {"id": "t4", "speaker": "Gina", "text": "I opened an online clothing store last month."},
    ]
    rg.sessions.add_turns("chat-1", turns, scope_id=scope_id, owner_id="kai")
    hits = rg.search("What does Jon do to relax?", scope_id=scope_id, touch=False)
    assert hits[0].entry.source_id == "t3"
    # the speaker's name is left out of the full-text query: greeting him by name is no match
    assert all(h.signals.keyword == 0.0 for h in hits if h.entry.source_id in ("t1", "t2"))
    # short turns carry little: their brevity is reported (1 at 20 characters or fewer, falling
    # to 0 at 200) and lowers them
    by_id = {h.entry.source_id: h for h in hits}
    assert 0.0 < by_id["t3"].signals.brevity < 0.6
    greeting = rg.search("Go get 'em, Jon!", scope_id=scope_id, touch=False)
    short = [h for h in hits + greeting if len(h.entry.content) <= 20]
    assert short and all(h.signals.brevity == 1.0 for h in short)


def test_of_two_people_a_question_names_the_one_it_asks_about_speaks_first(
    rg: Recollect, scope_id: str
) -> None:
    turns = [
        {
            "id": "b1",
            "speaker": "Ben",
            "text": "My garden is finally blooming: tomatoes, basil and tall sunflowers.",
        },
        {"id": "a1", "speaker": "Ana", "text": "Your garden looks wonderful, Ben!"},
        {"id": "b2", "speaker": "Ben", "text": "Thanks! Want to come over for dinner?"},
    ]
    rg.sessions.add_turns("chat-garden", turns, scope_id=scope_id, owner_id="kai")
    asked = rg.search("What did Ana say about Ben's garden?", scope_id=scope_id, touch=False)
    assert asked[0].entry.source_id == "a1"
    assert {h.entry.source_id: h.signals.context for h in asked}["a1"] > 0
    told = rg.search("How does Ben describe the garden Ana saw?", scope_id=scope_id, touch=False)
    assert told[0].entry.source_id == "b1"


def test_the_reply_to_a_follow_up_question_is_found_with_the_story_it_answers(
    rg: Recollect, scope_id: str
) -> None:
    story = [
        ("Omar", "Last Sunday I took my nephews to the naval museum by the harbour."),
        ("Nadia", "Oh nice! How did they find it?"),
        ("Omar", "They were speechless, honestly."),
    ]
    # more turns about the museum and the nephews than search takes as graph seeds (10), so the
    # follow-up question itself is no seed
    chatter = [
        ("Nadia", "The naval museum has a new submarine exhibit, I read."),
        ("Omar", "My nephews collect model ships from every museum shop."),
        ("Nadia", "The harbour museum cafe does great coffee."),
        ("Omar", "The museum guide told the nephews about old naval battles."),
        ("Nadia", "My niece wants to visit the naval museum too."),
        ("Omar", "The nephews asked about the museum's cannons all week."),
        ("Nadia", "Is the naval museum open on holidays?"),
        ("Omar", "Tickets to the museum were cheap for the nephews."),
        ("Nadia", "The museum by the harbour used to be a shipyard."),
        ("Omar", "My nephews saw a naval parade at the harbour once."),
        ("Nadia", "The museum shop sells naval maps."),
        ("Omar", "Next time the nephews want the maritime museum in Leith."),
    ]
    _add_chat(rg, scope_id, "chat-museum", "m", chatter[:6] + story + chatter[6:])
    hits = rg.search("How did Omar's nephews like the naval museum?", scope_id=scope_id, limit=20)
    by_id = {h.entry.source_id: h for h in hits}
    # the reply (m8) shares no word with the question: it is reached from the story (m6)
    # through the follow-up question it answers (m7), and ranks above that question
    assert by_id["m8"].via == f"answers {by_id['m7'].entry.id}"
    assert by_id["m8"].score > by_id["m7"].score


def test_the_reply_to_a_question_asked_like_the_query_is_found_by_that_question(
    rg: Recollect, server_settings: Settings, scope_id: str
) -> None:
    # more turns that share the query's words than search takes as graph seeds (10), so the
    # question Maria asked, which shares none of them, is no seed by relevance
    chatter = [
        ("John", "My family and I spent the weekend at the lake; work can wait."),
        ("Maria", "Your family sounds lovely, John. How is work?"),
        ("John", "Work has been hectic, but family time keeps me sane."),
        ("Maria", "My family says I work too much, honestly."),
        ("John", "Work is fine. My family visited my parents last month."),
        ("Maria", "Does your family mind that you work late?"),
        ("John", "The family loves the garden, and I can work from home."),
        ("Maria", "Working from home must be nice for the family."),
        ("John", "My family and my work friends play board games on Fridays."),
        ("Maria", "Board games with family after work are the best!"),
        ("John", "Family first, work second: that's my rule."),
        ("Maria", "My work schedule leaves little family time."),
        ("John", "We started a family plan in January to get fit."),
        ("Maria", "That's great news! How often do you all exercise together?"),
        ("John", "Three times a week; it keeps us on track."),
        ("Maria", "Nice, consistency is everything."),
    ]
    _add_chat(rg, scope_id, "chat-workout", "w", chatter)
    question = "How often does John work out with his family?"
    hits = {h.entry.source_id: h for h in rg.search(question, scope_id=scope_id, touch=False)}
    every = {
        h.entry.source_id: h for h in rg.search(question, scope_id=scope_id, limit=50, touch=False)
    }
    # Maria's question is the closest in meaning and no seed; John's reply answers it, and is
    # among the first 10 through it
    assert hits["w14"].via == f"answers {every['w13'].entry.id}"
    with Recollect.open(server_settings.model_copy(update={"search_question_seeds": 0})) as off:
        before = [h.entry.source_id for h in off.search(question, scope_id=scope_id, touch=False)]
    assert "w14" not in before


def test_a_question_asking_who_puts_the_turn_that_names_someone_first(
    rg: Recollect, server_settings: Settings, scope_id: str
) -> None:
    turns = [
        ("Lena", "Last week I went climbing with him at the quarry, my favourite climbing spot."),
        ("Marco", "Nice! Who else was there?"),
        ("Lena", "Last month I went climbing with Tomas at the quarry."),
        ("Marco", "Sounds fun, Lena."),
    ]
    _add_chat(rg, scope_id, "chat-climb", "c", turns)
    question = "Who did Lena go climbing with?"
    hits = rg.search(question, scope_id=scope_id, touch=False)
    by_id = {h.entry.source_id: h for h in hits}
    # the turn that names the person asked about comes first; a speaker addressed by name
    # ("Sounds fun, Lena.") names no one
    assert hits[0].entry.source_id == "c2"
    assert {k: h.signals.named for k, h in by_id.items()} == {k: 0.0 for k in by_id} | {"c2": 1.0}
    with Recollect.open(server_settings.model_copy(update={"w_name": 0.0})) as plain:
        before = {
            h.entry.source_id: h.score
            for h in plain.search(question, scope_id=scope_id, touch=False)
        }
    assert by_id["c2"].score > before["c2"]  # lifted by w_name of its relevance
    assert by_id["c0"].score == before["c0"]
    # a question that asks neither who nor where reads no names
    what = rg.search("What did Lena do at the quarry?", scope_id=scope_id, touch=False)
    assert all(h.signals.named == 0.0 for h in what)


def test_a_question_about_the_asker_or_the_assistant_finds_that_role_s_turns(
    rg: Recollect, scope_id: str
) -> None:
    turns = [
        {
            "id": "u1",
            "speaker": "user",
            "text": "For my photography setup I use a Fujifilm X-T4 with a 35mm prime lens.",
        },
        {
            "id": "a1",
            "speaker": "assistant",
            "text": "So your photography setup is a Fujifilm X-T4 with a 35mm prime lens.",
        },
    ]
    rg.sessions.add_turns("chat-photo", turns, scope_id=scope_id, owner_id="kai")
    mine = rg.search("Which camera is in my photography setup?", scope_id=scope_id, touch=False)
    # the asker speaks of themself: their own words first, the assistant's echo lowered
    assert [h.entry.source_id for h in mine] == ["u1", "a1"]
    assert [h.signals.role for h in mine] == [0.0, 1.0]
    told = rg.search(
        "Which camera did you say is in the photography setup?", scope_id=scope_id, touch=False
    )
    assert [h.entry.source_id for h in told] == ["a1", "u1"]
    assert [h.signals.role for h in told] == [0.0, 1.0]


def test_a_turn_that_reports_what_happened_gains_w_event_of_its_relevance(
    rg: Recollect, scope_id: str
) -> None:
    """A person's turn that reports something that happened ("I just adopted...") scores
    ``w_event`` x its relevance higher (before the lifecycle multiplier); a turn that reports
    nothing, and an assistant's turn however worded, score the same with the signal off."""
    turns = [
        {"id": "t1", "speaker": "Ana", "text": "I just adopted a beagle puppy called Max!"},
        {"id": "t2", "speaker": "Ben", "text": "A beagle puppy needs long walks and patience."},
        {
            "id": "t3",
            "speaker": "assistant",
            "role": "assistant",
            "text": "I just checked: a beagle puppy sleeps up to 18 hours a day.",
        },
    ]
    rg.sessions.add_turns("chat-dogs", turns, scope_id=scope_id, owner_id="kai")
    on = Search(rg.db, rg.embedder, rg.settings.model_copy(update={"w_event": 0.3}))
    off = Search(rg.db, rg.embedder, rg.settings.model_copy(update={"w_event": 0.0}))
    query = "what about the beagle puppy?"
    with_ = {h.entry.source_id: h for h in on.search(query, scope_id=scope_id, touch=False)}
    without = {h.entry.source_id: h for h in off.search(query, scope_id=scope_id, touch=False)}
    assert set(with_) == set(without) == {"t1", "t2", "t3"}
    assert {k: h.signals.event for k, h in with_.items()} == {"t1": 1.0, "t2": 0.0, "t3": 0.0}
    assert all(h.signals.event == 0.0 for h in without.values())
    s = rg.settings
    for key, hit in with_.items():
        sig = hit.signals
        life = s.w_strength * sig.strength + s.w_quality * sig.quality + s.w_usage * sig.usage
        relevance = s.w_semantic * sig.semantic + s.w_keyword * sig.keyword
        gain = 0.3 * relevance * (1 + life) if key == "t1" else 0.0
        assert hit.score - without[key].score == pytest.approx(gain, abs=2e-3)


BACKUP_NOTES = [
    "The nightly database backup runs at 2am and writes to cold storage",
    "Nightly backups of the database are kept for thirty days",
    "Restore drills use the database backup taken last night",
    "The backup of the orders database failed twice this week",
    "Database snapshots are copied to a second region every night",
    "Backup encryption keys rotate every quarter",
    "We compress the database dump before uploading it",
    "The backup window overlaps with the batch import at night",
    "Old backups are pruned by a weekly job",
    "Storage costs went up after we kept more backups",
    "A failed backup pages the on-call engineer",
    "The staging database is refreshed from production backups",
]


def test_a_search_for_fewer_hits_is_the_start_of_a_longer_one(rg: Recollect, scope_id: str) -> None:
    """Asking for 3 hits gives the first 3 of the same search for 20, scores and all: the graph
    signal comes from the same seeds whatever the limit, so paging never reorders hits."""
    rg.remember_many([{"content": c} for c in BACKUP_NOTES], scope_id=scope_id, owner_id="kai")
    query = "when does the nightly database backup run?"
    flat = rg.search(query, scope_id=scope_id, limit=20, hops=0, touch=False)
    assert len(flat) >= 9
    # a hit in the top 3 hangs off the 8th most relevant one
    target, far_seed = flat[2].entry.id, flat[7].entry.id
    rg.connect(far_seed, target, "supports", weight=1.0, scope_id=scope_id)
    long = rg.search(query, scope_id=scope_id, limit=20, touch=False)
    short = rg.search(query, scope_id=scope_id, limit=3, touch=False)
    assert {h.entry.id: h for h in long}[target].signals.graph > 0
    assert [(h.entry.id, h.score, h.signals) for h in short] == [
        (h.entry.id, h.score, h.signals) for h in long[:3]
    ]


def test_a_question_about_now_puts_the_newest_answer_first(
    rg: Recollect, scope_id: str, server_settings: Settings
) -> None:
    """A fact stated again later updates the earlier statement: "How many followers do I have
    now?" gets the newer count first, though the older turn is worded closer to the question;
    a question about an earlier state gets no newest-first lift."""
    spring = datetime(2024, 3, 2, 10, 0, tzinfo=UTC)
    turns = [
        ("old", "I have 500 followers on Instagram.", spring),
        ("chat", "Thanks for the tips on lighting, that helped.", spring + timedelta(days=30)),
        (
            "new",
            "Guess what, my photo account grew to 1,300 followers on Instagram after the series!",
            spring + timedelta(days=90),
        ),
    ]
    for i, text, at in turns:  # three conversations: an update comes in a later one
        rg.sessions.add_turns(
            f"chat-{i}",
            [{"id": i, "role": "user", "speaker": "user", "text": text, "at": at}],
            scope_id=scope_id,
            owner_id="kai",
        )
    asked = spring + timedelta(days=120)
    question = "How many followers do I have on Instagram now?"
    hits = rg.search(question, scope_id=scope_id, valid_at=asked, touch=False)
    by_id = {h.entry.source_id: h for h in hits}
    assert [h.entry.source_id for h in hits[:2]] == ["new", "old"]
    assert (by_id["new"].signals.latest, by_id["old"].signals.latest) == (1.0, 0.0)
    with Recollect.open(server_settings.model_copy(update={"w_latest": 0.0})) as plain:
        before = plain.search(question, scope_id=scope_id, valid_at=asked, touch=False)
    # without the signal the older statement, worded like the question, comes first
    assert [h.entry.source_id for h in before[:2]] == ["old", "new"]
    assert all(h.signals.latest == 0.0 for h in before)
    # a question about an earlier state gets no newest-first order
    past = rg.search(
        "How many followers did I have on Instagram before?",
        scope_id=scope_id,
        valid_at=asked,
        touch=False,
    )
    assert {h.entry.source_id for h in past} >= {"old", "new"}
    assert all(h.signals.latest == 0.0 for h in past)
