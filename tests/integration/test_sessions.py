"""Sessions through the API: add_turns, search over turns, forks, handoffs, scope isolation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput, SessionNotFound
from recollect_graph.ids import turn_entry_id
from recollect_graph.services.kernel import fulltext
from recollect_graph.services.search.signals import conversation_cues, time_windows
from tests.helpers import candidate_params

T0 = datetime(2026, 3, 14, 9, 0, tzinfo=UTC)


def chat(prefix: str, texts: list[tuple[str, str]]) -> list[dict[str, object]]:
    return [
        {"id": f"{prefix}{i}", "speaker": who, "text": text, "at": T0 + timedelta(minutes=i)}
        for i, (who, text) in enumerate(texts)
    ]


CONVERSATION = [
    ("Caroline", "I went to the LGBTQ support group yesterday and it was so powerful."),
    ("Melanie", "That sounds wonderful! What did you talk about there?"),
    ("Caroline", "Mostly about adoption agencies; I want to adopt a child next year."),
    ("Melanie", "You would be a great mom. I painted a sunrise over the lake last week."),
    ("Caroline", "Send me a photo of the painting please!"),
]


def test_add_turns_stores_ordered_searchable_turns(rg: Recollect, scope_id: str) -> None:
    added = rg.sessions.add_turns(
        "conv-1", chat("D1:", CONVERSATION), scope_id=scope_id, owner_id="kai", title="Chat 1"
    )
    assert (added.added, added.existing) == (5, 0)
    turns = rg.sessions.turns("conv-1", scope_id=scope_id)
    assert [t["text"] for t in turns] == [t for _, t in CONVERSATION]
    assert [t["speaker"] for t in turns][:2] == ["Caroline", "Melanie"]
    chain = rg.query(
        "MATCH p = (a:Turn {source_id: 'D1:0'})-[:NEXT*]->(b:Turn) WHERE a.scope_id = $s "
        "RETURN b.source_id AS id ORDER BY length(p)",
        {"s": scope_id},
    )
    assert [r["id"] for r in chain] == ["D1:1", "D1:2", "D1:3", "D1:4"]
    hits = rg.search("adopting a kid", scope_id=scope_id, limit=3)
    assert hits[0].entry.source_id == "D1:2"
    assert hits[0].entry.entry_type == "conversation_turn"
    assert hits[0].entry.valid_from == T0 + timedelta(minutes=2)
    s = rg.sessions.get("conv-1", scope_id=scope_id)
    assert s["turn_count"] == 5 and s["title"] == "Chat 1"
    assert s["started_at"] == T0 and s["last_turn_at"] == T0 + timedelta(minutes=4)
    assert s["summary"] and s["keywords"]


def test_add_turns_is_idempotent_and_extends(rg: Recollect, scope_id: str) -> None:
    turns = chat("t", CONVERSATION)
    rg.sessions.add_turns("s1", turns[:3], scope_id=scope_id, owner_id="kai")
    again = rg.sessions.add_turns("s1", turns, scope_id=scope_id, owner_id="kai")
    assert (again.added, again.existing) == (2, 3)
    third = rg.sessions.add_turns("s1", turns, scope_id=scope_id, owner_id="kai")
    assert third.added == 0
    rows = rg.query(
        "MATCH (s:Session {id: 's1'})-[:HAS_TURN]->(t) WHERE s.scope_id = $s "
        "RETURN count(t) AS n, count(DISTINCT t.source_id) AS d",
        {"s": scope_id},
    )
    assert rows == [{"n": 5, "d": 5}]
    nexts = rg.query(
        "MATCH (a:Turn)-[r:NEXT]->(b:Turn) WHERE a.scope_id = $s RETURN count(r) AS n",
        {"s": scope_id},
    )
    assert nexts == [{"n": 4}]


def test_bad_turns_write_nothing(rg: Recollect, scope_id: str) -> None:
    bad = [*chat("x", CONVERSATION[:2]), {"id": "x9", "speaker": "Bo", "text": "  "}]
    with pytest.raises(InvalidInput, match="turn 2: text"):
        rg.sessions.add_turns("s-bad", bad, scope_id=scope_id, owner_id="kai")
    with pytest.raises(InvalidInput, match="speaker"):
        rg.sessions.add_turns(
            "s-bad", [{"id": "1", "text": "hi"}], scope_id=scope_id, owner_id="kai"
        )
    with pytest.raises(InvalidInput, match="turns must be a list"):
        rg.sessions.add_turns("s-bad", "hello", scope_id=scope_id, owner_id="kai")  # type: ignore[arg-type]
    with pytest.raises(SessionNotFound):
        rg.sessions.get("s-bad", scope_id=scope_id)


def test_sessions_are_sealed_by_scope(rg: Recollect, scope_id: str) -> None:
    rg.sessions.add_turns(
        "shared-id", chat("a", CONVERSATION[:2]), scope_id=scope_id, owner_id="kai"
    )
    other = scope_id + "-other"
    with pytest.raises(SessionNotFound):
        rg.sessions.get("shared-id", scope_id=other)
    with pytest.raises(SessionNotFound):
        rg.fork_parent("shared-id", scope_id=other)
    assert rg.sessions.list(other) == []
    assert rg.search("adoption", scope_id=other) == []
    # The same id in another scope is another session: neither sees the other's turns.
    theirs = rg.sessions.add_turns(
        "shared-id", chat("a", CONVERSATION[2:]), scope_id=other, owner_id="kai"
    )
    assert theirs.added == 3
    assert len(rg.sessions.turns("shared-id", scope_id=scope_id)) == 2
    assert len(rg.sessions.turns("shared-id", scope_id=other)) == 3


def test_forks_resolve_to_the_resumable_ancestor(rg: Recollect, scope_id: str) -> None:
    kw = {"scope_id": scope_id, "owner_id": "kai"}
    rg.sessions.add_turns("top", chat("p", CONVERSATION[:2]), cwd="/home/kai/app", **kw)
    rg.sessions.add_turns("fork1", chat("f", CONVERSATION[2:3]), parent_session_id="top", **kw)
    rg.sessions.add_turns("fork2", chat("g", CONVERSATION[3:4]), parent_session_id="fork1", **kw)
    rg.sessions.add_turns("orphan", chat("o", CONVERSATION[4:]), parent_session_id="gone", **kw)
    p = rg.fork_parent("fork2", scope_id=scope_id)
    assert p.chain == ["fork1", "top"]
    assert (p.parent_pointer, p.parent_cwd) == ("top", "/home/kai/app")
    assert p.resume == "cd /home/kai/app && claude --resume top"
    o = rg.fork_parent("orphan", scope_id=scope_id)
    assert o.resumable is False and o.resume is None
    assert o.missing_parent == "gone" and o.parent_cwd is None
    top = rg.fork_parent("top", scope_id=scope_id)
    assert top.fork_marker is False and top.resume == "cd /home/kai/app && claude --resume top"
    assert {f["id"] for f in rg.sessions.forks(scope_id)} == {"fork1", "fork2", "orphan"}


def test_handoff_round_trip(rg: Recollect, scope_id: str) -> None:
    rg.sessions.add_turns("h1", chat("h", CONVERSATION[:2]), scope_id=scope_id, owner_id="kai")
    assert rg.sessions.get_handoff("h1", scope_id=scope_id) is None
    rg.sessions.handoff(
        "h1",
        scope_id=scope_id,
        what="Drafted the adoption checklist",
        next="Call the agency",
        artifacts=["docs/adoption.md"],
        blockers=["waiting for references"],
    )
    h = rg.sessions.get_handoff("h1", scope_id=scope_id)
    assert h is not None and h["next"] == "Call the agency"
    assert h["artifacts"] == ["docs/adoption.md"]
    with pytest.raises(SessionNotFound):
        rg.sessions.handoff("nope", scope_id=scope_id, what="x")


def test_search_uses_the_conversation_context(rg: Recollect, scope_id: str) -> None:
    """Speaker named, date named, and the turn that answers a matching question."""
    day = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    turns = [
        {"id": "a", "speaker": "Jon", "text": "Where did you hike last weekend?", "at": day},
        {"id": "b", "speaker": "Gina", "text": "Up Mount Tam with my sister.", "at": day},
        {"id": "c", "speaker": "Jon", "text": "I spent the weekend fixing my bike.", "at": day},
        {"id": "d", "speaker": "Gina", "text": "I baked bread on Sunday.", "at": T0},
    ]
    rg.sessions.add_turns("ctx", turns, scope_id=scope_id, owner_id="kai")
    hits = {h.entry.source_id: h for h in rg.search("where did they hike?", scope_id=scope_id)}
    assert hits["b"].via and hits["b"].via.startswith("answers ")
    assert hits["b"].signals.context > 0
    named = {h.entry.source_id: h for h in rg.search("what did Gina do?", scope_id=scope_id)}
    assert named["b"].signals.context >= 0.5
    assert "c" not in named or named["c"].signals.context == 0  # Jon's: below the floor or 0
    dated = {
        h.entry.source_id: h for h in rg.search("what happened on 8 May 2023", scope_id=scope_id)
    }
    assert dated["c"].signals.context == 1.0
    assert "d" not in dated or dated["d"].signals.context == 0  # another day


def test_assistant_replies_and_time_words(rg: Recollect, scope_id: str) -> None:
    """An assistant's reply is no "answer" by adjacency; "four weeks ago" counts from valid_at."""
    day = datetime(2023, 5, 8, 9, 0, tzinfo=UTC)
    ask = "Can you suggest a hike near Mount Tam for this weekend?"
    reply = "Sure. Pack water and sunscreen, and check the weather before you leave home."
    turns = [
        {"id": "u1", "role": "user", "speaker": "user", "text": ask, "at": day},
        {"id": "a1", "role": "assistant", "speaker": "assistant", "text": reply, "at": day},
        {
            "id": "u2",
            "role": "user",
            "speaker": "user",
            "text": "I finally repotted my spider plant into a bigger clay pot.",
            "at": day + timedelta(days=30),
        },
    ]
    rg.sessions.add_turns("chat", turns, scope_id=scope_id, owner_id="kai")
    hits = {h.entry.source_id: h for h in rg.search("a hike near Mount Tam", scope_id=scope_id)}
    assert "u1" in hits
    # the generic reply does not ride on the request's relevance
    assert "a1" not in hits or not (hits["a1"].via or "").startswith(("answers ", "next to "))
    asked = day + timedelta(days=58)
    q = "what did I do with my plant four weeks ago?"
    then = {h.entry.source_id: h for h in rg.search(q, scope_id=scope_id, valid_at=asked)}
    assert then["u2"].signals.context == 1.0
    # searched as of a moment months later, four weeks ago points elsewhere
    later = {
        h.entry.source_id: h
        for h in rg.search(q, scope_id=scope_id, valid_at=asked + timedelta(days=120))
    }
    assert later["u2"].signals.context == 0.0


def test_a_question_about_a_time_finds_what_was_said_then(rg: Recollect, scope_id: str) -> None:
    """A question about "four weeks ago" brings in the turns said then, however worded."""

    asked = datetime(2023, 3, 28, 20, 0, tzinfo=UTC)
    turns = [
        {
            "id": f"d{i}",
            "role": "user",
            "speaker": "user",
            "text": f"Another business milestone for my shop: order number {1000 + i} shipped.",
            "at": asked - timedelta(days=90 + i),
        }
        for i in range(30)
    ]
    turns.append(
        {
            "id": "said-then",
            "role": "user",
            "speaker": "user",
            "text": "I just signed a contract with my first freelance client today!",
            "at": asked - timedelta(days=27),
        }
    )
    rg.sessions.add_turns("chat", turns, scope_id=scope_id, owner_id="kai")
    q = "What was the significant business milestone I mentioned four weeks ago?"
    windows = time_windows(conversation_cues(q, asked), 50)
    assert windows and all(w["start"] <= asked - timedelta(days=27) < w["end"] for w in windows)
    params = candidate_params(
        rg.embedder.embed_one(q),
        scope_id,
        lucene="significant business milestone mentioned weeks",
        terms=["significant", "business", "milestone", "mentioned", "weeks"],
        k=10,
        scope_clause=fulltext.scope_clause(scope_id),
        valid_at=asked,
        k_time=50,
    )
    params.pop("time_windows")

    def candidates(time: list[dict[str, datetime]]) -> list[str]:
        rows = rg.db.read_collected("search/candidates", "rows", **params, time_windows=time)
        return [r["id"] for r in rows]

    said_then = turn_entry_id(scope_id, "chat", "said-then")
    assert said_then not in candidates([])  # not among the ten nearest, nor the keyword hits
    assert said_then in candidates(windows)  # said in the window the question names
    hits = {
        h.entry.source_id: h
        for h in rg.search(q, scope_id=scope_id, valid_at=asked, limit=40, touch=False)
    }
    assert hits["said-then"].signals.context == 1.0


def test_a_named_time_lifts_what_was_said_then_by_its_relevance(
    rg: Recollect, scope_id: str
) -> None:
    """The turns said "a month ago" rise by their own relevance: a chat of the same day about
    something else stays below an older turn on the question's subject."""
    asked = datetime(2023, 4, 18, 18, 0, tzinfo=UTC)
    then, before = asked - timedelta(days=30), asked - timedelta(days=62)
    said = [
        ("walk", then, 'I just did the "Walk for Hunger" charity event today with my colleagues.'),
        ("festival", then, "I just got back from a music festival in Grant Park, what a show!"),
        ("books", before, 'I volunteered at the "Books for Kids" charity book drive today.'),
    ]
    for sid, at, text in said:
        turn = {"id": sid, "role": "user", "speaker": "user", "text": text, "at": at}
        rg.sessions.add_turns(sid, [turn], scope_id=scope_id, owner_id="kai")
    q = "What charity event did I participate in a month ago?"
    hits = rg.search(q, scope_id=scope_id, valid_at=asked, touch=False)
    order = [h.entry.source_id for h in hits]
    assert order[0] == "walk"
    assert order.index("books") < (order.index("festival") if "festival" in order else 99)
    by = {h.entry.source_id: h for h in hits}
    assert by["walk"].signals.context == 1.0  # the subject, said then: the whole lift
    if "festival" in by:  # said then, about something else: a part of the lift
        assert by["festival"].signals.context < by["walk"].signals.context


@pytest.mark.parametrize("supported", ["s-a", "s-b"])
def test_a_turn_whose_conversation_keeps_to_the_subject_goes_first(
    rg: Recollect, scope_id: str, supported: str
) -> None:
    """Two turns alike word for word: the one whose session comes back to the question's
    subject ranks first (the session signal), whichever session sorts first."""
    # the longest text of each batch, so both copies get the same vector (same padding)
    same = (
        "I use my Fitbit every single day to track my sleep, my resting heart rate, my steps "
        "and how many flights of stairs I climb."
    )
    elsewhere = "Any good pasta recipe for a weeknight?"
    more = "My other health device is a blood pressure monitor."
    between = "When does the farmers market open?"
    for sid in ("s-a", "s-b"):  # the supporting turn is no neighbour ("next to": graph)
        texts = [same, between, more if sid == supported else elsewhere]
        turns = [
            {"id": f"{sid}-{i}", "role": "user", "speaker": "user", "text": t}
            for i, t in enumerate(texts)
        ]
        rg.sessions.add_turns(sid, turns, scope_id=scope_id, owner_id="kai")
    hits = rg.search("Which health devices do I use?", scope_id=scope_id, touch=False)
    order = [h.entry.source_id for h in hits]
    first, other = f"{supported}-0", ("s-b-0" if supported == "s-a" else "s-a-0")
    by = {h.entry.source_id: h for h in hits}
    assert by[first].signals.semantic == pytest.approx(by[other].signals.semantic, abs=0.01)
    assert by[first].signals.graph == pytest.approx(by[other].signals.graph, abs=0.005)
    assert by[first].signals.session > by[other].signals.session
    assert order.index(first) < order.index(other)


def test_a_named_time_lifts_no_turn_of_the_role_not_asked_about(
    rg: Recollect, scope_id: str
) -> None:
    """ "What did I buy 10 days ago?" asks about the user's words: the assistant's reply of
    that day, however many of the question's words it has, gets no lift from the time."""
    asked = datetime(2023, 3, 25, 18, 0, tzinfo=UTC)
    then = asked - timedelta(days=10)
    turns = [
        {
            "id": "u",
            "role": "user",
            "speaker": "user",
            "text": "I'm looking for new BBQ sauce recipes, I've been making my own from "
            "scratch. By the way, I just got a smoker today and I can't wait to use it this "
            "weekend for ribs and brisket with my family.",
            "at": then,
        },
        {
            "id": "a",
            "role": "assistant",
            "speaker": "assistant",
            "text": "Ways to cut waste at home: reuse glass jars, compost food scraps, carry "
            "a tote bag, and unplug every kitchen appliance you are not using.",
            "at": then + timedelta(minutes=1),
        },
    ]
    rg.sessions.add_turns("bbq", turns, scope_id=scope_id, owner_id="kai")
    q = "What kitchen appliance did I buy 10 days ago?"
    hits = rg.search(q, scope_id=scope_id, valid_at=asked, touch=False)
    by = {h.entry.source_id: h for h in hits}
    assert by["u"].signals.context == 1.0
    assert "a" not in by or (by["a"].signals.role == 1 and by["a"].signals.context == 0)
    assert hits[0].entry.source_id == "u"
