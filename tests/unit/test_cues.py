"""Recall cues: identifiers and namespaces, anchoring, markers, coinage, time windows, tracks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from recollect_graph.ids import turn_entry_id
from recollect_graph.nlp import cues
from recollect_graph.services.sessions.index import (
    CONTEXT_BEFORE_CHARS,
    CONTEXT_TURN_CHARS,
    derive_index,
    resolve_chain,
    turn_context_text,
    turn_contexts,
)
from recollect_graph.services.sessions.recall import classify, confidence, fuse, read_trace

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def ids(text: str) -> list[tuple[str, str]]:
    return [(i.namespace, i.value) for i in cues.identifiers(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see PR #212", [("github_pr", "212")]),
        ("issue #87 again", [("github_issue", "87")]),
        ("that was #87", [("github_issue", "87")]),
        ("https://github.com/acme/shop/pull/44", [("github_pr", "44")]),
        ("https://github.com/acme/shop/issues/9", [("github_issue", "9")]),
        ("docs at https://vitejs.dev/guide/.", [("url", "https://vitejs.dev/guide/")]),
        ("edited src/checkout/cart.py", [("fs_path", "src/checkout/cart.py")]),
        ("bumped pyproject.toml", [("fs_path", "pyproject.toml")]),
        ("reverted 9f3e2a1b4c", [("git_commit", "9f3e2a1b4c")]),
        (
            "from session 3f2a9b1c-1d2e-4f5a-8b9c-0d1e2f3a4b5c",
            [("session", "3f2a9b1c-1d2e-4f5a-8b9c-0d1e2f3a4b5c")],
        ),
        ("no literal here, in 2026 at deadbeef cafe", []),
    ],
)
def test_identifiers_and_namespaces(text: str, expected: list[tuple[str, str]]) -> None:
    assert ids(text) == expected


def test_claim_kind_gates_anchoring() -> None:
    text = "the issue #90 we talked about"
    lit = cues.identifiers(text)[0]
    assert cues.claim_kind(text, lit) == "issue"
    assert cues.compatible_anchor("github_issue", "issue")
    assert not cues.compatible_anchor("github_pr", "issue")
    pr = cues.identifiers("the PR #90 one")[0]
    assert cues.claim_kind("the PR #90 one", pr) == "pull_request"


def test_markers_are_canonical_so_paraphrases_meet() -> None:
    a = {(m.kind, m.value) for m in cues.markers("ugh this is driving me nuts")}
    b = {(m.kind, m.value) for m in cues.markers("the one where I was fed up")}
    assert ("emotional", "frustrated") in a & b
    c = {(m.kind, m.value) for m in cues.markers("Oh I see, turns out the cache key was wrong")}
    assert ("cognitive", "realization") in c
    d = {(m.kind, m.value) for m in cues.markers("Priya from platform said the outage was DNS")}
    assert {("actor", "priya"), ("singularity", "outage")} <= d


def test_terms_skip_stop_words_ids_and_hex() -> None:
    t = cues.terms(
        "The flakeguard script, flakeguard again; see 3f2a9b1c-1d2e-4f5a-8b9c-0d1e2f3a4b5c "
        "and https://x.io/a 9f3e2a1b"
    )
    assert t["flakeguard"] == 2
    assert not any("3f2a" in k or "https" in k or "9f3e" in k for k in t)


def test_coinage_rule() -> None:
    assert cues.coinage_precision(4, 1) == 2.0
    assert cues.coinage_precision(2, 3) == 0.5
    assert cues.coinage_precision(2, 4) < cues.COINAGE_THRESHOLD


def test_time_windows_resolve_against_now() -> None:
    w = {x.expression: x for x in cues.time_windows("back in March, last week", NOW)}
    assert w["march"].start == datetime(2026, 3, 1, tzinfo=UTC)
    assert w["march"].end == datetime(2026, 4, 1, tzinfo=UTC)
    assert w["last week"].start < NOW
    dec = cues.time_windows("in December", NOW)[0]
    assert dec.start.year == 2025  # the latest December not after now
    assert cues.proximity(datetime(2026, 3, 10, tzinfo=UTC), [w["march"]]) == 1.0
    assert 0 < cues.proximity(datetime(2026, 4, 20, tzinfo=UTC), [w["march"]]) < 0.5
    assert cues.proximity(NOW, []) == 0.0


def test_classification_dispatches_tracks() -> None:
    assert classify(read_trace("the session that touched PR #212", NOW)) == (
        "StructuredIdentifier",
        "entropy",
    )
    assert classify(read_trace("when the checkout total was off by a few cents", NOW)) == (
        "NaturalRecall",
        "salience",
    )
    assert classify(read_trace("the flaky websocket test fix around PR #212", NOW)) == (
        "Mixed",
        "hybrid",
    )


def test_fusion_and_confidence() -> None:
    ranked = fuse({"a": (1.0, ["cites"])}, {"a": (0.3, {}, []), "b": (0.6, {}, [])})
    assert ranked[0][0] == "a" and ranked[0][2]["entropy"] == 1.0
    assert confidence(0.7, 0.2, False) == "high"
    assert confidence(0.7, 0.02, False) == "medium"
    assert confidence(0.2, 0.2, False) == "low"


def test_fork_chain_resolution() -> None:
    chain = [
        {"id": "f2", "fork_marker": True, "parent_pointer": "f1", "cwd": None},
        {"id": "f1", "fork_marker": True, "parent_pointer": "top", "cwd": None},
        {"id": "top", "fork_marker": False, "parent_pointer": None, "cwd": "/src/app"},
    ]
    r = resolve_chain(chain)
    assert (r.parent_pointer, r.parent_cwd) == ("top", "/src/app")
    assert r.resume == "cd /src/app && claude --resume top"
    orphan = resolve_chain([{"id": "o", "fork_marker": True, "parent_pointer": "gone"}])
    assert orphan.resume is None and orphan.missing_parent == "gone"
    nocwd = resolve_chain([chain[1], {**chain[2], "cwd": None}])
    assert nocwd.parent_pointer == "top" and nocwd.resume is None


def test_derive_index_from_turns() -> None:
    turns = [
        {"id": "1", "role": "user", "text": "The ghost-cart bug is back, ugh. See issue #87."},
        {"id": "2", "role": "assistant", "text": "The ghost-cart entries come from src/cart.py."},
        {"id": "3", "role": "user", "text": "Let's go with a TTL instead of a cron job."},
        {"id": "4", "role": "assistant", "text": "Done. The ghost-cart rows now expire."},
    ]
    d = derive_index({"id": "s"}, turns)
    assert d["summary"].startswith("Asked: The ghost-cart bug is back")
    assert any("instead of a cron job" in x for x in d["decisions"])
    assert d["identifiers"][("github_issue", "87")] == 1
    assert d["identifiers"][("fs_path", "src/cart.py")] == 1
    assert d["markers"][("term", "ghost-cart")] == 3
    assert d["markers"][("emotional", "frustrated")] == 1
    assert "ghost-cart" in d["keywords"]


def test_counted_days_and_last_weekday() -> None:
    now = datetime(2023, 6, 15, 10, 0, tzinfo=UTC)  # a Thursday
    w = {x.expression: x for x in cues.time_windows("10 days ago, or 3 weeks ago", now)}
    ten = w["10 days ago"]
    assert ten.start <= datetime(2023, 6, 5, 12, tzinfo=UTC) < ten.end
    assert w["3 weeks ago"].start <= datetime(2023, 5, 25, tzinfo=UTC) < w["3 weeks ago"].end
    sat = cues.time_windows("the gift I got last Saturday", now)[0]
    assert (sat.start, sat.end) == (
        datetime(2023, 6, 10, tzinfo=UTC),
        datetime(2023, 6, 11, tzinfo=UTC),
    )
    thu = cues.time_windows("last thursday", now)[0]
    assert thu.start == datetime(2023, 6, 8, tzinfo=UTC)  # a week back, never today
    assert cues.time_windows("I have 10 days of leave", now) == []


def test_spans_up_to_today() -> None:
    now = datetime(2023, 6, 15, 10, 0, tzinfo=UTC)  # a Thursday
    today_end = datetime(2023, 6, 16, tzinfo=UTC)

    def span(text: str) -> tuple[datetime, datetime]:
        (w,) = cues.time_windows(text, now)
        return w.start, w.end

    # counted back from today, with a tenth more: the evidence of "the past month" may be
    # 31 days old
    start, end = span("how many dinner parties did I attend in the past month?")
    assert end == today_end and start <= datetime(2023, 5, 15, tzinfo=UTC)
    assert start >= datetime(2023, 5, 10, tzinfo=UTC)  # not two months
    assert span("over the last two weeks")[0] == datetime(2023, 5, 31, tzinfo=UTC)
    assert span("in the past few months")[0] < datetime(2023, 3, 17, tzinfo=UTC)
    assert span("during the past 10 days")[0] == datetime(2023, 6, 4, tzinfo=UTC)
    assert span("this past week")[0] == datetime(2023, 6, 7, tzinfo=UTC)
    # the calendar's week, month and year so far
    assert span("earlier this week") == (datetime(2023, 6, 12, tzinfo=UTC), today_end)
    assert span("this month") == (datetime(2023, 6, 1, tzinfo=UTC), today_end)
    assert span("weddings I attended this year") == (datetime(2023, 1, 1, tzinfo=UTC), today_end)
    # no span: a weekend ahead, "the last time", a bare unit
    assert cues.time_windows("what should I cook this weekend?", now) == []
    assert cues.time_windows("the last time I went there", now) == []
    assert cues.time_windows("a month of training", now) == []
    # a part of something, not a span up to today
    assert cues.time_windows("what did I do on the last day of the trip?", now) == []
    assert cues.time_windows("the last week of the semester", now) == []
    assert cues.time_windows("in the last two weeks of training", now) == []
    assert [w.expression for w in cues.time_windows("what did I do last weekend?", now)] == [
        "last week"
    ]


def test_a_short_turn_is_embedded_with_the_end_of_the_turn_before() -> None:
    before = "John: " + "x" * 400 + " What games did you play?"
    text = turn_context_text("Maria: Charades!", before)
    assert text is not None and text.startswith("Maria: Charades!\n")
    assert text.endswith("What games did you play?")
    assert len(text) == len("Maria: Charades!\n") + CONTEXT_BEFORE_CHARS


def test_a_first_turn_and_a_long_turn_have_no_context_text() -> None:
    assert turn_context_text("Maria: Charades!", None) is None
    assert turn_context_text("Maria: Charades!", "") is None
    long_turn = "Maria: " + "y" * CONTEXT_TURN_CHARS
    assert turn_context_text(long_turn, "John: What games did you play?") is None


def test_a_turn_of_or_after_an_assistant_has_no_context_text() -> None:
    """In a chat with an assistant every turn follows a request or an answer."""
    asked = "kai: Which lens should I buy?"
    assert turn_context_text("Take the 35mm.", asked, role="assistant", before_role="user") is None
    assert turn_context_text("kai: Thanks!", "Take the 35mm.", before_role="assistant") is None
    assert turn_context_text("Maria: Charades!", asked, role="user", before_role="user")


def test_appended_turns_take_the_stored_last_turn_and_then_each_other_as_context() -> None:
    last = {"last_id": "e0", "last_content": "How was the picnic?", "last_speaker": "John"}
    last["last_role"] = "user"
    turns = [
        {"tid": "t1", "speaker": "Maria", "role": "user", "text": "Charades and a hunt!"},
        {"tid": "t2", "speaker": "bot", "role": "assistant", "text": "Sounds fun."},
        {"tid": "t3", "speaker": "Maria", "role": "user", "text": "It was."},
        {"tid": "t4", "speaker": "John", "role": "user", "text": "Nice!"},
    ]
    got = turn_contexts(turns, last, "s", "chat")
    assert got["t1"] == ("Maria: Charades and a hunt!\nJohn: How was the picnic?", "e0")
    assert "t2" not in got and "t3" not in got  # an assistant's turn, and the one after it
    assert got["t4"] == ("John: Nice!\nMaria: It was.", turn_entry_id("s", "chat", "t3"))
    empty = {"last_id": None, "last_content": None, "last_speaker": None, "last_role": None}
    assert "t1" not in turn_contexts(turns, empty, "s", "chat")  # a session's first turn
