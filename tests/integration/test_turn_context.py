"""A conversation turn's context vector: a short reply is found by the question it answers."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from neo4j import RoutingControl

from recollect_graph import Recollect
from recollect_graph.ids import turn_entry_id
from recollect_graph.services.search.hybrid import Search
from recollect_graph.services.sessions.service import Sessions

QUESTION = "What games did you play at the church picnic last weekend?"
REPLY = "Charades and a scavenger hunt, we laughed so much!"
TURNS = [
    {"id": "t1", "speaker": "John", "text": "Hey Maria, how was your weekend?"},
    {"id": "t2", "speaker": "Maria", "text": "Great! I had a picnic with friends from church."},
    {"id": "t3", "speaker": "John", "text": QUESTION},
    {"id": "t4", "speaker": "Maria", "text": REPLY},
    {"id": "t5", "speaker": "John", "text": "Ha, sounds like a blast. I went hiking with my kids."},
    {
        "id": "t6",
        "speaker": "Maria",
        "text": "I love hiking too, the trails by the lake are lovely.",
    },
]
ASKED = "Which games were played at the church picnic?"
#: Another conversation: nearer the question in words than the reply is on its own
OTHER = [
    {"id": "o1", "speaker": "John", "text": "We played board games all night at Tom's party."},
    {"id": "o2", "speaker": "Maria", "text": "The church choir sang at the town fair on Sunday."},
    {"id": "o3", "speaker": "John", "text": "Card games are my favourite way to relax."},
    {"id": "o4", "speaker": "Maria", "text": "We had a barbecue in the park with the neighbours."},
]


def _stored(
    rg: Recollect, scope_id: str, session_id: str | None = None
) -> dict[str, dict[str, Any]]:
    """Each turn's vectors and ``context_of`` (of one session, or all), by its turn id."""
    rows = rg.db.driver.execute_query(
        "MATCH (e:Turn) WHERE e.scope_id = $s AND ($session IS NULL OR e.session_id = $session) "
        "RETURN e.source_id AS tid, e.embedding AS v, e.context_embedding AS c, "
        "e.context_of AS of",
        {"s": scope_id, "session": session_id},
        routing_=RoutingControl.READ,
    ).records
    return {r["tid"]: {"v": r["v"], "c": r["c"], "of": r["of"]} for r in rows}


def _cos(a: Any, b: Any) -> float:
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y)))


def _semantic(rg: Recollect, scope_id: str, weight: float, tid: str = "t4") -> float:
    settings = rg.settings.model_copy(update={"search_turn_context": weight})
    hits = Search(rg.db, rg.embedder, settings).search(
        ASKED, scope_id=scope_id, limit=10, touch=False
    )
    found = {h.entry.source_id: h for h in hits}
    assert tid in found, [h.entry.source_id for h in hits]
    return found[tid].signals.semantic


def test_each_turn_gets_a_context_vector_of_it_and_the_turn_before(
    rg: Recollect, scope_id: str
) -> None:
    """Turn 2 onwards: the vector of "<turn>\\n<turn before>", and the id of that turn before; a
    turn added in a later call takes the session's last stored turn as the one before it."""
    rg.sessions.add_turns("chat", TURNS[:3], scope_id=scope_id, owner_id="kai")
    rg.sessions.add_turns("chat", TURNS[2:], scope_id=scope_id, owner_id="kai")  # t3 again
    stored = _stored(rg, scope_id)
    assert stored["t1"]["c"] is None and stored["t1"]["of"] is None
    for before, turn in pairwise(TURNS):
        got = stored[turn["id"]]
        assert got["of"] == turn_entry_id(scope_id, "chat", before["id"])
        text = f"{turn['speaker']}: {turn['text']}\n{before['speaker']}: {before['text']}"
        want = rg.embedder.embed([text])[0]
        # int8 ONNX quantises per batch: close, not bit-equal; and not the turn's own vector
        assert _cos(got["c"], want) > 0.99 and _cos(got["c"], want) > _cos(got["v"], want)


def test_a_long_turn_a_chat_with_an_assistant_and_a_store_without_them_have_none(
    rg: Recollect, scope_id: str
) -> None:
    long_text = "We compared three schedulers for the nightly batch jobs. " * 8
    turns = [TURNS[0], {"id": "long", "speaker": "Maria", "text": long_text}]
    rg.sessions.add_turns("chat", turns, scope_id=scope_id, owner_id="kai")
    with_bot = [
        {"id": "a1", "role": "user", "speaker": "kai", "text": "Which lens should I buy?"},
        {"id": "a2", "role": "assistant", "speaker": "bot", "text": "Take the 35mm prime."},
        {"id": "a3", "role": "user", "speaker": "kai", "text": "Thanks, ordered it!"},
    ]
    rg.sessions.add_turns("bot", with_bot, scope_id=scope_id, owner_id="kai")
    plain = Sessions(rg.db, rg.embedder, context_vectors=False)
    plain.add_turns("other", TURNS[:2], scope_id=scope_id, owner_id="kai")
    assert all(t["c"] is None and t["of"] is None for t in _stored(rg, scope_id).values())


def test_a_reply_is_found_by_the_question_it_answers(rg: Recollect, scope_id: str) -> None:
    """The reply says nothing about a picnic; with its context vector it is as near the
    question as ``(cos(q, turn) + a x cos(q, context)) / (1 + a)`` and ranks higher."""
    rg.sessions.add_turns("chat", TURNS, scope_id=scope_id, owner_id="kai")
    rg.sessions.add_turns("other", OTHER, scope_id=scope_id, owner_id="kai")
    stored = _stored(rg, scope_id)
    q = rg.embedder.embed([ASKED])[0]
    own, ctx = _cos(q, stored["t4"]["v"]), _cos(q, stored["t4"]["c"])
    assert ctx > own + 0.1
    # the turn's own cosine is the vector index's score, quantised on Neo4j 5.26 (off the exact
    # cosine by up to ~0.015 there); the context's is computed exactly
    plain = _semantic(rg, scope_id, 0.0)
    assert plain == pytest.approx(own, abs=0.02)
    assert _semantic(rg, scope_id, 0.5) == pytest.approx((plain + 0.5 * ctx) / 1.5, abs=1e-3)

    def rank(weight: float) -> int:
        settings = rg.settings.model_copy(update={"search_turn_context": weight})
        hits = Search(rg.db, rg.embedder, settings).search(
            ASKED, scope_id=scope_id, limit=10, hops=0, touch=False
        )
        return [h.entry.source_id for h in hits].index("t4")

    assert rank(rg.settings.search_turn_context) < rank(0.0)


def test_forgetting_the_turn_before_drops_the_context_and_undo_brings_it_back(
    rg: Recollect, scope_id: str
) -> None:
    """After the question is forgotten the reply's context vector no longer counts (it would
    still carry what was forgotten); undoing the forget makes it count again."""
    rg.sessions.add_turns("chat", TURNS, scope_id=scope_id, owner_id="kai")
    stored = _stored(rg, scope_id)
    q = rg.embedder.embed([ASKED])[0]
    ctx = _cos(q, stored["t4"]["c"])
    plain = _semantic(rg, scope_id, 0.0)  # the turn's own vector only
    mixed = (plain + 0.5 * ctx) / 1.5
    assert mixed > plain + 0.05
    assert _semantic(rg, scope_id, 0.5) == pytest.approx(mixed, abs=1e-3)

    rg.forget(turn_entry_id(scope_id, "chat", "t3"), scope_id=scope_id)
    assert _semantic(rg, scope_id, 0.5) == pytest.approx(plain, abs=1e-3)
    op = rg.operations(scope_id)[0]
    assert op.kind == "forget"
    rg.undo(op.id, scope_id=scope_id)
    assert _semantic(rg, scope_id, 0.5) == pytest.approx(mixed, abs=1e-3)


def test_reembed_remakes_the_context_vectors_with_the_turns_own(
    rg: Recollect, scope_id: str
) -> None:
    """After a model change the context vectors are of the new model too, made as add_turns
    makes them (a stale one of the old model would be compared with the new query vectors)."""
    rg.sessions.add_turns("chat", TURNS, scope_id=scope_id, owner_id="kai")
    before = _stored(rg, scope_id)
    rg.query(
        "MATCH (e:Turn) WHERE e.scope_id = $s SET e.embedding_model = 'old-model', "
        "e.embedding = [i IN range(1, 384) | 0.05], e.context_embedding = [i IN range(1, 384) | 0.05]",
        {"s": scope_id},
        write=True,
    )
    report = rg.reembed(scope_id)
    assert report.entries == len(TURNS)
    after = _stored(rg, scope_id)
    assert after["t1"]["c"] is None
    for tid in ("t2", "t3", "t4", "t5", "t6"):
        assert after[tid]["of"] == before[tid]["of"]
        assert _cos(after[tid]["c"], before[tid]["c"]) > 0.99


def test_what_a_user_reads_of_a_turn_carries_no_vectors(rg: Recollect, scope_id: str) -> None:
    """``show`` (and the CLI's node view) lists a turn's properties without its 384-float
    vectors, as it does without its own embedding."""
    rg.sessions.add_turns("chat", TURNS, scope_id=scope_id, owner_id="kai")
    node = rg.show(turn_entry_id(scope_id, "chat", "t4"), scope_id=scope_id)["nodes"][0]
    assert node["props"]["context_of"] == turn_entry_id(scope_id, "chat", "t3")
    assert "context_embedding" not in node["props"] and "embedding" not in node["props"]


def test_turns_stored_without_context_vectors_get_them_from_reembed(
    rg: Recollect, scope_id: str
) -> None:
    """A store made before context vectors existed (or with them off): ``reembed
    --turn-contexts`` gives each turn the one ``add_turns`` would make now, and a second run
    has nothing left to do."""
    Sessions(rg.db, rg.embedder, context_vectors=False).add_turns(
        "chat", TURNS, scope_id=scope_id, owner_id="kai"
    )
    rg.sessions.add_turns("fresh", TURNS, scope_id=scope_id, owner_id="kai")
    assert rg.reembed(scope_id).turn_contexts == 0  # not asked for
    report = rg.reembed(scope_id, batch_size=2, turn_contexts=True)
    assert report.entries == 0 and report.turn_contexts == len(TURNS) - 1
    assert rg.reembed(scope_id, turn_contexts=True).turn_contexts == 0
    olds, news = _stored(rg, scope_id, "chat"), _stored(rg, scope_id, "fresh")
    for before, t in pairwise(TURNS):
        old, new = olds[t["id"]], news[t["id"]]
        assert old["of"] == turn_entry_id(scope_id, "chat", before["id"])
        assert _cos(old["c"], new["c"]) > 0.99
