"""A question that ranks every instance of something on one scale gathers them all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from recollect_graph import Recollect
from recollect_graph.settings import Settings

#: Three streaming services the user took up, each said in its own chat and words, among
#: chats that share the question's words or subject but name no service the user uses.
CHATS = [
    (
        "netflix",
        "I've been using Netflix and Hulu for the past six months, any shows like Dark?",
        0,
    ),
    (
        "appletv",
        "I just finished For All Mankind on Apple TV+, which I signed up for in spring.",
        30,
    ),
    ("buffering", "My internet keeps buffering when I stream music in the evening, any fixes?", 10),
    ("sports", "What are the best streaming services for live sports?", 20),
    ("bank", "The customer service at my bank has been terrible lately.", 40),
    ("budget", "I started using a new budgeting app to track my subscriptions.", 50),
]
QUESTION = "Which streaming service did I start using most recently?"


def test_a_question_ranking_every_instance_is_searched_as_a_gathering_one(
    rg: Recollect, scope_id: str, server_settings: Settings
) -> None:
    """ "Which streaming service did I start using most recently?" can only be answered from
    every service the user took up, so it is searched like "how many": the breakdown shows the
    feedback signal (the cosine to the centroid of the nearest turns), and a service the user
    took up ranks above the budgeting app that shares the question's "started using". With
    ``search_gather_comparisons`` off the question is searched as one fact."""
    start = datetime(2024, 1, 8, 18, 0, tzinfo=UTC)
    for key, text, day in CHATS:
        rg.sessions.add_turns(
            f"chat-{key}",
            [{"id": key, "role": "user", "text": text, "at": start + timedelta(days=day)}],
            scope_id=scope_id,
            owner_id="kai",
        )
    asked = start + timedelta(days=70)
    hits = rg.search(QUESTION, scope_id=scope_id, valid_at=asked, touch=False)
    order = [h.entry.source_id for h in hits]
    assert {"netflix", "appletv", "budget"} <= set(order)
    assert all(h.signals.feedback > 0 for h in hits)
    # the service taken up last goes first (by ~0.07 of score; without gathering the budgeting
    # app ranks above it, by ~0.01)
    assert order.index("appletv") < order.index("budget")

    with Recollect.open(
        server_settings.model_copy(update={"search_gather_comparisons": False})
    ) as one:
        plain = one.search(QUESTION, scope_id=scope_id, valid_at=asked, touch=False)
    assert plain
    assert all(h.signals.feedback == 0.0 for h in plain)
    # a question about one fact does not gather, with the setting on
    fact = rg.search(
        "Which streaming service has live sports?", scope_id=scope_id, valid_at=asked, touch=False
    )
    assert fact
    assert all(h.signals.feedback == 0.0 for h in fact)
